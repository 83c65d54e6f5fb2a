// The board as SVG: squares, Ruins, relics, pieces, option squares, previews, arrows.
// Drawing only: which squares are options always comes from the server.
import {esc, sideName, t, text} from "./i18n.js";
import {keepersSVG} from "./keepers.js";
import {glorySVG, supportBadge} from "./glory.js";
import {conditionMarks, conditionsSVG, conditionsTitle} from "./conditions.js";
import {interactMarksSVG} from "./interact.js";

export const CELL = 60;
export const SIDES = ["key", "skull"];

export function sqName(file, rank) { return String.fromCharCode(97 + file) + (rank + 1); }
export function parseSq(name) { return [name.charCodeAt(0) - 97, Number(name.slice(1)) - 1]; }

// Screen cell of a square with `bottom`'s back row at the bottom of the screen.
export function sqXY(name, n, bottom) {
  const [file, rank] = parseSq(name);
  return bottom === "skull" ? [n - 1 - file, rank] : [file, n - 1 - rank];
}
export function centre(name, n, bottom) {
  const [x, y] = sqXY(name, n, bottom);
  return [x * CELL + CELL / 2, y * CELL + CELL / 2];
}

function relicShape(side, cx, cy, s, square, carried, under = false) {
  const note = carried ? " (" + t("carried") + ")" : under ? " (" + t("under_piece") + ")" : "";
  const label = `${t("relic")} ${sideName(side)}${note} ${square}`;
  return `<g class="relic relic-${side}${carried ? " carried" : ""}${under ? " under" : ""}" data-relic="${side}" data-sq="${square}">
    <path d="M${cx} ${cy - s} L${cx + s * 0.8} ${cy} L${cx} ${cy + s} L${cx - s * 0.8} ${cy} Z"/><title>${esc(label)}</title></g>`;
}

export function pieceShape(p, cx, cy, extra = "") {
  const r = p.kind === "hero" ? 24 : 17;
  const cls = `piece owner-${p.owner} ${p.kind}${extra}`;
  let g = `<g class="${cls}" data-sq="${p.square}" data-piece="${p.id}" transform="translate(${cx} ${cy})">`;
  if (p.aegis) g += `<circle class="aegis" r="${r + 4}"/>`;
  g += `<circle class="body" r="${r}"/>`;
  if (p.kind === "hero") g += `<path class="crown" d="M-11 -7 l5 6 l6 -9 l6 9 l5 -6 l-2 11 h-18 z"/>`;
  if (p.harrowed) g += `<text class="harrow" x="${-r + 2}" y="${-r + 10}">✠</text>`;
  g += `<text class="hp" y="${p.kind === "hero" ? 16 : 5}">${p.hp}</text>`;
  if (p.veiled) g += `<circle class="veil" r="${r + 2}"/>`;
  g += conditionMarks(p, r);  // Conditions (MODULES.md §4): a marker per condition
  g += `<title>${esc(sideName(p.owner))} ${esc(t(p.kind))} ${p.square}: ${p.hp}/${p.max_hp} ${esc(t("hp"))}${p.veiled ? ", Veil" : ""}${p.aegis ? ", Aegis" : ""}${esc(conditionsTitle(p))}</title></g>`;
  return g;
}

// opts: {bottom, squares:Set, preview, chosen, subject, arrows:[{from,to,kind}], phase,
//        interactAction (the INTERACT action whose preview is drawn), notes (decision.notes)}
export function boardSVG(v, opts) {
  const pos = v.position;
  const n = pos.settings.size;
  const bottom = opts.bottom || "key";
  const rows = v.deploy_rows || 0;
  const parts = [];
  const last = new Set(v.last_turn || []);
  for (let rank = 0; rank < n; rank++) for (let file = 0; file < n; file++) {
    const name = sqName(file, rank);
    const [x, y] = sqXY(name, n, bottom);
    const cls = ["sq", (file + rank) % 2 ? "light" : "dark"];
    if (rank < Math.floor(n / 2)) cls.push("half-key");
    if (rank >= Math.ceil(n / 2)) cls.push("half-skull");
    if (rank === 0) cls.push("back-key");
    if (rank === n - 1) cls.push("back-skull");
    if (v.phase === "setup" && (rank < rows || rank >= n - rows)) cls.push("deploy");
    if (last.has(name)) cls.push("last");
    parts.push(`<rect class="${cls.join(" ")}" data-square="${name}" x="${x * CELL}" y="${y * CELL}" width="${CELL}" height="${CELL}"/>`);
  }
  for (const r of n % 2 ? [Math.floor(n / 2), Math.ceil(n / 2)] : [n / 2]) {
    parts.push(`<line class="half-line" x1="0" x2="${n * CELL}" y1="${r * CELL}" y2="${r * CELL}"/>`);
  }
  for (const ruin of pos.ruins) {
    const [x, y] = sqXY(ruin, n, bottom);
    parts.push(`<g class="ruin" data-sq="${ruin}"><rect x="${x * CELL + 4}" y="${y * CELL + 4}" width="${CELL - 8}" height="${CELL - 8}" rx="4"/>
      <path d="M${x * CELL + 14} ${y * CELL + 46} l8 -18 l6 10 l8 -20 l10 28 z" class="ruin-mark"/></g>`);
  }
  // coordinates along the bottom and left edges
  for (let i = 0; i < n; i++) {
    const [fx] = sqXY(sqName(i, 0), n, bottom);
    const [, ry] = sqXY(sqName(0, i), n, bottom);
    parts.push(`<text class="coord" x="${fx * CELL + CELL - 9}" y="${n * CELL - 4}">${String.fromCharCode(97 + i)}</text>`);
    parts.push(`<text class="coord" x="3" y="${ry * CELL + 12}">${i + 1}</text>`);
  }
  // preview of the selected card: moves and steps under the pieces, attacks over them
  const pv = opts.preview;
  const pvMarks = kinds => {
    for (const [from, marks] of Object.entries(pv.pieces || {})) {
      for (const kind of kinds) {
        for (const sq of marks[kind] || []) {
          const [cx, cy] = centre(sq, n, bottom);
          // the ✖ sits bottom right: the carried relic is drawn top right, a relic under
          // the piece bottom left, a harrow mark top left
          const shape = kind === "attack"
            ? `<circle class="pv pv-attack" r="27" cx="${cx}" cy="${cy}"/><path class="pv-x" d="M${cx + 15} ${cy + 18} l9 9 m0 -9 l-9 9"/>`
            : `<circle class="pv pv-${kind}" r="${kind === "move" ? 10 : 7}" cx="${cx}" cy="${cy}"/>`;
          parts.push(`<g class="pv-mark" data-pv="${kind}" data-from="${from}" data-to="${sq}">${shape}</g>`);
          if (kind === "attack") parts.push(supportBadge(pv, from, sq, cx, cy));  // Glory's ±1
        }
      }
    }
  };
  if (pv) {
    pvMarks(["move", "step"]);
    for (const sq of pv.squares || []) {
      const [cx, cy] = centre(sq, n, bottom);
      parts.push(`<g class="pv-mark" data-pv="square" data-to="${sq}"><circle class="pv pv-move" r="10" cx="${cx}" cy="${cy}"/></g>`);
    }
  }
  const occupied = new Set(pos.pieces.map(p => p.square));
  for (const side of SIDES) {  // a relic on the ground, alone on its square
    const relic = pos.relics[side];
    if (relic && relic.square && !occupied.has(relic.square)) {
      const [cx, cy] = centre(relic.square, n, bottom);
      parts.push(relicShape(side, cx, cy, 14, relic.square));
    }
  }
  // the last turn's arrows, under the pieces
  parts.push(`<defs>${["plain", "attack", "hint"].map(h => `<marker id="arrowhead-${h}" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" class="arrowhead arrowhead-${h}"/></marker>`).join("")}</defs>`);
  parts.push(arrowsSVG(opts.arrows || [], n, bottom));
  const byId = {};
  const actors = new Set(pv ? Object.keys(pv.pieces || {}) : []);
  for (const p of pos.pieces) {
    byId[p.id] = p;
    const [cx, cy] = centre(p.square, n, bottom);
    let extra = "";
    if (opts.subject === p.square) extra += " subject";
    if (opts.chosen === p.square) extra += " chosen";
    if (actors.has(p.square)) extra += " can-act";
    parts.push(pieceShape(p, cx, cy, extra));
  }
  for (const side of SIDES) {
    const relic = pos.relics[side];
    if (relic && relic.carrier !== undefined && relic.carrier !== null && byId[relic.carrier]) {
      const sq = byId[relic.carrier].square;
      const [cx, cy] = centre(sq, n, bottom);
      parts.push(relicShape(side, cx + CELL / 2 - 12, cy - CELL / 2 + 12, 9, sq, true));
    } else if (relic && relic.square && occupied.has(relic.square)) {
      // a piece stands on it: drawn over the piece, bottom left, so it is never lost
      const [cx, cy] = centre(relic.square, n, bottom);
      parts.push(relicShape(side, cx - CELL / 2 + 12, cy + CELL / 2 - 12, 9, relic.square, false, true));
    }
  }
  parts.push(keepersSVG(pos, name => centre(name, n, bottom)));  // Keepers' Relics tokens
  parts.push(glorySVG(pos, name => centre(name, n, bottom)));  // Glory's objective markers
  parts.push(conditionsSVG(pos, name => centre(name, n, bottom)));  // a Paralyzed to come
  if (pv) pvMarks(["attack"]);
  if (pv && pv.actions) parts.push(interactMarksSVG(pv, opts.interactAction, name => centre(name, n, bottom)));
  // option squares last: on top, clickable and focusable
  for (const name of opts.squares || []) {
    const [x, y] = sqXY(name, n, bottom);
    const alt = opts.alt && opts.alt.has(name) ? " opt-alt" : opts.alt ? " opt-target" : "";
    const note = opts.notes && opts.notes[name] ? text(opts.notes[name].text) : "";  // a module choice's
    parts.push(`<rect class="opt-sq opt${alt}${opts.hint === name ? " hinted" : ""}" tabindex="0" role="button" aria-label="${name}${note ? ": " + esc(note) : ""}" data-opt-sq="${name}" id="opt-${name}" x="${x * CELL + 2}" y="${y * CELL + 2}" width="${CELL - 4}" height="${CELL - 4}" rx="6">${note ? `<title>${esc(note)}</title>` : ""}</rect>`);
  }
  return `<svg id="board" class="board bottom-${bottom}" viewBox="0 0 ${n * CELL} ${n * CELL}" role="group" aria-label="board">${parts.join("")}</svg>`;
}

// Arrows from square to square, the head stopping at the piece's rim; `step` numbers an
// arrow (the hint's line), `kind` styles it (move, step, push, pull, swap, attack, hint).
export function arrowsSVG(arrows, n, bottom) {
  const out = [];
  for (const a of arrows) {
    if (!a.from || !a.to) continue;
    if (a.from === a.to) {  // a square alone (a regroup, a rite): a ring
      if (a.kind !== "spot") continue;
      const [cx, cy] = centre(a.from, n, bottom);
      out.push(`<circle class="arrow arrow-spot${a.hint ? " arrow-hint" : ""}${a.current ? " current" : ""}" data-arrow="${a.from}-${a.to}" data-kind="spot" cx="${cx}" cy="${cy}" r="22"/>`);
      continue;
    }
    const [x1, y1] = centre(a.from, n, bottom);
    const [x2, y2] = centre(a.to, n, bottom);
    const len = Math.hypot(x2 - x1, y2 - y1);
    const k = Math.max(0, (len - 30) / len);
    const head = a.kind === "attack" ? "attack" : a.hint ? "hint" : "plain";
    out.push(`<line class="arrow arrow-${a.kind}${a.hint ? " arrow-hint" : ""}${a.current ? " current" : ""}" data-arrow="${a.from}-${a.to}" data-kind="${a.kind}" x1="${x1}" y1="${y1}" x2="${x1 + (x2 - x1) * k}" y2="${y1 + (y2 - y1) * k}" marker-end="url(#arrowhead-${head})"/>`);
    if (a.step) {
      out.push(`<g class="arrow-step"><circle cx="${(x1 + x2) / 2}" cy="${(y1 + y2) / 2}" r="9"/><text x="${(x1 + x2) / 2}" y="${(y1 + y2) / 2 + 4}">${a.step}</text></g>`);
    }
  }
  return out.join("");
}

// Arrows of a turn's events: moves, steps, pushes and pulls, swaps.
export function arrowsOf(entries) {
  const out = [];
  for (const entry of entries) {
    for (const ev of entry.events) {
      if (["move", "step", "push", "swap"].includes(ev.kind) && ev.square && ev.to) {
        out.push({from: ev.square, to: ev.to, kind: ev.kind === "push" ? (ev.pull ? "pull" : "push") : ev.kind});
      }
    }
  }
  return out;
}
