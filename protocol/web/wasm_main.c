/*
 * wasm_main.c -- the engine as a WebAssembly module for the web page
 * (make web; docs/web.md).
 *
 * A WASI "reactor": no main(); the page's worker (engine-worker.js, through
 * wasi.js) calls
 *   web_start()                 once: the engine, or -1 when memory runs out
 *   web_alloc(n) / web_free(p)  a buffer in the module's memory for a line
 *   web_command(p, n)           one UGI command line; UGI_OK/ERROR/QUIT
 * and gets every reply line, as the engine writes it, through the imported
 * morelli.line(text, length).  Built with -DUGI_NO_THREADS: `go` with a limit
 * runs to its limit inside web_command (its info lines still arrive as they
 * are printed), and a `go` that would never end by itself is refused.
 */
#include <stdlib.h>
#include <string.h>

#include "ugi.h"

__attribute__((import_module("morelli"), import_name("line"))) void web_line(const char *text,
                                                                             size_t len);

int web_start(void);
void *web_alloc(size_t n);
void web_free(void *p);
int web_command(const char *line, size_t len);

static Session *engine;

static void write_line(void *ctx, const char *line)
{
    (void)ctx;
    web_line(line, strlen(line));
}

__attribute__((export_name("web_start"))) int web_start(void)
{
    SessionCaps caps = {0};
    caps.allow_bench = 1;
    caps.max_threads = 1;   /* no threads in the module */
    caps.max_hash_mb = 512; /* of the 4 GB a wasm32 module can address */
    if (!engine)
        engine = session_open(write_line, NULL, 0, &caps);
    return engine ? 0 : -1;
}

__attribute__((export_name("web_alloc"))) void *web_alloc(size_t n)
{
    return malloc(n);
}

__attribute__((export_name("web_free"))) void web_free(void *p)
{
    free(p);
}

__attribute__((export_name("web_command"))) int web_command(const char *line, size_t len)
{
    if (!engine && web_start() != 0)
        return UGI_ERROR;
    return session_input(engine, line, len);
}
