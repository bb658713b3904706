/*
 * app.js -- the page: game choice, clicks, the engine's moves, the move
 * list, stepping through the game, the engine's life (docs/web.md).
 * clock.js (clocks), play.js (levels, analysis) and records.js (results in
 * words, PGN, links) add to it; they share the state S.
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
  line: [],        /* the line of moves stepped through */
  ply: 0,          /* how many of them the board shows */
  moves: [],       /* line.slice(0, ply): the moves of the position shown */
  game: null,      /* the game's own line while a variation is shown */
  legal: [],
  fen: "",
  cells: {},
  p1Letter: "b",   /* the FEN's side letter of the first player */
  side: "p1",
  result: "none",
  timeLoss: null,  /* "p1" or "p2": that side's flag fell */
  prefix: [],
  last: [],
  changed: [],
  gen: 0,          /* bumped by anything that makes a running search stale */
  thinking: false,
  dOptions: "",
  flip: false,
  sounds: 0,       /* move sounds played (tests/web/) */
  restarts: 0,     /* restarts since the engine last answered a move */
};
window.morelliPage = S; /* for tests/web/ */

let engine = null;
let firstMoveShown = false;
const pageStart = 0; /* performance.now() counts from the page's opening */
/* Watchdog slack (ms) over a search's own limit; ?watchdog= for tests. */
const SLACK = Number(new URLSearchParams(location.search).get("watchdog")) || 10000;

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
function otherSide(side) { return side === "p1" ? "p2" : "p1"; }

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
  return Object.entries(applied.options).map(([n, v]) => `setoption name ${n} value ${v}`)
    .concat(levelLines());
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
  Tables.want(S.applied);
}

/* Starts the line `moves` from `start` ("startpos" or "fen ...") under
 * `want`; the engine checks all of it first.  false (and the game on the
 * board kept) when it refuses. */
async function setGame(want, start, moves) {
  const pos = "position " + start + (moves.length ? " moves " + moves.join(" ") : "");
  const r = await engine.send(optionLines(want).concat(["isready", "position " + start, "d", pos]));
  if (r.errors.length) {
    showError(r.errors.join("\n"));
    await resync();
    return false;
  }
  showError("");
  S.gen++;
  S.applied = want;
  S.start = start;
  S.startFen = lineAfter(r.out[r.out.length - 2], "Fen: ");
  S.p1Letter = lineAfter(r.out[r.out.length - 2], "Side to move: ") === "p2"
    ? (S.startFen.trim().split(/\s+/)[1] === "w" ? "b" : "w")
    : (S.startFen.trim().split(/\s+/)[1] === "w" ? "w" : "b");
  S.line = moves.slice();
  S.ply = moves.length;
  S.moves = moves.slice();
  S.game = null;
  S.timeLoss = null;
  S.end = null;
  S.last = moves.length ? squaresOf(moves[moves.length - 1]) : [];
  S.changed = [];
  S.cells = {};
  Tables.want(want);
  $("p1").previousSibling.textContent = `First player (${sideColour("p1")}) `;
  $("p2").previousSibling.textContent = `Second player (${sideColour("p2")}) `;
  return true;
}

async function newGame() {
  const want = readControls();
  const mt = Number(want.movetime);
  if (!/^\d+$/.test(want.movetime) || mt < 1) {
    showError("time per move: give a whole number of milliseconds (1 or more)");
    return;
  }
  if (!(await setGame(want, "startpos", []))) return;
  Clock.reset();
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
  if (S.timeLoss && atGameEnd()) S.result = S.timeLoss === "p1" ? "p2win" : "p1win";
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
  $("fen-text").value = `${S.startFen}${S.line.length ? " moves " + S.line.join(" ") : ""}`;
  $("fen-now").textContent = "now: " + S.fen;
  if (S.result !== "none") await showResult(gen);
  else $("result").hidden = true;
  if (gen !== S.gen) return;
  Clock.sync();
  Tables.value(gen);
  if (!noThink && S.result === "none" && enginesTurn() && !$("pause").checked) think();
  else if (Analysis.on()) Analysis.start();
  S.shown = positionLine(); /* what the board shows (tests/web/ waits for it) */
}

/* The board shows the end of the game's own line (not a step back, not a
 * variation). */
function atGameEnd() { return !S.game && S.ply === S.line.length; }

function enginesTurn() {
  return $(S.side).value === "engine" && atGameEnd() && !Analysis.on();
}

async function showResult(gen) {
  const text = await Records.resultText(gen);
  if (gen !== S.gen || text === null) return;
  $("result").textContent = text;
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
    click, { diagonals: /Diagonals=true/.test(S.dOptions), flip: S.flip });
  renderHands();
  renderMoveList();
  /* A mill closed: every way on removes a piece. */
  const removing = humanTurn && S.prefix.length > 0 && cands.length > 0 &&
    cands.every((m) => m.includes("x") && squaresOf(m.split("x")[0]).length === S.prefix.length);
  $("prompt").textContent = removing && S.applied.game === "morris"
    ? `Mill! Click a piece of ${sideColour(otherSide(S.side))}'s to remove it.` : "";
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

/* Pieces in hand (Morris, Fano), from the game's summary line. */
function renderHands() {
  const box = $("hands");
  box.innerHTML = "";
  const m = $("status").textContent.match(/in hand White ([^,;]*), Black ([^,;]*)/);
  if (!m) return;
  for (const [who, text] of [["White", m[1]], ["Black", m[2]]]) {
    const row = document.createElement("div");
    row.className = "hand";
    row.dataset.side = who;
    row.append(`${who} in hand: `);
    if (S.applied.game === "fano") {
      for (const [, n, c] of text.matchAll(/(\d+)([CTct])/g)) row.appendChild(Board.hand(c, +n));
    } else {
      row.appendChild(Board.hand(who === "White" ? "w" : "b", +text));
    }
    row.append(` ${text.trim()}`);
    box.appendChild(row);
  }
}

function renderMoveList() {
  const ol = $("move-list");
  ol.innerHTML = "";
  S.line.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = m;
    li.dataset.ply = i + 1;
    if (i + 1 === S.ply) li.className = "current";
    li.addEventListener("click", () => goTo(i + 1));
    ol.appendChild(li);
  });
  const cur = ol.querySelector(".current");
  if (cur) ol.scrollTop = cur.offsetTop - ol.clientHeight / 2;
  $("variation").hidden = !S.game;
  if (S.game) $("variation-text").textContent = `A variation from move ${S.game.from + 1}; the game has ${S.game.line.length} moves.`;
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

/* Plays move on the position shown: at the line's end it extends the
 * line; earlier, the line's own next move steps on, another one starts a
 * variation (the game's line is kept). */
async function play(move) {
  if (S.ply < S.line.length) {
    if (S.line[S.ply] === move) return goTo(S.ply + 1);
    if (!S.game) S.game = { line: S.line.slice(), from: S.ply };
    S.line = S.line.slice(0, S.ply);
  }
  if (atGameEnd()) Clock.moved(S.side);
  S.gen++;
  S.line.push(move);
  S.ply = S.line.length;
  S.moves = S.line.slice();
  S.last = squaresOf(move);
  S.justPlayed = true;
  sound();
  await refresh();
}

/* Shows the position after the first ply moves of the line. */
async function goTo(ply) {
  S.ply = Math.max(0, Math.min(S.line.length, ply));
  S.moves = S.line.slice(0, S.ply);
  S.last = S.ply ? squaresOf(S.line[S.ply - 1]) : [];
  S.gen++;
  await refresh();
}

async function backToGame() {
  if (!S.game) return;
  S.line = S.game.line;
  S.game = null;
  await goTo(S.line.length);
}

/* A short tone for each move when sounds are on (WebAudio). */
let audio = null;
function sound() {
  if (!$("sound").checked) return;
  S.sounds++;
  try {
    audio = audio || new AudioContext();
    const o = audio.createOscillator(), g = audio.createGain();
    o.frequency.value = 520 + 140 * (S.ply % 2);
    g.gain.setValueAtTime(0.15, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.12);
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + 0.12);
  } catch (e) {
    /* No audio here: the move is played all the same. */
  }
}

function showInfo(line) {
  if (!line.startsWith("info depth ")) return;
  const f = (k) => {
    const m = line.match(new RegExp(" " + k + " (\\S+)"));
    return m ? m[1] : "–";
  };
  const score = (line.match(/ score (cp -?\d+|mate -?\d+)/) || [, "–"])[1];
  $("think").textContent = `depth ${f("depth")}  score ${score}  nodes ${f("nodes")}  nps ${f("nps")}`;
  const pv = line.match(/ pv (.*)$/);
  $("pv").textContent = pv ? "pv " + pv[1] : "";
}

async function think() {
  const gen = S.gen;
  S.thinking = true;
  $("engine-state").textContent = "thinking…";
  await Tables.ready();
  if (gen !== S.gen) {
    S.thinking = false;
    return;
  }
  const go = Clock.goLine() + Levels.limit();
  S.lastGo = go;
  let r;
  try {
    r = await engine.send([go], { bound: Clock.bound() + Levels.bound() + SLACK, onLine: showInfo });
  } catch (err) {
    return; /* the engine failed: engineFailed() restarts it */
  } finally {
    S.thinking = false;
  }
  if (!engine.dead) $("engine-state").textContent = "ready";
  if (gen !== S.gen) return;
  if (r.errors.length) {
    showError(r.errors.join("\n"));
    return;
  }
  const best = lineAfter(r.out[0], "bestmove ");
  if (!best || best === "0000") return;
  S.restarts = 0;
  if (!firstMoveShown) {
    firstMoveShown = true;
    window.morelliFirstMoveMs = Math.round(performance.now() - pageStart);
  }
  await play(best);
}

async function takeBack() {
  if (!S.line.length) return;
  S.line = S.line.slice(0, S.ply);
  if (!S.line.length) return goTo(0);
  S.gen++;
  S.line.pop();
  S.ply = S.line.length;
  S.moves = S.line.slice();
  S.last = [];
  await refresh(true);
  /* Back to a person's turn when one side is the engine. */
  if (enginesTurn() && S.line.length && ($("p1").value !== "engine" || $("p2").value !== "engine")) {
    S.line.pop();
    S.ply = S.line.length;
    S.moves = S.line.slice();
    await refresh(true);
  }
  if (S.moves.length) S.last = squaresOf(S.moves[S.moves.length - 1]);
  render();
}

/* The position box: "<fen> moves ...", "startpos moves ...", or a whole
 * `position` command. */
async function load() {
  let text = $("fen-text").value.trim().replace(/\s+/g, " ").replace(/^position /, "");
  if (!/^(fen|startpos)\b/.test(text)) text = "fen " + text;
  const at = text.indexOf(" moves ");
  const start = at < 0 ? text : text.slice(0, at);
  const moves = at < 0 ? [] : text.slice(at + 7).split(" ").filter(Boolean);
  if (!(await setGame(S.applied, start, moves))) return;
  Clock.reset();
  await refresh(true);
  render();
}

/* A worker that crashed or did not answer: said at the top, and a new one
 * started with the game's options and moves (three times in a row at
 * most; then the button).  One that did not load waits for the button. */
function engineFailed(text) {
  $("engine-state").textContent = text;
  $("engine-note").textContent = text;
  $("engine-state").classList.add("failed");
  S.thinking = false;
  if (!/did not load/.test(text) && S.applied && S.restarts < 3) {
    S.restarts++;
    restart(text);
  } else {
    $("restart").hidden = false;
  }
}

async function startEngine() {
  engine = new EngineClient({ onFail: engineFailed, onNotice: Tables.notice });
  window.morelliCrash = () => engine.crash(); /* for tests/web/ */
  window.morelliHang = (ms) => engine.send(["isready"], { hang: ms, bound: 1000 }).catch(() => {});
  await engine.ready;
  $("engine-state").textContent = "ready";
  $("engine-state").classList.remove("failed");
  $("restart").hidden = true;
}

async function restart(why) {
  $("engine-state").textContent = why ? why + "; restarting…" : "restarting…";
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
  if (why) $("engine-note").textContent = why + "; restarted with the game's moves";
  await resync();
  await refresh();
}

/* ?game=morris&p1=engine&opt-Diagonals=true&movetime=200 presets the
 * controls (for links and tests); numbers are kept in their range, and a
 * list keeps its choice when the value is none of its own. */
function presetControls() {
  for (const [k, v] of new URLSearchParams(location.search)) {
    const c = $(k);
    if (!c || k === "wasm") continue;
    if (c.type === "checkbox") c.checked = v === "true";
    else if (c.tagName !== "SELECT" || [...c.options].some((o) => o.value === v)) c.value = v;
    if (c.type === "number") clampInput(c);
  }
}

/* A number field back in its min..max (or its default when not a number). */
function clampInput(c) {
  let v = Number(c.value);
  if (c.value.trim() === "" || !isFinite(v)) v = Number(c.defaultValue);
  v = Math.min(Number(c.max), Math.max(Number(c.min), v));
  c.value = String(v);
  return v;
}

function keys(ev) {
  if (/^(INPUT|TEXTAREA|SELECT)$/.test(ev.target.tagName) || !S.applied) return;
  const to = { ArrowLeft: S.ply - 1, ArrowRight: S.ply + 1, Home: 0, End: S.line.length }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  if (to !== S.ply && to >= 0 && to <= S.line.length) goTo(to);
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
    if (ev.reason && ev.reason.engineFailure) ev.preventDefault();
  });
  for (const c of document.querySelectorAll("input[type=number]")) c.addEventListener("change", () => clampInput(c));
  $("new-game").addEventListener("click", newGame);
  $("take-back").addEventListener("click", takeBack);
  $("load").addEventListener("click", load);
  $("restart").addEventListener("click", () => restart());
  $("flip").addEventListener("click", () => {
    S.flip = !S.flip;
    if (S.applied) render();
  });
  $("back-to-game").addEventListener("click", backToGame);
  $("clear-hash").addEventListener("click", () => engine.send(["setoption name Clear Hash"]).catch(() => {}));
  $("step-back").addEventListener("click", () => goTo(S.ply - 1));
  $("step-on").addEventListener("click", () => goTo(S.ply + 1));
  document.addEventListener("keydown", keys);
  $("copy").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText($("fen-text").value));
  for (const id of ["p1", "p2", "pause"]) {
    $(id).addEventListener("change", () => {
      if (S.applied && !S.thinking && S.result === "none" && enginesTurn() && !$("pause").checked) think();
      else if (S.applied) render();
      Clock.sync();
    });
  }
  Clock.init();
  try {
    await startEngine();
  } catch (err) {
    return;
  }
  const r = await engine.send(["ugi"]);
  fillOptions(r.out[0]);
  Levels.init(r.out[0]);
  Analysis.init(r.out[0]);
  presetControls();
  Records.init();
  window.morelliReadyMs = Math.round(performance.now() - pageStart);
  if (!(await Records.fromLink())) {
    const refused = $("error").textContent;
    await newGame();
    if (refused) showError(refused); /* a link refused: said, and a new game instead */
  }
}

main();
