// Keepers' Relics (MODULES.md §6) on the play screen: token glyphs on the board (face
// down: the type; face up: the value too), carried tokens beside their carrier, the
// Wayshrines, each side's relic points with their set progress, and the words of the
// module's actions and choices (en/es). The position says all of it: pos.modules.keepers.
import {esc, t, addStrings, sideName} from "./i18n.js";

addStrings({
  en: {interact: "Interact", kp_icon: "Icon", kp_scroll: "Scroll", kp_chalice: "Chalice", kp_delve: "Delve",
    kp_encamp: "Encamp", kp_decamp: "Decamp", kp_points: "Relic points", kp_target: "target",
    kp_sets: "sets", kp_face_down: "face down", kp_carried: "carried", kp_wayshrine: "Wayshrine",
    kp_value: "value", kp_token: "Relic token",
    kp_help: "Keepers' Relics: face-down tokens lie on the Ruins. INTERACT → Delve with a piece next to a Ruin you rule (more of your pieces next to it than the enemy's): the token is revealed, and the delver lifts it if your pieces next to the Ruin are at least its value. Carry it to your back row (or next to your Wayshrine of its type) to recover it: its value in points, +2 per set of three types. An enemy token carrier you push or kill drops it: take it as a Prize (+1). Encamp replaces a Minion with your Wayshrine; Decamp gives it back as a Minion."},
  es: {interact: "Interactuar", kp_icon: "Icono", kp_scroll: "Pergamino", kp_chalice: "Cáliz", kp_delve: "Excavar",
    kp_encamp: "Acampar", kp_decamp: "Levantar campamento", kp_points: "Puntos de reliquia",
    kp_target: "objetivo", kp_sets: "juegos", kp_face_down: "boca abajo", kp_carried: "llevada",
    kp_wayshrine: "Ermita", kp_value: "valor", kp_token: "Ficha de reliquia",
    kp_help: "Reliquias de los Guardianes: hay fichas boca abajo en las Ruinas. INTERACTUAR → Excavar con una pieza junto a una Ruina que dominas (más piezas tuyas junto a ella que del rival): la ficha se revela, y la pieza la levanta si tus piezas junto a la Ruina son al menos su valor. Llévala a tu fila trasera (o junto a tu Ermita de su tipo) para recuperarla: su valor en puntos, +2 por cada juego de tres tipos. Un portador enemigo que empujas o abates la suelta: tómala como Botín (+1). Acampar cambia un Esbirro por tu Ermita; Levantar campamento la devuelve como Esbirro."},
});

const GLYPH = {icon: "✚", scroll: "≣", chalice: "♆"};
const CELL = 60;  // board.js's

function sqOf(index, n) { return String.fromCharCode(97 + index % n) + (Math.floor(index / n) + 1); }
function typeName(id) { return t("kp_" + id); }

export function keepersOn(pos) { return !!(pos.modules && pos.modules.keepers); }

function tokenGlyph(tok, i, cx, cy, r, extra) {
  const up = tok.face === "up";
  const label = `${t("kp_token")}: ${typeName(tok.type)}${up ? ` ${tok.value}` : ` (${t("kp_face_down")})`}`;
  return `<g class="token token-${esc(tok.type)}${up ? " face-up" : " face-down"}${extra}" data-token="${i}" data-type="${esc(tok.type)}"${up ? ` data-value="${tok.value}"` : ""} transform="translate(${cx} ${cy})">
    <polygon class="token-body" points="${[0, 1, 2, 3, 4, 5].map(k => `${(r * Math.cos(Math.PI / 3 * k + Math.PI / 6)).toFixed(1)},${(r * Math.sin(Math.PI / 3 * k + Math.PI / 6)).toFixed(1)}`).join(" ")}"/>
    <text class="token-type" y="${up ? -1 : 5}">${GLYPH[tok.type] || tok.type[0].toUpperCase()}</text>
    ${up ? `<text class="token-value" y="${r - 3}">${tok.value}</text>` : ""}<title>${esc(label)}</title></g>`;
}

// The tokens and Wayshrine marks, drawn over the pieces; centre(name) gives a square's
// centre on the drawn board.
export function keepersSVG(pos, centre) {
  if (!keepersOn(pos)) return "";
  const k = pos.modules.keepers;
  const n = pos.settings.size;
  const byId = {};
  for (const p of pos.pieces) byId[p.id] = p;
  const parts = [];
  const stacked = {};
  k.tokens.forEach((tok, i) => {
    if (tok.square !== undefined) {
      const name = sqOf(tok.square, n);
      const [cx, cy] = centre(name);
      const under = pos.pieces.some(p => p.square === name);
      const shift = (stacked[name] = (stacked[name] || 0) + 1) - 1;
      parts.push(under
        ? tokenGlyph(tok, i, cx - CELL / 2 + 13 + shift * 8, cy + CELL / 2 - 13, 10, " under")
        : tokenGlyph(tok, i, cx + shift * 10, cy + shift * 6, 17, ""));
    } else if (tok.carrier !== undefined && byId[tok.carrier]) {
      const [cx, cy] = centre(byId[tok.carrier].square);
      parts.push(tokenGlyph(tok, i, cx - CELL / 2 + 13, cy - CELL / 2 + 13, 10, " carried"));
    }
  });
  k.wayshrines.forEach((w, side) => {
    if (w.piece >= 0 && byId[w.piece]) {
      const [cx, cy] = centre(byId[w.piece].square);
      parts.push(`<g class="wayshrine owner-${side ? "skull" : "key"}" data-wayshrine="${side ? "skull" : "key"}" data-type="${esc(w.type)}" transform="translate(${cx} ${cy})">
        <path class="shrine-roof" d="M-20 -6 L0 -22 L20 -6 Z"/><rect class="shrine-body" x="-15" y="-6" width="30" height="22" rx="2"/>
        <text class="token-type" y="11">${GLYPH[w.type] || ""}</text><title>${esc(t("kp_wayshrine"))} · ${esc(sideName(side ? "skull" : "key"))} · ${esc(typeName(w.type))}</title></g>`);
    }
  });
  return `<g class="keepers" aria-label="${esc(t("kp_points"))}">${parts.join("")}</g>`;
}

// Each side's points and set progress (the types recovered towards the next set).
export function keepersStatusHTML(pos) {
  if (!keepersOn(pos)) return "";
  const k = pos.modules.keepers;
  const types = Object.keys(k.box);
  const target = pos.settings["keepers.target"];
  const sides = ["key", "skull"].map((side, i) => {
    const sets = k.sets[i];
    const progress = types.map((type, j) => `<span class="set-type${k.recovered[i][j] > sets ? " got" : ""}" title="${esc(typeName(type))}">${GLYPH[type] || type[0]}</span>`).join("");
    return `<span class="kp-side turn-${side}" data-points="${side}">${esc(sideName(side))} <b>${k.points[i]}</b> <span class="kp-sets">${esc(t("kp_sets"))} ${sets} ${progress}</span></span>`;
  }).join(" ");
  // the table's Ruins + 1: one token was placed on each Ruin of the table (M-KEEP-2)
  const goal = target === -1 ? "" : ` · ${esc(t("kp_target"))} ${target === undefined || target === "ruins+1" ? k.tokens.length + 1 : target}`;
  return `<span class="keepers-points" id="keepers-points">${esc(t("kp_points"))}: ${sides}${goal}</span>`;
}

// A button's words for the module's options (null: not the module's).
export function keepersLabel(kind, opt) {
  if (["delve", "encamp", "decamp"].includes(opt)) return t("kp_" + opt);
  if ((kind === "wayshrine_type" || kind === "token_type") && GLYPH[opt]) return `${GLYPH[opt]} ${typeName(opt)}`;
  if (kind === "token_pickup") {
    const m = /^([a-z]+)(\d+)$/.exec(opt);
    if (m) return `${GLYPH[m[1]] || ""} ${typeName(m[1])} ${m[2]}`;
  }
  if (kind === "reveal" && /^v\d+$/.test(opt)) return `${t("kp_value")} ${opt.slice(1)}`;
  return null;
}

export function keepersHelp(pos) {
  return keepersOn(pos) ? `<p class="keepers-help">${esc(t("kp_help"))}</p>` : "";
}
