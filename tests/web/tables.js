/*
 * tables.js -- make test-web, the Morris endgame tables (run by
 * test_web.js): a 3 against 4 ending where one move of 51 wins, played by
 * the engine from the tables make web built, with the exact value shown;
 * the page without its tables, with a corrupt file and with a missing one
 * (served by test_web.js as tables-bad/ and tables-gone/), still playing;
 * and the time from opening the page to the engine's first move with and
 * without them.  Positions and texts: tests/data/web.txt ("tables-").
 */
"use strict";

module.exports = (t) => {
  const { check, state, idle, DATA, nativeReplay } = t;
  const link = (tables) => `?p1=human&p2=human&level=full&movetime=${DATA["tables-movetime"]}` +
    (tables ? `&tables=${tables}` : "") + `#game=morris&fen=${encodeURIComponent(DATA["tables-fen"])}`;
  const text = (page, id) => page.evaluate((i) => document.getElementById(i).textContent, id);

  /* The page at the ending (a link, which the engine does not play on by
   * itself), then the engine made White: after its first move. */
  async function openEnding(browser, tables) {
    const page = await browser.newPage({ viewport: { width: 1000, height: 780 } });
    page.on("pageerror", (e) => check(false, "page error: " + e.message));
    const warnings = [];
    page.on("console", (m) => m.type() === "warning" && warnings.push(m.text()));
    await page.goto(`${t.base()}/${link(tables)}`);
    await page.waitForFunction(() => window.morelliPage && window.morelliPage.applied, null, { timeout: 20000 });
    await page.selectOption("#p1", "engine");
    await page.waitForFunction(() => window.morelliFirstMoveMs, null, { timeout: 30000 });
    await idle(page, 1);
    await page.waitForFunction(() => document.getElementById("tables-state").textContent !== "", null, { timeout: 10000 });
    return { page, warnings, ms: await page.evaluate(() => window.morelliFirstMoveMs) };
  }

  async function tablesPlay(browser) {
    const { page, ms } = await openEnding(browser);
    const s = await state(page);
    check(s.moves[0] === DATA["tables-move"], `tables: the engine plays the table's move ${DATA["tables-move"]} (${s.moves[0]})`);
    const st = await text(page, "tables-state");
    check(/^Endgame tables: 4 files, [\d.]+ MB \(3v3 3v4 4v3 4v4\), loaded in \d+ ms\.$/.test(st), `tables: loaded (${st})`);
    check(/score mate \d+/.test(await text(page, "think")), `tables: the engine's score is a won game (${await text(page, "think")})`);
    await page.waitForFunction((v) => document.getElementById("tables-value").textContent === v, DATA["tables-after"], { timeout: 10000 })
      .catch(() => {});
    check(await text(page, "tables-value") === DATA["tables-after"], `tables: after it, ${await text(page, "tables-value")}`);
    await page.click("#step-back");
    await idle(page);
    await page.waitForFunction((v) => document.getElementById("tables-value").textContent === v, DATA["tables-value"], { timeout: 10000 })
      .catch(() => {});
    check(await text(page, "tables-value") === DATA["tables-value"], `tables: before it, ${await text(page, "tables-value")}`);
    nativeReplay("morris", [], s);
    await page.close();

    const without = await openEnding(browser, "nowhere");
    const w = await state(without.page);
    const ws = await text(without.page, "tables-state");
    check(/^Endgame tables: not loaded \(nowhere\/tables\.txt: HTTP 404\); the engine plays endings without them\.$/.test(ws),
      `no tables: said (${ws})`);
    check(w.moves.length >= 1 && await without.page.isHidden("#tables-value"), `no tables: the engine moves (${w.moves[0]}), no value shown`);
    nativeReplay("morris", [], w);
    await without.page.close();
    console.log(`page open -> the engine's first move in a 3v4 ending (movetime ${DATA["tables-movetime"]} ms): ` +
      `${ms} ms with the tables (${DATA["tables-move"]}), ${without.ms} ms without (${w.moves[0]})`);
  }

  /* A corrupt file: the engine's refusal shown, the game goes on. */
  async function tablesBad(browser) {
    const { page, warnings } = await openEnding(browser, "tables-bad");
    await page.waitForFunction((r) => document.getElementById("tables-state").textContent.includes(r), DATA["tables-refused"],
      { timeout: 10000 }).catch(() => {});
    const st = await text(page, "tables-state");
    check(st.includes(DATA["tables-refused"]), `corrupt file: the engine's refusal shown (${st})`);
    check(warnings.some((w) => w === DATA["tables-refused"]), "corrupt file: the refusal in the console");
    const s = await state(page);
    check(s.moves.length >= 1, `corrupt file: the engine moves (${s.moves[0]})`);
    nativeReplay("morris", [], s);
    /* The ending's value needs the class refused (its captures lead there). */
    await page.click("#step-back");
    await idle(page);
    await page.waitForTimeout(300);
    check(await page.isHidden("#tables-value"), `corrupt file: no value for the ending (${await text(page, "tables-value")})`);
    await page.close();

    const gone = await openEnding(browser, "tables-gone");
    const g = await text(gone.page, "tables-state");
    check(g.includes(DATA["tables-gone"]) && /^Endgame tables: 3 files/.test(g), `a missing file: said, the others loaded (${g})`);
    check((await state(gone.page)).moves.length >= 1, "a missing file: the engine moves");
    await gone.page.close();
  }

  return [tablesPlay, tablesBad];
};
