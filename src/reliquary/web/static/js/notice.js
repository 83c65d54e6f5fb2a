// Telling a player the opponent has moved: the tab title, an optional sound.
import {t} from "./i18n.js";
import {flash} from "./ui.js";

let waiting = false;   // a move arrived while the player looked elsewhere
let mine = false;      // the decision on screen is the player's
const baseTitle = document.title;

export function notify() {
  if (!document.hasFocus() || document.hidden) {
    waiting = true;
    updateTitle(true);
  }
  if (localStorage.getItem("sound") === "on") beep();
  flash(t("your_turn"));
}
export function updateTitle(isMine) {
  mine = isMine;
  document.title = waiting && mine ? `● ${t("your_turn")} — Reliquary` : baseTitle;
}
window.addEventListener("focus", () => { waiting = false; updateTitle(mine); });
document.addEventListener("visibilitychange", () => { if (!document.hidden) { waiting = false; updateTitle(mine); } });

function beep() {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.value = 0.08;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.15);
  } catch { /* no audio: the title and message say it */ }
}

