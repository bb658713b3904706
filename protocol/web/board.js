/*
 * board.js -- draws the three games' boards from a FEN as SVG.
 *
 *   Board.parse(game, fen)   -> {cells: {square: text}, side}
 *   Board.draw(svg, game, fen, marks, onClick, {diagonals, flip})
 *
 * Squares are named as in the engine's moves: Morelli `e3` (files from
 * `a`, ranks from 1 at the bottom, seen from Black), Morris `d2`, Fano
 * `1`..`7`.  Every square is an element with data-sq="<name>" that calls
 * onClick(name).  marks: {next: Set of squares to offer, picked: [...],
 * last: [...], changed: [...]}.  The drawing knows the boards' shapes only;
 * what may be played comes from the engine.  flip turns the board half
 * round (the other side at the bottom).  The Throne is a white diamond,
 * apart from the yellow frames of the last move.
 */
"use strict";

const Board = (() => {
  const NS = "http://www.w3.org/2000/svg";
  /* Morelli's bands from the Throne (0, violet) out to band 6 (red). */
  const BANDS = ["#8f4fc4", "#4b3fa8", "#2f74c8", "#3e9f4a", "#e3cf2f", "#ef8b2c", "#d8453a"];
  const MORRIS_RANKS = {
    7: "adg", 6: "bdf", 5: "cde", 4: "abcefg", 3: "cde", 2: "bdf", 1: "adg",
  };
  const MORRIS_LINES = [
    ["a1", "g1"], ["g1", "g7"], ["g7", "a7"], ["a7", "a1"],
    ["b2", "f2"], ["f2", "f6"], ["f6", "b6"], ["b6", "b2"],
    ["c3", "e3"], ["e3", "e5"], ["e5", "c5"], ["c5", "c3"],
    ["d1", "d3"], ["d5", "d7"], ["a4", "c4"], ["e4", "g4"],
  ];
  const MORRIS_DIAGONALS = [["a1", "c3"], ["g1", "e3"], ["a7", "c5"], ["g7", "e5"]];
  /* The Fano plane: 7 in the middle, 3 5 6 the corners, 2 4 1 the sides'
   * middles on the circle. */
  const FANO_XY = {
    3: [0, -1], 5: [-0.866, 0.5], 6: [0.866, 0.5],
    2: [-0.433, -0.25], 4: [0.433, -0.25], 1: [0, 0.5], 7: [0, 0],
  };
  const FANO_LINES = [[5, 3], [3, 6], [6, 5], [2, 6], [4, 5], [1, 3]];

  function el(name, attrs, parent) {
    const e = document.createElementNS(NS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  function parseMorelli(fen) {
    const [rows, side] = fen.trim().split(/\s+/);
    const ranks = rows.split("/");
    const n = ranks.length, cells = {};
    ranks.forEach((row, i) => {
      let f = 0;
      for (const m of row.match(/\d+|./g) || []) {
        if (/\d/.test(m)) f += +m;
        else cells[String.fromCharCode(97 + f++) + (n - i)] = m;
      }
    });
    return { size: n, cells, side };
  }

  function parseMorris(fen) {
    const [rows, side, w, b] = fen.trim().split(/\s+/);
    const cells = {};
    rows.split("/").forEach((row, i) => {
      const rank = 7 - i, files = MORRIS_RANKS[rank] || "";
      let k = 0;
      for (const c of row) {
        if (/\d/.test(c)) k += +c;
        else if (k < files.length) cells[files[k++] + rank] = c;
      }
    });
    return { cells, side, hand: [w, b] };
  }

  function parseFano(fen) {
    const [points, side] = fen.trim().split(/\s+/);
    const cells = {};
    points.split("/").forEach((s, i) => {
      if (s !== ".") cells[String(i + 1)] = s;
    });
    return { cells, side };
  }

  function parse(game, fen) {
    if (game === "morris") return parseMorris(fen);
    if (game === "fano") return parseFano(fen);
    return parseMorelli(fen);
  }

  /* The marks of a square as classes. */
  function classes(sq, marks) {
    const c = ["sq"];
    if (marks.next && marks.next.has(sq)) c.push("next");
    if (marks.picked && marks.picked.includes(sq)) c.push("picked");
    if (marks.last && marks.last.includes(sq)) c.push("last");
    if (marks.changed && marks.changed.includes(sq)) c.push("changed");
    return c.join(" ");
  }

  function stone(g, x, y, r, c) {
    const black = c.toLowerCase() === "b";
    el("circle", { cx: x, cy: y, r, class: black ? "stone black" : "stone white" }, g);
    if (c === "B" || c === "W") {
      /* A king: a crown on the stone. */
      const s = r * 0.55;
      el("path", {
        d: `M${x - s},${y + s * 0.5} L${x - s},${y - s * 0.4} L${x - s * 0.5},${y} L${x},${y - s * 0.7}` +
           ` L${x + s * 0.5},${y} L${x + s},${y - s * 0.4} L${x + s},${y + s * 0.5} Z`,
        class: black ? "crown on-black" : "crown on-white",
      }, g);
    }
  }

  function drawMorelli(svg, p, marks, onClick, flip) {
    const n = p.size, cs = 40, pad = 22, mid = (n - 1) / 2;
    const at = (i) => (flip ? n - 1 - i : i);
    svg.setAttribute("viewBox", `0 0 ${n * cs + pad * 2} ${n * cs + pad * 2}`);
    for (let r = 0; r < n; r++) {
      for (let f = 0; f < n; f++) {
        const sq = String.fromCharCode(97 + f) + (n - r);
        const band = Math.max(Math.abs(f - mid), Math.abs(r - mid));
        const x = pad + at(f) * cs, y = pad + at(r) * cs;
        const g = el("g", { class: classes(sq, marks), "data-sq": sq }, svg);
        el("rect", { x, y, width: cs, height: cs, fill: BANDS[band], class: "cell" }, g);
        if (band === 0) {
          const cx = x + cs / 2, cy = y + cs / 2, h = cs / 2 - 2;
          el("path", { d: `M${cx},${cy - h} L${cx + h},${cy} L${cx},${cy + h} L${cx - h},${cy} Z`, class: "throne" }, g);
        }
        el("rect", { x, y, width: cs, height: cs, class: "mark" }, g);
        if (p.cells[sq]) stone(g, x + cs / 2, y + cs / 2, cs * 0.36, p.cells[sq]);
        el("circle", { cx: x + cs / 2, cy: y + cs / 2, r: 6, class: "dot" }, g);
        g.addEventListener("click", () => onClick(sq));
      }
    }
    for (let i = 0; i < n; i++) {
      el("text", { x: pad + at(i) * cs + cs / 2, y: n * cs + pad * 2 - 6, class: "coord" }, svg).textContent =
        String.fromCharCode(97 + i);
      el("text", { x: 10, y: pad + at(i) * cs + cs / 2 + 4, class: "coord" }, svg).textContent = String(n - i);
    }
  }

  function drawMorris(svg, p, marks, onClick, diagonals, flip) {
    const step = 60, pad = 36;
    const at = (i) => (flip ? 6 - i : i);
    const xy = (sq) => [pad + at(sq.charCodeAt(0) - 97) * step, pad + at(7 - +sq.slice(1)) * step];
    svg.setAttribute("viewBox", `0 0 ${pad * 2 + step * 6} ${pad * 2 + step * 6}`);
    el("rect", { x: 0, y: 0, width: pad * 2 + step * 6, height: pad * 2 + step * 6, class: "morris-bg" }, svg);
    const lines = diagonals ? MORRIS_LINES.concat(MORRIS_DIAGONALS) : MORRIS_LINES;
    for (const [a, b] of lines) {
      const [x1, y1] = xy(a), [x2, y2] = xy(b);
      el("line", { x1, y1, x2, y2, class: "morris-line" }, svg);
    }
    for (const rank in MORRIS_RANKS) {
      for (const f of MORRIS_RANKS[rank]) {
        const sq = f + rank, [x, y] = xy(sq);
        const g = el("g", { class: classes(sq, marks), "data-sq": sq }, svg);
        el("circle", { cx: x, cy: y, r: 22, class: "hit" }, g);
        el("circle", { cx: x, cy: y, r: 7, class: "point" }, g);
        el("circle", { cx: x, cy: y, r: 24, class: "mark" }, g);
        if (p.cells[sq]) stone(g, x, y, 19, p.cells[sq] === "B" ? "b" : "w");
        el("circle", { cx: x, cy: y, r: 6, class: "dot" }, g);
        g.addEventListener("click", () => onClick(sq));
      }
    }
    for (let i = 0; i < 7; i++) {
      el("text", { x: pad + at(i) * step, y: pad * 2 + step * 6 - 6, class: "coord" }, svg).textContent =
        String.fromCharCode(97 + i);
      el("text", { x: 10, y: pad + at(i) * step + 4, class: "coord" }, svg).textContent = String(7 - i);
    }
  }

  function shape(g, x, y, r, c) {
    const white = c === c.toUpperCase();
    const cls = white ? "piece white" : "piece black";
    if (c.toLowerCase() === "c") el("circle", { cx: x, cy: y, r, class: cls }, g);
    else el("path", { d: `M${x},${y - r * 1.15} L${x + r * 1.1},${y + r * 0.8} L${x - r * 1.1},${y + r * 0.8} Z`, class: cls }, g);
  }

  function drawFano(svg, p, marks, onClick, flip) {
    const R = 190, cx = 240, cy = flip ? 150 : 250, s = flip ? -1 : 1;
    const xy = (k) => [cx + s * FANO_XY[k][0] * R, cy + s * FANO_XY[k][1] * R];
    svg.setAttribute("viewBox", "0 0 480 400");
    el("rect", { x: 0, y: 0, width: 480, height: 400, class: "fano-bg" }, svg);
    for (const [a, b] of FANO_LINES) {
      const [x1, y1] = xy(a), [x2, y2] = xy(b);
      el("line", { x1, y1, x2, y2, class: "fano-line" }, svg);
    }
    el("circle", { cx, cy, r: R / 2, class: "fano-line", fill: "none" }, svg);
    for (let k = 1; k <= 7; k++) {
      const sq = String(k), [x, y] = xy(k);
      const g = el("g", { class: classes(sq, marks), "data-sq": sq }, svg);
      el("circle", { cx: x, cy: y, r: 34, class: "hit" }, g);
      el("circle", { cx: x, cy: y, r: 9, class: "point" }, g);
      el("circle", { cx: x, cy: y, r: 36, class: "mark" }, g);
      const stack = p.cells[sq] || "";
      /* One piece in the middle; a stack bottom to top, the top piece up
       * and right of the one below. */
      const two = stack.length === 2;
      [...stack].forEach((c, i) => shape(g, x + (two ? i * 18 - 9 : 0), y + (two ? 8 - i * 16 : 0), 16, c));
      el("text", { x: x + 26, y: y + 30, class: "coord" }, g).textContent = sq;
      el("circle", { cx: x, cy: y, r: 6, class: "dot" }, g);
      g.addEventListener("click", () => onClick(sq));
    }
  }

  function draw(svg, game, fen, marks, onClick, options) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const p = parse(game, fen);
    const o = options || {};
    if (game === "morris") drawMorris(svg, p, marks, onClick, o.diagonals, o.flip);
    else if (game === "fano") drawFano(svg, p, marks, onClick, o.flip);
    else drawMorelli(svg, p, marks, onClick, o.flip);
    return p;
  }

  /* n pieces of a hand as a small SVG: c is a stone letter (b, w) or a
   * Fano shape letter (C, T, c, t). */
  function hand(c, n) {
    const svg = el("svg", { viewBox: `0 0 ${Math.max(n, 1) * 22} 22`, class: "hand-svg", width: Math.max(n, 1) * 16, height: 16 });
    for (let i = 0; i < n; i++) {
      if (/[ct]/i.test(c)) shape(svg, 11 + i * 22, 12, 8, c);
      else stone(svg, 11 + i * 22, 11, 9, c);
    }
    return svg;
  }

  return { parse, draw, hand };
})();
