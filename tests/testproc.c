/*
 * testproc.c -- the protocol tests' script reading; see testproc.h.
 */
#include "testproc.h"

#include <stdlib.h>
#include <string.h>

char *tp_next_directive(FILE *f, char *buf, int size, int *lineno, char **arg)
{
    while (fgets(buf, size, f)) {
        (*lineno)++;
        buf[strcspn(buf, "\n")] = '\0';
        if (!buf[0] || buf[0] == '#')
            continue;
        char *sp = strchr(buf, ' ');
        *arg = sp ? sp + 1 : buf + strlen(buf);
        return buf;
    }
    return NULL;
}

size_t tp_unescape(const char *s, char *out)
{
    size_t n = 0;
    while (*s) {
        if (*s != '\\' || !s[1]) {
            out[n++] = *s++;
            continue;
        }
        s++;
        char c = *s++;
        switch (c) {
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case '0': out[n++] = '\0'; break;
        case 'x': {
            char hex[3] = {s[0], s[0] ? s[1] : 0, 0};
            out[n++] = (char)strtol(hex, NULL, 16);
            s += strlen(hex);
            break;
        }
        default: out[n++] = c; break;
        }
    }
    return n;
}
