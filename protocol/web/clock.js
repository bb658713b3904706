/*
 * clock.js -- the clocks (docs/web.md): a time control chosen at New game
 * (a preset, a custom one with increment, or a time per move), both sides'
 * clocks running on the page, the engine told its time with
 * `go p1time <ms> p2time <ms> p1inc <ms> p2inc <ms>`, and the game lost by
 * the side whose flag falls.
 *
 * A clock runs only while the game itself is shown and goes on: not while
 * stepping back, in a variation, in analysis, or with the engine paused.
 */
"use strict";

const Clock = (() => {
  let c = null;      /* {ms: {p1, p2}, inc, base, since, side} or null */

  function control() {
    const v = $("tc").value;
    if (v === "move") return null;
    if (v === "custom") return { base: Math.round(clampInput($("tc-base")) * 60000), inc: clampInput($("tc-inc")) * 1000 };
    const m = v.match(/^(\d+)m(?:(\d+)s)?$/); /* "5m3s": 5 minutes, 3 s a move */
    return { base: m[1] * 60000, inc: (m[2] || 0) * 1000 };
  }

  function reset() {
    const tc = control();
    c = tc ? { ms: { p1: tc.base, p2: tc.base }, inc: tc.inc, base: tc.base, since: null, side: null } : null;
    S.tc = tc;
    sync();
  }

  function running() {
    return c && S.applied && S.result === "none" && !S.timeLoss && atGameEnd() &&
      !Analysis.on() && !$("pause").checked;
  }

  function left(side) {
    if (!c) return 0;
    const run = c.since !== null && c.side === side ? performance.now() - c.since : 0;
    return Math.max(0, Math.round(c.ms[side] - run));
  }

  /* Starts or stops the clock of the side to move as the page now stands. */
  function sync() {
    if (c && running() && c.since === null) {
      c.since = performance.now();
      c.side = S.side;
    } else if (c && !running() && c.since !== null) {
      c.ms[c.side] = left(c.side);
      c.since = null;
    }
    show();
  }

  /* side has moved in the game: its time used, its increment added. */
  function moved(side) {
    if (!c || c.since === null || c.side !== side) return;
    c.ms[side] = left(side) + c.inc;
    c.since = null;
  }

  function flag(side) {
    c.ms[side] = 0;
    c.since = null;
    S.timeLoss = side;
    S.gen++; /* a search under way is for nothing now */
    S.result = side === "p1" ? "p2win" : "p1win";
    $("result").textContent = Records.timeText();
    $("result").hidden = false;
    render();
    show();
  }

  function text(ms) {
    const s = ms / 1000;
    if (s < 10) return s.toFixed(1);
    const m = Math.floor(s / 60);
    return `${m}:${String(Math.floor(s % 60)).padStart(2, "0")}`;
  }

  function show() {
    $("clocks").hidden = !c;
    if (!c) return;
    for (const side of ["p1", "p2"]) {
      const e = $("clock-" + side);
      e.textContent = `${sideColour(side)} ${text(left(side))}`;
      e.classList.toggle("running", c.since !== null && c.side === side);
      e.classList.toggle("flagged", S.timeLoss === side);
    }
  }

  function tick() {
    if (c && c.since !== null && left(c.side) <= 0) flag(c.side);
    else show();
  }

  /* The engine's go: on its clock, or the time per move. */
  function goLine() {
    if (!c) return `go movetime ${S.applied.movetime}`;
    return `go p1time ${left("p1")} p2time ${left("p2")} p1inc ${c.inc} p2inc ${c.inc}`;
  }

  /* The longest a move may take by the clock (for the watchdog). */
  function bound() { return c ? left(S.side) : Number(S.applied.movetime); }

  function showCustom() { $("tc-custom").hidden = $("tc").value !== "custom"; }

  function init() {
    $("tc").addEventListener("change", showCustom);
    showCustom();
    setInterval(tick, 100);
  }

  return { init, reset, sync, moved, goLine, bound, left, showCustom };
})();
