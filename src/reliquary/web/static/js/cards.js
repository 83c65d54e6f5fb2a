// Drawing the movement cards: name, seal, Escort mark, 5×5 diagram and what its attack does.
import {esc, t, text} from "./i18n.js";

// The diagram: offsets (x right, y towards the opponent) in the owner's frame.
// rotated = the owner sits at the top of the viewer's screen (turned 180°, D1).
export function diagram(card, rotated) {
  const size = 5, cell = 12;
  let cells = "";
  for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) {
    cells += `<rect x="${c * cell}" y="${r * cell}" width="${cell}" height="${cell}" class="dg-cell"/>`;
  }
  for (const [dx, dy] of card.diagram) {
    const c = rotated ? 2 - dx : 2 + dx;
    const r = rotated ? 2 + dy : 2 - dy;
    cells += `<rect x="${c * cell}" y="${r * cell}" width="${cell}" height="${cell}" class="dg-dest"/>`;
  }
  cells += `<circle cx="${2 * cell + cell / 2}" cy="${2 * cell + cell / 2}" r="${cell / 3}" class="dg-piece"/>`;
  return `<svg class="diagram" viewBox="0 0 ${size * cell} ${size * cell}" role="img"
    aria-label="${esc(card.id)} ${rotated ? "▼" : "▲"}">${cells}</svg>`;
}

// What the card's ATTACK does for its holder: its own text, or the holder's faction's.
export function attackText(meta, card, factionId) {
  if (!card.generic && card.attack && card.attack.en !== "Faction attack") return text(card.attack);
  const faction = factionId && factionId !== "hidden" && meta.factions.find(f => f.id === factionId);
  if (!faction) return t("faction_attack");
  return `${t("faction_attack")}: ${text(faction.text)}`;
}

// A card as a button (focusable, keyboard-selectable) or a plain figure.
export function cardElement(meta, card, {rotated = false, factionId = null, extraClass = "",
  button = false} = {}) {
  const el = document.createElement(button ? "button" : "div");
  if (button) el.type = "button";
  el.className = `card seal-${card.seal}` + (extraClass ? " " + extraClass : "");
  el.dataset.card = card.id;
  const sealName = card.seal === "key" ? t("key_seal") : t("skull_seal");
  const attack = attackText(meta, card, factionId);
  el.title = `${card.id} — ${sealName}${card.escort ? " — " + t("escort") : ""}\n${attack}`;
  el.innerHTML = `<span class="card-head"><span class="card-name">${esc(card.id)}</span>
    <span class="seal" title="${esc(sealName)}" aria-label="${esc(sealName)}">${card.seal === "key" ? "⚷" : "☠"}</span></span>
    ${diagram(card, rotated)}
    ${card.escort ? `<span class="escort">⇆ ${esc(t("escort"))}</span>` : ""}
    <span class="attack">${esc(attack)}</span>`;
  return el;
}
