/*
 * version.c -- the version the engine reports (--version, `id name`), from
 * the build: the Makefile passes MORELLI_VERSION (git describe of the
 * checkout, else its MORELLI_RELEASE) and rebuilds this file alone when it
 * changes.
 */
#include "ugi.h"

#ifndef MORELLI_VERSION
#define MORELLI_VERSION "unknown"
#endif

const char *morelli_version(void)
{
    return MORELLI_VERSION;
}
