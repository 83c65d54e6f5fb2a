// The play screen: board, hands, waiting card, prompt and options on one screen;
// the log, help and game links in tabs (a drawer on a phone). The server decides
// everything; this page draws the view, offers its options and animates its events.
import {api, connect} from "./net.js";
import {esc, t, text, sideName, factionName, riteName, errorText} from "./i18n.js";
import {boardSVG, arrowsOf, SIDES} from "./board.js";
import {cardElement, bindZoom} from "./cards.js";
import {logHTML} from "./log.js";
import {hintArrows, hintHTML} from "./hint.js";
import {decisionOptions} from "./prompt.js";
import {keepersStatusHTML} from "./keepers.js";
import {gloryStatusHTML} from "./glory.js";
import {rollLabel} from "./conditions.js";
import {interactPreviewHTML, optionNotesHTML, bindNotes} from "./interact.js";
import {helpHTML} from "./help.js";
import {animate, pace, skip as skipAnimation} from "./anim.js";
import {remember, update as updateStored} from "./store.js";
import {flash} from "./ui.js";
import {maybeStartTour} from "./tour.js";
import {viewerSide, statusHTML, aiHTML, clocksHTML, vigilHTML, resultHTML, infoHTML,
  inviteBanner, startTimers, stopTimers} from "./status.js";
import {notify, updateTitle} from "./notice.js";
import {openSocial, closeSocial, refreshSocial, socialState, presenceHTML, waitingHTML, offerHTML,
  socialToolsHTML, messagesHTML, presetText} from "./social.js";

const S = {
  meta: null, gameId: null, token: null, view: null, socket: null, busy: false,
  pending: false, gone: false, tab: "log", drawer: false,
  ui: {selectedCard: null, escortFrom: null, flip: false, previewMode: null, keyboard: false},
  hintStep: 0, preview: null, previewKey: null, hint: null, entries: [], byServer: true, router: null,
};

// ------------------------------------------------------------------ entry points
export async function openGame(app, meta, gameId, params) {
  closeGame();
  S.meta = meta;
  S.app = app;
  S.gameId = gameId;
  S.view = null;
  S.gone = false;
  S.ui = {selectedCard: null, escortFrom: null, flip: false, previewMode: null, keyboard: false};
  S.lastMessage = undefined;
  S.lastOffer = null;
  S.setup = null;
  S.token = params.get("t");
  const invite = params.get("invite");
  if (invite) {
    try {
      const out = await api("POST", `/api/games/${gameId}/claim`, {invite});
      S.token = out.token;
      history.replaceState(null, "", out.links.self);
      remember({id: gameId, token: out.token, seat: out.seat, mode: "online", link: out.links.self});
    } catch (err) {
      if (err.code === "not_found") { notFound(); return; }
      flash(errorText(err));  // used invite: watch as a spectator
      history.replaceState(null, "", `/g/${gameId}`);
    }
  }
  if (!await refresh()) return;
  const v = S.view;
  if (S.token && v && v.seats.length) {  // "My games": every seat link opened here
    remember({id: v.id, token: S.token, seat: v.seats.length === 1 ? v.seats[0] : "key",
      mode: v.mode, link: `/g/${v.id}?t=${encodeURIComponent(S.token)}`, over: !!v.result});
  }
  goLive(gameId);
  if (S.view && S.view.mode === "online") openSocial(gameId, S.token, onSocial);
}

function goLive(gameId) {
  S.socket = connect(gameId, {
    onUpdate: msg => {
      if (msg.type === "reconnect" || !S.view || msg.rev !== S.view.rev || msg.seq !== S.view.seq) {
        if (S.busy) S.pending = true; else refresh();
      }
    },
    onOnline: () => document.body.classList.remove("offline"),
    onOffline: () => document.body.classList.add("offline"),
    onGone: () => notFound(),
    onStopped: reason => liveStopped(gameId, reason),
  });
}

// The server closed the live connection for good (idle, or over its limits): say so and
// offer to reconnect by hand, instead of retrying in a loop.
function liveStopped(gameId, reason) {
  document.body.classList.remove("offline");
  document.body.dataset.live = reason;
  hideLiveStopped();
  const box = document.createElement("div");
  box.id = "live-stopped";
  box.className = "live-stopped";
  box.setAttribute("role", "status");
  const words = document.createElement("span");
  words.textContent = t(reason === "idle" ? "live_idle" : "live_limited");
  const button = document.createElement("button");
  button.type = "button";
  button.id = "reconnect";
  button.textContent = t("reconnect");
  button.addEventListener("click", () => {
    hideLiveStopped();
    delete document.body.dataset.live;
    if (S.gameId !== gameId || S.gone) return;
    refresh();
    goLive(gameId);
  });
  box.append(words, " ", button);
  document.body.appendChild(box);
}

function hideLiveStopped() {
  const old = document.getElementById("live-stopped");
  if (old) old.remove();
}

export function closeGame() {
  closeSocial();
  if (S.socket) S.socket.stop();
  S.socket = null;
  hideLiveStopped();
  stopTimers();
  document.body.classList.remove("playing");
}

export function rerender() { if (S.view) render(S.view); }

// For tests and the curious: drop the live connection to watch it come back.
window.Reliquary = {dropSocket: () => S.socket && S.socket.drop(), state: () => S};

// ------------------------------------------------------------------ talking to the server
function viewUrl() {
  return `/api/games/${S.gameId}` + (S.token ? `?t=${encodeURIComponent(S.token)}` : "");
}

async function fetchEntries(v, before) {
  // The events of the decisions since `before` (animation) and of the last turn (arrows).
  const since = Math.max(0, Math.min(before === null ? v.seq : before, v.seq) - 40);
  try {
    const out = await api("GET", `/api/games/${v.id}/events?since=${since}&until=${v.seq}`);
    return out.entries;
  } catch { return []; }
}

// One refresh at a time, in order: a slow answer never overwrites a newer one.
let refreshing = null;
let refreshWanted = false;
function refresh() {
  refreshWanted = true;
  if (!refreshing) {
    refreshing = (async () => {
      let ok = true;
      while (refreshWanted) {
        refreshWanted = false;
        ok = await refreshOnce();
      }
      refreshing = null;
      return ok;
    })();
  }
  return refreshing;
}

async function refreshOnce() {
  let v;
  try { v = await api("GET", viewUrl()); } catch (err) {
    if (err.code === "not_found" || err.code === "gone") { notFound(err.code === "gone" ? errorText(err) : null); return false; }
    if (err.code === "forbidden" && S.token) { badLink(); return false; }
    flash(errorText(err));
    return false;
  }
  await show(v);
  return true;
}

async function show(v) {
  if (v.id !== S.gameId) return;  // an answer about the game this page has just left
  const old = S.view;
  const before = old && old.id === v.id ? old.seq : null;
  const entries = await fetchEntries(v, before);
  if (v.id !== S.gameId) return;
  const fresh = before !== null && v.seq > before ? entries.filter(e => e.seq >= before) : [];
  if (!old || v.seq !== old.seq || v.rev !== old.rev) {
    S.ui.escortFrom = null;
    S.ui.focusPiece = null;
    S.ui.ruinPick = null;
    S.hint = null;
  }
  const theirs = old && v.decision && v.decision.mine && !(old.decision && old.decision.mine);
  render(v, entries);
  if (fresh.length) {
    const svg = document.getElementById("board");
    // the opponent's turn (news from the server) at the player's pace; one's own, fast
    animate(svg, fresh, v.position.settings.size, bottomSide(v), S.byServer ? pace() : "fast",
      `${t("skip")} ⏭`);
  }
  if (theirs && S.byServer && v.mode === "online") notify();  // the opponent has moved
  if (v.mode === "online") {
    if (old && old.id === v.id && old.open_seat && !v.open_seat && v.seats.length === 1) guestJoined();
    if (old && old.id === v.id && (old.seq !== v.seq || old.rev !== v.rev)) {
      refreshSocial(v.id, S.token, onSocial);  // an offer lapses when the game moves on
    }
  }
}

let previewTimer = null;

async function submit(option) {
  if (S.busy || !S.view || option === null) return;
  clearTimeout(previewTimer);
  setBusy(true);
  if (refreshing) await refreshing;
  S.byServer = false;
  try {
    const v = await api("POST", `/api/games/${S.gameId}/decide`,
      {token: S.token, rev: S.view.rev, option});
    await show(v);
  } catch (err) {
    flash(errorText(err));
    await refresh();
  } finally {
    setBusy(false);
    S.byServer = true;
    if (S.pending) { S.pending = false; refresh(); }
  }
}

async function post(path, body) {
  if (S.busy) return;
  setBusy(true);
  if (refreshing) await refreshing;
  try {
    const v = await api("POST", `/api/games/${S.gameId}/${path}`, body);
    await show(v);
  } catch (err) {
    flash(errorText(err));
    await refresh();
  } finally {
    setBusy(false);
    if (S.pending) { S.pending = false; refresh(); }
  }
}

function setBusy(value) {
  S.busy = value;
  document.body.classList.toggle("busy", value);
}

// ------------------------------------------------------------------ who sits where
export function bottomSide(v) {
  let side = viewerSide(v);
  if (side === null) {  // hot-seat: the player to move; spectators: Key
    side = v.seats.length === 2 && v.decision && SIDES.includes(v.decision.side) ? v.decision.side : "key";
  }
  if (S.ui.flip) side = side === "key" ? "skull" : "key";
  return side;
}
function factionOf(v, side) {
  const pos = v.position;
  return pos.factions[side] || (pos.secret_factions && pos.secret_factions[side]) || null;
}

// ------------------------------------------------------------------ drawing
function lastTurnArrows(v, entries) {
  if (!entries.length) return [];
  const plays = entries.filter(e => e.kind === "play").map(e => e.seq);
  if (!plays.length) return [];
  const atTurnStart = !v.decision || v.decision.kind === "play";
  let from, to;
  if (atTurnStart) { from = plays[plays.length - 1]; to = v.seq; }
  else if (plays.length > 1) { from = plays[plays.length - 2]; to = plays[plays.length - 1]; }
  else return [];
  const attacks = v.log.filter(l => l.from && l.to && Number(l.seq) >= from && Number(l.seq) < to)
    .map(l => ({from: l.from, to: l.to, kind: "attack"}));
  return [...arrowsOf(entries.filter(e => e.seq >= from && e.seq < to)), ...attacks];
}

// What the board draws beside the pieces: the last turn's arrows, or the hint's line.
function boardArrows(v) {
  if (S.hint && S.hint.pv) return hintArrows(S.hint.pv, S.hintStep);
  return lastTurnArrows(v, S.entries);
}

function render(v, entries) {
  S.view = v;
  delete document.body.dataset.past;
  if (entries) S.entries = entries;
  const meta = S.meta;
  const d = v.decision;
  const b = document.body;
  b.classList.add("playing");
  b.dataset.seq = v.seq;
  b.dataset.rev = v.rev ?? "";
  b.dataset.over = v.result ? "1" : "0";
  b.dataset.turns = v.position.turns_taken.key + v.position.turns_taken.skull;
  b.dataset.side = d ? d.side : "";
  b.dataset.mine = d && d.mine ? "1" : "0";
  b.dataset.kind = d ? d.kind : "";
  const me = bottomSide(v);
  b.dataset.bottom = me;
  const other = me === "key" ? "skull" : "key";
  const pos = v.position;
  const opts = decisionOptions(meta, v, S.ui);
  // an online host before the guest arrives: nothing to choose yet (the server refuses)
  const waitingGuest = v.mode === "online" && v.open_seat && !v.result && v.seats.length === 1;
  if (waitingGuest) { opts.squares = new Set(); opts.buttons = []; opts.plays = {}; }
  let alt = null;
  if (d && (d.kind === "escort" || d.kind === "fast_step") && S.ui.escortFrom !== null) {
    alt = new Set();
    for (const p of opts.escortPieces) { opts.squares.add(p); alt.add(p); }  // another piece instead
  }
  const prompt = waitingGuest ? t("waiting_short")
    : d && d.mine ? text(d.prompt) + (d.kind === "play" ? " " + t("choose_card") : "") : "";
  // deployment: which piece this is (the server's count of pieces placed)
  const deployNote = d && d.mine && d.kind === "deploy" && pos.placed && SIDES.includes(d.side)
    ? `<span class="deploy-count" id="deploy-count">${esc(deployText(v))}</span>` : "";
  const escortNote = d && (d.kind === "escort" || d.kind === "fast_step") && S.ui.escortFrom
    ? `<span class="escort-note" id="escort-note">${esc(t("escort_piece"))} ${esc(S.ui.escortFrom)}</span>` : "";
  const buttons = opts.buttons.map((btn, i) => `<button type="button" class="opt opt-btn${btn.mode ? " mode-" + btn.mode : ""}${btn.note ? " note-btn" : ""}${S.hint && S.hint.best === btn.opt ? " hinted" : ""}"
    ${btn.opt !== null ? `data-opt="${esc(btn.opt)}"` : `data-action="${esc(btn.action)}"`} ${btn.mode ? `data-mode="${esc(btn.mode)}"` : ""} id="opt-btn-${i}">${esc(btn.label)}${btn.note ? `<small>${esc(btn.note)}</small>` : ""}</button>`).join("");
  const tools = [
    v.undo ? `<button type="button" id="undo" title="${esc(t("undo_title"))}">↶ ${esc(t("undo"))}</button>` : "",
    v.ai && v.seats.length && d && d.mine && v.mode === "ai" && v.phase !== "setup" ? `<button type="button" id="hint">? ${esc(t("hint"))}</button>` : "",
    `<button type="button" id="flip" title="${esc(t("flip"))}" aria-label="${esc(t("flip"))}">⇅</button>`,
    `<span class="social-tools" id="social-tools">${socialToolsHTML(null, v)}</span>`,
    resignHTML(v),
  ].join("");
  const hintLine = S.hint ? hintHTML(S.hint, S.hintStep, hintText) : "";
  const roll = v.last_roll ? `<span class="roll">${esc(t("last_roll"))}${esc(rollLabel(v.last_roll))} <span class="die" id="roll-die">${esc(v.last_roll.face)}</span></span>` : "";
  const evalBar = typeof v.evaluation === "number" && v.mode === "ai" && v.phase !== "setup"
    ? evalHTML(v) : "";
  const oppFaction = factionOf(v, other), myFaction = factionOf(v, me);
  const sideLabel = (side, faction) => `${sideName(side)}${faction ? " · " + factionName(meta, faction) : ""}`;
  const riteTag = side => pos.rites[side] ? ` · ${t("rite")}: ${riteName(meta, pos.rites[side])}` : "";
  const poolTag = side => pos.pools[side] ? ` · ${t("pools")}: ${pos.pools[side]}` : "";
  S.app.innerHTML = `
    <section class="game mode-${esc(v.mode)}${S.drawer ? " drawer-open" : ""}" id="game">
      <div class="status-row" id="status-row"><span class="status" id="status">${statusHTML(v)}</span>
        ${vigilHTML(pos.vigil)}${roll}${keepersStatusHTML(pos)}${clocksHTML(v)}${evalBar}</div>
      <div class="board-box" id="board-box">${boardSVG(v, {bottom: me, squares: opts.squares, alt,
        preview: currentPreview(v), hint: S.hint && S.hint.best, interactAction: S.ui.interactAction,
        notes: d && d.mine ? d.notes : null,
        chosen: S.ui.escortFrom, subject: d && d.piece, arrows: boardArrows(v)})}
        <div class="offer-slot" id="offer-slot"></div><div class="bubble-slot" id="bubble-slot" aria-live="polite"></div>
        ${waitingGuest && !S.ui.hideWaiting ? waitingHTML(v, S.token) : ""}</div>
      <div class="hand-row opp-row" id="opp-row">
        <div class="hand-wrap"><div class="hand-label" id="opp-label"><span class="turn-${other}">${esc(sideLabel(other, oppFaction))}</span>${esc(riteTag(other) + poolTag(other))} <span class="presence-slot" data-side="${other}"></span></div>
          <div class="hand" id="hand-${other}" data-hand="${other}"></div></div>
        <div class="hand-wrap waiting-wrap"><div class="hand-label">${esc(t("waiting"))}</div><div class="hand" id="waiting"></div></div>
      </div>
      <div class="prompt-box" id="prompt-box">${inviteBanner(v)}${gloryStatusHTML(pos, meta, d)}
        ${v.result ? resultHTML(v) : `<div class="prompt" id="prompt" aria-live="polite">${esc(prompt)} ${escortNote}${deployNote}<span class="interact-slot" id="interact-slot">${interactPreviewHTML(currentPreview(v), S.ui.interactAction)}</span>${optionNotesHTML(d)}${d && !d.mine ? aiHTML(v) : ""}</div>
        <div class="actions"><div class="buttons" id="buttons">${buttons}</div>`}
        <div class="tools">${tools}${hintLine}</div>${v.result ? "" : "</div>"}
      </div>
      <div class="hand-row my-row" id="my-row">
        <div class="hand-wrap"><div class="hand-label" id="my-label"><span class="turn-${me}">${esc(sideLabel(me, myFaction))}</span>${esc(riteTag(me) + poolTag(me))} <span class="presence-slot" data-side="${me}"></span></div>
          <div class="hand" id="hand-${me}" data-hand="${me}"></div></div>
      </div>
      <div class="tabs" id="tabs">
        <div class="tab-bar" role="tablist">
          ${["log", "help", "info"].map(name => `<button type="button" role="tab" class="tab${S.tab === name ? " active" : ""}" data-tab="${name}" id="tab-${name}" aria-selected="${S.tab === name}">${esc(t(name))}</button>`).join("")}
          <button type="button" class="drawer-close" id="drawer-close" aria-label="${esc(t("close"))}">✕</button>
        </div>
        <div class="tab-panel" id="panel-log" ${S.tab === "log" ? "" : "hidden"}>${logHTML(v)}</div>
        <div class="tab-panel" id="panel-help" ${S.tab === "help" ? "" : "hidden"}>${helpHTML(meta, v, me)}</div>
        <div class="tab-panel" id="panel-info" ${S.tab === "info" ? "" : "hidden"}><div class="messages-slot" id="messages-slot"></div>${infoHTML(v)}</div>
      </div>
    </section>`;
  // hands and the waiting card
  for (const side of SIDES) {
    const box = document.getElementById(`hand-${side}`);
    const rotated = side !== me;
    for (const id of pos.hands[side]) {
      const card = meta.cards.find(c => c.id === id);
      const playable = d && d.mine && d.kind === "play" && opts.plays[id] && side === d.side;
      const el = cardElement(meta, card, {rotated, factionId: factionOf(v, side), button: !!playable,
        extraClass: (playable ? "playable" : "") + (playable && id === S.ui.selectedCard ? " selected" : "")});
      if (playable) {
        el.setAttribute("aria-pressed", id === S.ui.selectedCard ? "true" : "false");
        el.addEventListener("click", () => selectCard(id));
      }
      box.appendChild(el);
    }
  }
  if (pos.waiting) {
    const card = meta.cards.find(c => c.id === pos.waiting);
    document.getElementById("waiting").appendChild(cardElement(meta, card, {rotated: false, extraClass: "waiting"}));
  }
  if (evalBar) {
    const fill = document.getElementById("eval-fill");
    fill.style.setProperty("--eval", `${Math.round((v.evaluation + 1) * 50)}%`);  // CSSOM: allowed by the CSP
  }
  bindZoom(S.app);
  bindGame(v, d);
  const logPanel = document.getElementById("panel-log");
  logPanel.scrollTop = logPanel.scrollHeight;
  startTimers(v, () => { if (!S.busy) refresh(); });
  if (d && d.mine && d.kind === "play" && S.ui.selectedCard) loadPreview(v);
  if (S.ui.keyboard) focusFirst();
  updateTitle(!!(d && d.mine));
  if (v.seats.length) {  // "My games": how it ended, and the AI's level
    updateStored(v.id, {over: !!v.result, winner: v.result ? v.result.winner : null,
      level: v.ai ? v.ai.level : null});
  }
  fillSocial();
  if (d && d.mine && (d.kind === "ruin" || d.kind === "deploy") && !waitingGuest) loadSetupHints(v);
  maybeStartTour(v);
}

// The evaluation, labelled, with its number: the AI's last search value for the human
// (the view's `evaluation`, in [-1, 1]); the bar fills with the human's colour.
function evalHTML(v) {
  const value = v.evaluation;
  const human = v.ai && v.ai.seat ? (v.ai.seat === "key" ? "skull" : "key") : viewerSide(v) || "key";
  const whose = viewerSide(v) === human ? t("you") : sideName(human);  // a spectator: the side
  const shown = `${value > 0 ? "+" : value < 0 ? "−" : "±"}${Math.abs(value).toFixed(2)}`;
  const words = `${t("evaluation")} (${whose}): ${shown}`;
  return `<span class="eval" id="eval" data-value="${value}" title="${esc(t("eval_title"))}" role="meter"
    aria-valuemin="-1" aria-valuemax="1" aria-valuenow="${value}" aria-label="${esc(words)}">
    <span class="eval-label">${esc(t("evaluation"))}${viewerSide(v) === human ? "" : ` (${esc(whose)})`}</span>
    <span class="eval-track eval-${human}"><span class="eval-fill" id="eval-fill"></span></span>
    <b class="eval-num" id="eval-num">${esc(shown)}</b></span>`;
}

// Resigning asks first (in the page, reachable by keys): the button, then Yes / No.
function resignHTML(v) {
  if (!v.seats.length || v.result || v.mode === "replay") return "";
  if (!S.ui.resignAsk) return `<button type="button" id="resign" title="${esc(t("resign_title"))}">⚑ ${esc(t("resign"))}</button>`;
  return `<span class="resign-confirm" id="resign-confirm" role="group" aria-label="${esc(t("resign_ask"))}">${esc(t("resign_ask"))}
    <button type="button" id="resign-yes" class="danger">${esc(t("resign_yes"))}</button>
    <button type="button" id="resign-no">${esc(t("resign_no"))}</button></span>`;
}

function bindGame(v, d) {
  document.querySelectorAll("[data-opt]").forEach(el => {
    el.addEventListener("click", () => submit(el.dataset.opt));
    if (el.dataset.mode) {
      // a moment's wait: pointing at a button on the way to clicking it asks for no
      // preview of a decision that the click is about to take (a stale 409)
      const show = () => {
        if (S.ui.previewMode === el.dataset.mode) return;
        S.ui.previewMode = el.dataset.mode;
        clearTimeout(previewTimer);
        previewTimer = setTimeout(() => { if (!S.busy && S.view === v) loadPreview(v); }, 120);
      };
      el.addEventListener("mouseenter", show);
      el.addEventListener("focus", show);
    }
  });
  document.querySelectorAll("[data-action='escort-reset']").forEach(el =>
    el.addEventListener("click", () => { S.ui.escortFrom = null; render(S.view); }));
  bindBoard(v, d);
  const on = (id, fn) => { const el = document.getElementById(id); if (el) el.addEventListener("click", fn); };
  on("undo", () => post("undo", {token: S.token, rev: S.view.rev}));
  on("resign", () => { S.ui.resignAsk = true; render(S.view); document.getElementById("resign-no").focus(); });
  on("resign-no", () => { S.ui.resignAsk = false; render(S.view); });
  on("resign-yes", () => { S.ui.resignAsk = false; post("resign", {token: S.token, rev: S.view.rev}); });
  on("hint", getHint);
  on("hint-prev", () => { S.hintStep = Math.max(0, S.hintStep - 1); render(S.view); });
  on("hint-next", () => { S.hintStep += 1; render(S.view); });
  on("hint-close", () => { S.hint = null; render(S.view); });
  on("flip", () => { S.ui.flip = !S.ui.flip; render(S.view); });
  on("rematch", rematch);
  on("copy-invite-qr", async () => {
    const input = document.getElementById("invite-link-qr");
    try { await navigator.clipboard.writeText(input.value); flash(t("copied")); } catch { input.select(); }
  });
  on("hide-waiting", () => { S.ui.hideWaiting = true; render(S.view); });
  on("notify-me", async () => {
    try { await Notification.requestPermission(); } catch { /* refused: the page still says it */ }
    render(S.view);
  });
  document.querySelectorAll("[data-look]").forEach(el =>
    el.addEventListener("click", () => lookBack(Number(el.dataset.look), Number(el.dataset.turn))));
  on("copy-invite", async () => {
    const input = document.getElementById("invite-link-banner");
    try { await navigator.clipboard.writeText(input.value); flash(t("copied")); } catch { input.select(); }
  });
  on("drawer-close", () => { S.drawer = false; document.getElementById("game").classList.remove("drawer-open"); });
  document.querySelectorAll("[data-tab]").forEach(el => el.addEventListener("click", () => {
    S.tab = el.dataset.tab;
    S.drawer = true;
    document.querySelectorAll("[data-tab]").forEach(x => {
      x.classList.toggle("active", x === el);
      x.setAttribute("aria-selected", String(x === el));
    });
    document.querySelectorAll(".tab-panel").forEach(p => { p.hidden = p.id !== `panel-${S.tab}`; });
    document.getElementById("game").classList.add("drawer-open");
  }));
  const sound = document.getElementById("sound-toggle");
  if (sound) sound.addEventListener("change", () => localStorage.setItem("sound", sound.checked ? "on" : "off"));
  const paceSelect = document.getElementById("pace-select");
  if (paceSelect) paceSelect.addEventListener("change", () => localStorage.setItem("pace", paceSelect.value));
  const motion = document.getElementById("motion-toggle");
  if (motion) motion.addEventListener("change", () => localStorage.setItem("motion", motion.checked ? "on" : "off"));
  document.querySelectorAll(".links input, .invite-banner input").forEach(el => el.addEventListener("focus", () => el.select()));
}

function chooseSquare(sq, d) {
  if (d.kind === "ruin" && touchOnly() && S.setup && S.setup.mirrors && S.ui.ruinPick !== sq) {
    if (S.ui.ruinPick) markPair(S.ui.ruinPick, false);
    S.ui.ruinPick = sq;
    markPair(sq, true);
    flash(t("tap_again"));
    return;
  }
  if (d.kind === "escort" || d.kind === "fast_step") {  // a piece, then its step
    const opts = decisionOptions(S.meta, S.view, {...S.ui});
    if (opts.escortPieces.has(sq)) {  // choose (or change) the piece that steps
      S.ui.escortFrom = S.ui.escortFrom === sq ? null : sq;
      render(S.view);
      return;
    }
    if (S.ui.escortFrom === null) return;
    const from = S.ui.escortFrom;
    submit(`${from}-${sq}`);
    return;
  }
  submit(sq);
}

function selectCard(id) {
  if (S.ui.selectedCard !== id) S.ui.previewMode = null;
  S.ui.selectedCard = id;
  render(S.view);
  const el = document.querySelector(`.card.playable[data-card="${CSS.escape(id)}"]`);
  if (S.ui.keyboard) {
    const first = document.querySelector("#buttons .opt-btn");
    if (first) first.focus(); else if (el) el.focus();
  }
}

// ------------------------------------------------------------------ preview, hint
async function loadPreview(v) {
  const card = S.ui.selectedCard;
  const modes = [...document.querySelectorAll("#buttons [data-mode]")].map(el => el.dataset.mode);
  const mode = S.ui.previewMode && modes.includes(S.ui.previewMode) ? S.ui.previewMode
    : ["move", "attack", "regroup", "rite"].find(m => modes.includes(m));
  if (!card || !mode || !S.token) return;
  const key = `${v.seq}|${v.rev}|${card}:${mode}`;
  if (S.previewKey === key) { markPreviewMode(mode); return; }
  S.previewKey = key;
  try {
    const data = await api("GET", `/api/games/${S.gameId}/preview?t=${encodeURIComponent(S.token)}&option=${encodeURIComponent(`${card}:${mode}`)}`);
    if (S.view !== v || S.previewKey !== key) return;
    S.preview = {seq: v.seq, rev: v.rev, data};
    redrawBoard(v);
    markPreviewMode(mode);
  } catch { S.previewKey = null; }
}

function markPreviewMode(mode) {
  document.querySelectorAll("#buttons [data-mode]").forEach(el => el.classList.toggle("previewing", el.dataset.mode === mode));
  const box = document.getElementById("board-box");
  if (box) box.dataset.preview = `${S.ui.selectedCard}:${mode}`;
}

function redrawBoard(v) {
  const box = document.getElementById("board-box");
  if (!box) return;
  const opts = decisionOptions(S.meta, v, S.ui);
  const svg = document.getElementById("board");
  const holder = document.createElement("div");
  holder.innerHTML = boardSVG(v, {bottom: bottomSide(v), squares: opts.squares,
    preview: currentPreview(v), hint: S.hint && S.hint.best, interactAction: S.ui.interactAction,
    notes: v.decision && v.decision.mine ? v.decision.notes : null,
    chosen: S.ui.escortFrom, subject: v.decision && v.decision.piece, arrows: boardArrows(v)});
  svg.replaceWith(holder.firstElementChild);
  const slot = document.getElementById("interact-slot");  // INTERACT's preview, when it is one
  if (slot) slot.innerHTML = interactPreviewHTML(currentPreview(v), S.ui.interactAction);
  bindBoard(v, v.decision);
}

// The INTERACT preview's action buttons: pointing at one (or tapping it) shows that action.
function bindInteract(v) {
  document.querySelectorAll("[data-ia-action]").forEach(el => {
    const show = () => {
      if (S.ui.interactAction === el.dataset.iaAction) return;
      const action = S.ui.interactAction = el.dataset.iaAction;
      const focused = document.activeElement === el;
      redrawBoard(v);
      if (focused) document.querySelector(`[data-ia-action="${CSS.escape(action)}"]`)?.focus();
    };
    el.addEventListener("mouseenter", show);
    el.addEventListener("focus", show);
    el.addEventListener("click", show);
  });
}

// The board's clicks and keys: option squares; with a card's MOVE previewed, a piece
// (to see only its marks) and then one of its marked squares (to play the whole move:
// card, piece, square — each sent only if the server offers it at that point).
function bindBoard(v, d) {
  document.querySelectorAll("[data-opt-sq]").forEach(el => {
    el.addEventListener("click", () => chooseSquare(el.dataset.optSq, d));
    el.addEventListener("keydown", ev => {
      if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); S.ui.keyboard = true; chooseSquare(el.dataset.optSq, d); }
    });
  });
  bindNotes(d);  // the rule modules' choices: what each option would touch
  bindInteract(v);
  const svg = document.getElementById("board");
  const pv = currentPreview(v);
  if (!svg || !pv || !d || !d.mine || d.kind !== "play") return;
  focusPiece(S.ui.focusPiece && pv.pieces[S.ui.focusPiece] ? S.ui.focusPiece : null);
  svg.addEventListener("click", ev => {
    const sq = ev.target.closest("[data-square]");
    if (!sq) return;
    const name = sq.dataset.square;
    if (pv.pieces[name]) { focusPiece(S.ui.focusPiece === name ? null : name); return; }
    if (pv.mode !== "move") return;
    const movers = Object.keys(pv.pieces).filter(f => (pv.pieces[f].move || []).includes(name));
    const from = movers.includes(S.ui.focusPiece) ? S.ui.focusPiece : movers.length === 1 ? movers[0] : null;
    if (from) quickMove(pv.option, from, name);
    else if (movers.length) flash(t("choose_piece"));
  });
}

// The preview drawn: only the selected card's, in the view it was asked for.
function currentPreview(v) {
  const p = S.preview;
  if (!p || p.seq !== v.seq || p.rev !== v.rev) return null;
  return p.data.option.split(":")[0] === S.ui.selectedCard ? p.data : null;
}

function focusPiece(sq) {
  S.ui.focusPiece = sq;
  document.querySelectorAll(".pv-mark").forEach(el =>
    el.classList.toggle("dim", sq !== null && el.dataset.from !== sq));
  document.querySelectorAll(".piece.can-act").forEach(el =>
    el.classList.toggle("focused", el.dataset.sq === sq));
}

async function quickMove(option, from, to) {
  for (const step of [option, from, to]) {
    const d = S.view.decision;
    if (!d || !d.mine || !d.options.includes(step)) return;  // the page leaves it to the player
    await submit(step);
  }
}

function hintText(token) {
  if (token && token.includes(":")) {
    const [card, mode] = token.split(":");
    return `${card} · ${mode === "pass" ? t("pass_mode") : t(mode)}`;
  }
  return token === "pass" ? t("pass") : token;
}

async function getHint() {
  try {
    S.hint = await api("GET", `/api/games/${S.gameId}/hint?t=${encodeURIComponent(S.token)}`);
    S.hintStep = 0;
    if (S.hint.best && S.hint.best.includes(":")) S.ui.selectedCard = S.hint.best.split(":")[0];
    render(S.view);
  } catch (err) { flash(errorText(err)); }
}

async function rematch() {
  try {
    const out = await api("POST", `/api/games/${S.gameId}/rematch`, {token: S.token});
    const link = out.links && (out.links.self || out.links.play);
    remember({id: out.id, token: out.token, seat: out.seat, mode: S.view.mode, link});
    S.router(link);
  } catch (err) { flash(errorText(err)); }
}
export function setRouter(fn) { S.router = fn; }

// ------------------------------------------------------------------ online: the room
// The room of an online game changed (presence, an offer, a message), or its "away for"
// times grew (`tick`): only its parts of the page are drawn again.
function onSocial(state, tick) {
  if (!S.view || state.id !== S.gameId) return;
  if (!tick) {
    // new messages by the server's time (a restarted server numbers them from 1 again)
    const fresh = (state.messages || []).filter(m => m.at > (S.lastMessage || 0));
    if (S.lastMessage !== undefined && fresh.length) showBubble(fresh[fresh.length - 1]);
    S.lastMessage = Math.max(S.lastMessage || 0, ...(state.messages || []).map(m => m.at));
    if (S.lastOffer && S.lastOffer.mine && !state.offer && S.view && !S.view.result
        && S.view.rev === S.lastOffer.rev) flash(t("offer_declined"));
    S.lastOffer = state.offer;
  }
  fillSocial(tick);
}

function fillSocial(tick = false) {
  const state = socialState();
  const v = S.view;
  if (!state || !v || state.id !== v.id) return;
  document.querySelectorAll(".presence-slot").forEach(el => { el.innerHTML = presenceHTML(state, el.dataset.side); });
  if (tick) return;
  const slot = (id, html) => { const el = document.getElementById(id); if (el) el.innerHTML = html; return el; };
  slot("offer-slot", v.result ? "" : offerHTML(state, v));
  slot("social-tools", socialToolsHTML(state, v));
  slot("messages-slot", messagesHTML(state));
  const on = (id, fn) => { const el = document.getElementById(id); if (el) el.addEventListener("click", fn); };
  on("offer-draw", () => sendOffer("draw"));
  on("offer-takeback", () => sendOffer("takeback"));
  on("offer-accept", () => post("offer/reply", {token: S.token, rev: S.view.rev, accept: true}));
  on("offer-decline", () => post("offer/reply", {token: S.token, rev: S.view.rev, accept: false}));
  on("offer-withdraw", () => { S.lastOffer = null; post("offer/reply", {token: S.token, rev: S.view.rev, accept: false}); });
  const say = document.getElementById("preset-select");
  if (say) say.addEventListener("change", async () => {
    const preset = say.value;
    say.value = "";
    if (!preset) return;
    try { onSocial(await api("POST", `/api/games/${S.gameId}/message`, {token: S.token, preset}), false); }
    catch (err) { flash(errorText(err)); }
  });
}

async function sendOffer(kind) {
  try { onSocial(await api("POST", `/api/games/${S.gameId}/offer`, {token: S.token, rev: S.view.rev, kind}), false); }
  catch (err) { flash(errorText(err)); await refresh(); }
}

// A message, as a bubble over the board for a few seconds (and in the Game tab).
function showBubble(message) {
  const box = document.getElementById("bubble-slot");
  if (!box) return;
  box.innerHTML = `<div class="bubble bubble-${esc(message.by)}" id="bubble"><b>${esc(sideName(message.by))}</b> ${esc(presetText(message.preset))}</div>`;
  clearTimeout(showBubble.timer);
  showBubble.timer = setTimeout(() => { const el = document.getElementById("bubble"); if (el) el.remove(); }, 6000);
}

// The guest has arrived: the host hears of it, even in another tab.
function guestJoined() {
  document.body.dataset.guestJoined = "1";
  S.ui.hideWaiting = false;
  notify();
  flash(t("guest_joined"));
  try {
    if ("Notification" in window && Notification.permission === "granted") new Notification("Reliquary", {body: t("guest_joined")});
  } catch { /* no notifications here: the page says it */ }
}

// ------------------------------------------------------------------ setup hints, a look back
// Deployment: which piece this is, of how many (the server's count, from the engine).
function deployText(v) {
  const d = v.decision;
  const n = v.position.placed[d.side] + 1;
  const hints = S.setup && S.setup.seq === v.seq && S.setup.rev === v.rev ? S.setup.deploy : null;
  return hints ? t("deploy_count_of").replace("{n}", n).replace("{total}", hints.total)
    : t("deploy_count").replace("{n}", n);
}

async function loadSetupHints(v) {
  if (!S.token) return;
  if (!(S.setup && S.setup.seq === v.seq && S.setup.rev === v.rev)) {
    try {
      const hints = await api("GET", `/api/games/${v.id}/setup?t=${encodeURIComponent(S.token)}`);
      if (S.view !== v) return;
      S.setup = hints;
    } catch { return; }
  }
  const count = document.getElementById("deploy-count");
  if (count && S.setup.deploy) count.textContent = deployText(v);
  if (S.setup.mirrors) bindMirrors();
}

// A Ruin pair: pointing at (or focusing) a square shows the square its mirror would be;
// on a touch screen, with nothing to point, the first tap shows it and the second takes it.
function markPair(sq, on) {
  const mirrors = S.setup && S.setup.mirrors;
  for (const name of (mirrors && mirrors[sq]) || []) {
    document.querySelectorAll(`[data-opt-sq="${CSS.escape(name)}"], #board .sq[data-square="${CSS.escape(name)}"]`)
      .forEach(el => el.classList.toggle(name === sq ? "ruin-preview" : "mirror-preview", on));
  }
}
const touchOnly = () => window.matchMedia("(hover: none) and (pointer: coarse)").matches;

function bindMirrors() {
  const mark = markPair;
  document.querySelectorAll("[data-opt-sq]").forEach(el => {
    const sq = el.dataset.optSq;
    if (el.dataset.mirrored) return;
    el.dataset.mirrored = "1";
    el.addEventListener("mouseenter", () => mark(sq, true));
    el.addEventListener("mouseleave", () => mark(sq, false));
    el.addEventListener("focus", () => mark(sq, true));
    el.addEventListener("blur", () => mark(sq, false));
  });
}

// A turn of the log clicked while the game goes on: the board as that turn began, until
// "Back to the game" (or the next change of the game).
async function lookBack(at, turn) {
  let past;
  try {
    past = await api("GET", `/api/games/${S.gameId}/at?at=${at}` + (S.token ? `&t=${encodeURIComponent(S.token)}` : ""));
  } catch (err) { flash(errorText(err)); return; }
  const box = document.getElementById("board-box");
  if (!box || !S.view) return;
  S.drawer = false;
  document.getElementById("game").classList.remove("drawer-open");
  box.innerHTML = boardSVG(past, {bottom: bottomSide(S.view), squares: new Set(), arrows: []}) +
    `<div class="look-back" id="look-back" role="status"><span>${esc(t("looking_back").replace("{n}", turn))}</span>
      <button type="button" id="look-back-close">${esc(t("back_to_game"))}</button></div>`;
  document.body.dataset.past = String(at);
  document.getElementById("look-back-close").addEventListener("click", () => {
    delete document.body.dataset.past;
    render(S.view);
  });
}

// ------------------------------------------------------------------ keys
function focusFirst() {
  const active = document.activeElement;
  if (active && active !== document.body && document.body.contains(active) && active.matches(".opt, .card.playable")) return;
  const d = S.view && S.view.decision;
  let target = null;
  if (d && d.kind === "escort" && S.ui.escortFrom !== null) {  // the chosen piece's squares
    const pieces = decisionOptions(S.meta, S.view, {...S.ui}).escortPieces;
    target = [...document.querySelectorAll(".opt-sq")].find(el => !pieces.has(el.dataset.optSq));
  } else if (d && d.kind !== "play") {
    target = document.querySelector(".opt-sq, #buttons .opt");
  } else {
    target = document.querySelector("#buttons .opt-btn.previewing, #buttons .opt-btn, .card.playable.selected");
  }
  if (target) target.focus();
}
document.addEventListener("keydown", ev => {
  if (!S.view || !document.getElementById("game")) return;
  if (["Tab", "Enter", " "].includes(ev.key)) S.ui.keyboard = true;
  if (ev.target && ev.target.matches && ev.target.matches("input, select, textarea")) return;
  const d = S.view.decision;
  if (ev.key === "Escape") {
    skipAnimation();
    if (S.ui.escortFrom !== null) { S.ui.escortFrom = null; render(S.view); }
    if (S.drawer) { S.drawer = false; document.getElementById("game").classList.remove("drawer-open"); }
    return;
  }
  if (d && d.mine && d.kind === "play" && /^[1-9]$/.test(ev.key)) {
    const cards = [...document.querySelectorAll(".card.playable")];
    const card = cards[Number(ev.key) - 1];
    if (card) { S.ui.keyboard = true; selectCard(card.dataset.card); }
  }
});
document.addEventListener("pointerdown", () => { S.ui.keyboard = false; }, true);

// ------------------------------------------------------------------ no such game, a wrong link
// A player's link whose key this game does not know: say so, and offer to watch or go home.
function badLink() {
  S.gone = true;
  closeGame();
  S.app.innerHTML = `<section class="panel not-found bad-link" id="bad-link" role="alert"><h1>${esc(t("bad_link_title"))}</h1>
    <p>${esc(t("bad_link"))}</p><p class="buttons"><a class="button" id="watch-instead" href="/g/${esc(S.gameId)}">${esc(t("watch_instead"))}</a>
    <a class="button big" href="/">${esc(t("back_home"))}</a></p></section>`;
  document.body.dataset.gone = "1";
}

export function notFound(why = null) {
  S.gone = true;
  closeGame();
  if (!S.app) S.app = document.getElementById("app");
  S.app.innerHTML = `<section class="panel not-found" id="not-found"><h1>${esc(t("not_found_title"))}</h1>
    <p>${esc(why || t("not_found"))}</p><p><a class="button" href="/">${esc(t("back_home"))}</a></p></section>`;
  document.body.dataset.gone = "1";
}

