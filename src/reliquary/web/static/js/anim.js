// Motion from the engine's events: moves, steps, pushes, pulls, swaps, damage, kills,
// relic pick-ups and die rolls. Short, skippable (any click or key), and off when the
// player asks for reduced motion.
import {centre, pieceShape} from "./board.js";

const NS = "http://www.w3.org/2000/svg";
let running = [];

export function motionAllowed() {
  if (localStorage.getItem("motion") === "off") return false;
  return !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export function skip() {
  for (const a of running) { try { a.finish(); } catch { /* already gone */ } }
  running = [];
  document.querySelectorAll(".anim-temp").forEach(el => el.remove());
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
export function animate(svg, entries, n, bottom) {
  if (!svg || !entries.length || !motionAllowed()) return;
  const SEG = 170;
  const paths = new Map();   // piece id -> [[x, y], ...]
  const effects = [];        // [delay, fn]
  let clock = 0;
  for (const entry of entries) {
    for (const ev of entry.events) {
      if (["move", "step", "push", "swap"].includes(ev.kind) && ev.square && ev.to) {
        const path = paths.get(ev.piece) || [centre(ev.square, n, bottom)];
        path.push(centre(ev.to, n, bottom));
        paths.set(ev.piece, path);
        if (ev.kind === "swap" && ev.other !== undefined) {
          const other = paths.get(ev.other) || [centre(ev.to, n, bottom)];
          other.push(centre(ev.square, n, bottom));
          paths.set(ev.other, other);
        }
        clock += SEG;
      } else if (ev.kind === "damage" && ev.square && !ev.prevented) {
        const at = clock;
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
  const scale = clock > 900 ? 900 / clock : 1;  // never longer than about a second
  for (const [id, path] of paths) {
    const el = svg.querySelector(`.piece[data-piece="${id}"]`);
    if (!el || path.length < 2) continue;
    const frames = path.map(([x, y]) => ({transform: `translate(${x}px, ${y}px)`}));
    track(el.animate(frames, {duration: Math.max(150, (path.length - 1) * SEG * scale), easing: "ease-in-out"}));
  }
  for (const [at, fn] of effects) setTimeout(fn, at * scale);
  if (paths.size || effects.length) {  // counted, for tests and the curious
    document.body.dataset.animated = String(Number(document.body.dataset.animated || 0) + 1);
  }
}
