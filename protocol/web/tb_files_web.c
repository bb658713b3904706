/*
 * tb_files_web.c -- the Morris table files in the WebAssembly build (make
 * web; docs/web.md): engine/morris/morris_tb_files.c compiled as the native
 * engine compiles it, on wasi-libc's emulated mmap (a mapping is the file
 * read into memory) and process id, so that the module reads, checks and
 * probes the files as the native engine does.  The page serves them from
 * its own in-memory folder (wasi.js).  That file keeps its WASI stubs for
 * other builds; here its native path is taken by compiling it with
 * __wasi__ undefined, after every system header it includes.
 *
 * Built only for the module (WEB_SRC replaces the engine's file with this
 * one); the native build compiles it to nothing.
 */
#ifdef __wasi__
#define _WASI_EMULATED_MMAN
#define _WASI_EMULATED_GETPID
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#pragma clang diagnostic ignored "-Wbuiltin-macro-redefined"
#undef __wasi__
#include "morris/morris_tb_files.c"
#define __wasi__ 1
#else
typedef int tb_files_web_native_build_has_none;
#endif
