/*
 * tables.js -- the Morris endgame tables in the page (docs/web.md).
 *
 * When a Morris game is set up, the worker fetches the tables of its option
 * set (Diagonals, Flying) once: the classes make web built, two bits an
 * entry (win, draw or loss), gzipped.  An engine's move in a position of at
 * most 5 pieces a side waits for them (at most WAIT ms).  While they are loaded, each position
 * the board shows gets the engine's `solve`: in the tables, its exact value
 * is shown under the board.  A file the engine refuses (missing, corrupt)
 * is said in the engine's own words; the game goes on without it.
 */
"use strict";

const Tables = (() => {
  const WAIT = 5000;
  const st = { set: null, loaded: null, notices: [], value: "" }; /* for tests/web/ */
  window.morelliTables = st;

  function setOf(applied) {
    if (!applied || applied.game !== "morris") return null;
    return (applied.options.Diagonals === "true" ? "diag" : "plain") + "-" +
      (applied.options.Flying === "true" ? "fly" : "nofly");
  }

  const kb = (n) => (n >= 1e6 ? (n / 1e6).toFixed(1) + " MB" : Math.round(n / 1e3) + " KB");

  /* Loads the tables of the game's option set (Morris only); resolves when
   * they are in the engine or known to be missing. */
  function want(applied) {
    const set = setOf(applied);
    st.set = set;
    if (!set) {
      $("tables-state").textContent = "";
      return Promise.resolve(null);
    }
    const eng = engine;
    return eng.tables(set).then((r) => {
      if (st.set !== set || engine !== eng) return r;
      st.loaded = r.error ? null : set;
      $("tables-state").textContent = r.error
        ? `Endgame tables: not loaded (${r.error}); the engine plays endings without them.`
        : `Endgame tables: ${r.files.length} files, ${kb(r.bytes)} (${r.files.map((f) => f.match(/(\d+v\d+)/)[1]).join(" ")}), loaded in ${r.ms} ms.` +
          (r.missing.length ? ` Not loaded: ${r.missing.join("; ")}.` : "");
      $("tables-state").textContent += st.notices.length ? " " + st.notices.join(" ") : "";
      if (st.loaded) value(S.gen);
      return r;
    });
  }

  /* Whether the position shown is near the tables: at most 5 pieces a
   * side, on the board and in hand (Morris FEN: board, side, hands). */
  function near() {
    const f = (S.fen || "").split(" ");
    const count = (c, hand) => (f[0].match(new RegExp(c, "g")) || []).length + (Number(hand) || 0);
    return Math.max(count("W", f[2]), count("B", f[3])) <= 5;
  }

  /* Before the engine's move near the tables: the game's tables, or WAIT ms. */
  function ready() {
    if (!setOf(S.applied) || !near()) return Promise.resolve(null);
    return Promise.race([want(S.applied), new Promise((r) => setTimeout(r, WAIT))]);
  }

  /* A line of the engine's about its table files (a refusal): shown. */
  function notice(text) {
    console.warn(text);
    st.notices.push(text);
    $("tables-state").textContent += " " + text;
  }

  /* The exact value of the position shown, when the tables hold it. */
  async function value(gen) {
    const show = (text) => {
      st.value = text;
      $("tables-value").textContent = text;
      $("tables-value").hidden = !text;
    };
    if (!st.loaded || st.loaded !== setOf(S.applied)) return show("");
    let r;
    try {
      r = await engine.send(["solve"]);
    } catch (err) {
      return;
    }
    if (gen !== S.gen) return;
    const m = (lineAfter(r.out[0], "Value: ") || "").match(/^(win|loss) in (\d+) plies$|^(win|loss), distance unknown$|^draw$/);
    if (!m) return show("");
    const who = `${sideColour(S.side)} to move`;
    /* These files hold no distances: the engine says "win, distance unknown". */
    const kind = m[1] || m[3];
    show(`Endgame tables: ${kind === "win" ? `${who} wins` : kind === "loss" ? `${who} loses` : "draw"}` +
      (m[2] ? ` in ${m[2]} plies` : "") + ".");
  }

  return { want, ready, notice, value };
})();
