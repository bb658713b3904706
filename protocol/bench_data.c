/*
 * bench_data.c -- bench/positions.txt inside the binary, so `morelli bench`
 * works from any directory.  The assembler's .incbin copies the file's
 * bytes at build time (the path is relative to the repository's top, where
 * make runs); a NUL follows them.  The Makefile makes this object depend on
 * the text file.
 */
#include "ugi.h"

__asm__(".pushsection .rodata\n"
        ".balign 16\n"
        ".globl morelli_bench_positions\n"
        ".hidden morelli_bench_positions\n"
        "morelli_bench_positions:\n"
        ".incbin \"bench/positions.txt\"\n"
        ".byte 0\n"
        ".popsection\n");

extern const char morelli_bench_positions[];

const char *bench_positions_text(void)
{
    return morelli_bench_positions;
}
