/*
 * engine.js -- the page's side of the engine worker: send command lines,
 * get their reply lines back as a promise, in order.
 *
 *   const eng = new EngineClient({onLine, onFail, onReady});
 *   const r = await eng.send(["position startpos", "moves"]);
 *   r.out[i]  the lines command i printed;  r.errors  the error texts
 *
 * A failed or crashed worker rejects what is pending and calls onFail;
 * restart() starts a new worker (the page then sends its position again).
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
    this.ready = new Promise((resolve, reject) => {
      this.readyResolve = resolve;
      this.readyReject = reject;
    });
    const wasm = new URLSearchParams(location.search).get("wasm");
    this.worker = new Worker("engine-worker.js" + (wasm ? "?wasm=" + encodeURIComponent(wasm) : ""));
    this.worker.onmessage = (ev) => this.message(ev.data);
    this.worker.onerror = (ev) => {
      ev.preventDefault();
      this.fail("the engine crashed: " + (ev.message || "worker error"));
    };
  }

  restart() {
    this.worker.terminate();
    for (const p of this.pending) p.reject(new Error("restarted"));
    this.start();
  }

  message(m) {
    if (m.ready !== undefined) {
      this.readyResolve(m.ready);
      if (this.hooks.onReady) this.hooks.onReady(m.ready);
    } else if (m.line !== undefined) {
      if (this.hooks.onLine) this.hooks.onLine(m.line);
    } else if (m.done !== undefined) {
      const p = this.pending.shift();
      const errors = m.out.flat().filter((l) => l.startsWith("info string error: ")).map((l) => l.slice(19));
      p.resolve({ out: m.out, rc: m.rc, errors });
    } else if (m.failed !== undefined) {
      this.fail(m.failed);
    }
  }

  fail(text) {
    if (this.dead) return;
    this.dead = true;
    this.readyReject(new Error(text));
    for (const p of this.pending) p.reject(new Error(text));
    this.pending = [];
    if (this.hooks.onFail) this.hooks.onFail(text);
  }

  send(lines) {
    if (this.dead) return Promise.reject(new Error("the engine is not running"));
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.push({ id, resolve, reject });
      this.worker.postMessage({ cmd: lines, id });
    });
  }

  crash() { this.worker.postMessage({ crash: true }); }
}
