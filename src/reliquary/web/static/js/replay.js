// Replays: step by decision (← →) and by whole turn (↑ ↓, PageUp/PageDown), Home/End.
// Key presses only move a target; one fetch at a time catches up with it, so no press
// is dropped however fast the keys come.
import {api} from "./net.js";
import {esc, t, text, sideName, factionName, errorText} from "./i18n.js";
import {boardSVG, arrowsOf, SIDES} from "./board.js";
import {cardElement} from "./cards.js";
import {animate} from "./anim.js";

const R = {gameId: null, total: 0, at: -1, want: 0, loading: false, entries: [], starts: [], view: null,
  meta: null, app: null, flip: false};

export async function openReplay(app, meta, gameId) {
  Object.assign(R, {app, meta, gameId, at: -1, want: 0, loading: false, view: null});
  document.body.classList.add("playing");
  try {
    const out = await api("GET", `/api/games/${gameId}/events?since=0`);
    R.entries = out.entries;
    R.total = out.total;
  } catch (err) {
    app.innerHTML = `<section class="panel not-found" id="not-found"><h1>${esc(t("not_found_title"))}</h1><p>${esc(errorText(err))}</p>
      <p><a class="button" href="/">${esc(t("back_home"))}</a></p></section>`;
    return;
  }
  R.starts = R.entries.filter(e => e.kind === "play").map(e => e.seq);
  // the first move's position (the setup done), or the step the link names (#at=N)
  const named = location.hash.match(/^#at=(\d+)$/);
  goTo(named ? Number(named[1]) : (R.starts.length ? R.starts[0] : 0));
}

// The same step again (after a language change).
export function redrawReplay() { if (R.view) draw(R.view); }

export function goTo(n) {
  R.want = Math.max(0, Math.min(R.total, n));
  pump();
}

async function pump() {
  if (R.loading || R.want === R.at) return;
  R.loading = true;
  const target = R.want;
  try {
    const v = await api("GET", `/api/games/${R.gameId}/replay?at=${target}`);
    const before = R.at;
    R.at = target;
    R.view = v;
    draw(v);
    if (target === before + 1) {  // one step forward: show it moving
      animate(document.getElementById("board"), R.entries.filter(e => e.seq === before),
        v.position.settings.size, R.flip ? "skull" : "key");
    }
  } catch (err) {
    R.app.innerHTML = `<p class="error">${esc(errorText(err))}</p>`;
    R.want = R.at;
  } finally {
    R.loading = false;
    if (R.want !== R.at) pump();
  }
}

function turnIndex(at) {
  // the turn holding the last decision applied (at - 1); -1 during setup
  let k = -1;
  R.starts.forEach((s, i) => { if (s <= at - 1) k = i; });
  return k;
}
export function nextTurn() {
  const base = R.want;
  const next = R.starts.find(s => s > base);
  goTo(next === undefined ? R.total : next);
}
export function prevTurn() {
  const base = R.want;
  const earlier = R.starts.filter(s => s < base);
  goTo(earlier.length ? earlier[earlier.length - 1] : 0);
}

function draw(v) {
  const meta = R.meta;
  const pos = v.position;
  const bottom = R.flip ? "skull" : "key";
  const top = bottom === "key" ? "skull" : "key";
  const current = turnIndex(v.at);
  document.body.dataset.at = v.at;
  document.body.dataset.turn = current;
  document.body.dataset.total = v.total;
  const turnEnd = i => (i + 1 < R.starts.length ? R.starts[i + 1] : R.total);
  const arrows = current >= 0 ? arrowsOf(R.entries.filter(e => e.seq >= R.starts[current] && e.seq < Math.min(v.at, turnEnd(current)))) : [];
  const turns = R.starts.map((s, i) => {
    const play = R.entries[s];
    const ev = play.events.find(e => e.kind === "play") || {};
    return `<li class="turn-item${i === current ? " current" : ""}" data-turn="${i}" data-at="${turnEnd(i)}">
      <button type="button" class="turn-link" data-go="${turnEnd(i)}">${esc(t("turn_n"))} ${i + 1}: ${esc(sideName(play.player))} — ${esc(ev.card || "")} ${esc(ev.mode ? t(ev.mode) : "")}</button></li>`;
  }).join("");
  const label = (side) => `${sideName(side)}${pos.factions[side] ? " · " + factionName(meta, pos.factions[side]) : ""}`;
  R.app.innerHTML = `
    <section class="game replay" id="game">
      <div class="status-row" id="status-row"><span class="status">${esc(t("replay"))} — ${esc(t("step"))} <span id="replay-at">${v.at}</span> / ${v.total}
        · ${esc(t("turn_n"))} <span id="replay-turn">${current + 1}</span></span>
        <span class="vigil">${esc(t("vigil"))} <b>${pos.vigil}</b></span></div>
      <div class="board-box" id="board-box">${boardSVG(v, {bottom, squares: new Set(), arrows})}</div>
      <div class="hand-row opp-row"><div class="hand-wrap"><div class="hand-label">${esc(label(top))}</div><div class="hand" id="hand-${top}"></div></div>
        <div class="hand-wrap waiting-wrap"><div class="hand-label">${esc(t("waiting"))}</div><div class="hand" id="waiting"></div></div></div>
      <div class="prompt-box">
        <div class="replay-controls buttons">
          <button type="button" id="rp-first" title="Home">|◀ ${esc(t("first"))}</button>
          <button type="button" id="rp-prev-turn" title="↑">◀◀ ${esc(t("prev_turn"))}</button>
          <button type="button" id="rp-prev" title="←">◀ ${esc(t("prev"))}</button>
          <button type="button" id="rp-next" title="→">${esc(t("next"))} ▶</button>
          <button type="button" id="rp-next-turn" title="↓">${esc(t("next_turn"))} ▶▶</button>
          <button type="button" id="rp-last" title="End">${esc(t("last"))} ▶|</button>
          <button type="button" id="rp-flip" aria-label="${esc(t("flip"))}">⇅</button>
        </div>
        <div class="result"><h2 id="final-result">${esc(text(v.final_result_text))}</h2>
          <a class="button" href="/api/games/${esc(R.gameId)}/record" download>${esc(t("download"))}</a></div>
      </div>
      <div class="hand-row my-row"><div class="hand-wrap"><div class="hand-label">${esc(label(bottom))}</div><div class="hand" id="hand-${bottom}"></div></div></div>
      <div class="tabs" id="tabs"><div class="tab-bar"><button type="button" class="tab active">${esc(t("turn_n"))}</button>
        <button type="button" class="tab" id="tab-log-r">${esc(t("log"))}</button></div>
        <div class="tab-panel"><ol class="turn-list" id="turn-list">${turns}</ol>
        <ol class="log" id="log" hidden>${v.log.map(l => `<li>${esc(text(l))}</li>`).join("")}</ol></div></div>
    </section>`;
  for (const side of SIDES) {
    const box = document.getElementById(`hand-${side}`);
    for (const id of pos.hands[side]) {
      box.appendChild(cardElement(meta, meta.cards.find(c => c.id === id), {rotated: side !== bottom, factionId: pos.factions[side]}));
    }
  }
  if (pos.waiting) document.getElementById("waiting").appendChild(cardElement(meta, meta.cards.find(c => c.id === pos.waiting), {}));
  const on = (id, fn) => document.getElementById(id).addEventListener("click", fn);
  on("rp-first", () => goTo(0));
  on("rp-prev", () => goTo(R.want - 1));
  on("rp-next", () => goTo(R.want + 1));
  on("rp-last", () => goTo(R.total));
  on("rp-prev-turn", prevTurn);
  on("rp-next-turn", nextTurn);
  on("rp-flip", () => { R.flip = !R.flip; draw(R.view); });
  on("tab-log-r", () => {
    document.getElementById("log").hidden = !document.getElementById("log").hidden;
    document.getElementById("turn-list").hidden = !document.getElementById("log").hidden;
  });
  document.querySelectorAll("[data-go]").forEach(el => el.addEventListener("click", () => goTo(Number(el.dataset.go))));
  bindSwipe(document.getElementById("board-box"));
  const cur = document.querySelector(".turn-item.current");
  if (cur) cur.scrollIntoView({block: "nearest"});
}

// On a touch screen a swipe across the board steps: to the left forward, to the right back.
function bindSwipe(el) {
  let start = null;
  el.addEventListener("touchstart", ev => {
    const p = ev.changedTouches[0];
    start = ev.touches.length === 1 ? [p.clientX, p.clientY] : null;
  }, {passive: true});
  el.addEventListener("touchend", ev => {
    if (!start) return;
    const p = ev.changedTouches[0];
    const dx = p.clientX - start[0], dy = p.clientY - start[1];
    start = null;
    if (Math.abs(dx) < 40 || Math.abs(dx) < 1.5 * Math.abs(dy)) return;  // a tap, a scroll
    goTo(R.want + (dx < 0 ? 1 : -1));
  });
}

document.addEventListener("keydown", ev => {
  if (!location.pathname.startsWith("/replay/") || !R.gameId) return;
  if (ev.target && ev.target.matches && ev.target.matches("input, select, textarea")) return;
  const keys = {ArrowLeft: () => goTo(R.want - 1), ArrowRight: () => goTo(R.want + 1),
    ArrowUp: prevTurn, PageUp: prevTurn, ArrowDown: nextTurn, PageDown: nextTurn,
    Home: () => goTo(0), End: () => goTo(R.total)};
  if (keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
});
