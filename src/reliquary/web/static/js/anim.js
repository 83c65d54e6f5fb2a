// Motion from the engine's events: moves, steps, pushes, pulls, swaps, damage, kills,
// relic pick-ups and die rolls, one after another. The opponent's turn plays at the pace
// the player sets (fast, normal, slow); always skippable (any click or key), and off when
// the player asks for reduced motion.
import {centre, pieceShape} from "./board.js";

const NS = "http://www.w3.org/2000/svg";
let running = [];

export function motionAllowed() {
  if (localStorage.getItem("motion") === "off") return false;
  return !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// Milliseconds per step at each pace; "fast" also keeps a whole turn within about a second.
export const PACES = {fast: 170, normal: 450, slow: 900};
export function pace() {
  const chosen = localStorage.getItem("pace");
  return PACES[chosen] ? chosen : "normal";
}

export function skip() {
  for (const a of running) { try { a.finish(); } catch { /* already gone */ } }
  running = [];
  document.querySelectorAll(".anim-temp").forEach(el => el.remove());
  skipButton(false);
}

// A turn played back slowly offers a visible Skip (any click or key skips too).
function skipButton(show, label = "Skip ⏭", ms = 0) {
  const old = document.getElementById("anim-skip");
  if (old) old.remove();
  clearTimeout(skipButton.timer);
  if (!show) return;
  const button = document.createElement("button");
  button.type = "button";
  button.id = "anim-skip";
  button.className = "anim-skip";
  button.textContent = label;
  document.body.appendChild(button);
  skipButton.timer = setTimeout(() => skipButton(false), ms);
}
window.addEventListener("pointerdown", skip, true);
window.addEventListener("keydown", skip, true);

function track(animation) {
  running.push(animation);
  animation.finished.then(() => { running = running.filter(a => a !== animation); }).catch(() => {});
  return animation;
}

function temp(svg, markup) {
  const g = document.createElementNS(NS, "g");
  g.setAttribute("class", "anim-temp");
  g.innerHTML = markup;
  svg.appendChild(g);
  return g;
}

// Animate `entries` (the decisions just taken) on the freshly drawn board `svg`.
export function animate(svg, entries, n, bottom, speed = "fast", skipLabel = "Skip ⏭") {
  if (!svg || !entries.length || !motionAllowed()) return;
  const SEG = PACES[speed] || PACES.fast;
  const segments = [];       // [piece id, from, to, start]
  const arrowTimes = [];     // [the turn's arrow on the board, when its step starts]
  const paths = new Map();   // the pieces that move (id -> true)
  const effects = [];        // [delay, fn]
  let clock = 0;
  for (const entry of entries) {
    for (const ev of entry.events) {
      if (["move", "step", "push", "swap"].includes(ev.kind) && ev.square && ev.to) {
        segments.push([ev.piece, centre(ev.square, n, bottom), centre(ev.to, n, bottom), clock]);
        arrowTimes.push([svg.querySelector(`.arrow[data-arrow="${ev.square}-${ev.to}"]`), clock]);
        paths.set(ev.piece, true);
        if (ev.kind === "swap" && ev.other !== undefined) {
          segments.push([ev.other, centre(ev.to, n, bottom), centre(ev.square, n, bottom), clock]);
          paths.set(ev.other, true);
        }
        clock += SEG;
      } else if (ev.kind === "damage" && ev.square && !ev.prevented) {
        const at = clock;
        arrowTimes.push([svg.querySelector(`.arrow[data-kind="attack"][data-arrow$="-${ev.square}"]`), at]);
        effects.push([at, () => {
          const [x, y] = centre(ev.square, n, bottom);
          const g = temp(svg, `<text class="dmg" x="${x}" y="${y - 20}">−${ev.amount}</text>`);
          track(g.animate([{opacity: 1, transform: "translateY(0px)"}, {opacity: 0, transform: "translateY(-18px)"}],
            {duration: 600, easing: "ease-out"})).finished.then(() => g.remove()).catch(() => g.remove());
        }]);
      } else if (ev.kind === "kill" && ev.square) {
        const at = clock;
        effects.push([at, () => {
          const [x, y] = centre(ev.square, n, bottom);
          const ghost = {id: -1, owner: ev.owner, kind: ev.hero ? "hero" : "minion", hp: 0, max_hp: 0, square: ev.square};
          const g = temp(svg, pieceShape(ghost, x, y, " ghost"));
          track(g.animate([{opacity: 1}, {opacity: 0}], {duration: 450, easing: "ease-in"}))
            .finished.then(() => g.remove()).catch(() => g.remove());
        }]);
      } else if (ev.kind === "pickup") {
        effects.push([clock, () => svg.querySelectorAll(".relic.carried").forEach(el =>
          track(el.animate([{opacity: 0.2}, {opacity: 1}], {duration: 400})))]);
      } else if (ev.kind === "token_reveal") {  // Keepers' Relics: turned over like a roll
        effects.push([clock, () => {
          const tok = svg.querySelector(`.token[data-token="${ev.token}"]`);
          if (tok) track(tok.animate([{transform: tok.getAttribute("transform") + " scale(0, 1)"},
            {transform: tok.getAttribute("transform") + " scale(1, 1)"}], {duration: 450, easing: "ease-out"}));
        }]);
        clock += 200;
      } else if (ev.kind === "roll") {
        effects.push([clock, () => {
          const die = document.getElementById("roll-die");
          if (die) track(die.animate([{transform: "rotate(0deg) scale(.6)"}, {transform: "rotate(360deg) scale(1)"}],
            {duration: 450, easing: "ease-out"}));
        }]);
        clock += 200;
      }
    }
  }
  const scale = speed === "fast" && clock > 900 ? 900 / clock : 1;  // fast: about a second
  const total = Math.max(clock, SEG);
  for (const id of paths.keys()) {  // each piece waits for its steps, one after another
    const el = svg.querySelector(`.piece[data-piece="${id}"]`);
    const mine = segments.filter(sg => sg[0] === id);
    if (!el || !mine.length) continue;
    const at = ([x, y], offset) => ({transform: `translate(${x}px, ${y}px)`, offset});
    const frames = [at(mine[0][1], 0)];
    for (const [, from, to, start] of mine) frames.push(at(from, start / total), at(to, Math.min(1, (start + SEG) / total)));
    frames.push(at(mine[mine.length - 1][2], 1));
    track(el.animate(frames, {duration: total * scale, easing: "linear"}));
  }
  // each arrow of the turn appears as its step is played (an attack's with its damage)
  const reveal = (el, start) => track(el.animate([{opacity: 0}, {opacity: 0, offset: start / total},
    {opacity: 1, offset: Math.min(1, (start + SEG / 3) / total)}, {opacity: 1}], {duration: total * scale}));
  for (const [el, start] of arrowTimes) if (el) reveal(el, start);
  for (const [at, fn] of effects) setTimeout(fn, at * scale);
  document.body.dataset.playing = String(Math.round(total * scale));  // for tests: the turn's length
  if (speed !== "fast" && total * scale >= 800) {
    skipButton(true, skipLabel, total * scale);
    document.body.dataset.skipOffered = "1";
  }
  if (paths.size || effects.length) {  // counted, for tests and the curious
    document.body.dataset.animated = String(Number(document.body.dataset.animated || 0) + 1);
  }
}
