// Drawing the movement cards: name, seal, Escort mark, 5×5 diagram, attack text.
"use strict";
const Cards = (() => {
  const NS = "http://www.w3.org/2000/svg";
  function esc(text) {
    return String(text).replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;",
      '"': "&quot;", "'": "&#39;"}[c]));
  }
  // The diagram: offsets (x right, y towards the opponent) in the owner's frame.
  // rotated = the owner sits at the top of the viewer's screen (turned 180°, D1).
  function diagram(card, rotated) {
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
    const arrow = rotated ? "▼" : "▲";
    return `<svg class="diagram" viewBox="0 0 ${size * cell} ${size * cell}" role="img"
      aria-label="${esc(card.id)} movement ${arrow}">${cells}</svg>`;
  }
  function cardElement(card, rotated, lang, extraClass) {
    const div = document.createElement("div");
    div.className = `card seal-${card.seal}` + (extraClass ? " " + extraClass : "");
    div.dataset.card = card.id;
    const seal = card.seal === "key" ? "⚷" : "☠";
    const sealName = card.seal === "key" ? "Key" : "Skull";
    div.innerHTML = `<div class="card-head"><span class="card-name">${esc(card.id)}</span>
      <span class="seal" title="${sealName} seal">${seal} ${sealName}</span></div>
      ${diagram(card, rotated)}
      ${card.escort ? `<div class="escort" title="Escort">⇆ ${lang === "es" ? "Escolta" : "Escort"}</div>` : ""}
      <div class="attack">${esc(card.attack[lang] || card.attack.en)}</div>`;
    return div;
  }
  return {esc, diagram, cardElement, NS};
})();
