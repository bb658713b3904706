/*
 * wasi.js -- runs build/web/morelli.wasm (make web) with the handful of WASI
 * calls it makes, and speaks UGI to it one line at a time.
 *
 *   const eng = await MorelliWasm.create(bytes, line => ...);
 *   eng.command("position startpos moves a1b2");  // lines go to the callback
 *
 * The engine hands each reply line to the module's import morelli.line as
 * it writes it (standard output and error, should anything write there, are
 * cut into lines too), so a long `go` reports its info lines while it runs
 * (the web worker posts each one to the page at once).  Used by
 * engine-worker.js in the browser and by tests/web/ under node.
 */
"use strict";

class MorelliWasm {
  static async create(bytes, onLine) {
    const eng = new MorelliWasm(onLine);
    const { instance } = await WebAssembly.instantiate(bytes, {
      wasi_snapshot_preview1: eng.imports(),
      morelli: { line: (ptr, len) => eng.onLine(eng.string(ptr, len)) },
    });
    eng.exports = instance.exports;
    eng.exports._initialize();
    if (eng.exports.web_start() !== 0) throw new Error("the engine could not start (out of memory)");
    return eng;
  }

  constructor(onLine) {
    this.onLine = onLine;
    this.pending = "";
    this.decoder = new TextDecoder();
    this.encoder = new TextEncoder();
  }

  view() { return new DataView(this.exports.memory.buffer); }

  imports() {
    const ENOSYS = 52, ESPIPE = 70, EBADF = 8, ENOENT = 44;
    const now = (id) => (id === 0 ? Date.now() * 1e6 : performance.now() * 1e6);
    return {
      fd_write: (fd, iovs, n, nwritten) => {
        if (fd !== 1 && fd !== 2) return EBADF;
        const v = this.view();
        let total = 0;
        for (let i = 0; i < n; i++) {
          const ptr = v.getUint32(iovs + 8 * i, true), len = v.getUint32(iovs + 8 * i + 4, true);
          this.text(new Uint8Array(this.exports.memory.buffer, ptr, len));
          total += len;
        }
        v.setUint32(nwritten, total, true);
        return 0;
      },
      clock_time_get: (id, precision, out) => {
        this.view().setBigUint64(out, BigInt(Math.round(now(id))), true);
        return 0;
      },
      fd_fdstat_get: (fd, out) => {
        /* A regular file: isatty() is false, so `d` prints no colours. */
        const v = this.view();
        v.setUint8(out, 4);
        v.setUint16(out + 2, 0, true);
        v.setBigUint64(out + 8, 0n, true);
        v.setBigUint64(out + 16, 0n, true);
        return 0;
      },
      fd_seek: () => ESPIPE,
      /* No environment (TablePath's default finds no folder) and no
       * preopened folders: every file the engine would open is absent. */
      environ_sizes_get: (count, size) => {
        const v = this.view();
        v.setUint32(count, 0, true);
        v.setUint32(size, 0, true);
        return 0;
      },
      environ_get: () => 0,
      fd_prestat_get: () => EBADF,
      fd_prestat_dir_name: () => EBADF,
      path_filestat_get: () => ENOENT,
      fd_close: () => 0,
      poll_oneoff: () => ENOSYS,
      proc_exit: (code) => { throw new Error("the engine exited with status " + code); },
    };
  }

  string(ptr, len) {
    return this.decoder.decode(new Uint8Array(this.exports.memory.buffer, ptr, len).slice());
  }

  text(bytes) {
    this.pending += this.decoder.decode(bytes.slice());
    let nl;
    while ((nl = this.pending.indexOf("\n")) >= 0) {
      const line = this.pending.slice(0, nl);
      this.pending = this.pending.slice(nl + 1);
      this.onLine(line);
    }
  }

  /* One command line; returns 0 (done), 1 (error line printed) or 2 (quit). */
  command(line) {
    const bytes = this.encoder.encode(line);
    const ptr = this.exports.web_alloc(bytes.length + 1);
    if (!ptr) throw new Error("the engine is out of memory");
    new Uint8Array(this.exports.memory.buffer, ptr, bytes.length).set(bytes);
    try {
      return this.exports.web_command(ptr, bytes.length);
    } finally {
      this.exports.web_free(ptr);
    }
  }
}

if (typeof module !== "undefined") module.exports = { MorelliWasm };
