// The player's rules page: the rulebook (English or Spanish), every card drawn,
// the factions and the rites; the specification is one link away.
import {applyStatic, bindLangButtons, onLangChange, lang, t, text, esc, factionName, riteName} from "./i18n.js";
import {cardElement} from "./cards.js";

const meta = await fetch("/api/meta").then(r => r.json());

const HEAD = {
  en: {cards: "The cards", note: "Each diagram is drawn from its owner's side: the dot is the piece, the dark squares are where it may move, the top points at the opponent.", factions: "Factions", rites: "Rites"},
  es: {cards: "Las cartas", note: "Cada diagrama se dibuja desde el lado de su dueño: el punto es la pieza, las casillas oscuras son adónde puede mover, arriba está el rival.", factions: "Facciones", rites: "Ritos"},
};

async function draw() {
  applyStatic();
  document.title = `Reliquary — ${t("rules")}`;
  for (const paper of ["a4", "letter"]) document.getElementById(`pdf-${paper}`).href = `/print.pdf?paper=${paper}&lang=${lang}`;
  const article = document.getElementById("rulebook");
  try {
    const res = await fetch(`/api/rulebook?lang=${lang}`);
    const data = await res.json();
    article.innerHTML = res.ok ? data.html : `<p class="error">${esc(data.error)}</p>`;
  } catch (err) { article.textContent = String(err); }
  const head = HEAD[lang] || HEAD.en;
  document.getElementById("cards-title").textContent = head.cards;
  document.getElementById("cards-note").textContent = head.note;
  document.getElementById("factions-title").textContent = head.factions;
  document.getElementById("rites-title").textContent = head.rites;
  const grid = document.getElementById("all-cards");
  grid.replaceChildren(...meta.cards.map(card => cardElement(meta, card, {})));
  const fac = document.getElementById("all-factions");
  fac.innerHTML = meta.factions.map(f => `<div class="faction-card"><h3>${esc(factionName(meta, f.id))}</h3>
    <p class="muted">${esc(t("hero"))}: ${f.hero_hp} ${esc(t("hp"))}</p><p>${esc(text(f.text))}</p></div>`).join("");
  document.getElementById("all-rites").innerHTML = meta.rites.map(r =>
    `<p><b>${esc(riteName(meta, r.id))}</b> — ${esc(text(r.text))}</p>`).join("");
}

bindLangButtons();
onLangChange(draw);
draw();
