/*
 * app.js -- the page: game choice, clicks, the engine's moves, the move
 * list and the position text (docs/web.md).
 *
 * The page knows no rules.  After every change it asks the engine:
 *   position <start> moves <list>   d   moves   query result
 * and draws the FEN of `d`, offers the moves of `moves` and shows the
 * result of `query`.  A move is played by clicking the squares its text
 * names, in order (`e3-d4`: e3 then d4; `d2-d3xg7`: d2, d3, g7); when
 * several moves name the same squares (Fano's `c@4` and `t@4`, Morelli
 * classic captures) buttons offer them by their text.
 */
"use strict";

const $ = (id) => document.getElementById(id);
const GAME_OPTIONS = {
  morelli: ["BoardSize", "Ruleset", "Setup", "SetupSeed"],
  morris: ["Pieces", "Diagonals", "Flying", "MoveRule"],
  fano: [],
};

const S = {
  applied: null,   /* {game, options: {Name: value}, movetime} the engine has */
  start: "startpos", /* "startpos" or "fen <fen>" */
  startFen: "",
  moves: [],
  legal: [],
  fen: "",
  cells: {},
  p1Letter: "b",   /* the FEN's side letter of the first player */
  side: "p1",
  result: "none",
  prefix: [],
  last: [],
  changed: [],
  gen: 0,          /* bumped by anything that makes a running search stale */
  thinking: false,
  dOptions: "",
};
window.morelliPage = S; /* for tests/web/ */

let engine = null;
let firstMoveShown = false;
const pageStart = 0; /* performance.now() counts from the page's opening */

function showError(text) { $("error").textContent = text; }

function lineAfter(lines, prefix) {
  const l = lines.find((x) => x.startsWith(prefix));
  return l === undefined ? null : l.slice(prefix.length);
}

function colourName(letter) { return letter === "b" ? "Black" : "White"; }
function sideColour(side) {
  const other = S.p1Letter === "b" ? "w" : "b";
  return colourName(side === "p1" ? S.p1Letter : other);
}

/* The squares a move's text names, in order. */
function squaresOf(move) {
  return move.replace(/^[a-z]@/i, "").match(/[a-z]\d+|\d+/gi) || [];
}

function positionLine() {
  return "position " + S.start + (S.moves.length ? " moves " + S.moves.join(" ") : "");
}

/* The options as the page's controls hold them. */
function readControls() {
  const game = $("game").value, options = { UCI_Variant: game };
  for (const name of GAME_OPTIONS[game]) {
    const c = $("opt-" + name);
    options[name] = c.type === "checkbox" ? String(c.checked) : c.value.trim();
  }
  options.Search = $("opt-Search").value;
  return { game, options, movetime: $("movetime").value.trim() };
}

function optionLines(applied) {
  return Object.entries(applied.options).map(([n, v]) => `setoption name ${n} value ${v}`);
}

/* Fills the combo controls from the engine's `ugi` option lines, and
 * gives the number fields the ranges it lists as hints. */
function fillOptions(lines) {
  for (const l of lines) {
    const spin = l.match(/^option name (\S+) type spin default \S+ min (-?\d+) max (-?\d+)/);
    if (spin && $("opt-" + spin[1]) && $("opt-" + spin[1]).tagName === "INPUT")
      $("opt-" + spin[1]).title = `${spin[2]} to ${spin[3]}`;
    const m = l.match(/^option name (\S+) type combo default (\S+)((?: var \S+)+)/);
    if (!m || !$("opt-" + m[1]) || $("opt-" + m[1]).tagName !== "SELECT" || m[1] === "BoardSize") continue;
    const sel = $("opt-" + m[1]);
    sel.innerHTML = "";
    for (const v of m[3].trim().split(" var ").map((s) => s.replace(/^var /, ""))) {
      const o = document.createElement("option");
      o.textContent = v;
      if (v === m[2]) o.selected = true;
      sel.appendChild(o);
    }
  }
}

function showGameOptions() {
  for (const div of document.querySelectorAll(".opts"))
    div.hidden = div.dataset.game !== $("game").value;
}

/* Puts the engine in the state the page had last (after a restart or a
 * refused change). */
async function resync() {
  if (!S.applied) return;
  await engine.send(optionLines(S.applied).concat(["isready", positionLine()]));
}

async function newGame() {
  const want = readControls();
  const mt = Number(want.movetime);
  if (!/^\d+$/.test(want.movetime) || mt < 1) {
    showError("time per move: give a whole number of milliseconds (1 or more)");
    return;
  }
  S.gen++;
  const r = await engine.send(optionLines(want).concat(["isready", "position startpos", "d"]));
  if (r.errors.length) {
    showError(r.errors.join("\n"));
    await resync();
    return;
  }
  showError("");
  S.applied = want;
  S.start = "startpos";
  S.moves = [];
  S.last = [];
  S.changed = [];
  const fen = lineAfter(r.out[r.out.length - 1], "Fen: ");
  S.startFen = fen;
  S.p1Letter = fen.trim().split(/\s+/)[1] === "w" ? "w" : "b";
  $("p1").previousSibling.textContent = `First player (${colourName(S.p1Letter)}) `;
  $("p2").previousSibling.textContent = `Second player (${colourName(S.p1Letter === "b" ? "w" : "b")}) `;
  await refresh();
}

/* Asks the engine about the position and draws it; starts the engine's
 * move when it is the engine's turn (unless noThink). */
async function refresh(noThink) {
  const gen = S.gen;
  const r = await engine.send([positionLine(), "d", "moves", "query result"]);
  if (gen !== S.gen) return;
  if (r.errors.length) {
    showError(r.errors.join("\n"));
    return;
  }
  const d = r.out[1];
  const prev = S.cells;
  S.fen = lineAfter(d, "Fen: ");
  S.side = lineAfter(d, "Side to move: ") || "p1";
  S.dOptions = lineAfter(d, "Options: ") || "";
  /* The game's own summary line (side to move, hands, Throne). */
  const vi = d.findIndex((l) => l.startsWith("Variant: "));
  const summary = d.slice(0, Math.max(vi, 0)).filter((l) => /to move/.test(l) && !l.startsWith("Fen: "));
  $("status").textContent = summary.length ? summary[summary.length - 1] : "";
  S.legal = (r.out[2][0] || "").split(" ").filter(Boolean);
  S.result = lineAfter(r.out[3], "response ") || "none";
  S.prefix = [];
  const cells = Board.parse(S.applied.game, S.fen).cells;
  if (S.justPlayed && prev) {
    /* Squares the last move changed but does not name: captures. */
    S.changed = Object.keys(Object.assign({}, prev, cells)).filter(
      (sq) => prev[sq] !== cells[sq] && !S.last.includes(sq));
  } else {
    S.changed = [];
  }
  S.cells = cells;
  S.justPlayed = false;
  render();
  $("fen-text").value = `${S.startFen}${S.moves.length ? " moves " + S.moves.join(" ") : ""}`;
  $("fen-now").textContent = "now: " + S.fen;
  if (S.result !== "none") await showResult(gen);
  else $("result").hidden = true;
  if (!noThink && S.result === "none" && enginesTurn() && !$("pause").checked) think();
  S.shown = positionLine(); /* what the board shows (tests/web/ waits for it) */
}

function enginesTurn() { return $(S.side).value === "engine"; }

/* The result, and whether the position alone decides it or the history
 * (repetition, move rule) does: asked of the engine with the bare FEN. */
async function showResult(gen) {
  const r = await engine.send([`position fen ${S.fen}`, "query result", positionLine()]);
  if (gen !== S.gen) return;
  const bare = lineAfter(r.out[1], "response ") || "none";
  const who = S.result === "draw" ? "Draw" : `${sideColour(S.result === "p1win" ? "p1" : "p2")} wins`;
  const last = S.moves.length ? ` after ${S.moves[S.moves.length - 1]}` : "";
  const why = bare === S.result
    ? `the game ends in this position${last} (${$("status").textContent})`
    : `the game's history ends it${last}: repetition or the move rule`;
  $("result").textContent = `${who}: ${why}.`;
  $("result").hidden = false;
}

function render() {
  const next = new Set();
  const cands = candidates();
  for (const m of cands) {
    const sq = squaresOf(m);
    if (sq.length > S.prefix.length) next.add(sq[S.prefix.length]);
  }
  const humanTurn = S.result === "none" && !enginesTurn();
  Board.draw($("board"), S.applied.game, S.fen,
    { next: humanTurn ? next : new Set(), picked: S.prefix, last: S.last, changed: S.changed },
    click, { diagonals: /Diagonals=true/.test(S.dOptions) });
  const ol = $("move-list");
  ol.innerHTML = "";
  for (const m of S.moves) {
    const li = document.createElement("li");
    li.textContent = m;
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
  /* Moves that name exactly the squares picked: offer them by text. */
  const box = $("choices");
  box.innerHTML = "";
  if (humanTurn && S.prefix.length) {
    const whole = cands.filter((m) => squaresOf(m).length === S.prefix.length);
    if (whole.length > 1 || (whole.length === 1 && cands.length > 1)) {
      for (const m of whole) {
        const b = document.createElement("button");
        b.textContent = m;
        b.dataset.move = m;
        b.addEventListener("click", () => play(m));
        box.appendChild(b);
      }
    }
  }
}

function candidates() {
  return S.legal.filter((m) => {
    const sq = squaresOf(m);
    return S.prefix.every((p, i) => sq[i] === p);
  });
}

function click(sq) {
  if (S.thinking || S.result !== "none" || enginesTurn()) return;
  S.prefix.push(sq);
  let c = candidates();
  if (!c.length) {
    /* Not a continuation: start again from this square. */
    S.prefix = [sq];
    c = candidates();
    if (!c.length) S.prefix = [];
  }
  if (c.length === 1 && squaresOf(c[0]).length === S.prefix.length) {
    play(c[0]);
    return;
  }
  render();
}

async function play(move) {
  S.gen++;
  S.moves.push(move);
  S.last = squaresOf(move);
  S.justPlayed = true;
  await refresh();
}

function showInfo(line) {
  if (!line.startsWith("info depth ")) return;
  const f = (k) => {
    const m = line.match(new RegExp(" " + k + " (\\S+(?: \\S+)?)"));
    return m ? m[1] : "–";
  };
  const score = (line.match(/ score (cp -?\d+|mate -?\d+)/) || [, "–"])[1];
  $("think").textContent = `depth ${f("depth").split(" ")[0]}  score ${score}  nodes ${f("nodes").split(" ")[0]}  nps ${f("nps").split(" ")[0]}`;
  const pv = line.match(/ pv (.*)$/);
  $("pv").textContent = pv ? "pv " + pv[1] : "";
}

async function think() {
  const gen = S.gen;
  S.thinking = true;
  $("engine-state").textContent = "thinking…";
  let r;
  try {
    r = await engine.send([`go movetime ${S.applied.movetime}`]);
  } finally {
    S.thinking = false;
  }
  $("engine-state").textContent = "ready";
  if (gen !== S.gen) return;
  if (r.errors.length) {
    showError(r.errors.join("\n"));
    return;
  }
  const best = lineAfter(r.out[0], "bestmove ");
  if (!best || best === "0000") return;
  if (!firstMoveShown) {
    firstMoveShown = true;
    window.morelliFirstMoveMs = Math.round(performance.now() - pageStart);
  }
  await play(best);
}

async function takeBack() {
  if (!S.moves.length) return;
  S.gen++;
  S.moves.pop();
  S.last = [];
  await refresh(true);
  /* Back to a person's turn when one side is the engine. */
  if (enginesTurn() && S.moves.length && ($("p1").value !== "engine" || $("p2").value !== "engine")) {
    S.moves.pop();
    await refresh(true);
  }
  if (S.moves.length) S.last = squaresOf(S.moves[S.moves.length - 1]);
  render();
}

async function load() {
  let text = $("fen-text").value.trim().replace(/\s+/g, " ").replace(/^position /, "");
  if (!/^(fen|startpos)\b/.test(text)) text = "fen " + text;
  const r = await engine.send(["position " + text, "d"]);
  if (r.errors.length) {
    showError(r.errors.join("\n"));
    await resync();
    return;
  }
  showError("");
  S.gen++;
  const at = text.indexOf(" moves ");
  const start = at < 0 ? text : text.slice(0, at);
  S.moves = at < 0 ? [] : text.slice(at + 7).split(" ").filter(Boolean);
  if (start === "startpos") {
    S.start = "startpos";
  } else {
    S.start = start;
    S.startFen = start.replace(/^fen /, "");
  }
  S.last = S.moves.length ? squaresOf(S.moves[S.moves.length - 1]) : [];
  S.cells = {};
  await refresh(true);
  render();
}

function engineFailed(text) {
  $("engine-state").textContent = text;
  $("engine-state").classList.add("failed");
  $("restart").hidden = false;
}

async function startEngine() {
  engine = new EngineClient({ onLine: showInfo, onFail: engineFailed });
  window.morelliCrash = () => engine.crash(); /* for tests/web/ */
  await engine.ready;
  $("engine-state").textContent = "ready";
  $("engine-state").classList.remove("failed");
  $("restart").hidden = true;
}

async function restart() {
  $("engine-state").textContent = "restarting…";
  $("restart").hidden = true;
  S.gen++;
  engine.restart();
  try {
    await engine.ready;
  } catch (err) {
    return;
  }
  $("engine-state").textContent = "ready";
  $("engine-state").classList.remove("failed");
  await resync();
  await refresh();
}

/* ?game=morris&p1=engine&opt-Diagonals=true&movetime=200 presets the
 * controls (for links and tests). */
function presetControls() {
  for (const [k, v] of new URLSearchParams(location.search)) {
    const c = $(k);
    if (!c || k === "wasm") continue;
    if (c.type === "checkbox") c.checked = v === "true";
    else c.value = v;
  }
}

async function main() {
  presetControls();
  showGameOptions();
  $("game").addEventListener("change", () => {
    showGameOptions();
    newGame();
  });
  /* Requests cut off by a crashed engine: the page already says so. */
  window.addEventListener("unhandledrejection", (ev) => {
    if (engine && engine.dead) ev.preventDefault();
  });
  $("new-game").addEventListener("click", newGame);
  $("take-back").addEventListener("click", takeBack);
  $("load").addEventListener("click", load);
  $("restart").addEventListener("click", restart);
  $("copy").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText($("fen-text").value));
  for (const id of ["p1", "p2", "pause"]) {
    $(id).addEventListener("change", () => {
      if (S.applied && !S.thinking && S.result === "none" && enginesTurn() && !$("pause").checked) think();
      else if (S.applied) render();
    });
  }
  try {
    await startEngine();
  } catch (err) {
    return;
  }
  const r = await engine.send(["ugi"]);
  fillOptions(r.out[0]);
  presetControls();
  window.morelliReadyMs = Math.round(performance.now() - pageStart);
  await newGame();
}

main();
