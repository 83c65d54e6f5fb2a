// The current decision's options, sorted for the page: squares on the board, buttons,
// and for a `play` decision the modes of each card. Nothing here judges legality.
import {t, text, factionName, riteName} from "./i18n.js";
import {keepersLabel} from "./keepers.js";
import {gloryLabel} from "./glory.js";
import {conditionsLabel, conditionsNote} from "./conditions.js";
import {optionNote} from "./interact.js";

export const MODE_ORDER = ["move", "attack", "regroup", "rite", "pass"];
const SQUARE = /^[a-z]\d+$/;

// ui: {selectedCard, escortFrom}
export function decisionOptions(meta, v, ui) {
  const d = v.decision;
  const out = {squares: new Set(), buttons: [], plays: {}, escortPieces: new Set()};
  if (!d || !d.mine) return out;
  for (const opt of d.options) {
    if (d.kind === "play") {
      const [card, mode] = opt.split(":");
      (out.plays[card] = out.plays[card] || []).push(mode);
    } else if (d.kind === "escort" || d.kind === "fast_step") {  // a piece, then its step
      if (opt === "pass") out.buttons.push({opt, label: t("pass")});
      else {
        const [from, to] = opt.split("-");
        out.escortPieces.add(from);
        if (ui.escortFrom === null) out.squares.add(from);
        else if (from === ui.escortFrom) out.squares.add(to);
      }
    } else if (d.kind === "faction") {
      const f = meta.factions.find(x => x.id === opt);
      out.buttons.push({opt, label: factionName(meta, opt), note: f ? text(f.text) : ""});
    } else if (d.kind === "rite") {
      const r = meta.rites.find(x => x.id === opt);
      out.buttons.push({opt, label: riteName(meta, opt), note: r ? text(r.text) : ""});
    } else if (opt === "pass") {
      const note = optionNote(d, opt);  // a module choice's pass (the Prize left): what it means
      out.buttons.push({opt, label: d.kind === "lunge" ? t("stay") : t("pass"), ...(note ? {note} : {})});
    } else if (SQUARE.test(opt)) {
      out.squares.add(opt);
    } else if (gloryLabel(d.kind, opt, meta)) {  // an objective or an upgrade, with its text
      const g = gloryLabel(d.kind, opt, meta);
      out.buttons.push({opt, label: g.label, note: g.note});
    } else {
      const note = optionNote(d, opt) || conditionsNote(d.kind, opt);  // the server's, if any
      out.buttons.push({opt, label: keepersLabel(d.kind, opt) || conditionsLabel(d.kind, opt) || opt,
        ...(note ? {note} : {})});
    }
  }
  if ((d.kind === "escort" || d.kind === "fast_step") && ui.escortFrom !== null) {
    // the chosen piece's own square: pressing it again (or the button) chooses another
    out.buttons.push({opt: null, action: "escort-reset", label: t("escort_change")});
  }
  if (d.kind === "play") {
    const playable = Object.keys(out.plays);
    if (!ui.selectedCard || !out.plays[ui.selectedCard]) ui.selectedCard = playable[0] || null;
    const modes = (out.plays[ui.selectedCard] || []).slice()
      .sort((a, b) => MODE_ORDER.indexOf(a) - MODE_ORDER.indexOf(b));
    for (const mode of modes) {
      out.buttons.push({opt: `${ui.selectedCard}:${mode}`, mode,
        label: mode === "pass" ? t("pass_mode") : t(mode)});
    }
  }
  return out;
}
