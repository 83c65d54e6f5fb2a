// Talking to the server: JSON requests with coded errors, and the game's live socket.

export class ApiError extends Error {
  constructor(message, code, status, data) {
    super(message);
    this.code = code;
    this.status = status;
    this.data = data || {};
  }
}

export async function api(method, url, body) {
  let res;
  try {
    res = await fetch(url, {method, headers: body === undefined ? {} : {"Content-Type": "application/json"},
      body: body === undefined ? undefined : JSON.stringify(body)});
  } catch (err) {
    throw new ApiError(err.message, "network", 0);
  }
  const data = await res.json().catch(() => ({error: res.statusText}));
  if (!res.ok) {
    const code = data.code || {404: "not_found", 403: "forbidden", 409: "stale", 422: "illegal_option",
      415: "unsupported_media_type", 429: "rate_limited", 413: "too_large"}[res.status] || "bad_request";
    throw new ApiError(data.error || res.statusText, code, res.status, data);
  }
  return data;
}

// Close codes after which reconnecting by itself would be wrong: the server closed an
// idle socket (4408: the player may be gone; they reconnect by hand), or refused one over
// its limits (4429 too many opened, 1013 too many open: retrying makes it worse).
const STOPPED = {4408: "idle", 4429: "limited", 1013: "limited"};

// The live connection of a game: calls onUpdate(msg) on each change; reconnects with a
// growing delay, except when the server says the game does not exist (4404: onGone) or
// closed it for good (STOPPED: onStopped(reason)).
export function connect(gameId, {onUpdate, onOnline, onOffline, onGone, onStopped}) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  let delay = 500;
  let stopped = false;
  let socket = null;
  let timer = null;
  const open = () => {
    if (stopped) return;
    socket = new WebSocket(`${proto}://${location.host}/api/games/${gameId}/ws`);
    socket.onopen = () => { delay = 500; onOnline && onOnline(); };
    socket.onmessage = ev => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "error" && msg.code === "not_found") { stop(); onGone && onGone(); return; }
      if (msg.type === "update" || (msg.type === undefined && msg.seq !== undefined)) onUpdate(msg);
      // other types (ping, …) are ignored
    };
    socket.onclose = ev => {
      if (stopped) return;
      if (ev.code === 4404) { stop(); onGone && onGone(); return; }
      if (STOPPED[ev.code]) { stop(); onStopped && onStopped(STOPPED[ev.code]); return; }
      onOffline && onOffline();
      timer = setTimeout(() => { open(); onUpdate({type: "reconnect"}); }, delay);
      delay = Math.min(delay * 2, 8000);
    };
  };
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    if (socket && socket.readyState <= 1) socket.close();
  };
  open();
  return {stop, drop: () => socket && socket.close()};
}
