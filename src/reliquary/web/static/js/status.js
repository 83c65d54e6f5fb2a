// The status line and the panels around the board: whose turn, the Vigil, the AI's
// thinking, the clocks, the result and how it was decided, the game's links.
import {esc, t, text, sideName, levelName, reasonText, resultHead, tiebreakText} from "./i18n.js";
import {SIDES} from "./board.js";
import {pace} from "./anim.js";

export function viewerSide(v) {
  if (v.seats.length === 1) return v.seats[0];
  return null;
}
export function aiSide(v) {
  if (!v.ai) return null;
  if (v.ai.seat) return v.ai.seat;
  const human = viewerSide(v);
  return human ? (human === "key" ? "skull" : "key") : null;
}

export function statusHTML(v) {
  const d = v.decision;
  if (v.result) return `<span class="turn-over">${esc(t("game_over"))}</span>`;
  const side = d.side;
  const who = side === "chance" ? "…" : sideName(side);
  let extra = "";
  if (!d.mine) {
    if (v.seats.length === 0) extra = ` — ${t("spectating")}`;
    else if (aiSide(v) === side) extra = "";
    else extra = ` — ${t("waiting_opp")}`;
  }
  const phase = v.phase === "setup" ? `${t("setup_phase")}: ` : "";
  return `${esc(phase)}<span class="turn-${side}">${esc(who)}</span>${d.mine ? ` <b>(${esc(t("you"))})</b>` : ""} ${esc(t("turn"))}${esc(extra)}`;
}

export function aiHTML(v) {
  // only while the AI is the one to decide: a take-back during its search hands the
  // decision back before the server's AI state catches up
  if (v.decision && aiSide(v) !== v.decision.side) return "";
  if (!v.ai || !v.ai.state || v.ai.state === "idle" || v.result) {
    if (v.ai && !v.ai.state && v.decision && !v.decision.mine && aiSide(v) === v.decision.side) {
      return `<span class="ai-status thinking" id="ai-status"><span class="spinner"></span>${esc(t("ai_thinking"))}</span>`;
    }
    return "";
  }
  const left = v.ai.seconds_left;
  const label = v.ai.state === "queued" ? t("ai_queued") : t("ai_thinking");
  return `<span class="ai-status ${esc(v.ai.state)}" id="ai-status"><span class="spinner"></span>${esc(label)}
    ${left !== null && left !== undefined ? `<span id="ai-left" data-left="${Number(left)}">${Number(left).toFixed(1)}</span> ${esc(t("seconds_left"))}` : ""}</span>`;
}

export function fmtClock(s) {
  s = Math.max(0, s);
  const m = Math.floor(s / 60);
  const sec = s - m * 60;
  return s < 20 ? `${m}:${sec.toFixed(1).padStart(4, "0")}` : `${m}:${String(Math.floor(sec)).padStart(2, "0")}`;
}
export function clocksHTML(v) {
  if (!v.clock) return "";
  // a loss on time: the loser's clock reads 0, whatever was left at the last move
  const flagged = v.result && v.result.reason === "timeout" && v.result.winner
    ? (v.result.winner === "key" ? "skull" : "key") : null;
  const left = side => (side === flagged ? 0 : v.clock.remaining[side]);
  return `<span class="clocks">${SIDES.map(side => `<span class="clock clock-${side}${v.clock.running === side && !v.result ? " running" : ""}${side === flagged ? " flagged" : ""}" id="clock-${side}"
    data-left="${left(side)}">${esc(sideName(side))} ${fmtClock(left(side))}</span>`).join("")}</span>`;
}

export function vigilHTML(value) {
  return `<span class="vigil" title="${esc(t("vigil"))}">${esc(t("vigil"))} <svg class="vigil-die" viewBox="0 0 40 40" aria-label="${esc(t("vigil"))} ${value}"><rect x="2" y="2" width="36" height="36" rx="7"/>
    <text x="20" y="28">${value}</text></svg></span>`;
}

export function resultHTML(v) {
  const r = v.result;
  const head = resultHead(r.winner, viewerSide(v));
  const why = reasonText(r.reason, r.winner);
  const detail = r.tiebreak || (r.reason === "vigil" ? r.detail : "");
  const scores = r.scores ? ` (${sideName("key")} ${r.scores[0]} · ${sideName("skull")} ${r.scores[1]})` : "";
  const tie = r.reason === "vigil" ? `<p id="result-tiebreak">${esc(t("tiebreak"))}: ${esc(tiebreakText(detail))}${esc(scores)}</p>` : "";
  const rematch = v.rematch && v.rematch.link
    ? `<a class="button big" id="rematch-join" href="${esc(v.rematch.link)}">${esc(t("rematch"))} →</a>`
    : (v.seats.length ? `<button type="button" id="rematch" class="big">${esc(t("rematch"))}</button>` : "");
  return `<div class="result" id="result"><h2>${esc(head)}</h2>
    <p id="result-reason">${esc(why)}.</p>${tie}
    <div class="buttons">${rematch}
      <a class="button" id="replay-link" href="/replay/${esc(v.id)}">${esc(t("replay"))}</a>
      <a class="button" id="download-link" href="/api/games/${esc(v.id)}/record" download>${esc(t("download"))}</a></div>
    <span class="sr-only">${esc(text(v.result_text))}</span></div>`;
}

export function infoHTML(v) {
  const s = v.position.settings;
  const invite = (v.links && v.links.invite) || v.invite;
  const links = invite ? `<label>${esc(t("invite"))} <input id="invite-link" readonly value="${esc(location.origin + invite)}"></label>` : "";
  const watch = v.mode === "online" || v.mode === "hotseat"
    ? `<label>${esc(t("watch"))} <input id="watch-link" readonly value="${esc(location.origin + ((v.links && v.links.spectate) || `/g/${v.id}`))}"></label>` : "";
  const ai = v.ai && v.ai.level ? `<p>${esc(t("level"))}: ${esc(levelName(v.ai.level))}</p>` : "";
  return `<div class="links">${links}${watch}</div>${ai}
    <p class="muted" id="game-rules">${esc(t("ruleset"))}: ${esc(v.ruleset || "classic")} · ${esc(t("size"))} ${s.size}×${s.size} · ${esc(t("los"))}: ${esc(t(s.los))} · ${esc(t("first_turn"))}: ${esc(t(s.first_turn))}</p>
    <label class="check"><input type="checkbox" id="sound-toggle" ${localStorage.getItem("sound") === "on" ? "checked" : ""}> ${esc(t("sound"))}</label>
    <label class="check"><input type="checkbox" id="motion-toggle" ${localStorage.getItem("motion") === "off" ? "" : "checked"}> ${esc(t("reduced"))}</label>
    <label class="check">${esc(t("pace"))} <select id="pace-select">${["fast", "normal", "slow"].map(p =>
      `<option value="${p}"${pace() === p ? " selected" : ""}>${esc(t("pace_" + p))}</option>`).join("")}</select></label>
    <p class="muted">${esc(t("zoom_help"))}</p>
    ${v.result ? "" : `<p><a class="button" id="download-now" href="/api/games/${esc(v.id)}/record" download>${esc(t("download"))}</a></p>`}`;
}

// The AI's seconds left and the running clock count down between views; at 0 the
// page asks the server again (the server decides a loss on time).
const timers = {ai: null, clock: null};
export function stopTimers() {
  clearInterval(timers.ai);
  clearInterval(timers.clock);
}
export function startTimers(v, onTimeUp) {
  stopTimers();
  const started = performance.now();
  const aiLeft = document.getElementById("ai-left");
  if (aiLeft) {
    const left = Number(aiLeft.dataset.left);
    let asked = 0;
    timers.ai = setInterval(() => {
      const el = document.getElementById("ai-left");
      if (!el) return;
      const now = left - (performance.now() - started) / 1000;
      el.textContent = Math.max(0, now).toFixed(1);
      // past its budget with no news: ask the server again (a missed update, a take-back)
      if (now < -1.5 && performance.now() - asked > 3000) { asked = performance.now(); onTimeUp(); }
    }, 100);
  }
  if (v.clock && v.clock.running && !v.result) {
    const side = v.clock.running;
    const left = v.clock.remaining[side];
    let asked = 0;
    timers.clock = setInterval(() => {
      const el = document.getElementById(`clock-${side}`);
      if (!el) return;
      const now = left - (performance.now() - started) / 1000;
      el.textContent = `${sideName(side)} ${fmtClock(now)}`;
      el.classList.toggle("low", now < 10);
      if (now <= 0 && performance.now() - asked > 1000) {  // the server decides the loss
        asked = performance.now();
        onTimeUp();
      }
    }, 100);
  }
}


// While the second seat of an online game is open, its invite stands out.
export function inviteBanner(v) {
  const invite = v.links && v.links.invite;
  if (!invite || !v.open_seat || v.result) return "";
  return `<div class="invite-banner" id="invite-banner"><label>${esc(t("invite_banner"))}
    <input id="invite-link-banner" readonly value="${esc(location.origin + invite)}"></label>
    <button type="button" id="copy-invite">${esc(t("copy"))}</button></div>`;
}
