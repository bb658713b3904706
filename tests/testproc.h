/*
 * testproc.h -- what the protocol tests share: reading their script files
 * (one directive a line: a word, one blank, its argument) and the C
 * escapes those arguments may carry to write raw bytes.
 *
 * Linked into every test binary (the Makefile links every tests/ .c file
 * not named test_*.c).
 */
#ifndef MORELLI_TESTPROC_H
#define MORELLI_TESTPROC_H

#include <stddef.h>
#include <stdio.h>

/* The next directive of a script f into buf (size bytes), without its
 * "\n"; empty lines and lines starting with '#' are skipped.  *lineno is
 * incremented once for every line read, skipped ones included.  *arg is
 * set to what follows the first blank, or to the empty string at the end
 * of buf when the line has none.  Returns buf, or NULL at the end of f. */
char *tp_next_directive(FILE *f, char *buf, int size, int *lineno, char **arg);

/* The C escapes of s (\n \r \t \0 \xHH, and \<c> for c itself; a lone
 * trailing backslash stays) decoded into out, which needs strlen(s)
 * bytes at the most.  Returns the number of bytes written (no NUL is
 * added). */
size_t tp_unescape(const char *s, char *out);

#endif
