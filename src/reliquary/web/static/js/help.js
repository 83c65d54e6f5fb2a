// Help while playing: both factions' attack lines and passives, both rites, the modes.
import {esc, t, text, factionName, riteName, sideName} from "./i18n.js";
import {keepersHelp} from "./keepers.js";
import {gloryHelp} from "./glory.js";
import {conditionsHelp} from "./conditions.js";

function factionBlock(meta, side, id, label) {
  if (!id) return "";
  if (id === "hidden") return `<div class="help-faction"><h4>${esc(label)} — ${esc(sideName(side))}</h4><p>${esc(t("hidden"))}</p></div>`;
  const f = meta.factions.find(x => x.id === id);
  if (!f) return "";
  return `<div class="help-faction" data-help-faction="${esc(id)}"><h4>${esc(label)} — ${esc(sideName(side))}: ${esc(factionName(meta, id))}</h4>
    <p>${esc(text(f.text))}</p>${f.passive === "none" ? `<p class="muted">${esc(t("passive"))}: ${esc(t("no_passive"))}</p>` : ""}
    <p class="muted">${esc(t("hero"))}: ${f.hero_hp} ${esc(t("hp"))}</p></div>`;
}

// The help tab of a game: `me` is the side at the bottom (the viewer's).
export function helpHTML(meta, v, me) {
  const pos = v.position;
  const other = me === "key" ? "skull" : "key";
  const factionOf = side => pos.factions[side] || (pos.secret_factions && pos.secret_factions[side]) || null;
  const rites = [];
  for (const side of [me, other]) {
    const id = pos.rites[side];
    const r = id && meta.rites.find(x => x.id === id);
    if (r) rites.push(`<li data-help-rite="${esc(r.id)}"><b>${esc(sideName(side))}: ${esc(riteName(meta, r.id))}</b> — ${esc(text(r.text))}</li>`);
  }
  const allRites = meta.rites.map(r => `<li><b>${esc(riteName(meta, r.id))}</b> — ${esc(text(r.text))}</li>`).join("");
  return `<section class="help" id="help-body">
    <p class="goal">${esc(t("help_goal"))}</p>
    <h3>${esc(t("factions_title"))}</h3>
    ${factionBlock(meta, me, factionOf(me), t("your_faction"))}
    ${factionBlock(meta, other, factionOf(other), t("opp_faction"))}
    <h3>${esc(t("rites_title"))}</h3>
    <ul class="help-rites">${rites.length ? rites.join("") : allRites}</ul>
    <h3>${esc(t("modes_title"))}</h3>
    <ul class="help-modes">
      <li data-help-mode="move">${esc(t("help_move"))}</li>
      <li data-help-mode="attack">${esc(t("help_attack"))}</li>
      <li data-help-mode="regroup">${esc(t("help_regroup"))}</li>
      <li data-help-mode="rite">${esc(t("help_rite"))}</li>
      <li data-help-mode="pass">${esc(t("help_pass"))}</li>
    </ul>
    ${keepersHelp(pos)}
    ${gloryHelp(pos)}
    ${conditionsHelp(pos)}
    <p><a href="/rules" target="_blank" rel="noopener">${esc(t("rules"))}</a> ·
       <a href="/spec" target="_blank" rel="noopener">${esc(t("spec"))}</a></p>
  </section>`;
}
