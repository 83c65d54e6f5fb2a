// Conditions (MODULES.md §4) on the play screen: a marker beside a piece for each of its
// conditions (a letter, and the value for valued ones) with a tooltip that says what the
// condition does and when it ends; the words of INTERACT's actions (their previews: interact.js);
// the Fast step; the module's help (en/es). The position says all of it: each piece's
// `conditions`, and pos.modules.conditions.
import {esc, t, addStrings} from "./i18n.js";

addStrings({
  en: {
    cd_burning: "Burning", cd_poison: "Poison", cd_fast: "Fast", cd_slow: "Slow",
    cd_paralyzed: "Paralyzed", cd_focus: "Focus", cd_defensive: "Defensive",
    cd_burning_text: "takes its value in damage at Upkeep (Aegis prevents it, Defensive reduces it), then it is removed; TEND lowers it by 1",
    cd_poison_text: "loses 1 HP at Upkeep that nothing prevents or reduces, then Poison goes down by 1",
    cd_fast_text: "may take 1 step at the end of its owner's turn",
    cd_slow_text: "takes no step of any kind; it can still MOVE and attack without a lunge",
    cd_paralyzed_text: "cannot MOVE, attack or act in INTERACT, takes no steps, gives no Support",
    cd_focus_text: "the first hit of its next attack deals its value more",
    cd_defensive_text: "every hit on it deals its value less",
    cd_burning_ends: "ends at Upkeep", cd_poison_ends: "ends when it reaches 0",
    cd_fast_ends: "ends at the end of its owner's next turn",
    cd_slow_ends: "ends at the end of its owner's next turn",
    cd_paralyzed_ends: "ends at the end of its owner's next turn",
    cd_focus_ends: "ends when it attacks, or at the end of its owner's next turn",
    cd_defensive_ends: "ends when its owner's next turn starts",
    cd_focus_action: "FOCUS", cd_guard_action: "GUARD", cd_tend_action: "TEND",
    cd_focus_note: "one of your pieces gains Focus 1: +1 damage to its next attack's first hit",
    cd_guard_note: "one of your pieces gains Defensive 1: every hit on it deals 1 less",
    cd_tend_note: "one of your pieces lowers by 1 the Burning of itself or an adjacent friend",
    cd_pending: "Paralyzed from its next turn",
    cd_dread: "Dread",
    cd_help: "Conditions: markers beside the pieces (hover for what each does and when it ends). Burning and Poison hurt at Upkeep, at the round's end. Bolt, Smite, Hook, Gale, Ordeal and Rapture carry riders. INTERACT (a card played for neither move nor attack) offers FOCUS, GUARD and TEND. Attacking an enemy relic carrier takes a Dread test on a die: below the target number the attack ends and the attacker is Paralyzed next turn.",
  },
  es: {
    cd_burning: "Ardiente", cd_poison: "Veneno", cd_fast: "Rápido", cd_slow: "Lento",
    cd_paralyzed: "Paralizado", cd_focus: "Concentración", cd_defensive: "Defensiva",
    cd_burning_text: "recibe su valor en daño en el Mantenimiento (Égida lo previene, Defensiva lo reduce) y se retira; ATENDER lo baja en 1",
    cd_poison_text: "pierde 1 PV en el Mantenimiento que nada previene ni reduce; después el Veneno baja en 1",
    cd_fast_text: "puede dar 1 paso al final del turno de su dueño",
    cd_slow_text: "no da pasos de ningún tipo; aún puede MOVER y atacar sin acometida",
    cd_paralyzed_text: "no puede MOVER, atacar ni actuar en INTERACTUAR, no da pasos ni Apoyo",
    cd_focus_text: "el primer golpe de su siguiente ataque hace su valor más",
    cd_defensive_text: "cada golpe que recibe hace su valor menos",
    cd_burning_ends: "acaba en el Mantenimiento", cd_poison_ends: "acaba al llegar a 0",
    cd_fast_ends: "acaba al final del siguiente turno de su dueño",
    cd_slow_ends: "acaba al final del siguiente turno de su dueño",
    cd_paralyzed_ends: "acaba al final del siguiente turno de su dueño",
    cd_focus_ends: "acaba al atacar, o al final del siguiente turno de su dueño",
    cd_defensive_ends: "acaba al empezar el siguiente turno de su dueño",
    cd_focus_action: "CONCENTRARSE", cd_guard_action: "GUARDIA", cd_tend_action: "ATENDER",
    cd_focus_note: "una de tus piezas gana Concentración 1: +1 de daño al primer golpe de su siguiente ataque",
    cd_guard_note: "una de tus piezas gana Defensiva 1: cada golpe que recibe hace 1 menos",
    cd_tend_note: "una de tus piezas baja en 1 el Ardiente de sí misma o de una amiga adyacente",
    cd_pending: "Paralizada desde su siguiente turno",
    cd_dread: "Pavor",
    cd_help: "Condiciones: marcadores junto a las piezas (pasa el ratón para ver qué hace cada una y cuándo acaba). Ardiente y Veneno dañan en el Mantenimiento, al final de la ronda. Rayo, Castigo, Garfio, Vendaval, Ordalía y Rapto llevan efectos añadidos. INTERACTUAR (una carta jugada sin mover ni atacar) ofrece CONCENTRARSE, GUARDIA y ATENDER. Atacar a un portador de la reliquia enemiga obliga a una prueba de Pavor con un dado: por debajo de la dificultad el ataque acaba y el atacante queda Paralizado su siguiente turno.",
  },
});

const LETTER = {burning: "B", poison: "P", fast: "F", slow: "S", paralyzed: "Z", focus: "O",
  defensive: "D"};
const ACTIONS = ["focus", "guard", "tend"];

export function conditionsOn(pos) { return !!(pos && pos.modules && pos.modules.conditions); }

function own(p) { return (p.conditions || []).filter(c => c.name !== "veil" && c.name !== "aegis"); }

// One condition in words: "Burning 2: takes … (ends at Upkeep)".
export function conditionText(c) {
  const name = t("cd_" + c.name);
  const value = c.value ? ` ${c.value}` : "";
  const what = t(`cd_${c.name}_text`), ends = t(`cd_${c.name}_ends`);
  return `${name === "cd_" + c.name ? c.name : name}${value}: ${what === `cd_${c.name}_text` ? "" : what}${ends === `cd_${c.name}_ends` ? "" : ` (${ends})`}`;
}

// The markers of a piece (drawn in its own coordinates; r: its radius).
export function conditionMarks(p, r) {
  const list = own(p);
  if (!list.length) return "";
  return list.map((c, i) => {
    const x = r - 2 - i * 15, y = -r - 2;
    return `<g class="cond-mark cond-${esc(c.name)}" data-condition="${esc(c.name)}"${c.value ? ` data-value="${c.value}"` : ""} transform="translate(${x} ${y})">
      <rect x="-7" y="-7" width="14" height="14" rx="3"/><text y="4">${esc(LETTER[c.name] || c.name[0].toUpperCase())}${c.value ? `<tspan class="cond-value" dx="1" font-size="8">${c.value}</tspan>` : ""}</text>
      <title>${esc(conditionText(c))}</title></g>`;
  }).join("");
}

// The conditions for a piece's own tooltip: ", Burning 2, Slow".
export function conditionsTitle(p) {
  return own(p).map(c => `, ${t("cd_" + c.name)}${c.value ? " " + c.value : ""}`).join("");
}

// A button's words for the module's options (null: not the module's).
export function conditionsLabel(kind, opt) {
  if (kind === "interact" && ACTIONS.includes(opt)) return t(`cd_${opt}_action`);
  if (kind === "fast_step" && /^[a-z]\d+-[a-z]\d+$/.test(opt)) return opt.replace("-", " → ");
  return null;
}

export function conditionsNote(kind, opt) {
  return kind === "interact" && ACTIONS.includes(opt) ? t(`cd_${opt}_note`) : "";
}

// The Dread roll's words beside the last die (the status row's roll).
export function rollLabel(lastRoll) {
  return lastRoll && lastRoll.kind === "dread" ? ` (${t("cd_dread")})` : "";
}

// A Dread test's Paralyzed, held until its owner's next turn: a dashed marker above the
// piece (pos.modules.conditions.pending: [piece id, condition, value, turn]).
export function conditionsSVG(pos, centre) {
  if (!conditionsOn(pos)) return "";
  const pending = (pos.modules.conditions.pending || []).filter(g => g[3] >= 0);
  const parts = [];
  for (const [pid, name] of pending) {
    const p = pos.pieces.find(x => x.id === pid);
    if (!p) continue;
    const [cx, cy] = centre(p.square);
    parts.push(`<g class="cond-mark cond-pending cond-${esc(name)}" data-pending="${esc(name)}" transform="translate(${cx - 20} ${cy - 24})">
      <rect x="-7" y="-7" width="14" height="14" rx="3" stroke-dasharray="2 2"/><text y="4">${esc(LETTER[name] || name[0].toUpperCase())}</text>
      <title>${esc(t("cd_" + name))}: ${esc(t("cd_pending"))}</title></g>`);
  }
  return parts.length ? `<g class="conditions-pending">${parts.join("")}</g>` : "";
}

export function conditionsHelp(pos) {
  return conditionsOn(pos) ? `<p class="conditions-help">${esc(t("cd_help"))}</p>` : "";
}
