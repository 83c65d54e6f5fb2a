// The first-game walkthrough: a short guided tour of the turn, over a real game
// against the easy AI (started from the home page's tutorial button).
import {esc, t, lang} from "./i18n.js";

const STEPS = {
  en: [
    ["#board-box", "This is the board. Your pieces are at the bottom: the big one with a crown is your Hero, the small ones your Minions. The diamond is a relic: steal the enemy's and bring it to your back row."],
    ["#my-row", "Your hand: three cards. Choose one: its diagram shows where a piece may jump (the dot is the piece, the top points at the opponent). The dots on the board preview where each of your pieces could go."],
    ["#buttons", "Then choose how to play it: MOVE along the diagram, ATTACK with the card's attack, REGROUP a killed Minion, or your RITE once per game. Then click the highlighted squares."],
    ["#opp-row", "The card you play waits here, and your opponent takes it after their next turn. The opponent's hand is open: you can see what they can do."],
    ["#status-row", "The Vigil die counts quiet rounds down from 6; at 0 the game ends on points. Any damage or relic taken resets it."],
    ["#tabs", "The log, the help (both factions' attacks, the rites, the modes) and the game links are here. Use the hint button if you are stuck. Good luck!"],
  ],
  es: [
    ["#board-box", "Este es el tablero. Tus piezas están abajo: la grande con corona es tu Héroe, las pequeñas tus Esbirros. El rombo es una Reliquia: roba la enemiga y llévala a tu fila trasera."],
    ["#my-row", "Tu mano: tres cartas. Elige una: su diagrama muestra adónde puede saltar una pieza (el punto es la pieza, arriba está el rival). Los puntos del tablero muestran adónde podría ir cada pieza."],
    ["#buttons", "Luego elige cómo jugarla: MOVER según el diagrama, ATACAR con el ataque de la carta, REAGRUPAR un Esbirro abatido, o tu RITO una vez por partida. Después pulsa las casillas resaltadas."],
    ["#opp-row", "La carta que juegas queda aquí en espera, y tu rival la coge tras su siguiente turno. La mano del rival está a la vista: puedes ver qué puede hacer."],
    ["#status-row", "El dado de la Vigilia cuenta las rondas tranquilas desde 6; a 0 la partida acaba a puntos. Cualquier daño o Reliquia tomada lo reinicia."],
    ["#tabs", "Aquí están el registro, la ayuda (ataques de ambas facciones, ritos, modos) y los enlaces. Usa el botón de pista si te atascas. ¡Suerte!"],
  ],
};

let step = -1;

export function maybeStartTour(v) {
  if (localStorage.getItem("reliquary.tour") !== "start") { if (step >= 0) draw(); return; }
  if (!v.decision || !v.decision.mine || v.decision.kind !== "play") return;
  localStorage.setItem("reliquary.tour", "done");
  step = 0;
  draw();
}

// The tip never covers what it speaks of: the first spot of the screen (below, above,
// right, left of the target, then the corners) where the box and the target do not meet.
function place(box, target) {
  box.style.left = "0px";
  box.style.top = "0px";
  box.style.transform = "none";
  const b = box.getBoundingClientRect();
  const W = innerWidth, H = innerHeight, m = 8;
  const clampX = x => Math.max(m, Math.min(W - b.width - m, x));
  const clampY = y => Math.max(m, Math.min(H - b.height - m, y));
  let spots = [[clampX((W - b.width) / 2), H - b.height - m]];
  if (target) {
    const r = target.getBoundingClientRect();
    const cx = clampX(r.left + (r.width - b.width) / 2), cy = clampY(r.top + (r.height - b.height) / 2);
    spots = [[cx, r.bottom + m], [cx, r.top - b.height - m], [r.right + m, cy], [r.left - b.width - m, cy],
      [W - b.width - m, H - b.height - m], [m, H - b.height - m], [W - b.width - m, m], [m, m]];
    const free = ([x, y]) => x >= 0 && y >= 0 && x + b.width <= W && y + b.height <= H &&
      (x + b.width <= r.left || x >= r.right || y + b.height <= r.top || y >= r.bottom);
    spots = [...spots.filter(free), ...spots.map(([x, y]) => [clampX(x), clampY(y)])];
  }
  const [x, y] = spots[0];
  box.style.left = `${x}px`;
  box.style.top = `${y}px`;
}

function draw() {
  document.querySelectorAll(".tour-target").forEach(el => el.classList.remove("tour-target"));
  let box = document.getElementById("tour");
  const steps = STEPS[lang] || STEPS.en;
  if (step < 0 || step >= steps.length) { if (box) box.remove(); step = -1; return; }
  const [selector, body] = steps[step];
  const target = document.querySelector(selector);
  if (target) target.classList.add("tour-target");
  if (!box) {
    box = document.createElement("div");
    box.id = "tour";
    box.setAttribute("role", "dialog");
    document.body.appendChild(box);
  }
  box.innerHTML = `<p>${esc(body)}</p><div class="tour-buttons">
    <span class="muted">${step + 1} / ${steps.length}</span>
    <button type="button" id="tour-skip">${esc(t("skip"))}</button>
    <button type="button" id="tour-next" class="big">${esc(step + 1 < steps.length ? t("next_tip") : t("done"))}</button></div>`;
  place(box, target);
  document.getElementById("tour-skip").addEventListener("click", () => { step = -1; draw(); });
  document.getElementById("tour-next").addEventListener("click", () => { step += 1; draw(); });
  document.getElementById("tour-next").focus();
}
