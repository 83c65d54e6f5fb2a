// Glory & Support (MODULES.md §5) on the play screen: objective markers on the board (the
// Shrine starred), each side's Glory (and unspent), the rounds to the next End phase,
// both objective hands as cards with their conditions, the upgrades bought, and the words
// of the module's choices (en/es). The position says all of it (pos.modules.glory); the
// cards' texts come from /api/meta (meta.glory, the module's data).
import {esc, t, addStrings, sideName, lang} from "./i18n.js";

addStrings({
  en: {gl_glory: "Glory", gl_unspent: "unspent", gl_end_in: "End phase in", gl_rounds: "rounds",
    gl_round: "round", gl_phase: "phase", gl_of: "of", gl_markers: "markers held",
    gl_marker: "Objective marker", gl_shrine: "Shrine (2 Glory at the final End phase)",
    gl_objectives: "Objectives", gl_upgrades: "Upgrades", gl_end_phase: "End phase",
    gl_surge: "Surge", gl_deck: "left in the deck", gl_no_end: "no fixed end",
    gl_step_score: "1 score", gl_step_discard: "2 discard", gl_step_upgrade: "3 upgrade", gl_step_draw: "4 draw",
    gl_support: "Support", gl_support_why: "of your other pieces next to the target, against", gl_support_why2: "of theirs next to the attacker",
    gl_help: "Glory & Support: a kill gives the other side 1 Glory; objectives score Glory — surge ones at the end of your own turn, End-phase ones at the End phase after each phase of rounds. Hands are public. At an End phase each player in turn scores, may discard objectives, may buy one upgrade with unspent Glory (it stays on the piece) and draws back up to 2. After the last phase the most Glory wins (spent Glory counts), then the most markers held. Support: when more of the attacker's other pieces stand next to the target than the defender's next to the attacker, the hit deals 1 more; the other way round, 1 less."},
  es: {gl_glory: "Gloria", gl_unspent: "sin gastar", gl_end_in: "Fase final en", gl_rounds: "rondas",
    gl_round: "ronda", gl_phase: "fase", gl_of: "de", gl_markers: "marcadores controlados",
    gl_marker: "Marcador de objetivo", gl_shrine: "Santuario (2 de Gloria en la última fase final)",
    gl_objectives: "Objetivos", gl_upgrades: "Mejoras", gl_end_phase: "Fase final",
    gl_surge: "Oleada", gl_deck: "quedan en el mazo", gl_no_end: "sin final fijo",
    gl_step_score: "1 puntuar", gl_step_discard: "2 descartar", gl_step_upgrade: "3 mejorar", gl_step_draw: "4 robar",
    gl_support: "Apoyo", gl_support_why: "de tus otras piezas junto al objetivo, contra", gl_support_why2: "de las suyas junto al atacante",
    gl_help: "Gloria y Apoyo: cada muerte da 1 de Gloria al otro bando; los objetivos dan Gloria — los de oleada al final de tu propio turno, los de fase final en la fase final tras cada fase de rondas. Las manos son públicas. En una fase final cada jugador, por turno, puntúa, puede descartar objetivos, puede comprar una mejora con Gloria sin gastar (se queda en la pieza) y roba hasta tener 2. Tras la última fase gana quien tenga más Gloria (la gastada cuenta), luego quien controle más marcadores. Apoyo: si junto al objetivo hay más piezas del atacante que piezas del defensor junto al atacante, el impacto hace 1 más; al revés, 1 menos."},
});

const CELL = 60;  // board.js's

// The upgrades' conditions in words from the module's data (meta.glory.upgrades, which
// /api/meta reads from glory.toml): a piece's marker says "Upgrade Honed Edge: its hits …"
// in either language, so an edit of the data shows on the page as it is.
export function useGloryData(meta) {
  const table = {en: {}, es: {}};
  for (const u of (meta && meta.glory && meta.glory.upgrades) || []) {
    for (const code of ["en", "es"]) {
      const name = (u.name && (u.name[code] || u.name.en)) || u.id;
      table[code][`cd_${u.condition}`] = `${code === "es" ? "Mejora" : "Upgrade"} ${name}`;
      table[code][`cd_${u.condition}_text`] = (u.text && (u.text[code] || u.text.en)) || "";
    }
  }
  addStrings(table);
}

function sqOf(index, n) { return String.fromCharCode(97 + index % n) + (Math.floor(index / n) + 1); }
function text(x) { return (x && (x[lang] || x.en)) || ""; }
// An objective's or upgrade's name in the page's language (its id if the data has none).
function named(item, id) { return text(item && item.name) || id; }

export function gloryOn(pos) { return !!(pos && pos.modules && pos.modules.glory); }

function objective(meta, id) { return ((meta && meta.glory && meta.glory.objectives) || []).find(o => o.id === id); }
function upgrade(meta, id) { return ((meta && meta.glory && meta.glory.upgrades) || []).find(u => u.id === id); }

// The table row of the board's side: phase rounds and markers (M-GLORY-3, M-GLORY-6).
function row(meta, size) {
  return ((meta && meta.glory && meta.glory.table) || []).find(r => r.sides[0] <= size && size <= r.sides[1]);
}

// The markers: a ring in a square's lower right corner (a piece may stand on it), the
// Shrine a star; held markers take the holder's colour.
export function glorySVG(pos, centre) {
  if (!gloryOn(pos)) return "";
  const gs = pos.modules.glory;
  const n = pos.settings.size;
  const shrine = pos.settings["glory.shrine"] === "on" && gs.markers.length ? gs.markers[0] : -1;
  const parts = gs.markers.map((sq, i) => {
    const name = sqOf(sq, n);
    const [cx, cy] = centre(name);
    const piece = pos.pieces.find(p => p.square === name);
    const held = piece ? ` held-${piece.owner}` : "";
    const x = cx + CELL / 2 - 12, y = cy + CELL / 2 - 12;
    const label = sq === shrine ? t("gl_shrine") : t("gl_marker");
    const shape = sq === shrine
      ? `<polygon class="marker-body" points="0,-9 2.6,-3 9,-3 4,1.5 5.8,8 0,4.2 -5.8,8 -4,1.5 -9,-3 -2.6,-3"/>`
      : `<circle class="marker-body" r="8"/><circle class="marker-eye" r="3"/>`;
    return `<g class="glory-marker${sq === shrine ? " shrine" : ""}${held}" data-marker="${name}" data-index="${i}" transform="translate(${x} ${y})">${shape}<title>${esc(label)} ${esc(name)}</title></g>`;
  });
  return `<g class="glory" aria-label="${esc(t("gl_markers"))}">${parts.join("")}</g>`;
}

function cardHTML(meta, id, side) {
  const o = objective(meta, id);
  if (!o) return `<span class="objective-card">${esc(id)}</span>`;
  const timing = o.timing === "surge" ? t("gl_surge") : t("gl_end_phase");
  return `<span class="objective-card timing-${esc(o.timing)}" data-objective="${esc(id)}" data-side="${side}" title="${esc(text(o.text))}">
    <b>${esc(named(o, id))}</b> <span class="objective-glory">${o.glory} ★</span>
    <span class="objective-timing">${esc(timing)}</span><span class="objective-text">${esc(text(o.text))}</span></span>`;
}

function roundsToEnd(pos, meta) {
  const r = row(meta, pos.settings.size);
  if (!r) return null;
  return r.phase_rounds - (pos.rounds || 0) % r.phase_rounds;
}

// Glory, the clock to the next End phase and both hands.
export function gloryStatusHTML(pos, meta, d) {
  if (!gloryOn(pos)) return "";
  const gs = pos.modules.glory;
  const phases = pos.settings["glory.phases"] === undefined ? 3 : pos.settings["glory.phases"];
  const left = roundsToEnd(pos, meta);
  const n = pos.settings.size;
  const held = [0, 0];
  for (const sq of gs.markers) {
    const p = pos.pieces.find(q => q.square === sqOf(sq, n));
    if (p) held[p.owner === "skull" || p.owner === 1 ? 1 : 0] += 1;
  }
  const sides = ["key", "skull"].map((side, i) => {
    const unspent = gs.glory[i] - gs.spent[i];
    const cards = gs.hands[i].map(id => cardHTML(meta, id, side)).join("");
    const ups = gs.bought[i].length ? `<span class="glory-upgrades">${esc(t("gl_upgrades"))}: ${gs.bought[i].map(u => `<span class="upgrade-tag" data-upgrade="${esc(u)}" title="${esc(text((upgrade(meta, u) || {}).text))}">${esc(named(upgrade(meta, u), u))}</span>`).join(" ")}</span>` : "";
    return `<span class="glory-side turn-${side}" data-glory="${side}">${esc(sideName(side))} <b>${gs.glory[i]}</b> ${esc(t("gl_glory"))} <span class="glory-unspent">(${unspent} ${esc(t("gl_unspent"))})</span> · ${esc(t("gl_markers"))} ${held[i]}
      <span class="objective-hand" data-hand="${side}">${cards}</span>${ups}</span>`;
  }).join(" ");
  const clock = left === null ? "" : `${esc(t("gl_end_in"))} <b id="glory-end-in">${left}</b> ${esc(left === 1 ? t("gl_round") : t("gl_rounds"))}`;
  const phase = phases ? `${esc(t("gl_phase"))} ${gs.phase + 1} ${esc(t("gl_of"))} ${phases}` : esc(t("gl_no_end"));
  return `${endPhaseBanner(pos, d)}<span class="glory-status" id="glory-status">${clock} · ${phase} ${sides}</span>`;
}

// A button's words for the module's options (null: not the module's): an objective or
// an upgrade by its name, with its text as the note.
export function gloryLabel(kind, opt, meta) {
  if (kind === "discard_objective" || kind === "objective_draw") {
    const o = objective(meta, opt);
    if (o) return {label: `${named(o, opt)} (${o.glory} ★)`, note: text(o.text)};
  }
  if (kind === "upgrade") {
    const u = upgrade(meta, opt);
    if (u) return {label: `${named(u, opt)} (${u.cost} ★)`, note: text(u.text)};
  }
  return null;
}

export function gloryHelp(pos) {
  return gloryOn(pos) ? `<p class="glory-help">${esc(t("gl_help"))}</p>` : "";
}

// The attack preview's Support (M-GLORY-11): "+1" or "−1" by the target, and why.
export function supportBadge(pv, from, sq, cx, cy) {
  const s = pv && pv.support && pv.support[from] && pv.support[from][sq];
  if (!s) return "";
  const sign = s.bonus > 0 ? "+1" : "−1";
  const why = `${t("gl_support")} ${sign}: ${s.attackers} ${t("gl_support_why")} ${s.defenders} ${t("gl_support_why2")}`;
  return `<g class="pv-support ${s.bonus > 0 ? "plus" : "minus"}" data-support="${esc(sign)}" data-from="${esc(from)}" data-to="${esc(sq)}" transform="translate(${cx - 18} ${cy - 18})"><rect x="-11" y="-8" width="22" height="15" rx="3"/><text y="4">${sign}</text><title>${esc(why)}</title></g>`;
}

// The End phase as its own step (M-GLORY-8): a banner naming whose End phase it is and
// its four steps, the current one marked.
const END_STEPS = {discard_objective: 1, upgrade: 2, upgrade_piece: 2};
function endPhaseBanner(pos, d) {
  if (!d || !(d.kind in END_STEPS)) return "";
  const at = END_STEPS[d.kind];
  const steps = ["gl_step_score", "gl_step_discard", "gl_step_upgrade", "gl_step_draw"].map((key, i) =>
    `<span class="end-step${i < at ? " done" : i === at ? " current" : ""}">${esc(t(key))}</span>`).join(" › ");
  const n = pos.modules.glory.phase;
  return `<div class="end-phase-banner turn-${esc(d.side || "")}" id="end-phase-banner" data-step="${at + 1}">${esc(t("gl_end_phase"))} ${n} · ${esc(sideName(d.side))}: ${steps}</div>`;
}
