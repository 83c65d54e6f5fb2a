// The rule modules' INTERACT actions and follow-up choices, previewed (MODULES.md §4, §6):
// what each action would do — FOCUS, GUARD, TEND, DELVE, ENCAMP, DECAMP — and, at each of
// their choices (the actor, TEND's target, the delver, the Ruin, the Minion to encamp,
// the Wayshrine's type, the Prize), what each option would do. The server works all of it
// out on copies of the game and sends it in words (en/es) with the squares it touches
// and a DELVE's odds (the preview's `actions`, the decision's `notes`); this file only
// draws it: a list in the prompt and marks on the board.
import {esc, t, text, addStrings} from "./i18n.js";
import {conditionsLabel} from "./conditions.js";
import {keepersLabel} from "./keepers.js";

addStrings({
  en: {ia_preview: "With INTERACT", ia_choose: "What each choice would do",
    ia_lift: "chance to lift"},
  es: {ia_preview: "Con INTERACTUAR", ia_choose: "Qué haría cada opción",
    ia_lift: "probabilidad de levantarla"},
});

export function actionLabel(action) {
  return conditionsLabel("interact", action) || keepersLabel("interact", action) || action;
}

// The action shown: the one chosen in the list, else the first.
export function shownAction(pv, chosen) {
  const actions = Object.keys((pv && pv.actions) || {});
  return actions.includes(chosen) ? chosen : actions[0] || null;
}

function pct(p) { return `${Math.round(p * 100)}%`; }

// The prompt's part: a button per action (pointing at one shows it), then what each way
// of taking the shown action would do.
export function interactPreviewHTML(pv, chosen) {
  const action = shownAction(pv, chosen);
  if (!action) return "";
  const chips = Object.keys(pv.actions).map(a => `<button type="button" class="ia-chip${a === action ? " active" : ""}" data-ia-action="${esc(a)}" aria-pressed="${a === action}">${esc(actionLabel(a))}</button>`).join("");
  const outcomes = pv.actions[action].outcomes || [];
  const items = outcomes.map(o => `<li data-ia-path="${esc(o.choices.join(">"))}" data-squares="${esc((o.squares || []).join(" "))}"${o.lift !== undefined ? ` data-lift="${o.lift}"` : ""}><b>${esc(o.choices.join(" → "))}</b> ${esc(text(o.text))}</li>`).join("");
  return `<div class="interact-preview" id="interact-preview" data-action="${esc(action)}"><span class="ia-label">${esc(t("ia_preview"))}:</span> ${chips}<ul class="ia-outcomes">${items}</ul></div>`;
}

// The board's part, for the shown action: its actors ringed, the squares each way would
// touch outlined, and a DELVE's chance to lift on its Ruin; each mark's title tells it.
export function interactMarksSVG(pv, chosen, centre) {
  const action = shownAction(pv, chosen);
  if (!action) return "";
  const parts = [];
  const drawn = new Set();
  for (const o of pv.actions[action].outcomes || []) {
    const actor = o.choices[0];
    const words = text(o.text);
    for (const sq of o.squares || []) {
      const key = `${sq}|${sq === actor ? "actor" : "affect"}`;
      if (drawn.has(key)) continue;
      drawn.add(key);
      const [cx, cy] = centre(sq);
      parts.push(sq === actor
        ? `<g class="pv-mark pv-interact pv-actor" data-ia="${esc(action)}" data-to="${esc(sq)}"><circle r="26" cx="${cx}" cy="${cy}"/><title>${esc(words)}</title></g>`
        : `<g class="pv-mark pv-interact pv-affect" data-ia="${esc(action)}" data-from="${esc(actor || "")}" data-to="${esc(sq)}"><rect x="${cx - 27}" y="${cy - 27}" width="54" height="54" rx="8"/><title>${esc(words)}</title></g>`);
    }
    if (o.lift !== undefined && o.squares && o.squares.length > 1) {
      const ruin = o.squares[o.squares.length - 1];
      if (!drawn.has(`${ruin}|odds`)) {
        drawn.add(`${ruin}|odds`);
        const [cx, cy] = centre(ruin);
        parts.push(`<g class="pv-mark pv-odds" data-ia="${esc(action)}" data-to="${esc(ruin)}" data-lift="${o.lift}" transform="translate(${cx} ${cy - 18})"><rect x="-19" y="-9" width="38" height="17" rx="4"/><text y="4">${pct(o.lift)}</text><title>${esc(t("ia_lift"))}: ${pct(o.lift)}</title></g>`);
      }
    }
  }
  return parts.join("");
}

// A module choice's options, each with what it would do: a list under the prompt. The
// options that are buttons carry their note on the button, so their items show only
// where the buttons' notes do not (a phone).
export function optionNotesHTML(d) {
  if (!d || !d.mine || !d.notes) return "";
  const entries = Object.entries(d.notes);
  const items = entries.map(([opt, note]) => {
    const square = /^[a-z]\d+$/.test(opt);
    const label = square ? opt : opt === "pass" ? t("pass")
      : keepersLabel(d.kind, opt) || conditionsLabel(d.kind, opt) || opt;
    return `<li data-note-opt="${esc(opt)}"${square ? "" : ` class="for-btn"`} data-squares="${esc((note.squares || []).join(" "))}"${note.lift !== undefined ? ` data-lift="${note.lift}"` : ""}><b>${esc(label)}</b> ${esc(text(note.text))}</li>`;
  }).join("");
  const onlyButtons = entries.every(([opt]) => !/^[a-z]\d+$/.test(opt));
  return items ? `<div class="option-notes${onlyButtons ? " only-btn" : ""}" id="option-notes"><span class="ia-label">${esc(t("ia_choose"))}:</span><ul>${items}</ul></div>` : "";
}

// A button option's note from the server (null: none).
export function optionNote(d, opt) {
  const note = d && d.notes && d.notes[opt];
  return note ? text(note.text) : null;
}

// Outline the squares an option or a way would touch (null: none).
export function highlightSquares(squares) {
  const on = new Set(squares || []);
  document.querySelectorAll("#board .sq[data-square]").forEach(el =>
    el.classList.toggle("note-hl", on.has(el.dataset.square)));
}

// Pointing at (or focusing) a list item or an option square outlines what it touches.
export function bindNotes(d) {
  document.querySelectorAll("[data-note-opt], [data-ia-path]").forEach(el => {
    const show = () => highlightSquares((el.dataset.squares || "").split(" ").filter(Boolean));
    el.addEventListener("mouseenter", show);
    el.addEventListener("click", show);  // a tap on a phone
    el.addEventListener("mouseleave", () => highlightSquares(null));
  });
  if (!d || !d.notes) return;
  document.querySelectorAll("#buttons [data-opt]").forEach(el => {  // an action, a type…
    const note = d.notes[el.dataset.opt];
    if (!note || !note.squares) return;
    el.addEventListener("mouseenter", () => highlightSquares(note.squares));
    el.addEventListener("focus", () => highlightSquares(note.squares));
    el.addEventListener("mouseleave", () => highlightSquares(null));
  });
  document.querySelectorAll("[data-opt-sq]").forEach(el => {
    const note = d.notes[el.dataset.optSq];
    if (!note) return;
    const show = () => {
      highlightSquares(note.squares);
      document.querySelectorAll("[data-note-opt]").forEach(li =>
        li.classList.toggle("current", li.dataset.noteOpt === el.dataset.optSq));
    };
    el.addEventListener("mouseenter", show);
    el.addEventListener("focus", show);
  });
}
