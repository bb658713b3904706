/*
 * engine.js -- the page's side of the engine worker: send command lines,
 * get their reply lines back as a promise, in order.
 *
 *   const eng = new EngineClient({onFail, onReady});
 *   const r = await eng.send(["position startpos", "moves"], {bound, onLine});
 *   r.out[i]  the lines command i printed;  r.errors  the error texts
 *
 * onLine gets the request's lines as the engine prints them (a search's
 * info lines).  bound (ms, default 10000) is the watchdog: a request that
 * gets no reply within bound of reaching the head of the queue fails the
 * engine ("did not answer"); so does a worker that crashes.  A failure
 * rejects what is pending and calls onFail; restart() starts a new worker
 * (the page then sends its options and position again).
 *
 * tables(set) fetches the Morris endgame tables of an option set into the
 * worker's engine, once per worker; its promise gives {files, bytes, ms}
 * or {error}.  Lines the engine prints about its table files (`info string
 * morris tables: ...`, such as a file refused) go to onNotice.
 */
"use strict";

class EngineClient {
  constructor(hooks) {
    this.hooks = hooks;
    this.start();
  }

  start() {
    this.nextId = 1;
    this.pending = [];
    this.dead = false;
    this.timer = null;
    this.tableLoads = new Map(); /* set -> {promise, resolve} */
    this.ready = new Promise((resolve, reject) => {
      this.readyResolve = resolve;
      this.readyReject = reject;
    });
    /* ?wasm= and ?tables= (tests/web/): another module, another folder of tables. */
    const page = new URLSearchParams(location.search), q = new URLSearchParams();
    for (const k of ["wasm", "tables"]) if (page.get(k)) q.set(k, page.get(k));
    this.worker = new Worker("engine-worker.js" + (q.toString() ? "?" + q : ""));
    this.worker.onmessage = (ev) => this.message(ev.data);
    this.worker.onerror = (ev) => {
      ev.preventDefault();
      this.fail("the engine crashed: " + (ev.message || "worker error"));
    };
  }

  restart() {
    clearTimeout(this.timer);
    this.worker.terminate();
    for (const p of this.pending) p.reject(EngineClient.failure("restarted"));
    this.start();
  }

  /* The watchdog of the request at the head of the queue. */
  arm() {
    clearTimeout(this.timer);
    const p = this.pending[0];
    if (!p) return;
    this.timer = setTimeout(() => {
      this.worker.terminate();
      this.fail(`the engine did not answer within ${(p.bound / 1000).toFixed(1)} s`);
    }, p.bound);
  }

  message(m) {
    if (m.ready !== undefined) {
      this.readyResolve(m.ready);
      if (this.hooks.onReady) this.hooks.onReady(m.ready);
    } else if (m.tables !== undefined) {
      const t = this.tableLoads.get(m.tables);
      if (t) t.resolve(m);
    } else if (m.line !== undefined) {
      if (m.line.startsWith("info string morris tables: ") && this.hooks.onNotice) this.hooks.onNotice(m.line.slice(12));
      const p = this.pending[0];
      if (p && p.id === m.id && p.onLine) p.onLine(m.line);
    } else if (m.done !== undefined) {
      const p = this.pending.shift();
      this.arm();
      const errors = m.out.flat().filter((l) => l.startsWith("info string error: ")).map((l) => l.slice(19));
      p.resolve({ out: m.out, rc: m.rc, errors });
    } else if (m.failed !== undefined) {
      this.fail(m.failed);
    }
  }

  fail(text) {
    if (this.dead) return;
    this.dead = true;
    clearTimeout(this.timer);
    this.readyReject(EngineClient.failure(text));
    for (const p of this.pending) p.reject(EngineClient.failure(text));
    this.pending = [];
    if (this.hooks.onFail) this.hooks.onFail(text);
  }

  send(lines, opts) {
    if (this.dead) return Promise.reject(EngineClient.failure("the engine is not running"));
    const o = opts || {};
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.push({ id, resolve, reject, onLine: o.onLine, bound: o.bound || 10000 });
      if (this.pending.length === 1) this.arm();
      this.worker.postMessage({ cmd: lines, id, hang: o.hang });
    });
  }

  /* The error of a request the engine's failure cut off (the page has
   * said so already). */
  static failure(text) {
    const e = new Error(text);
    e.engineFailure = true;
    return e;
  }

  tables(set) {
    if (!this.tableLoads.has(set)) {
      const t = {};
      t.promise = new Promise((resolve) => (t.resolve = resolve));
      this.tableLoads.set(set, t);
      this.worker.postMessage({ tables: set });
    }
    return this.tableLoads.get(set).promise;
  }

  crash() { this.worker.postMessage({ crash: true }); }
}
