/*
 * features.js -- make test-web, second part (run by test_web.js): the
 * board's tools (flip, hands, the mill prompt, sounds, the Throne), the
 * result in words, clocks, levels, analysis and stepping, PGN and links,
 * bad records, and an engine that hangs.  Expected texts live in
 * tests/data/web.txt.
 */
"use strict";
const fs = require("fs");

module.exports = (t) => {
  const { check, open, state, idle, clickMove, DATA, rand, nativeReplay } = t;
  const list = (key) => DATA[key].split("|");
  const unescape = (s) => s.replace(/\\n/g, "\n");

  /* Morris: hands, flip, the mill prompt, sounds. */
  async function boardTools(browser) {
    const page = await open(browser, "game=morris&p1=human&p2=human");
    check(await page.$$eval('.hand[data-side="White"] .stone', (e) => e.length) === 9, "Morris: White's 9 pieces in hand drawn");
    check(!(await page.isChecked("#sound")), "sounds are off at first");
    await page.check("#sound");
    const box = async (sq) => (await page.$(`#board [data-sq="${sq}"]`)).boundingBox();
    const a1 = await box("a1"), g7 = await box("g7");
    check(a1.y > g7.y && a1.x < g7.x, "Morris: a1 at the bottom left");
    await page.click("#flip");
    const b1 = await box("a1"), h7 = await box("g7");
    check(b1.y < h7.y && b1.x > h7.x, "flipped: a1 at the top right");
    let prompted = false;
    for (let ply = 0; ply < 200 && !prompted; ply++) {
      const s = await state(page);
      if (s.result !== "none") break;
      const mills = s.legal.filter((m) => m.includes("x"));
      if (!mills.length) {
        await clickMove(page, s.legal[rand(s.legal.length)]);
        continue;
      }
      const m = mills[0], before = m.split("x")[0];
      for (const sq of before.match(/[a-g]\d/g)) await page.click(`#board [data-sq="${sq}"]`);
      const text = await page.textContent("#prompt");
      check(/^Mill! Click a piece of (Black|White)'s to remove it\.$/.test(text), `a mill closed by clicks: the prompt says so (${text})`);
      prompted = true;
      await t.docShot(page, "mill");
      await page.click(`#board [data-sq="${m.split("x")[1]}"]`);
      await idle(page, s.moves.length + 1);
      check((await state(page)).moves.slice(-1)[0] === m, `the removal played ${m}`);
      check(await page.textContent("#prompt") === "", "the prompt is gone after the removal");
    }
    check(prompted, "Morris: a mill reached");
    const s = await state(page);
    check(await page.evaluate(() => window.morelliPage.sounds) === s.moves.length, `a sound for each move (${s.moves.length})`);
    await page.close();
  }

  /* The Throne apart from the last move; the MoveRule in words. */
  async function throneAndReasons(browser) {
    let page = await open(browser, "game=morelli&opt-BoardSize=9&p1=human&p2=human");
    await clickMove(page, (await state(page)).legal[0]);
    const throne = await page.$eval("#board .throne", (e) => [e.tagName, getComputedStyle(e).stroke]);
    const last = await page.$eval("#board .sq.last .mark", (e) => getComputedStyle(e).stroke);
    check(throne[0] === "path" && throne[1] !== last, `the Throne (${throne}) is drawn apart from the last move's mark (${last})`);
    await page.close();

    page = await open(browser, "game=morris&opt-MoveRule=2&p1=human&p2=human");
    await page.fill("#fen-text", DATA["moverule-fen"]);
    await page.click("#load");
    await page.waitForFunction((f) => window.morelliPage.fen === f, DATA["moverule-fen"]);
    await idle(page);
    for (const m of DATA["moverule-moves"].split(" ")) await clickMove(page, m);
    await page.waitForSelector("#result:not([hidden])");
    check(await page.textContent("#result") === DATA["moverule-result"], `MoveRule result in words (${await page.textContent("#result")})`);
    await page.close();
  }

  /* The engine on its clock; a flag falling; clamped fields. */
  async function clocks(browser) {
    let page = await open(browser, "game=morelli&opt-BoardSize=9&p1=human&p2=engine&tc=custom&tc-base=1&tc-inc=2&level=full");
    check(await page.isVisible("#clocks"), "clocks shown");
    await clickMove(page, (await state(page)).legal[0]);
    await idle(page, 2);
    const go = await page.evaluate(() => window.morelliPage.lastGo);
    check(/^go p1time \d+ p2time \d+ p1inc 2000 p2inc 2000$/.test(go), `the engine plays on its clock (${go})`);
    const p2 = await page.evaluate(() => Clock.left("p2"));
    check(p2 < 62000 && p2 > 0, `the engine's clock ran (${p2} ms left of 60 s + 2 s)`);
    await page.close();

    page = await open(browser, "game=morelli&opt-BoardSize=9&p1=human&p2=human&tc=custom&tc-base=0.05&tc-inc=0");
    await page.waitForFunction(() => window.morelliPage.result !== "none", null, { timeout: 20000 });
    const s = await state(page);
    check(s.result === "p2win" && await page.evaluate(() => window.morelliPage.timeLoss) === "p1", "Black's flag fell: White wins");
    check(/^White wins on time: Black's flag fell\.$/.test(await page.textContent("#result")), `time result in words (${await page.textContent("#result")})`);
    check(await page.$("#clock-p1.flagged"), "the fallen flag is shown");
    await t.docShot(page, "clock");
    await page.click("#pgn-export");
    const pgn = await page.inputValue("#pgn-text");
    check(/\[Result "1-0"\]/.test(pgn) && /\[Termination "time forfeit"\]/.test(pgn), "PGN of a game lost on time");
    const moves = s.legal.length;
    await page.click(`#board [data-sq="${t.squaresOf(s.legal[0])[0]}"]`);
    check(await page.$$eval("#board .picked", (e) => e.length) === 0 && moves > 0, "no move after the flag fell");

    for (const c of list("clamp")) {
      const [id, typed, kept] = c.split(" ");
      await page.evaluate(([i, v]) => {
        document.getElementById(i).value = v;
        document.getElementById(i).dispatchEvent(new Event("change"));
      }, [id, typed]);
      check(await page.inputValue("#" + id) === kept, `${id}: ${typed} is kept as ${kept} (${await page.inputValue("#" + id)})`);
    }
    await page.close();
  }

  /* Levels: those the page makes of this engine's `UCI_Elo`, and of
   * `Skill Level`, another engine's `UCI_Elo` or no strength option at all. */
  async function levels(browser) {
    const page = await open(browser, "game=morelli&opt-BoardSize=9&p1=human&p2=engine");
    const names = () => page.$$eval("#level option", (o) => o.map((x) => x.textContent).join("|"));
    check(await names() === DATA.levels, `levels (${await names()})`);
    check(await page.inputValue("#level") === "beginner", "the default level is Beginner");
    await clickMove(page, (await state(page)).legal[0]);
    await idle(page, 2);
    const go = await page.evaluate(() => window.morelliPage.lastGo);
    const mine = await page.evaluate(() => levelLines());
    check(!/ (depth|nodes) /.test(go + " ") && mine.join("|") === DATA["beginner-lines"],
      `Beginner plays at the engine's lowest Elo (${mine}; ${go})`);
    for (const k of ["none", "skill", "elo"]) {
      await page.evaluate((l) => Levels.init(l ? l.split("|") : []), DATA[k + "-ugi"] || "");
      check(await names() === DATA[k + "-levels"], `levels from ${k} (${await names()})`);
    }
    await page.selectOption("#level", "beginner");
    const lines = await page.evaluate(() => levelLines());
    const bad = await open(browser, "game=morelli&opt-BoardSize=9&level=master&tc=7m7s&tc-base=-3&movetime=40");
    check(await bad.inputValue("#level") === "beginner" && await bad.inputValue("#tc") === "move" && await bad.inputValue("#tc-base") === "0.05",
      "a link's level, time control or minutes out of range cannot be chosen");
    await bad.close();
    check(lines.join("|") === "setoption name UCI_LimitStrength value true|setoption name UCI_Elo value 500", `Elo level lines (${lines})`);
    await page.close();
  }

  /* Analysis, a line's move played, stepping, a variation, back to the game. */
  async function analysis(browser) {
    const page = await open(browser, "game=morelli&opt-BoardSize=9&p1=human&p2=human");
    for (let i = 0; i < 3; i++) await clickMove(page, (await state(page)).legal[rand(20)]);
    const game = (await state(page)).moves;
    await page.check("#analyse");
    check(await page.isVisible("#lines-n-box"), "the engine lists MultiPV: a line count to choose");
    await page.waitForSelector("#lines .line button");
    check(/^Win chance for (Black|White): \d+% \(WDL\)$/.test(await page.textContent("#winchance")), `win chance from the engine's WDL (${await page.textContent("#winchance")})`);
    const mover = (await page.textContent("#winchance")).match(/for (\w+)/)[1];
    await t.docShot(page, "analysis");
    await page.selectOption("#persp", "p1");
    check((await page.textContent("#winchance")).startsWith("Win chance for Black"), "scores for the first player (Black)");
    /* Read and clicked at once: the lines are redrawn as the engine deepens. */
    const move = await page.$eval("#lines .line button", (b) => {
      b.click();
      return b.dataset.move;
    });
    await idle(page, 4);
    let s = await state(page);
    check(s.moves.length === 4 && s.moves[3] === move && mover === "White", `a line's move played by a click (${move})`);
    await page.click("#status"); /* the keys are the list's, not the last field's */
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await idle(page);
    s = await state(page);
    check(s.moves.join(" ") === game.slice(0, 2).join(" "), `two moves back with the arrow key (${s.moves})`);
    const other = s.legal.find((m) => m !== game[2]);
    await clickMove(page, other);
    check(await page.isVisible("#variation"), "a move from an earlier position starts a variation");
    await page.click("#back-to-game");
    await idle(page);
    s = await state(page);
    check(s.moves.join(" ") === game.concat([move]).join(" "), "back to the game: its moves kept");
    /* The full path: MultiPV lines with WDL, as such an engine prints them. */
    await page.evaluate((ls) => { for (const l of ls.split("|")) Analysis.info(l, window.morelliPage.gen, -1); }, DATA["wdl-info"]);
    await page.selectOption("#persp", "mover");
    check(await page.$$eval("#lines .line", (e) => e.length) === 2, `two MultiPV lines shown (${await page.$$eval("#lines .line", (e) => e.map((x) => x.textContent).join(" / "))})`);
    check((await page.textContent("#winchance")).endsWith(DATA["wdl-chance"]), `win chance from WDL (${await page.textContent("#winchance")})`);
    await page.click('#move-list li[data-ply="1"]');
    await idle(page);
    check((await state(page)).moves.length === 1, "the move list steps to a move");
    await page.keyboard.press("End");
    await idle(page);
    check((await state(page)).moves.length === 4, "End: the game's last position");
    await page.close();
  }

  /* PGN out and in, a link, and bad records refused. */
  async function records(browser) {
    let page = await open(browser, "game=morelli&opt-BoardSize=9&p1=human&p2=engine&movetime=20");
    const s = await t.playOut(page, 300);
    await page.click("#pgn-export");
    const pgn = await page.inputValue("#pgn-text");
    const res = { p1win: "0-1", p2win: "1-0", draw: "1/2-1/2" }[s.result];
    check(new RegExp(`\\[Result "${res.replace("/", "\\/")}"\\]`).test(pgn) && /\n1\.\.\. /.test(pgn) &&
      /\[Variant "morelli"\]/.test(pgn) && /\[Options "BoardSize=9 /.test(pgn) && /\[Reason "/.test(pgn),
      `Morelli PGN: Black opens with 1..., result ${res}`);
    t.writeFile("morelli.pgn", pgn);
    await page.click("#share");
    const link = await page.inputValue("#share-link");
    await page.close();

    /* A record the match runner wrote, read back and written again. */
    page = await open(browser, "game=fano&p1=human&p2=human");
    const match = fs.readFileSync("tests/data/web_match.pgn", "utf8");
    await page.fill("#pgn-text", match);
    await page.click("#pgn-import");
    await idle(page, Number(DATA["match-pgn-plies"]));
    const m = await state(page);
    check(m.moves.length === Number(DATA["match-pgn-plies"]) && m.result === DATA["match-pgn-result"],
      `the match runner's PGN imported: ${m.moves.length} plies, ${m.result}`);
    nativeReplay("morelli", ["BoardSize=9"], m);
    await page.click("#pgn-export");
    const again = await page.inputValue("#pgn-text"), tokens = (p) => p.replace(/\[[^\]]*\]|\{[^}]*\}/g, " ").split(/\s+/).filter(Boolean).join(" ");
    const tag = (p, k) => (p.match(new RegExp(`\\[${k} "([^"]*)"\\]`)) || [])[1];
    check(tokens(again) === tokens(match), "exported again: the same movetext, numbers and result (comments aside)");
    check(["Result", "Variant", "FEN"].every((k) => tag(again, k) === tag(match, k)) &&
      tag(again, "Options").split(" ").includes(tag(match, "Options")),
      `exported again: the same Result, Variant and FEN tags, the options with all the game's (${tag(again, "Options")})`);
    await page.close();

    page = await open(browser, "game=fano&p1=human&p2=human");
    await page.fill("#pgn-text", pgn);
    await page.click("#pgn-import");
    await idle(page, s.moves.length);
    await page.waitForFunction(() => document.getElementById("game").value === "morelli");
    let r = await state(page);
    check(r.moves.join(" ") === s.moves.join(" ") && r.result === s.result && r.fen === s.fen, "the PGN imported: same moves, position, result");
    for (const k of ["bad-pgn", "bad-pgn-variant"]) {
      await page.fill("#pgn-text", unescape(DATA[k]));
      await page.click("#pgn-import");
      await page.waitForFunction(() => document.getElementById("error").textContent !== "");
      await idle(page);
      const shown = await page.textContent("#error");
      check(shown.includes(DATA[k + "-error"]), `${k}: refused (${shown})`);
      const after = await state(page);
      check(after.fen === r.fen && after.moves.join(" ") === r.moves.join(" ") && await page.inputValue("#game") === "morelli", `${k}: the game kept`);
    }
    await page.close();

    page = await browser.newPage();
    await page.goto(link.replace(/^http:\/\/[^/]+/, t.base()));
    await page.waitForFunction(() => window.morelliPage && window.morelliPage.applied);
    await idle(page);
    r = await state(page);
    check(r.moves.join(" ") === s.moves.join(" ") && r.fen === s.fen, "the share link opens the same game");
    await page.evaluate((h) => { location.hash = h; }, DATA["bad-link"]);
    await page.waitForFunction(() => document.getElementById("error").textContent !== "");
    await idle(page);
    check((await page.textContent("#error")).includes(DATA["bad-link-error"]), `bad link refused (${await page.textContent("#error")})`);
    check((await state(page)).moves.join(" ") === s.moves.join(" "), "bad link: the game kept");
    await page.close();
  }

  /* An engine that hangs while the engine is to move: reported, restarted,
   * the game goes on with its moves. */
  async function hang(browser) {
    const page = await open(browser, "game=morris&p1=human&p2=engine&movetime=50&watchdog=1500");
    await clickMove(page, (await state(page)).legal[0]);
    await idle(page, 2);
    const before = await state(page);
    await page.evaluate(() => window.morelliHang(60000));
    await clickMove(page, before.legal[0]);
    await page.waitForFunction(() => /restarted/.test(document.getElementById("engine-note").textContent), null, { timeout: 20000 });
    check(/^the engine did not answer within 1\.0 s; restarted with the game's moves$/.test(await page.textContent("#engine-note")),
      `the hang reported (${await page.textContent("#engine-note")})`);
    await idle(page, 4);
    const s = await state(page);
    check(s.moves.slice(0, 3).join(" ") === before.moves.concat([before.legal[0]]).join(" ") && s.moves.length === 4,
      `a hung engine restarted, the game's moves kept and the engine moved (${s.moves})`);
    nativeReplay("morris", [], s);
    await page.close();
  }

  return [boardTools, throneAndReasons, clocks, levels, analysis, records, hang];
};
