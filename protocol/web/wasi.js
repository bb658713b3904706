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
 *
 * One folder, /tables, is preopened for the engine: read-only, in memory,
 * holding the files given with eng.addFile(name, bytes) (the Morris
 * endgame tables; TablePath /tables finds them).  The engine opens, stats
 * and reads them with the WASI calls below; nothing else is on its disk.
 */
"use strict";

class MorelliWasm {
  static async create(bytes, onLine) {
    const eng = new MorelliWasm(onLine);
    const wasi = eng.imports();
    /* Calls the engine links but never makes here (writing files): none. */
    const mod = await WebAssembly.compile(bytes);
    for (const imp of WebAssembly.Module.imports(mod))
      if (imp.module === "wasi_snapshot_preview1" && !wasi[imp.name]) wasi[imp.name] = () => 52;
    const instance = await WebAssembly.instantiate(mod, {
      wasi_snapshot_preview1: wasi,
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
    this.files = new Map(); /* name in /tables -> Uint8Array */
    this.open = new Map();  /* fd -> {data, at} (data null: the folder) */
    this.nextFd = MorelliWasm.DIR_FD + 1;
  }

  /* A file of /tables (replaced if there); the engine sees it at its next
   * look (setoption name TablePath value /tables). */
  addFile(name, bytes) { this.files.set(name, bytes); }

  view() { return new DataView(this.exports.memory.buffer); }

  /* The folder (fd DIR_FD) or a file opened in it, or undefined. */
  node(fd) { return fd === MorelliWasm.DIR_FD ? { data: null, at: 0 } : this.open.get(fd); }

  /* A path inside /tables: the folder ("" or ".") or a file's name. */
  lookup(ptr, len) {
    const p = this.string(ptr, len).replace(/^(\.\/)+/, "");
    if (p === "" || p === ".") return { data: null };
    return this.files.has(p) ? { data: this.files.get(p) } : null;
  }

  /* WASI's filestat (64 bytes) of a file (data) or the folder (null). */
  filestat(data, out) {
    const v = this.view();
    for (let i = 0; i < 64; i += 8) v.setBigUint64(out + i, 0n, true);
    v.setUint8(out + 16, data ? 4 : 3);
    v.setBigUint64(out + 24, 1n, true);
    v.setBigUint64(out + 32, BigInt(data ? data.length : 0), true);
    return 0;
  }

  /* Copies the file's bytes from at into the iovecs; the count read. */
  readInto(data, at, iovs, n) {
    const v = this.view(), mem = new Uint8Array(this.exports.memory.buffer);
    let total = 0;
    for (let i = 0; i < n && at < data.length; i++) {
      const ptr = v.getUint32(iovs + 8 * i, true), len = v.getUint32(iovs + 8 * i + 4, true);
      const part = data.subarray(at, Math.min(data.length, at + len));
      mem.set(part, ptr);
      at += part.length;
      total += part.length;
    }
    return total;
  }

  imports() {
    const ENOSYS = 52, ESPIPE = 70, EBADF = 8, ENOENT = 44, EISDIR = 31, EROFS = 69, EINVAL = 28;
    const DIR = MorelliWasm.DIR_FD, DIR_NAME = this.encoder.encode("/tables");
    const ALL = 0x1fffffffn; /* every right: the folder and its files */
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
        /* Standard output is a regular file: isatty() is false, so `d`
         * prints no colours.  The folder and its files: every right. */
        const v = this.view(), n = fd > 2 ? this.node(fd) : { data: true };
        if (!n) return EBADF;
        v.setUint8(out, n.data ? 4 : 3);
        v.setUint16(out + 2, 0, true);
        v.setBigUint64(out + 8, fd > 2 ? ALL : 0n, true);
        v.setBigUint64(out + 16, fd > 2 ? ALL : 0n, true);
        return 0;
      },
      fd_seek: (fd, offset, whence, out) => {
        const f = fd > DIR ? this.open.get(fd) : null;
        if (!f) return fd <= 2 ? ESPIPE : EBADF;
        const at = Number(offset) + [0, f.at, f.data.length][whence];
        if (!(whence >= 0 && whence <= 2) || at < 0) return EINVAL;
        f.at = at;
        this.view().setBigUint64(out, BigInt(at), true);
        return 0;
      },
      /* No environment: TablePath's default finds no folder. */
      environ_sizes_get: (count, size) => {
        const v = this.view();
        v.setUint32(count, 0, true);
        v.setUint32(size, 0, true);
        return 0;
      },
      environ_get: () => 0,
      fd_prestat_get: (fd, out) => {
        if (fd !== DIR) return EBADF;
        this.view().setUint32(out, 0, true);
        this.view().setUint32(out + 4, DIR_NAME.length, true);
        return 0;
      },
      fd_prestat_dir_name: (fd, ptr, len) => {
        if (fd !== DIR) return EBADF;
        new Uint8Array(this.exports.memory.buffer, ptr, Math.min(len, DIR_NAME.length)).set(DIR_NAME.subarray(0, len));
        return 0;
      },
      path_filestat_get: (fd, flags, ptr, len, out) => {
        if (fd !== DIR) return EBADF;
        const n = this.lookup(ptr, len);
        return n ? this.filestat(n.data, out) : ENOENT;
      },
      fd_filestat_get: (fd, out) => {
        const n = this.node(fd);
        return n ? this.filestat(n.data, out) : EBADF;
      },
      path_open: (fd, dirflags, ptr, len, oflags, rightsBase, rightsInh, fdflags, out) => {
        if (fd !== DIR) return EBADF;
        if (oflags & 9) return EROFS; /* create or truncate */
        const n = this.lookup(ptr, len);
        if (!n) return ENOENT;
        if (!n.data && !(oflags & 2)) return EISDIR;
        const nfd = this.nextFd++;
        this.open.set(nfd, { data: n.data || new Uint8Array(0), at: 0 });
        this.view().setUint32(out, nfd, true);
        return 0;
      },
      fd_read: (fd, iovs, n, nread) => {
        const f = fd > DIR ? this.open.get(fd) : null;
        if (!f) return EBADF;
        const got = this.readInto(f.data, f.at, iovs, n);
        f.at += got;
        this.view().setUint32(nread, got, true);
        return 0;
      },
      fd_pread: (fd, iovs, n, offset, nread) => {
        const f = fd > DIR ? this.open.get(fd) : null;
        if (!f) return EBADF;
        this.view().setUint32(nread, this.readInto(f.data, Number(offset), iovs, n), true);
        return 0;
      },
      fd_close: (fd) => (this.open.delete(fd) || fd <= DIR ? 0 : EBADF),
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

MorelliWasm.DIR_FD = 3; /* the preopened /tables */

if (typeof module !== "undefined") module.exports = { MorelliWasm };
