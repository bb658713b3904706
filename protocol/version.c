/*
 * version.c -- the version the engine reports (--version, `id name`), from
 * the build: the Makefile passes MORELLI_VERSION (git describe of the
 * checkout, else its MORELLI_RELEASE) and rebuilds this file alone when it
 * changes.  MORELLI_ARCH is the release build's instruction set (the
 * Makefile's ARCH=); the test builds have none.
 */
#include "ugi.h"

/* clang's __VERSION__ names itself ("Debian Clang 14.0.6"), gcc's does not. */
#if defined(__GNUC__) && !defined(__clang__)
#define COMPILER_NAME "gcc "
#else
#define COMPILER_NAME ""
#endif

#ifndef MORELLI_VERSION
#define MORELLI_VERSION "unknown"
#endif

#ifndef MORELLI_ARCH
#define MORELLI_ARCH "the compiler's default"
#endif

const char *morelli_version(void)
{
    return MORELLI_VERSION;
}

const char *morelli_build(void)
{
#ifdef __VERSION__
    return "built for " MORELLI_ARCH " by " COMPILER_NAME __VERSION__;
#else
    return "built for " MORELLI_ARCH;
#endif
}
