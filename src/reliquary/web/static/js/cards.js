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
  // the whole card in words for a screen reader (the page shows it in full on demand,
  // so no tooltip doubles it)
  el.setAttribute("aria-description", `${sealName}${card.escort ? " — " + t("escort") : ""}. ${attack}`);
  el.innerHTML = `<span class="card-head"><span class="card-name">${esc(card.id)}</span>
    <span class="seal" title="${esc(sealName)}" aria-label="${esc(sealName)}">${card.seal === "key" ? "⚷" : "☠"}</span></span>
    ${diagram(card, rotated)}
    <span class="escort"${card.escort ? "" : ' aria-hidden="true" style="visibility: hidden"'}>⇆ ${esc(t("escort"))}</span>
    <span class="attack">${esc(attack)}</span>`;
  return el;
}

// ------------------------------------------------------------------ a card in full
// Every card can be read in full: hovering a card (a mouse), pressing Z on a focused or
// selected card, a long press (a touch screen) or a tap on a card that is not a choice
// shows it enlarged with its whole text. Esc, a tap or moving away closes it.
let zoomTimer = null;
let pressTimer = null;
let returnFocus = null;  // where the keyboard was before a card was opened in full

export function hideZoom() {
  clearTimeout(zoomTimer);
  const box = document.getElementById("card-zoom");
  if (!box) return;
  box.remove();
  if (returnFocus && document.body.contains(returnFocus)) returnFocus.focus();
  returnFocus = null;
}

export function showZoom(card, modal = false) {
  hideZoom();
  const box = document.createElement("div");
  box.id = "card-zoom";
  box.className = "card-zoom" + (modal ? " modal" : "");
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-label", card.dataset.card);
  const copy = card.cloneNode(true);
  copy.removeAttribute("id");
  copy.classList.remove("playable", "selected");
  copy.classList.add("zoomed");
  copy.removeAttribute("aria-pressed");
  const big = document.createElement("div");
  big.className = "card zoomed " + [...copy.classList].filter(c => c.startsWith("seal-")).join(" ");
  big.dataset.card = card.dataset.card;
  big.innerHTML = copy.innerHTML;
  box.appendChild(big);
  if (modal) {
    const close = document.createElement("button");
    close.type = "button";
    close.className = "zoom-close";
    close.textContent = "✕";
    close.setAttribute("aria-label", t("close"));
    box.appendChild(close);
    box.addEventListener("click", hideZoom);
    box.setAttribute("aria-modal", "true");
    returnFocus = document.activeElement;
  } else {  // beside the card, on the side with more room
    const r = card.getBoundingClientRect();
    const left = r.left > innerWidth / 2 ? Math.max(4, r.left - 330) : Math.min(innerWidth - 324, r.right + 8);
    box.style.left = `${left}px`;
    box.style.top = `${Math.max(4, Math.min(innerHeight - 360, r.top - 40))}px`;
  }
  document.body.appendChild(box);
  const close = box.querySelector(".zoom-close");
  if (close) close.focus();
  return box;
}

export function bindZoom(root) {
  root.querySelectorAll(".card").forEach(card => {
    card.addEventListener("pointerenter", ev => {
      if (ev.pointerType !== "mouse") return;
      clearTimeout(zoomTimer);
      zoomTimer = setTimeout(() => showZoom(card), 300);
    });
    card.addEventListener("pointerleave", ev => { if (ev.pointerType === "mouse") hideZoom(); });
    card.addEventListener("pointerdown", ev => {
      if (ev.pointerType === "mouse") { hideZoom(); return; }  // a click chooses: out of its way
      clearTimeout(pressTimer);
      pressTimer = setTimeout(() => { pressTimer = "fired"; showZoom(card, true); }, 450);
    });
    const cancel = () => { if (pressTimer !== "fired") clearTimeout(pressTimer); };
    card.addEventListener("pointerup", cancel);
    card.addEventListener("pointercancel", cancel);
    card.addEventListener("contextmenu", ev => ev.preventDefault());  // a long press is ours
    card.addEventListener("click", ev => {
      if (pressTimer === "fired") { pressTimer = null; ev.stopImmediatePropagation(); ev.preventDefault(); return; }
      if (card.tagName !== "BUTTON") showZoom(card, true);  // not a choice: a tap reads it
    }, true);
  });
}

document.addEventListener("keydown", ev => {
  if (ev.target && ev.target.matches && ev.target.matches("input, select, textarea")) return;
  if (ev.key === "Escape") { hideZoom(); return; }
  if (ev.key !== "z" && ev.key !== "Z") return;
  if (document.getElementById("card-zoom")) { hideZoom(); return; }
  const card = (document.activeElement && document.activeElement.closest && document.activeElement.closest(".card"))
    || document.querySelector(".card.selected");
  if (card) showZoom(card, true);
});
