/*
 * engine-worker.js -- the engine in a web worker, so the page never waits.
 *
 * Messages from the page:  {cmd: [line, ...], id}   run the lines in order
 *                          {..., hang: ms}           first stay busy ms
 *                                                    (make test-web: a hang)
 *                          {crash: true}             throw (make test-web)
 *                          {tables: set}             fetch the Morris endgame
 *                                                    tables of set (plain-fly,
 *                                                    diag-nofly, ...) into the
 *                                                    engine's folder /tables
 * Messages to the page:    {ready: ms}               the module is loaded
 *                          {line: text, id}          one reply line, at once
 *                          {done: id, rc: [...], out: [[...], ...]}
 *                                                    the lines of id ran: each
 *                                                    one's status and output
 *                          {failed: text}            loading or a call failed
 *                          {tables: set, files, missing, bytes, ms, error}
 *                                                    the tables of set: the
 *                                                    files loaded, why others
 *                                                    were not, their bytes
 *                                                    unpacked, the time; or why
 *                                                    none could be loaded
 * A `go` with a limit runs inside its call; the info lines still arrive as
 * the search prints them.
 */
"use strict";
importScripts("wasi.js");

let engine = null;
let out = null; /* the lines of the command running */
let runningId = 0;
const queue = [];
const params = new URL(self.location.href).searchParams;
const wasmUrl = params.get("wasm") || "morelli.wasm";
const tablesUrl = (params.get("tables") || "tables") + "/";

const started = performance.now();
const loaded = fetch(wasmUrl)
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

async function fetchBytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(url + ": HTTP " + r.status);
  return r;
}

/* The files of tables.txt (the list make web writes) that belong to set,
 * gzipped on the server, unpacked here and put into the engine's folder;
 * then TablePath points there, so the engine's next look finds them (it
 * checks each file as the native engine does, and says which it refuses). */
async function loadTables(set) {
  const t0 = performance.now();
  const names = (await (await fetchBytes(tablesUrl + "tables.txt")).text()).split("\n")
    .filter((n) => n.startsWith(`morris-${set}-`) && n.endsWith(".mtb.gz"));
  if (!names.length) throw new Error(`${tablesUrl}tables.txt lists no tables of ${set}`);
  if (typeof DecompressionStream === "undefined") throw new Error("this browser cannot unpack them (no DecompressionStream)");
  const got = await Promise.allSettled(names.map(async (n) => {
    const r = await fetchBytes(tablesUrl + n);
    const raw = await new Response(r.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
    return [n.slice(0, -3), new Uint8Array(raw)];
  }));
  const files = got.filter((g) => g.status === "fulfilled").map((g) => g.value);
  const missing = got.filter((g) => g.status === "rejected").map((g) => g.reason.message);
  if (!files.length) throw new Error(missing.join("; "));
  let bytes = 0;
  for (const [name, data] of files) {
    engine.addFile(name, data);
    bytes += data.length;
  }
  engine.command("setoption name TablePath value /tables");
  return { files: files.map((f) => f[0]), missing, bytes, ms: Math.round(performance.now() - t0) };
}

onmessage = (ev) => {
  if (ev.data.crash) throw new Error("crash asked for by the page");
  if (ev.data.tables) {
    const set = ev.data.tables;
    loaded.then(() => (engine ? loadTables(set) : Promise.reject(new Error("the engine is not running"))))
      .then((r) => postMessage(Object.assign({ tables: set }, r)))
      .catch((err) => postMessage({ tables: set, error: err.message }));
    return;
  }
  queue.push(ev.data);
  drain();
};
