// The hint drawn on the board: the server's principal variation (`pv`, decision tokens)
// as arrows, one turn at a time, to step through. A turn starts at a CARD:MODE token;
// the squares chosen after it are joined in order (the piece, then where it goes or
// what it attacks), an Escort token FROM-TO is its own arrow. Nothing here judges a rule.
import {esc, t, lang} from "./i18n.js";

const SQUARE = /^[a-z]\d+$/;
const ESCORT = /^([a-z]\d+)-([a-z]\d+)$/;

// The pv cut into turns: [{play: "Card:mode", mode, tokens: [...]}].
export function hintTurns(pv) {
  const turns = [];
  for (const token of pv || []) {
    if (token.includes(":")) turns.push({play: token, mode: token.split(":")[1], tokens: []});
    else if (turns.length) turns[turns.length - 1].tokens.push(token);
  }
  return turns;
}

function turnArrows(turn) {
  const out = [];
  const kind = turn.mode === "attack" ? "attack" : "move";
  let last = null;
  for (const token of turn.tokens) {
    const escort = token.match(ESCORT);
    if (escort) { out.push({from: escort[1], to: escort[2], kind: "step"}); continue; }
    if (!SQUARE.test(token)) continue;  // a pass, a die face
    if (last !== null && last !== token) out.push({from: last, to: token, kind});
    last = token;
  }
  if (!out.length && last !== null) out.push({from: last, to: last, kind: "spot"});  // a regroup, a rite
  return out;
}

// The arrows of the pv's turns up to `step`: the current one marked, the earlier faded.
export function hintArrows(pv, step) {
  const turns = hintTurns(pv);
  const upto = Math.min(step, turns.length - 1);
  const out = [];
  turns.slice(0, upto + 1).forEach((turn, i) => {
    for (const a of turnArrows(turn)) out.push({...a, hint: true, current: i === upto, step: i + 1});
  });
  return out;
}

// The hint's words: the best play, the squares, the value, why a once-per-game rite, and
// the buttons that step through the line.
export function hintHTML(hint, step, playName) {
  const turns = hintTurns(hint.pv);
  const at = Math.min(step, Math.max(0, turns.length - 1));
  const first = turns[0];
  const squares = first ? first.tokens.filter(x => SQUARE.test(x) || ESCORT.test(x)).join(" → ") : "";
  const value = typeof hint.value === "number" ? `${hint.value >= 0 ? "+" : "−"}${Math.abs(hint.value).toFixed(2)}` : "";
  let why = "";
  if (first && first.mode === "rite") {
    const other = (hint.alternatives || []).filter(a => !a.option.endsWith(":rite"))
      .sort((a, b) => b.value - a.value)[0];
    why = `<small class="hint-why" id="hint-why">${esc(t("hint_rite"))}${other
      ? `${esc(t("hint_rite_vs"))} ${esc(playName(other.option))} (${other.value >= 0 ? "+" : "−"}${Math.abs(other.value).toFixed(2)})` : ""}.</small>`;
  }
  const stepper = turns.length > 1 ? `<span class="hint-steps"><button type="button" class="small" id="hint-prev" ${at === 0 ? "disabled" : ""} aria-label="${esc(t("prev"))}">◀</button>
    <span id="hint-at">${esc(t("hint_line"))} ${at + 1}/${turns.length}</span>
    <button type="button" class="small" id="hint-next" ${at + 1 >= turns.length ? "disabled" : ""} aria-label="${esc(t("next"))}">▶</button></span>` : "";
  return `<span class="hint-line" id="hint-line">${esc(t("hint"))}: <b>${esc(playName(hint.best))}</b>${squares ? ` <span id="hint-squares">${esc(squares)}</span>` : ""}
    ${value ? `<span class="hint-value" id="hint-value">${esc(t("evaluation"))} ${esc(value)}</span>` : ""} ${stepper}
    <button type="button" class="small" id="hint-close" aria-label="${esc(t("close"))}">✕</button>${why}${explainHTML(hint)}</span>`;
}

// The rule modules' options on the line, in words (INTERACT and its actions).
function explainHTML(hint) {
  const notes = (hint.explain || []).map(n => `<b>${esc(n.token)}</b> ${esc(n[lang] || n.en)}`);
  return notes.length ? `<small class="hint-explain" id="hint-explain">${notes.join(" · ")}</small>` : "";
}
