// The game log grouped by round and turn, the setup folded away. Each line comes from
// the server with the number (`seq`) and kind of its decision; a turn starts at a
// decision of kind `play`, and a round is two turns. Nothing here reads the words.
import {esc, t, text, reasonText} from "./i18n.js";

// The lines split into the setup and the turns: [{seq, lines: [[n, line], …]}, …].
export function groupLog(lines) {
  const setup = [];
  const turns = [];
  lines.forEach((line, i) => {
    const numbered = [i + 1, line];
    if (line.kind === "play" && (!turns.length || turns[turns.length - 1].seq !== line.seq)) {
      turns.push({seq: Number(line.seq), lines: [numbered]});
    } else if (turns.length) {
      turns[turns.length - 1].lines.push(numbered);
    } else {
      setup.push(numbered);
    }
  });
  return {setup, turns};
}

// A concession (resignation, time) is no decision, so the server's log has no line for
// it: the page writes it from the result.
export function concessionLine(result) {
  if (!result || !["resign", "timeout"].includes(result.reason)) return null;
  return {en: null, es: null, concession: true, reason: result.reason, winner: result.winner};
}

function lineHTML([n, line]) {
  const words = line.concession ? reasonText(line.reason, line.winner) + "." : text(line);
  return `<li class="log-line${line.concession ? " concession" : ""}" data-n="${n}"><span class="log-n">${n}</span> <span class="log-text">${esc(words)}</span></li>`;
}

// The log as HTML: the setup folded, then the rounds with their turns; the last turn open.
export function logHTML(v) {
  const lines = v.log.slice();
  const end = concessionLine(v.result);
  const {setup, turns} = groupLog(lines);
  if (end) (turns.length ? turns[turns.length - 1].lines : setup).push([lines.length + 1, end]);
  const parts = [];
  if (setup.length) {
    const open = v.phase === "setup" || !turns.length ? " open" : "";
    parts.push(`<details class="log-setup" id="log-setup"${open}><summary>${esc(t("setup_phase"))} · ${setup.length} ${esc(t("lines"))}</summary>
      <ol class="log-lines">${setup.map(lineHTML).join("")}</ol></details>`);
  }
  let round = 0;
  turns.forEach((turn, i) => {
    if (i % 2 === 0) {
      round += 1;
      parts.push(`<h4 class="log-round" data-round="${round}">${esc(t("round"))} ${round}</h4>`);
    }
    // a finished game's turn opens its replay at that position; in a game going on, a
    // click shows the board as the turn began (game.js asks the server for it)
    const title = `${esc(t("turn_n"))} ${i + 1}`;
    const head = v.result ? `<a class="log-turn-link" href="/replay/${esc(v.id)}#at=${turn.seq}">${title}</a>`
      : v.mode === "replay" ? title
      : `<button type="button" class="log-turn-look" data-look="${turn.seq}" data-turn="${i + 1}">${title}</button>`;
    parts.push(`<section class="log-turn${i === turns.length - 1 ? " last" : ""}" data-turn="${i + 1}" data-seq="${turn.seq}">
      <h5 class="log-turn-head">${head}</h5>
      <ol class="log-lines">${turn.lines.map(lineHTML).join("")}</ol></section>`);
  });
  return `<div class="log" id="log">${parts.join("")}</div>`;
}
