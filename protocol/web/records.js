/*
 * records.js -- the result in words, PGN export and import, and the share
 * link (docs/web.md).
 *
 * PGN is the match runner's (docs/match.md): the seven-tag roster, then
 * Variant, Options (the game options, `Name=value` by spaces), TimeControl,
 * SetUp and FEN, Termination, Reason, PlyCount; `1-0` a win of White, so
 * Morelli's first player (Black) opens with `1...`.  Import reads the tags
 * Variant, Options and FEN and the moves (comments, variations, move
 * numbers and the result dropped); the engine checks them before the game
 * on the board is given up.  A link carries the same in its hash:
 * #game=<variant>&options=<Name=value ...>&fen=<start FEN>&moves=<m1 m2 ...>
 */
"use strict";

const Records = (() => {
  function timeText() {
    return `${sideColour(otherSide(S.timeLoss))} wins on time: ${sideColour(S.timeLoss)}'s flag fell.`;
  }

  /* Why the position itself ends the game. */
  function byPosition() {
    const game = S.applied.game, mover = sideColour(S.side);
    const winner = S.result === "draw" ? null : S.result === "p1win" ? "p1" : "p2";
    if (game === "morelli") {
      return `${mover} has no move; ` + (winner ? `${sideColour(winner)} holds the Throne` : "the Throne is empty");
    }
    if (game === "fano") {
      return winner === S.side
        ? `${sideColour(otherSide(S.side))} made three in a line (one colour or one shape) and so lost`
        : `${mover} has no move`;
    }
    if (!winner) return "the board is full and no one can move";
    const loser = sideColour(otherSide(winner)), f = S.fen.split(" ");
    const onBoard = (f[0].match(loser === "White" ? /W/g : /B/g) || []).length;
    const left = onBoard + Number(loser === "White" ? f[2] : f[3]);
    return left < 3 ? `${loser} is down to ${left} pieces` : `${loser} has no move (blocked)`;
  }

  /* Why the game's history ends it. */
  function byHistory() {
    if (S.applied.game === "fano") return "a position came back (a repeated position is a draw)";
    return moveRule() ? `the MoveRule: ${S.fen.split(" ")[4]} plies without a removal` : "the same position a third time (repetition)";
  }

  /* A Morris draw by the MoveRule (the FEN counts the plies, so the bare
   * position says draw too). */
  function moveRule() {
    const rule = Number((S.dOptions.match(/MoveRule=(\d+)/) || [, 0])[1]);
    return S.applied.game === "morris" && S.result === "draw" && rule > 0 && Number(S.fen.split(" ")[4]) >= rule;
  }

  /* The result in words; the position and the history told apart by
   * asking the engine about the bare FEN. */
  async function resultText(gen) {
    if (S.timeLoss && atGameEnd()) return timeText();
    const r = await engine.send([`position fen ${S.fen}`, "query result", positionLine()]);
    if (gen !== S.gen) return null;
    const bare = lineAfter(r.out[1], "response ") || "none";
    const who = S.result === "draw" ? "Draw" : `${sideColour(S.result === "p1win" ? "p1" : "p2")} wins`;
    S.reason = bare === S.result && !moveRule() ? byPosition() : byHistory();
    const text = `${who}: ${S.reason}.`;
    if (atGameEnd()) S.end = { result: S.result, reason: S.reason, plies: S.line.length };
    return text;
  }

  function pgnResult(result) {
    if (!result || result === "none") return "*";
    if (result === "draw") return "1/2-1/2";
    return sideColour(result === "p1win" ? "p1" : "p2") === "White" ? "1-0" : "0-1";
  }

  function gameOptions() {
    return GAME_OPTIONS[S.applied.game].map((n) => `${n}=${S.applied.options[n]}`).join(" ");
  }

  function player(side) {
    return $(side).value === "engine" ? `morelli (${$("level").selectedOptions[0].textContent})` : "person";
  }

  function exportPgn() {
    const line = S.game ? S.game.line : S.line;
    const end = S.timeLoss ? { result: S.timeLoss === "p1" ? "p2win" : "p1win", reason: timeText() }
      : S.end && S.end.plies === line.length ? S.end : null;
    const d = new Date(), pad = (n) => String(n).padStart(2, "0");
    const white = sideColour("p1") === "White" ? "p1" : "p2";
    const tags = [
      ["Event", "morelli web game"], ["Site", "?"],
      ["Date", `${d.getFullYear()}.${pad(d.getMonth() + 1)}.${pad(d.getDate())}`], ["Round", "-"],
      ["White", player(white)], ["Black", player(otherSide(white))], ["Result", pgnResult(end && end.result)],
      ["Variant", S.applied.game], ["P1", player("p1")], ["P2", player("p2")],
    ];
    if (gameOptions()) tags.push(["Options", gameOptions()]);
    tags.push(["TimeControl", S.tc ? `${S.tc.base}+${S.tc.inc} ms` : `movetime ${S.applied.movetime}`]);
    tags.push(["SetUp", "1"], ["FEN", S.startFen]);
    tags.push(["Termination", !end ? "unterminated" : S.timeLoss ? "time forfeit" : "rules"]);
    if (end) tags.push(["Reason", end.reason]);
    tags.push(["PlyCount", String(line.length)]);
    let text = tags.map(([k, v]) => `[${k} "${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"]`).join("\n") + "\n\n";
    let side = S.startFen.trim().split(/\s+/)[1] === "w" ? "w" : "b", no = 1, row = "";
    const items = [];
    line.forEach((m, i) => {
      if (side === "w") items.push(`${no}. ${m}`);
      else items.push(i === 0 ? `${no}... ${m}` : m);
      if (side === "b") no++;
      side = side === "w" ? "b" : "w";
    });
    items.push(pgnResult(end && end.result));
    for (const it of items) {
      if (row && row.length + 1 + it.length > 79) {
        text += row + "\n";
        row = "";
      }
      row += (row ? " " : "") + it;
    }
    return text + row + "\n";
  }

  /* {game, options, start, moves} from PGN text, or a thrown error text. */
  function parsePgn(text) {
    const TAG = /\[(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]/g, tags = {};
    for (const m of text.matchAll(TAG)) tags[m[1]] = m[2].replace(/\\(.)/g, "$1");
    let body = text.replace(TAG, " ").replace(/\{[^}]*\}/g, " ").replace(/;[^\n]*/g, " ");
    for (let prev = ""; prev !== body;) {
      prev = body;
      body = body.replace(/\([^()]*\)/g, " ");
    }
    if (/[[\]{}()"]/.test(body)) throw new Error("PGN: a tag, comment or variation is not closed");
    const moves = [];
    for (let t of body.split(/\s+/)) {
      t = t.replace(/^\d+\.+/, "");
      if (t && !/^(1-0|0-1|1\/2-1\/2|\*|\$\d+)$/.test(t)) moves.push(t);
    }
    if (!Object.keys(tags).length && !moves.length) throw new Error("PGN: no tags and no moves");
    const game = tags.Variant || "morelli";
    if (!GAME_OPTIONS[game]) throw new Error(`PGN: unknown Variant "${game}" (morelli, morris or fano)`);
    return { game, options: optionsFrom(game, tags.Options || ""), start: tags.FEN ? "fen " + tags.FEN : "startpos", moves };
  }

  function optionsFrom(game, text) {
    const o = {};
    for (const kv of text.split(/[\s,]+/).filter(Boolean)) {
      const [k, v] = kv.split("=");
      if (GAME_OPTIONS[game].includes(k) && v !== undefined) o[k] = v;
    }
    return o;
  }

  /* The controls a record sets, to put back when the engine refuses it. */
  function snapshot() {
    return [...document.querySelectorAll("#game, #game-box .opts input, #game-box .opts select")]
      .map((c) => [c, c.type === "checkbox" ? c.checked : c.value]);
  }
  function restore(snap) {
    for (const [c, v] of snap) {
      if (c.type === "checkbox") c.checked = v;
      else c.value = v;
    }
    showGameOptions();
  }

  async function loadRecord(rec) {
    const snap = snapshot();
    $("game").value = rec.game;
    for (const [k, v] of Object.entries(rec.options)) {
      const c = $("opt-" + k);
      if (c.type === "checkbox") c.checked = v === "true";
      else c.value = v;
    }
    showGameOptions();
    const want = readControls();
    if (!want.movetime.match(/^\d+$/)) want.movetime = "1000";
    if (!(await setGame(want, rec.start, rec.moves))) {
      restore(snap);
      return false;
    }
    Clock.reset();
    await refresh(true);
    return true;
  }

  async function importPgn() {
    let rec;
    try {
      rec = parsePgn($("pgn-text").value);
    } catch (e) {
      showError(e.message);
      return false;
    }
    return loadRecord(rec);
  }

  function link() {
    const p = new URLSearchParams();
    p.set("game", S.applied.game);
    if (gameOptions()) p.set("options", gameOptions());
    p.set("fen", S.startFen);
    const line = S.game ? S.game.line : S.line;
    if (line.length) p.set("moves", line.join(" "));
    return location.href.replace(/#.*$/, "") + "#" + p.toString();
  }

  /* The game of the page's link (location.hash), if it has one. */
  async function fromLink() {
    const p = new URLSearchParams(location.hash.slice(1));
    if (!p.get("game")) return false;
    const game = p.get("game");
    if (!GAME_OPTIONS[game]) {
      showError(`link: unknown game "${game}" (morelli, morris or fano)`);
      return false;
    }
    return loadRecord({ game, options: optionsFrom(game, p.get("options") || ""),
                        start: p.get("fen") ? "fen " + p.get("fen") : "startpos",
                        moves: (p.get("moves") || "").split(/\s+/).filter(Boolean) });
  }

  function init() {
    $("pgn-export").addEventListener("click", () => { $("pgn-text").value = exportPgn(); });
    $("pgn-import").addEventListener("click", importPgn);
    $("share").addEventListener("click", () => {
      $("share-link").value = link();
      if (navigator.clipboard) navigator.clipboard.writeText($("share-link").value).catch(() => {});
    });
    window.addEventListener("hashchange", fromLink);
  }

  return { init, resultText, timeText, exportPgn, parsePgn, fromLink, link };
})();
