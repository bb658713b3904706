/*
 * engine-worker.js -- the engine in a web worker, so the page never waits.
 *
 * Messages from the page:  {cmd: [line, ...], id}   run the lines in order
 *                          {..., hang: ms}           first stay busy ms
 *                                                    (make test-web: a hang)
 *                          {crash: true}             throw (make test-web)
 * Messages to the page:    {ready: ms}               the module is loaded
 *                          {line: text, id}          one reply line, at once
 *                          {done: id, rc: [...], out: [[...], ...]}
 *                                                    the lines of id ran: each
 *                                                    one's status and output
 *                          {failed: text}            loading or a call failed
 * A `go` with a limit runs inside its call; the info lines still arrive as
 * the search prints them.
 */
"use strict";
importScripts("wasi.js");

let engine = null;
let out = null; /* the lines of the command running */
let runningId = 0;
const queue = [];
const wasmUrl = new URL(self.location.href).searchParams.get("wasm") || "morelli.wasm";

const started = performance.now();
fetch(wasmUrl)
  .then((r) => {
    if (!r.ok) throw new Error(wasmUrl + ": HTTP " + r.status);
    return r.arrayBuffer();
  })
  .then((bytes) => MorelliWasm.create(bytes, (line) => {
    if (out) out.push(line);
    postMessage({ line, id: runningId });
  }))
  .then((eng) => {
    engine = eng;
    postMessage({ ready: Math.round(performance.now() - started) });
    drain();
  })
  .catch((err) => postMessage({ failed: "the engine did not load: " + err.message }));

function drain() {
  while (engine && queue.length) {
    const msg = queue.shift();
    const rc = [], outs = [];
    runningId = msg.id;
    if (msg.hang) for (const end = performance.now() + msg.hang; performance.now() < end;);
    try {
      for (const line of msg.cmd) {
        out = [];
        outs.push(out);
        rc.push(engine.command(line));
      }
    } catch (err) {
      engine = null;
      postMessage({ failed: "the engine crashed: " + err.message });
      return;
    }
    out = null;
    postMessage({ done: msg.id, rc, out: outs });
  }
}

onmessage = (ev) => {
  if (ev.data.crash) throw new Error("crash asked for by the page");
  queue.push(ev.data);
  drain();
};
