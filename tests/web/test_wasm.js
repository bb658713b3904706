/*
 * test_wasm.js -- make test-web, first part: build/web/morelli.wasm under
 * node, through protocol/web/wasi.js, without a browser.
 *
 * - a go with a limit ends inside its call with a bestmove (tests/data/web.txt
 *   "bounded" lines); a go without one is refused with one error line
 *   ("refused", "refused-error");
 * - `bench` searches the same number of nodes as the native engine
 *   (MORELLI_BIN, default build/morelli): the same search in both;
 * - the Morris endgame tables of build/web/tables/ (make web) in the
 *   module's folder /tables: `solve` of the ending of tests/data/web.txt
 *   ("tables-fen") prints what the native engine prints with the same files;
 *   a corrupt and a truncated file are refused with the engine's line, and
 *   the module plays on.
 *
 *   node tests/web/test_wasm.js            (from the repository's top)
 *   node tests/web/test_wasm.js --speed N [--plus P]
 *       also N alternating runs of each engine over the alpha-beta positions
 *       of bench/positions.txt, searched P plies (default 1) deeper than
 *       there with Hash 16, one engine per position; nodes/s is all nodes
 *       over all search time as the searches report it (process start and
 *       the table's allocation are not counted); medians and their ratio.
 */
"use strict";
const fs = require("fs");
const path = require("path");
const os = require("os");
const zlib = require("zlib");
const { execFileSync } = require("child_process");
const { MorelliWasm } = require(path.resolve("protocol/web/wasi.js"));

const NATIVE = process.env.MORELLI_BIN || "build/morelli";
let failures = 0, passes = 0;
function check(cond, what) {
  if (cond) passes++;
  else {
    failures++;
    console.log("FAIL: " + what);
  }
}

const data = { bounded: [], refused: [] };
for (const line of fs.readFileSync("tests/data/web.txt", "utf8").split("\n")) {
  const m = line.match(/^([\w-]+):\s?(.*)$/);
  if (!m) continue;
  if (Array.isArray(data[m[1]])) data[m[1]].push(m[2]);
  else data[m[1]] = m[2];
}

function nodes(text) {
  const n = text.match(/Nodes searched\s*:\s*(\d+)/), s = text.match(/Nodes\/second\s*:\s*(\d+)/);
  return { nodes: n && +n[1], nps: s && +s[1] };
}

const median = (a) => a.slice().sort((x, y) => x - y)[Math.floor(a.length / 2)];

/* The alpha-beta bench positions as command scripts, plus plies deeper. */
function speedScripts(plus) {
  const scripts = [];
  for (const line of fs.readFileSync("bench/positions.txt", "utf8").split("\n")) {
    const w = line.trim().split(/\s+/);
    if (!w[0] || w[0].startsWith("#") || /Search=/.test(line)) continue;
    const cmds = ["setoption name Hash value 16", `setoption name UCI_Variant value ${w[0]}`];
    let i = 1, depth = 0;
    for (; i < w.length && w[i].includes("="); i++) {
      const [k, v] = w[i].split("=");
      if (k === "depth") depth = +v;
      else if (k !== "nodes") cmds.push(`setoption name ${k} value ${v}`);
    }
    if (!depth) continue;
    cmds.push("position " + w.slice(i).join(" "), `go depth ${depth + plus}`);
    scripts.push(cmds);
  }
  return scripts;
}

/* Nodes and milliseconds of the last info line with both. */
function searched(lines) {
  let r = { nodes: 0, ms: 0 };
  for (const l of lines) {
    const n = l.match(/ nodes (\d+)/), t = l.match(/ time (\d+)/);
    if (n && t) r = { nodes: +n[1], ms: +t[1] };
  }
  return r;
}

async function speed(runs, fresh, getOut, setOut) {
  const pi = process.argv.indexOf("--plus");
  const plus = pi > 0 ? +process.argv[pi + 1] : 1;
  const scripts = speedScripts(plus);
  const w = [], n = [];
  for (let r = 0; r < runs; r++) {
    let wn = 0, wt = 0, nn = 0, nt = 0;
    for (const cmds of scripts) {
      const eng = await fresh();
      setOut([]);
      for (const c of cmds) eng.command(c);
      const a = searched(getOut());
      /* As command-line words, where a search runs to its end. */
      const words = cmds.map((c) => c.match(/^setoption name (\S+) value (\S+)$/))
        .filter(Boolean).map((m) => `--${m[1]}=${m[2]}`)
        .concat(...cmds.filter((c) => !c.startsWith("setoption")).map((c) => c.split(" ")));
      const b = searched(execFileSync(NATIVE, words, { encoding: "utf8" }).split("\n"));
      check(a.nodes === b.nodes, `speed: ${cmds.slice(-2).join(", ")}: wasm ${a.nodes} nodes = native ${b.nodes}`);
      wn += a.nodes; wt += a.ms; nn += b.nodes; nt += b.ms;
    }
    w.push((wn * 1000) / Math.max(wt, 1));
    n.push((nn * 1000) / Math.max(nt, 1));
    console.log(`speed run ${r + 1}: ${scripts.length} positions, ${wn} nodes; wasm ${Math.round(w[r])} nodes/s, native ${Math.round(n[r])} nodes/s`);
  }
  const mw = median(w), mn = median(n);
  console.log(`speed (${runs} runs each, medians): wasm ${Math.round(mw)} nodes/s, native ${Math.round(mn)} nodes/s, wasm/native ${(mw / mn).toFixed(2)}`);
}

/* The standard set's tables, unpacked: {name: bytes}. */
function standardTables() {
  const dir = "build/web/tables", files = {};
  for (const f of fs.readdirSync(dir))
    if (f.startsWith("morris-plain-fly-") && f.endsWith(".mtb.gz")) files[f.slice(0, -3)] = zlib.gunzipSync(fs.readFileSync(path.join(dir, f)));
  return files;
}

async function tables(fresh, getOut, setOut) {
  const files = standardTables();
  const script = ["setoption name UCI_Variant value morris", "setoption name TablePath value /tables",
                  `position fen ${data["tables-fen"]}`, "solve"];
  const run = async (spoil) => {
    const eng = await fresh();
    for (const [name, bytes] of Object.entries(files)) eng.addFile(name, spoil && name.includes("-3v3.") ? spoil(bytes) : bytes);
    setOut([]);
    for (const c of script) eng.command(c);
    const solved = getOut();
    setOut([]);
    eng.command("go movetime 50");
    return { solved, played: getOut() };
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "morelli-web-tables-"));
  for (const [name, bytes] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), bytes);
  const native = execFileSync(NATIVE, script.map((c) => c.replace("/tables", dir)),
                              { encoding: "utf8", env: Object.assign({}, process.env, { MORELLI_TABLES: "" }) });
  fs.rmSync(dir, { recursive: true });
  const good = await run(null);
  check(good.solved.join("\n") === native.trim() && good.solved[1] === `Best: ${data["tables-move"]}`,
    `tables: wasm solve = native solve with the same files (${good.solved.slice(0, 2)})`);
  check(good.played.slice(-1)[0] === `bestmove ${data["tables-move"]}`, `tables: go plays ${data["tables-move"]} (${good.played.slice(-1)})`);
  const spoilt = [["corrupt", (b) => { const c = Buffer.from(b); c[c.length >> 1] ^= 0x55; return c; }, "info string " + data["tables-refused"]],
                  ["truncated", (b) => b.subarray(0, b.length - 100), "info string " + data["tables-refused"].replace(/corrupt.*/, "truncated")]];
  for (const [what, spoil, line] of spoilt) {
    const r = await run(spoil);
    /* Refused when a probe first reaches the spoilt part: the answer is
     * then unknown, or the right one from what is left. */
    check(r.solved.some((l) => l.startsWith(line)) && r.solved.some((l) => /error: solve: the value of this position is unknown/.test(l) ||
      l === "Best: " + data["tables-move"]),
      `tables: a ${what} file refused with the engine's line (${r.solved.join(" / ")})`);
    check(/^bestmove \S+$/.test(r.played.slice(-1)[0]), `tables: with a ${what} file the module plays on (${r.played.slice(-1)})`);
  }
}

(async () => {
  const bytes = fs.readFileSync("build/web/morelli.wasm");
  let out = [];
  const fresh = () => MorelliWasm.create(bytes, (l) => out.push(l));

  for (const script of data.bounded) {
    const eng = await fresh();
    const cmds = script.split(" | ");
    out = [];
    const rcs = cmds.map((c) => eng.command(c));
    check(rcs.every((r) => r === 0) && /^bestmove \S+$/.test(out[out.length - 1]) &&
      !out.some((l) => l.includes("error")), `${script}: ends with a bestmove inside the call (${out.slice(-1)})`);
  }
  for (const go of data.refused) {
    const eng = await fresh();
    out = [];
    const rc = eng.command(go);
    check(rc === 1 && out.length === 1 && out[0] === "info string error: " + data["refused-error"],
      `${go}: refused with one error line (${out})`);
  }

  const eng = await fresh();
  out = [];
  eng.command("bench");
  const wasm = nodes(out.join("\n"));
  const native = nodes(execFileSync(NATIVE, ["bench"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }));
  check(wasm.nodes && wasm.nodes === native.nodes, `bench: wasm ${wasm.nodes} nodes = native ${native.nodes} nodes`);
  console.log(`bench: ${wasm.nodes} nodes; wasm ${wasm.nps} nodes/s, native ${native.nps} nodes/s (one run each)`);

  await tables(fresh, () => out, (o) => (out = o));

  const at = process.argv.indexOf("--speed");
  if (at > 0) await speed(+process.argv[at + 1] || 1, fresh, () => out, (o) => (out = o));
  console.log(`test-wasm: ${passes} checks passed, ${failures} failed`);
  process.exit(failures ? 1 : 0);
})();
