// Online play beyond the moves (issue 28): who is here, the host's wait for the guest
// (the invite's QR code, made by the server), draw offers and take-back requests, and
// preset messages. The server says what may be offered now (`can_offer`) and does what
// an accepted offer means; this page only shows the room and sends the choices.
import {api} from "./net.js";
import {addStrings, esc, t, sideName, lang} from "./i18n.js";

addStrings({
  en: {
    here: "connected", away: "away for {d}", not_here: "not connected", not_joined: "has not joined yet",
    waiting_guest: "Waiting for your opponent to join: send them the invite link, or let them scan the code.",
    waiting_short: "Waiting for your opponent to join…", guest_joined: "Your opponent has joined: the game begins!",
    notify_me: "Notify me when they join", notify_on: "You will be notified.", hide: "Hide",
    offer_draw: "Offer a draw", ask_takeback: "Ask to take back", say: "Say…",
    draw_offered_you: "Your opponent offers a draw.", takeback_asked_you: "Your opponent asks to take back their last turn.",
    draw_offered_me: "Draw offered: waiting for the answer.", takeback_asked_me: "Take-back asked: waiting for the answer.",
    accept: "Accept", decline: "Decline", withdraw: "Withdraw", messages: "Messages", no_messages: "No messages yet.",
    offer_declined: "Your offer was declined.", draw_offered_by: "{s} offers a draw.",
    takeback_asked_by: "{s} asks to take back their last turn.", looking_back: "Turn {n} as it began", back_to_game: "Back to the game",
    deploy_count_of: "Piece {n} of {total} (Minions first, Hero last)", invite_qr: "QR code of the invite link",
    tap_again: "Its mirror is marked too: tap the square again to place the pair.",
  },
  es: {
    here: "conectado", away: "ausente desde hace {d}", not_here: "sin conexión", not_joined: "aún no ha llegado",
    waiting_guest: "Esperando a que llegue tu rival: envíale el enlace de invitación, o que escanee el código.",
    waiting_short: "Esperando a que llegue tu rival…", guest_joined: "Tu rival ha llegado: ¡empieza la partida!",
    notify_me: "Avísame cuando llegue", notify_on: "Recibirás un aviso.", hide: "Ocultar",
    offer_draw: "Ofrecer tablas", ask_takeback: "Pedir deshacer", say: "Decir…",
    draw_offered_you: "Tu rival ofrece tablas.", takeback_asked_you: "Tu rival pide deshacer su último turno.",
    draw_offered_me: "Tablas ofrecidas: esperando respuesta.", takeback_asked_me: "Deshacer pedido: esperando respuesta.",
    accept: "Aceptar", decline: "Rechazar", withdraw: "Retirar", messages: "Mensajes", no_messages: "Aún no hay mensajes.",
    offer_declined: "Tu oferta fue rechazada.", draw_offered_by: "{s} ofrece tablas.",
    takeback_asked_by: "{s} pide deshacer su último turno.", looking_back: "Turno {n} al empezar", back_to_game: "Volver a la partida",
    deploy_count_of: "Pieza {n} de {total} (primero los Esbirros, el Héroe al final)", invite_qr: "Código QR del enlace de invitación",
    tap_again: "Su simétrica queda marcada también: pulsa otra vez la casilla para colocar el par.",
  },
});

// The preset messages' words, by the server's ids (GET /api/games/{id}/social: presets).
const PRESETS = {
  en: {hello: "Hello!", good_luck: "Good luck!", have_fun: "Have fun!", nice_move: "Nice move!",
    well_played: "Well played!", thanks: "Thanks!", oops: "Oops!", sorry: "Sorry!",
    thinking: "Let me think…", hurry: "Your move!", rematch: "Rematch?", bye: "Bye!"},
  es: {hello: "¡Hola!", good_luck: "¡Suerte!", have_fun: "¡Que lo disfrutes!", nice_move: "¡Buena jugada!",
    well_played: "¡Bien jugado!", thanks: "¡Gracias!", oops: "¡Uy!", sorry: "¡Perdón!",
    thinking: "Déjame pensar…", hurry: "¡Te toca!", rematch: "¿Revancha?", bye: "¡Adiós!"},
};
export function presetText(id) { return (PRESETS[lang] || PRESETS.en)[id] || PRESETS.en[id] || id; }

// ------------------------------------------------------------------ the social socket
const room = {socket: null, state: null, at: 0, stopped: true, timer: null, ticker: null};

// Open the room of an online game: `onState(state)` on every change the server pushes
// (presence, an offer, a message); reconnects with a growing delay.
export function openSocial(gameId, token, onState) {
  closeSocial();
  room.stopped = false;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  let delay = 500;
  const open = () => {
    if (room.stopped) return;
    const socket = new WebSocket(`${proto}://${location.host}/api/games/${gameId}/ws/social` +
      (token ? `?t=${encodeURIComponent(token)}` : ""));
    room.socket = socket;
    socket.onopen = () => { delay = 500; };
    socket.onmessage = ev => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "social" && msg.id === gameId) take(msg, onState, true);
      if (msg.type === "error") room.stopped = true;  // not this game's seat, or no game
    };
    socket.onclose = () => {
      if (room.stopped) return;
      room.timer = setTimeout(open, delay);
      delay = Math.min(delay * 2, 8000);
    };
  };
  open();
  // "away for …" grows between pushes
  room.ticker = setInterval(() => { if (room.state) onState(room.state, true); }, 5000);
}

export function closeSocial() {
  room.stopped = true;
  clearTimeout(room.timer);
  clearInterval(room.ticker);
  if (room.socket && room.socket.readyState <= 1) room.socket.close();
  room.socket = null;
  room.state = null;
}

// `ordered`: from the socket, in order (a restarted server counts from 0 again); an
// HTTP answer older than what the socket brought is dropped.
function take(state, onState, ordered = false) {
  if (!ordered && room.state && state.version < room.state.version) return;
  room.state = state;
  room.at = performance.now();
  onState(state, false);
}

// The room read again (after the game moved on: an offer may have lapsed).
export async function refreshSocial(gameId, token, onState) {
  try {
    const state = await api("GET", `/api/games/${gameId}/social` + (token ? `?t=${encodeURIComponent(token)}` : ""));
    take(state, onState);
  } catch { /* the socket will bring it */ }
}

export function socialState() { return room.state; }

// ------------------------------------------------------------------ drawing
function duration(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

// One seat's presence: joined, connected, or away for how long.
export function presenceHTML(state, side) {
  const p = state && state.presence && state.presence[side];
  if (!p) return "";
  let mark = "absent", words = t("not_joined");
  if (p.joined && p.connected) { mark = "here"; words = t("here"); }
  else if (p.joined && p.away_s !== null) {
    mark = "away";
    words = t("away").replace("{d}", duration(p.away_s + (performance.now() - room.at) / 1000));
  } else if (p.joined) { mark = "away"; words = t("not_here"); }
  return `<span class="presence presence-${mark}" id="presence-${side}" data-state="${mark}" title="${esc(sideName(side))}: ${esc(words)}">
    <span class="presence-dot" aria-hidden="true">●</span> ${esc(words)}</span>`;
}

// The host's wait for the guest: the invite link, its QR code, a notification on arrival.
export function waitingHTML(v, token) {
  const invite = v.links && v.links.invite;
  if (!invite) return `<div class="waiting-guest" id="waiting-guest" role="status"><p>${esc(t("waiting_short"))}</p></div>`;
  const link = location.origin + invite;
  const asked = "Notification" in window && Notification.permission === "granted";
  return `<div class="waiting-guest" id="waiting-guest" role="status">
    <p>${esc(t("waiting_guest"))}</p>
    <img class="invite-qr" id="invite-qr" alt="${esc(t("invite_qr"))}" width="148" height="148"
      src="/api/games/${esc(v.id)}/invite.svg?t=${encodeURIComponent(token)}">
    <input id="invite-link-qr" readonly value="${esc(link)}" aria-label="${esc(t("invite"))}">
    <p class="buttons"><button type="button" id="copy-invite-qr">${esc(t("copy"))}</button>
      ${"Notification" in window ? `<button type="button" id="notify-me"${asked ? " disabled" : ""}>${esc(asked ? t("notify_on") : t("notify_me"))}</button>` : ""}
      <button type="button" id="hide-waiting">${esc(t("hide"))}</button></p></div>`;
}

// The offer waiting for an answer: the other seat's (accept, decline) or one's own (withdraw).
export function offerHTML(state, v) {
  const o = state && state.offer;
  if (!o) return "";
  if (v.seats.length !== 1) {  // a spectator: told, with nothing to answer
    return `<div class="offer-box watching" id="offer-box" role="status" data-kind="${esc(o.kind)}">
      <span>${esc(t(o.kind === "draw" ? "draw_offered_by" : "takeback_asked_by").replace("{s}", sideName(o.by)))}</span></div>`;
  }
  if (o.mine) {
    return `<div class="offer-box mine" id="offer-box" role="status" data-kind="${esc(o.kind)}">
      <span>${esc(t(o.kind === "draw" ? "draw_offered_me" : "takeback_asked_me"))}</span>
      <button type="button" id="offer-withdraw">${esc(t("withdraw"))}</button></div>`;
  }
  return `<div class="offer-box theirs" id="offer-box" role="alertdialog" data-kind="${esc(o.kind)}"
      aria-label="${esc(t(o.kind === "draw" ? "draw_offered_you" : "takeback_asked_you"))}">
    <span>${esc(t(o.kind === "draw" ? "draw_offered_you" : "takeback_asked_you"))}</span>
    <button type="button" id="offer-accept" class="primary">${esc(t("accept"))}</button>
    <button type="button" id="offer-decline">${esc(t("decline"))}</button></div>`;
}

// The player's tools: offer a draw, ask to take back (each only when the server allows
// it now), and the preset messages.
// Drawn (disabled) before the room's state arrives, so nothing moves when it does; on a
// phone the buttons keep only their signs (the words stay as their names).
export function socialToolsHTML(state, v) {
  if (v.mode !== "online" || v.seats.length !== 1 || v.result) return "";
  const can = (state && state.can_offer) || {};
  const presets = ((state && state.presets) || []).map(id => `<option value="${esc(id)}">${esc(presetText(id))}</option>`).join("");
  const tool = (id, sign, words, on) => `<button type="button" id="${id}" title="${esc(words)}" aria-label="${esc(words)}" ${on ? "" : "disabled"}>${sign}<span class="tool-words"> ${esc(words)}</span></button>`;
  return `${tool("offer-draw", "½", t("offer_draw"), can.draw)}${tool("offer-takeback", "↶?", t("ask_takeback"), can.takeback)}
    <select id="preset-select" aria-label="${esc(t("say"))}"><option value="">${esc(t("say"))}</option>${presets}</select>`;
}

// The messages so far, newest last.
export function messagesHTML(state) {
  if (!state || !state.presence) return "";
  const items = (state.messages || []).map(m =>
    `<li class="message message-${esc(m.by)}" data-n="${m.n}"><b class="turn-${esc(m.by)}">${esc(sideName(m.by))}</b> ${esc(presetText(m.preset))}</li>`).join("");
  return `<h4>${esc(t("messages"))}</h4><ol class="messages" id="messages">${items || `<li class="muted">${esc(t("no_messages"))}</li>`}</ol>`;
}
