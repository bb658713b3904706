/*
 * test_web.js -- make test-web: the page in build/web/ played in Debian's
 * chromium, driven by playwright-core, served on loopback.
 *
 * Games are played by clicking squares (and, where several moves name the
 * same squares, the page's move buttons); the moves are picked at random
 * (fixed seed) from the page's list of legal moves.  Every game's move list,
 * as the page shows it, is then replayed by the native engine (build/morelli,
 * MORELLI_BIN), which must accept every move and agree on the result.  The
 * expected error texts and the positions used live in tests/data/web.txt.
 * Screenshots go to build/web-test/; with WEB_DOCS=1 one per game is also
 * written to docs/.  tests/web/features.js and tests/web/tables.js hold the
 * rest of the tests.
 *
 *   node tests/web/test_web.js      (from the repository's top; make test-web)
 */
"use strict";
const fs = require("fs");
const path = require("path");
const http = require("http");
const zlib = require("zlib");
const { execFileSync } = require("child_process");
const { chromium } = require(path.resolve("build/npm/node_modules/playwright-core"));

const ROOT = path.resolve("build/web");
const SHOTS = path.resolve("build/web-test");
const NATIVE = process.env.MORELLI_BIN || "build/morelli";
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const DATA = readData("tests/data/web.txt");

/* tests/data/web.txt: "key: value" lines, '#' comments. */
function readData(file) {
  const d = {};
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const m = line.match(/^([\w-]+):\s?(.*)$/);
    if (m && !line.startsWith("#")) d[m[1]] = m[2];
  }
  return d;
}

let failures = 0, passes = 0, buttonMoves = 0;
function check(cond, what) {
  if (cond) {
    passes++;
  } else {
    failures++;
    console.log("FAIL: " + what);
  }
}

/* The Morris tables with one file spoilt (tests/web/tables.js): tables-bad/
 * has it corrupt (a payload byte changed), tables-gone/ lacks it. */
const SPOILT = "morris-plain-fly-3v3.mtb.gz";
function spoiltTables() {
  const raw = zlib.gunzipSync(fs.readFileSync(path.join(ROOT, "tables", SPOILT)));
  raw[raw.length >> 1] ^= 0x55;
  return { ["/tables-bad/" + SPOILT]: zlib.gzipSync(raw), ["/tables-gone/" + SPOILT]: null };
}

/* A small static server for build/web/ on 127.0.0.1 (any free port). */
function serve() {
  const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };
  const spoilt = spoiltTables();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://x");
    if (url.pathname in spoilt) {
      res.writeHead(spoilt[url.pathname] ? 200 : 404);
      res.end(spoilt[url.pathname] || "not found");
      return;
    }
    const name = url.pathname.replace(/^\/tables-(bad|gone)\//, "/tables/");
    const file = path.join(ROOT, path.normalize(name === "/" ? "/index.html" : name));
    if (!file.startsWith(ROOT) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404);
      res.end("not found");
      return;
    }
    res.writeHead(200, { "Content-Type": types[path.extname(file)] || "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/* A fixed-seed generator (xorshift32). */
let seed = 12345;
function rand(n) {
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed % n;
}

const state = (page) => page.evaluate(() => {
  const S = window.morelliPage;
  return { fen: S.fen, moves: S.moves.slice(), legal: S.legal.slice(), result: S.result,
           side: S.side, thinking: S.thinking, applied: S.applied, startFen: S.startFen };
});

function squaresOf(move) {
  return move.replace(/^[a-z]@/i, "").match(/[a-z]\d+|\d+/gi) || [];
}

/* Waits until the page is idle: the engine not thinking, and the position
 * asked for after the last move drawn. */
async function idle(page, wantMoves) {
  await page.waitForFunction((n) => {
    const S = window.morelliPage;
    const line = "position " + S.start + (S.moves.length ? " moves " + S.moves.join(" ") : "");
    return S.applied && !S.thinking && S.shown === line && (n === undefined || S.moves.length >= n);
  }, wantMoves, { timeout: 20000 });
  await page.waitForTimeout(30);
}

/* Plays move by clicking its squares; checks each next square is offered. */
async function clickMove(page, move) {
  const before = (await state(page)).moves.length;
  const sq = squaresOf(move);
  for (let i = 0; i < sq.length; i++) {
    if (i > 0) {
      const offered = await page.$(`#board [data-sq="${sq[i]}"].next`);
      check(offered, `after ${sq.slice(0, i).join(",")} the square ${sq[i]} of ${move} is offered`);
    }
    await page.click(`#board [data-sq="${sq[i]}"]`);
  }
  if ((await state(page)).moves.length === before) {
    const button = await page.$(`#choices button[data-move="${move}"]`);
    check(button, `${move}: a button offers it after its squares`);
    if (button) {
      await button.click();
      buttonMoves++;
    }
  }
  await idle(page, before + 1);
  const s = await state(page);
  check(s.moves[before] === move, `clicking ${sq.join(",")} played ${move} (list: ${s.moves.slice(before)})`);
}

/* The page with its controls preset by the query string. */
async function open(browser, query) {
  const page = await browser.newPage({ viewport: { width: 1000, height: 780 } });
  page.on("pageerror", (e) => check(false, "page error: " + e.message));
  await page.goto(`${BASE}/?${query}`);
  await page.waitForFunction(() => window.morelliPage && window.morelliPage.applied, null, { timeout: 20000 });
  await idle(page);
  return page;
}

/* The native engine replays the page's game: every move legal, same result. */
function nativeReplay(game, opts, s) {
  const args = [`--UCI_Variant=${game}`].concat(opts.map((o) => `--${o}`));
  args.push("position", "fen", ...s.startFen.split(" "));
  if (s.moves.length) args.push("moves", ...s.moves);
  args.push("query", "result");
  let out, ok = true;
  try {
    out = execFileSync(NATIVE, args, { encoding: "utf8" });
  } catch (e) {
    ok = false;
    out = String(e.stdout) + String(e.stderr);
  }
  check(ok && !/error/.test(out), `${game}: the native engine accepts the page's ${s.moves.length} moves (${out.trim().slice(0, 200)})`);
  const m = out.match(/response (\S+)/);
  check(m && m[1] === s.result, `${game}: native result ${m && m[1]} = page result ${s.result}`);
}

/* The pieces drawn are the pieces of the FEN. */
async function drawnAsFen(page, game) {
  const s = await state(page);
  const board = s.fen.split(" ")[0];
  const inFen = game === "fano" ? (board.match(/[CTct]/g) || []).length : (board.match(/[bwBW]/g) || []).length;
  const drawn = await page.$$eval("#board .stone, #board .piece", (e) => e.length);
  check(drawn === inFen, `${game}: ${drawn} pieces drawn, ${inFen} in the FEN ${s.fen}`);
}

async function shot(page, name) {
  await drawnAsFen(page, name);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, name + ".png") });
  await docShot(page, name);
}

/* With WEB_DOCS=1, the board area as docs/web-<name>.png, narrow (small
 * files). */
async function docShot(page, name) {
  if (process.env.WEB_DOCS !== "1") return;
  const size = page.viewportSize();
  await page.setViewportSize({ width: 420, height: size.height });
  await page.locator("#board-area").screenshot({ path: path.join("docs", "web-" + name + ".png") });
  await page.setViewportSize(size);
}

/* Plays random legal moves by clicks until the game ends (or maxPlies),
 * the engine answering when it is its turn; prefer(move) picks first. */
async function playOut(page, maxPlies, prefer) {
  for (let ply = 0; ply < maxPlies; ply++) {
    const s = await state(page);
    if (s.result !== "none") return s;
    const mine = await page.evaluate(() => document.getElementById(window.morelliPage.side).value === "human");
    if (!mine) {
      await idle(page, s.moves.length + 1);
      continue;
    }
    let pool = s.legal.filter(prefer || (() => false));
    if (!pool.length) pool = s.legal;
    await clickMove(page, pool[rand(pool.length)]);
  }
  return state(page);
}

async function morelliGame(browser) {
  const page = await open(browser, "game=morelli&opt-BoardSize=9&p1=human&p2=engine&movetime=40");
  const s0 = await state(page);
  check(/^bwwwwwwww\//.test(s0.fen), `Morelli 9x9 start FEN (${s0.fen})`);
  check(await page.$$eval("#board .throne", (t) => t.length) === 1, "Morelli: the Throne is drawn");
  const s = await playOut(page, 400);
  check(s.result !== "none", `Morelli 9x9 played to its end (${s.moves.length} plies, ${s.result})`);
  check(await page.isVisible("#result"), "Morelli: the result is shown");
  check(/^(Black|White) wins: (Black|White) has no move; (Black|White) holds the Throne\.$|^Draw: (Black|White) has no move; the Throne is empty\.$/
    .test(await page.textContent("#result")), "Morelli: the result's reason in words");
  console.log(`morelli 9x9: ${s.moves.length} plies, ${s.result}: ${await page.textContent("#result")}`);
  nativeReplay("morelli", ["BoardSize=9"], s);
  await shot(page, "morelli");

  /* Take-back: one move back (or two, to the person's turn). */
  const n = s.moves.length;
  await page.click("#take-back");
  await idle(page);
  const t = await state(page);
  check(t.moves.length < n && t.moves.length >= n - 2, `take-back: ${n} -> ${t.moves.length} moves`);
  check(t.result === "none" && t.side === "p1", "take-back: the game goes on, the person to move");
  check(JSON.stringify(t.moves) === JSON.stringify(s.moves.slice(0, t.moves.length)), "take-back keeps the earlier moves");
  await page.close();
}

/* Morelli's placement phase (Setup=pairs, 11x11), person against person. */
async function placementGame(browser) {
  const page = await open(browser, "game=morelli&opt-BoardSize=11&opt-Setup=pairs&p1=human&p2=human");
  const s0 = await state(page);
  check(!/[bw]/.test(s0.fen.split(" ")[0]), `pairs: the board starts empty (${s0.fen})`);
  check(await page.getAttribute("#opt-SetupSeed", "title") === DATA["seed-range"], "the seed field shows the engine's range");
  const s = await playOut(page, 8);
  check(s.moves.length === 8 && s.moves.every((m) => squaresOf(m).length === 1),
    `pairs: 8 placements by single clicks (${s.moves.join(" ")})`);
  check(Object.keys(await page.evaluate(() => window.morelliPage.cells)).length === 16,
    "pairs: each placement puts two stones on the board");
  nativeReplay("morelli", ["BoardSize=11", "Setup=pairs"], s);
  await page.close();
}

/* Morelli classic: captures and enthronements are chosen, so several moves
 * may name the same squares; prefer them to use the move buttons. */
async function classicGame(browser) {
  const page = await open(browser, "game=morelli&opt-BoardSize=9&opt-Ruleset=classic&p1=human&p2=human");
  const s = await playOut(page, 40, (m) => /[x+]/.test(m));
  check(s.moves.some((m) => /[x+]/.test(m)), `classic: a capture or enthronement chosen by clicks (${s.moves.filter((m) => /[x+]/.test(m))})`);
  nativeReplay("morelli", ["BoardSize=9", "Ruleset=classic"], s);
  await page.close();
}

async function morrisGame(browser) {
  const page = await open(browser, "game=morris&opt-Diagonals=true&p1=human&p2=human&movetime=40");
  check(await page.$$eval("#board .morris-line", (l) => l.length) === 20, "Morris with diagonals: 20 lines drawn");
  /* Person against person: prefer mills (a move with a removal). */
  let s, removal = null;
  for (let ply = 0; ply < 200 && !removal; ply++) {
    s = await state(page);
    if (s.result !== "none") break;
    const mills = s.legal.filter((m) => m.includes("x"));
    const move = mills.length ? mills[rand(mills.length)] : s.legal[rand(s.legal.length)];
    const before = await page.evaluate(() => Object.assign({}, window.morelliPage.cells));
    await clickMove(page, move);
    if (move.includes("x")) {
      removal = move;
      const gone = move.split("x")[1];
      const after = await page.evaluate(() => Object.assign({}, window.morelliPage.cells));
      check(before[gone] && !after[gone], `${move}: the piece on ${gone} is removed from the board`);
      check(await page.$(`#board [data-sq="${gone}"].changed`) || await page.$(`#board [data-sq="${gone}"].last`),
        `${move}: the removal is marked on the board`);
    }
  }
  check(removal, `Morris: a mill closed and a piece removed (${removal})`);
  console.log(`morris: removal ${removal} after ${(await state(page)).moves.length} plies`);
  await shot(page, "morris");
  nativeReplay("morris", ["Diagonals=true"], await state(page));
  await page.close();
}

async function fanoGame(browser) {
  const page = await open(browser, "game=fano&p1=human&p2=engine&movetime=40");
  const s = await playOut(page, 60);
  console.log(`fano: ${s.moves.length} plies, ${s.result}`);
  check(s.moves.some((m) => m.includes("@")), "Fano: placements played (by the shape buttons)");
  nativeReplay("fano", [], s);
  await shot(page, "fano");
  await page.close();
}

/* A pasted FEN with moves, played on; then the bad inputs. */
async function pasteAndErrors(browser) {
  const page = await open(browser, "game=morelli&opt-BoardSize=9&p1=human&p2=human&movetime=40");
  await page.fill("#fen-text", "position fen " + DATA["paste-morelli"]);
  await page.click("#load");
  await idle(page);
  let s = await state(page);
  check(s.fen === DATA["paste-morelli-fen"], `pasted FEN with moves: position ${s.fen}`);
  check(await page.textContent("#error") === "", "pasted FEN: no error");
  const pasted = s.moves.length;
  await clickMove(page, s.legal[rand(s.legal.length)]);
  await clickMove(page, (await state(page)).legal[0]);
  s = await state(page);
  check(s.moves.length === pasted + 2, "played on from the pasted position");
  nativeReplay("morelli", ["BoardSize=9"], s);

  const cases = [
    ["bad FEN", "#fen-text", DATA["bad-fen"], "#load", DATA["bad-fen-error"]],
    ["illegal move list", "#fen-text", DATA["bad-moves"], "#load", DATA["bad-moves-error"]],
    ["out-of-range option", "#opt-SetupSeed", DATA["bad-seed"], "#new-game", DATA["bad-seed-error"]],
  ];
  for (const [what, input, text, button, error] of cases) {
    const before = await state(page);
    await page.fill(input, text);
    await page.click(button);
    await page.waitForFunction(() => document.getElementById("error").textContent !== "", null, { timeout: 10000 });
    await idle(page);
    const shown = await page.textContent("#error");
    check(shown.includes(error), `${what}: the engine's error is shown (${shown})`);
    const after = await state(page);
    check(after.fen === before.fen && JSON.stringify(after.moves) === JSON.stringify(before.moves),
      `${what}: the position is kept`);
    /* And the engine holds it too: its legal moves are the page's. */
    await page.click("#take-back");
    await idle(page);
    const back = await state(page);
    check(back.moves.length === before.moves.length - 1, `${what}: the game goes on (take-back works)`);
    await clickMove(page, before.moves[before.moves.length - 1]);
  }
  await page.fill("#opt-SetupSeed", "0");
  await page.close();
}

async function crashAndRestart(browser) {
  const page = await open(browser, "game=morris&p1=human&p2=human");
  await clickMove(page, (await state(page)).legal[0]);
  const before = await state(page);
  await page.evaluate(() => window.morelliCrash());
  await page.waitForFunction(() => /restarted/.test(document.getElementById("engine-note").textContent), null, { timeout: 10000 });
  const text = await page.textContent("#engine-note");
  check(/crash/.test(text), `a crashed worker is reported and restarted (${text})`);
  await idle(page);
  const after = await state(page);
  check(after.fen === before.fen && after.legal.length === before.legal.length, "restarted without reload: same position");
  await clickMove(page, after.legal[0]);
  await page.close();

  const broken = await browser.newPage();
  await broken.goto(`${BASE}/?wasm=missing.wasm`);
  await broken.waitForSelector("#restart:not([hidden])", { timeout: 10000 });
  const t = await broken.textContent("#engine-state");
  check(/did not load/.test(t), `an engine that does not load is reported (${t})`);
  await broken.close();
}

/* Time from opening the page to the engine's first move (engine first). */
async function firstMove(browser) {
  const times = [];
  for (let i = 0; i < 3; i++) {
    const page = await browser.newPage();
    await page.goto(`${BASE}/?game=morelli&p1=engine&p2=human&level=full&movetime=${DATA["first-move-ms"]}`);
    await page.waitForFunction(() => window.morelliFirstMoveMs, null, { timeout: 20000 });
    times.push(await page.evaluate(() => [window.morelliReadyMs, window.morelliFirstMoveMs]));
    await page.close();
  }
  console.log(`page open -> engine ready / first engine move (Morelli 13x13, movetime ${DATA["first-move-ms"]} ms): ` +
    times.map((t) => `${t[0]}/${t[1]} ms`).join(", "));
}

let BASE;
(async () => {
  const t0 = Date.now();
  const server = await serve();
  BASE = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  try {
    const helpers = {
      check, open, state, idle, clickMove, DATA, rand, nativeReplay, playOut, squaresOf, docShot, base: () => BASE,
      writeFile: (name, text) => {
        fs.mkdirSync(SHOTS, { recursive: true });
        fs.writeFileSync(path.join(SHOTS, name), text);
      },
    };
    const features = require("./features.js")(helpers).concat(require("./tables.js")(helpers));
    const only = process.env.WEB_ONLY; /* a test's name: run only that one */
    const tests = [morelliGame, placementGame, classicGame, morrisGame, fanoGame, pasteAndErrors, crashAndRestart, firstMove]
      .concat(features).filter((f) => !only || f.name === only);
    for (const t of tests) {
      try {
        await t(browser);
      } catch (e) {
        check(false, `${t.name}: ${e.stack}`);
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  console.log(`moves played through the move buttons: ${buttonMoves}`);
  if (!process.env.WEB_ONLY) check(buttonMoves > 0, "some moves were chosen with the move buttons");
  console.log(`\ntest-web: ${passes} checks passed, ${failures} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  process.exit(failures ? 1 : 0);
})();
