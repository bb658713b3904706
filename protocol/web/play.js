/*
 * play.js -- levels and analysis (docs/web.md).
 *
 * Both read the engine's `ugi` option list and use what it offers:
 * - Levels: with `UCI_LimitStrength` and `UCI_Elo` a level is an Elo in the
 *   engine's range (the last level full strength); with `Skill Level` a
 *   skill in its range; without either, a limit the page adds to `go`
 *   (depth 1, 2, 3, 20 000 nodes, 200 000 nodes, none).
 * - Analysis: the engine thinks on the position shown, in slices of
 *   `go movetime` (250 ms, doubling to 1 s; the module has no search
 *   thread to `stop`), until the position changes or analysis is turned
 *   off.  With `MultiPV` 1 to 5 lines; with `UCI_ShowWDL` the win chance is
 *   (W + D/2) / 1000, else 1 / (1 + exp(-0.00368208 cp)) from the score.
 */
"use strict";

/* The engine's options from `ugi`: {name: {type, def, min, max}}. */
function engineOptions(lines) {
  const o = {};
  for (const l of lines) {
    const m = l.match(/^option name (.+?) type (\w+)(?: default (\S*))?(?: min (-?\d+) max (-?\d+))?/);
    if (m) o[m[1]] = { type: m[2], def: m[3], min: Number(m[4]), max: Number(m[5]) };
  }
  return o;
}

const Levels = (() => {
  const NAMES = [["beginner", "Beginner"], ["novice", "Novice"], ["casual", "Casual"],
                 ["club", "Club"], ["strong", "Strong"], ["full", "Full strength"]];
  const LIMITS = [" depth 1", " depth 2", " depth 3", " nodes 20000", " nodes 200000", ""];
  let levels = [];

  function init(ugi) {
    const o = engineOptions(ugi);
    const elo = o.UCI_Elo && o.UCI_LimitStrength ? o.UCI_Elo : null, skill = o["Skill Level"];
    levels = NAMES.map(([key, name], k) => {
      const f = k / (NAMES.length - 1), full = k === NAMES.length - 1;
      if (elo) {
        const e = Math.round(elo.min + (elo.max - elo.min) * f);
        return { key, name: full ? name : `${name} (Elo ${e})`,
                 lines: [`setoption name UCI_LimitStrength value ${!full}`].concat(full ? [] : [`setoption name UCI_Elo value ${e}`]),
                 limit: "" };
      }
      if (skill) {
        const s = Math.round(skill.min + (skill.max - skill.min) * f);
        return { key, name: `${name} (skill ${s})`, lines: [`setoption name Skill Level value ${s}`], limit: "" };
      }
      return { key, name: LIMITS[k] ? `${name} (${LIMITS[k].trim()})` : name, lines: [], limit: LIMITS[k] };
    });
    const sel = $("level"), keep = sel.value;
    sel.innerHTML = "";
    for (const l of levels) {
      const opt = document.createElement("option");
      opt.value = l.key;
      opt.textContent = l.name;
      sel.appendChild(opt);
    }
    sel.value = keep || "beginner";
    sel.addEventListener("change", () => {
      if (engine && !engine.dead && current().lines.length) engine.send(current().lines);
    });
  }

  function current() { return levels.find((l) => l.key === $("level").value) || levels[0] || { lines: [], limit: "" }; }
  /* What `go` gets added, the setoption lines, and the watchdog's extra time. */
  function limit() { return current().limit; }
  function bound() { return current().limit ? 60000 : 0; }

  /* Analysis thinks at full strength, whatever level the game is set to. */
  function full() { return levels.length ? levels[levels.length - 1].lines : []; }

  return { init, limit, bound, lines: () => current().lines, full };
})();

function levelLines() { return Levels.lines(); }

const Analysis = (() => {
  let multipv = null, wdl = false, running = false, lines = [], slice = 0, linesGen = -1;

  function init(ugi) {
    const o = engineOptions(ugi);
    multipv = o.MultiPV || null;
    /* The engine's `Clear Hash` button, when it has one. */
    $("clear-hash").hidden = !(o["Clear Hash"] && o["Clear Hash"].type === "button");
    wdl = !!o.UCI_ShowWDL;
    $("lines-n-box").hidden = !multipv;
    $("analysis").hidden = !on();
    document.body.classList.toggle("analysing", on());
    $("analyse").addEventListener("change", toggled);
    $("persp").addEventListener("change", draw);
    $("lines-n").addEventListener("change", () => {
      clampInput($("lines-n"));
      linesGen = -1;
    });
  }

  function on() { return $("analyse").checked; }

  async function toggled() {
    $("analysis").hidden = !on();
    document.body.classList.toggle("analysing", on());
    Clock.sync();
    if (!S.applied) return;
    if (on()) {
      start();
      render();
    } else {
      /* back to one line and the game's level */
      const back = (multipv ? ["setoption name MultiPV value 1"] : []).concat(levelLines());
      if (back.length) await engine.send(back).catch(() => {});
      S.gen++;
      await refresh();
    }
  }

  /* Thinks on the position shown, slice after slice, while analysis is on. */
  async function start() {
    if (running) return;
    running = true;
    let t = 250;
    try {
      while (on() && S.applied && S.result === "none" && !engine.dead) {
        const gen = S.gen, pre = [];
        if (gen !== linesGen) {
          lines = [];
          t = 250;
          linesGen = gen;
          pre.push(...Levels.full());
          if (multipv) pre.push(`setoption name MultiPV value ${clampInput($("lines-n"))}`);
          if (wdl) pre.push("setoption name UCI_ShowWDL value true");
          draw();
        }
        slice++;
        const s = slice;
        await engine.send(pre.concat([`go movetime ${t}`]), { bound: t + SLACK, onLine: (l) => info(l, gen, s) });
        t = Math.min(2 * t, 1000);
      }
    } catch (e) {
      /* The engine failed: the page restarts it and analysis with it. */
    } finally {
      running = false;
    }
  }

  function info(line, gen, s) {
    if (gen !== S.gen || !line.startsWith("info depth ")) return;
    const num = (k) => { const m = line.match(new RegExp(` ${k} (-?\\d+)`)); return m ? Number(m[1]) : null; };
    const k = (num("multipv") || 1) - 1;
    const pv = (line.match(/ pv (.*)$/) || [, ""])[1].split(" ").filter(Boolean);
    const w = line.match(/ wdl (\d+) (\d+) (\d+)/);
    const l = { depth: num("depth"), cp: num("score cp"), mate: num("score mate"), pv, slice: s,
                wdl: w ? [+w[1], +w[2], +w[3]] : null };
    if (!pv.length || (l.cp === null && l.mate === null)) return;
    const old = lines[k];
    if (!old || old.slice === s || l.depth >= old.depth) lines[k] = l;
    draw();
  }

  /* The mover's win chance of a line, 0..1. */
  function chance(l) {
    if (l.wdl) return (l.wdl[0] + l.wdl[1] / 2) / 1000;
    if (l.mate !== null) return l.mate > 0 ? 1 : 0;
    return 1 / (1 + Math.exp(-0.00368208 * l.cp));
  }

  function draw() {
    const persp = $("persp").value === "mover" ? S.side : $("persp").value;
    const sign = persp === S.side ? 1 : -1;
    const box = $("lines");
    box.innerHTML = "";
    lines.forEach((l, i) => {
      if (!l) return;
      const row = document.createElement("div");
      row.className = "line";
      const sc = l.mate !== null ? `#${sign * l.mate}` : `${sign * l.cp >= 0 ? "+" : ""}${(sign * l.cp / 100).toFixed(2)}`;
      row.append(`${i + 1}. ${sc} d${l.depth} `);
      const b = document.createElement("button");
      b.textContent = l.pv[0];
      b.dataset.move = l.pv[0];
      b.title = "play this move";
      b.addEventListener("click", () => { if (S.legal.includes(l.pv[0])) play(l.pv[0]); });
      row.appendChild(b);
      row.append(" " + l.pv.slice(1).join(" "));
      box.appendChild(row);
    });
    const best = lines[0];
    const p = best ? (sign > 0 ? chance(best) : 1 - chance(best)) : 0.5;
    $("evalbar-fill").style.height = `${Math.round(p * 100)}%`;
    $("winchance").textContent = best
      ? `Win chance for ${sideColour(persp)}: ${Math.round(p * 100)}%${best.wdl ? " (WDL)" : ""}` : "thinking…";
    S.analysisLines = lines.length;
  }

  return { init, on, start, info /* tests/web/ feeds it lines */ };
})();
