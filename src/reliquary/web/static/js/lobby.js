// The start page: quick game, first-game tutorial, the new-game form, "My games",
// the lobby of open online games, and loading a record to replay.
import {api} from "./net.js";
import {esc, t, sideName, factionName, levelName, errorText, recordDetail} from "./i18n.js";
import {myGames, remember, forget} from "./store.js";
import {flash} from "./ui.js";
import {pieceShape} from "./board.js";

const CLOCKS = [[0, 0], [60, 2], [300, 3], [600, 5], [1800, 10]];
let lobbyTimer = null;

function clockLabel(clock) {
  if (!clock) return t("no_clock");
  const min = Math.round(clock.initial_s / 60);
  return `${min > 0 ? min + " min" : clock.initial_s + " s"} + ${clock.increment_s} s`;
}

// The game at a glance: a corner of a board with a Hero, a Minion, the enemy relic and
// a Ruin (drawn with the board's own shapes).
function pitchBoard() {
  const cells = [];
  for (let y = 0; y < 3; y++) for (let x = 0; x < 4; x++) {
    cells.push(`<rect class="sq ${(x + y) % 2 ? "light" : "dark"}" x="${x * 60}" y="${y * 60}" width="60" height="60"/>`);
  }
  const hero = pieceShape({id: 0, owner: "key", kind: "hero", hp: 4, max_hp: 4, square: ""}, 90, 150);
  const minion = pieceShape({id: 1, owner: "skull", kind: "minion", hp: 1, max_hp: 1, square: ""}, 210, 30);
  return `<svg class="board pitch-board" viewBox="0 0 240 180" role="img" aria-label="Reliquary">${cells.join("")}
    <g class="ruin"><rect x="184" y="124" width="52" height="52" rx="4"/></g>
    <g class="relic relic-skull"><path d="M150 76 L162 90 L150 104 L138 90 Z"/></g>
    <line class="arrow arrow-move" x1="90" y1="150" x2="132" y2="100" marker-end="url(#pitch-head)"/>
    <defs><marker id="pitch-head" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="5" markerHeight="5" orient="auto"><path d="M0 0 L10 5 L0 10 z" class="arrowhead"/></marker></defs>
    ${hero}${minion}</svg>`;
}

export function renderHome(app, meta, go) {
  const levels = meta.levels.map(l => `<option value="${esc(l)}">${esc(levelName(l))}</option>`).join("");
  const sizes = meta.sizes.map(s => `<option value="${s}">${s}×${s}</option>`).join("");
  const factions = meta.factions.map(f => `<option value="${esc(f.id)}">${esc(factionName(meta, f.id))}</option>`).join("");
  const rulesets = (meta.rulesets || []).map(r => `<option value="${esc(r.name)}">${esc(r.name)}</option>`).join("");
  const clocks = CLOCKS.map(([i, inc]) => `<option value="${i}:${inc}">${esc(i ? clockLabel({initial_s: i, increment_s: inc}) : t("no_clock"))}</option>`).join("");
  app.innerHTML = `
    <section class="pitch panel" id="pitch">${pitchBoard()}
      <div><h1>Reliquary</h1><p class="pitch-line">${esc(t("pitch"))}</p><p class="muted">${esc(t("pitch_more"))}</p></div>
    </section>
    <section class="home">
      <div class="quick panel">
        <button id="quick-ai" class="big">${esc(t("quick"))}</button>
        <p>${esc(t("quick_note"))}</p>
        <button id="tutorial" class="secondary">${esc(t("tutorial"))}</button>
        <p class="muted">${esc(t("tutorial_note"))}</p>
        <p><a href="/rules">${esc(t("rules"))}</a></p>
      </div>
      <form id="new-game" class="panel">
        <h2>${esc(t("new_game"))}</h2>
        <label>${esc(t("mode"))} <select name="mode" id="mode">
          <option value="ai">${esc(t("ai"))}</option><option value="hotseat">${esc(t("hotseat"))}</option>
          <option value="online">${esc(t("online"))}</option></select></label>
        <label class="for-ai" id="level-field">${esc(t("level"))} <select name="level" id="level">${levels}</select></label>
        <label class="for-online" id="public-field" hidden><input type="checkbox" name="public" id="public"> ${esc(t("public"))}</label>
        <label class="for-online" id="clock-field" hidden>${esc(t("clock"))} <select name="clock" id="clock">${clocks}</select></label>
        <label>${esc(t("seat"))} <select name="seat"><option value="key">${esc(sideName("key"))}</option>
          <option value="skull">${esc(sideName("skull"))}</option><option value="random">${esc(t("random"))}</option></select></label>
        <label>${esc(t("size"))} <select name="size">${sizes}</select></label>
        <label>${esc(t("los"))} <select name="los"><option value="geometric">${esc(t("geometric"))}</option>
          <option value="straight">${esc(t("straight"))}</option></select></label>
        <label>${esc(t("first_turn"))} <select name="first_turn"><option value="no_damage">${esc(t("no_damage"))}</option>
          <option value="no_attack">${esc(t("no_attack"))}</option></select></label>
        ${rulesets ? `<label>${esc(t("ruleset"))} <select name="ruleset" id="ruleset">${rulesets}</select></label>
        <p class="muted" id="ruleset-description" title="${esc(t("ruleset_note"))}"></p>` : ""}
        <details id="variants"><summary>${esc(t("variants"))}</summary>
          <label>${esc(t("regroup_limit"))} <input type="number" name="regroup_limit" min="0" max="99" placeholder="${esc(t("no_limit"))}"></label>
          <label>${esc(t("vigil_reset"))} <select name="vigil_reset"><option value="any">${esc(t("reset_any"))}</option>
            <option value="hero">${esc(t("reset_hero"))}</option></select></label>
          <label>${esc(t("vigil_start"))} <select name="vigil_start">${[6, 5, 4, 3, 2, 1].map(v => `<option value="${v}">${v}</option>`).join("")}</select></label>
          <label>${esc(t("killed_minions"))} <select name="killed_minions"><option value="pool">${esc(t("killed_pool"))}</option>
            <option value="removed">${esc(t("killed_removed"))}</option></select></label>
          ${modulesForm(meta.modules || [])}
        </details>
        <label>${esc(t("setup"))} <select name="quick"><option value="1">${esc(t("quick_setup"))}</option>
          <option value="0">${esc(t("full_setup"))}</option></select></label>
        <label>${esc(t("faction"))} <select name="faction"><option value="">${esc(t("random"))}</option>${factions}</select></label>
        <button type="submit" id="start" class="big">${esc(t("start"))}</button>
      </form>
      <div class="panel">
        <h2>${esc(t("my_games"))}</h2><ul class="game-list" id="my-games"></ul>
        <h2>${esc(t("lobby"))}</h2><ul class="game-list" id="lobby"></ul>
        <h2>${esc(t("load"))}</h2><p>${esc(t("load_note"))}</p>
        <input type="file" id="record-file" accept=".json,application/json">
        <p class="error" id="record-error" role="alert"></p>
      </div>
    </section>`;
  const form = document.getElementById("new-game");
  const modeSel = document.getElementById("mode");
  const showFields = () => {
    const mode = modeSel.value;
    document.getElementById("level-field").hidden = mode !== "ai";
    document.getElementById("public-field").hidden = mode !== "online";
    document.getElementById("clock-field").hidden = mode !== "online";
  };
  modeSel.addEventListener("change", showFields);
  showFields();
  // A ruleset's one-line description under its field; its settings fill the variants.
  const rulesetSel = document.getElementById("ruleset");
  const showRuleset = () => {
    const chosen = (meta.rulesets || []).find(r => r.name === rulesetSel.value);
    if (!chosen) return;
    document.getElementById("ruleset-description").textContent = chosen.description;
    for (const name of ["los", "first_turn", "regroup_limit", "vigil_reset", "vigil_start", "killed_minions"]) {
      const field = form.elements[name];
      if (!field) continue;
      const value = name in chosen.settings ? chosen.settings[name] : field.dataset.initial;
      field.value = value === null || value === undefined ? "" : String(value);
    }
  };
  if (rulesetSel) {
    for (const field of form.elements) field.dataset.initial = field.value;
    rulesetSel.addEventListener("change", showRuleset);
    showRuleset();
  }
  document.getElementById("quick-ai").addEventListener("click", () =>
    startGame({mode: "ai", level: meta.levels[0], seat: "key", quick: true}, go));
  document.getElementById("tutorial").addEventListener("click", () => {
    localStorage.setItem("reliquary.tour", "start");
    startGame({mode: "ai", level: meta.levels[0], seat: "key", quick: true}, go);
  });
  form.addEventListener("submit", ev => {
    ev.preventDefault();
    const f = new FormData(form);
    const mode = f.get("mode");
    const body = {mode, seat: f.get("seat"), size: Number(f.get("size")), los: f.get("los"),
      first_turn: f.get("first_turn"), quick: f.get("quick") === "1", faction: f.get("faction") || null,
      vigil_reset: f.get("vigil_reset"), vigil_start: Number(f.get("vigil_start")),
      killed_minions: f.get("killed_minions")};
    if (f.get("ruleset")) body.ruleset = f.get("ruleset");
    if (f.get("regroup_limit") !== "") body.regroup_limit = Number(f.get("regroup_limit"));
    // Rule modules (M-MOD-1) and their options (M-MOD-2), as /api/meta lists them.
    body.modules = f.getAll("module");
    body.module_options = {};
    for (const m of meta.modules || []) {
      if (!body.modules.includes(m.name)) continue;
      for (const o of m.options) {
        const value = o.subset ? f.getAll(o.key) : f.get(o.key);
        if (value === null || value === "") continue;
        body.module_options[o.key] = o.min !== null || o.max !== null ? Number(value) : value;
      }
    }
    if (mode === "ai") body.level = f.get("level");
    if (mode === "online") {
      body.public = f.get("public") === "on";
      const [initial, inc] = String(f.get("clock") || "0:0").split(":").map(Number);
      body.clock = initial ? {initial_s: initial, increment_s: inc} : null;
    }
    startGame(body, go);
  });
  document.getElementById("record-file").addEventListener("change", async ev => {
    const file = ev.target.files[0];
    const box = document.getElementById("record-error");
    box.textContent = "";
    if (!file) return;
    let record;
    try { record = JSON.parse(await file.text()); } catch {  // the parser's words mean nothing here
      box.textContent = `${t("record_bad")}: ${t("record_not_json")}.`;
      return;
    }
    try {
      const out = await api("POST", "/api/records", record);
      go(out.links.replay);
    } catch (err) {
      // the server says in words what is wrong with the record
      box.textContent = `${t("record_bad")}: ${recordDetail(err.message)}`;
    }
  });
  renderMyGames();
  loadLobby(go);
  clearInterval(lobbyTimer);
  lobbyTimer = setInterval(() => {  // open games come and go: look again while here
    if (!document.getElementById("lobby")) { clearInterval(lobbyTimer); return; }
    loadLobby(go);
  }, 5000);
}

function renderMyGames() {
  const box = document.getElementById("my-games");
  const list = myGames();
  if (!list.length) { box.innerHTML = `<li class="muted">${esc(t("no_mine"))}</li>`; return; }
  box.innerHTML = list.map(g => `<li data-game="${esc(g.id)}" data-outcome="${esc(outcome(g))}">
    <a class="resume" href="${esc(g.link)}">${esc(t(g.mode || "ai"))}${g.level ? ` (${esc(levelName(g.level))})` : ""} · ${esc(sideName(g.seat || "key"))} · ${esc(new Date(g.saved).toLocaleString())}
      · <b class="outcome outcome-${esc(outcome(g))}">${esc(outcomeText(g))}</b></a>
    <button type="button" class="forget small" data-forget="${esc(g.id)}">${esc(t("forget"))}</button></li>`).join("");
  box.querySelectorAll("[data-forget]").forEach(b => b.addEventListener("click", () => {
    forget(b.dataset.forget);
    renderMyGames();
  }));
}

// How a game of "My games" ended for this browser's seat: won, lost, a draw, or (a
// hot-seat game, both seats here) who won; "playing" while it goes on.
function outcome(g) {
  if (!g.over) return "playing";
  if (g.winner === null || g.winner === undefined) return g.winner === null ? "draw" : "over";
  if (g.mode === "hotseat" || !["key", "skull"].includes(g.seat)) return "side";
  return g.winner === g.seat ? "won" : "lost";
}
function outcomeText(g) {
  const kind = outcome(g);
  if (kind === "playing") return t("in_progress");
  if (kind === "side") return t("side_won").replace("{w}", sideName(g.winner));
  if (kind === "over") return t("game_over");
  return t(kind);
}

async function loadLobby(go) {
  const box = document.getElementById("lobby");
  if (!box) return;
  let games = [];
  try { games = (await api("GET", "/api/lobby")).games || []; } catch { games = []; }
  if (!document.body.contains(box)) return;
  if (!games.length) { box.innerHTML = `<li class="muted">${esc(t("no_open"))}</li>`; return; }
  box.innerHTML = games.map(g => `<li data-lobby="${esc(g.id)}">
    <span>${esc(t("host_plays"))} ${esc(sideName(g.host_seat))} · ${esc((g.settings || {}).size || 8)}×${esc((g.settings || {}).size || 8)} · ${esc(clockLabel(g.clock))}${esc(modulesNote(g.settings || {}))}</span>
    <button type="button" class="join small" data-join="${esc(g.id)}">${esc(t("join"))}</button></li>`).join("");
  box.querySelectorAll("[data-join]").forEach(b => b.addEventListener("click", async () => {
    try {
      const out = await api("POST", `/api/games/${b.dataset.join}/join`, {});
      remember({id: b.dataset.join, token: out.token, seat: out.seat, mode: "online", link: out.links.self});
      go(out.links.self);
    } catch (err) { flash(errorText(err)); loadLobby(go); }
  }));
}

async function startGame(body, go) {
  try {
    const out = await api("POST", "/api/games", body);
    const link = (out.links && (out.links.self || out.links.play));
    remember({id: out.id, token: out.token, seat: out.seat, mode: body.mode, link});
    go(link);
  } catch (err) { flash(errorText(err)); }
}

// A lobby game's rule modules and the options it sets (M-MOD-1, M-MOD-2), in a line.
function modulesNote(settings) {
  const modules = settings.modules || [];
  if (!modules.length) return "";
  const options = Object.entries(settings).filter(([k]) => modules.some(m => k.startsWith(m + ".")))
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join("+") : v}`);
  return ` · ${t("modules")}: ${modules.join(", ")}${options.length ? ` (${options.join(", ")})` : ""}`;
}

// The modules part of the new-game form: a checkbox a module, its options beside it.
function modulesForm(modules) {
  if (!modules.length) return "";
  const option = o => {
    if (o.subset) return o.choices.map(c => `<label><input type="checkbox" name="${esc(o.key)}" value="${esc(c)}" ${o.default.includes(c) ? "checked" : ""}> ${esc(c)}</label>`).join("");
    if (o.choices.length) return `<select name="${esc(o.key)}">${o.choices.map(c => `<option value="${esc(c)}" ${c === o.default ? "selected" : ""}>${esc(c)}</option>`).join("")}</select>`;
    return `<input type="number" name="${esc(o.key)}" value="${esc(o.default)}" ${o.min !== null ? `min="${o.min}"` : ""} ${o.max !== null ? `max="${o.max}"` : ""}>`;
  };
  return `<fieldset id="modules"><legend>${esc(t("modules"))}</legend>${modules.map(m => `
    <label title="${esc(m.summary)}"><input type="checkbox" name="module" value="${esc(m.name)}"> ${esc(m.title)} (${esc(m.rules)})</label>
    ${m.options.map(o => `<label class="module-option" title="${esc(o.help)}">${esc(o.key)} ${option(o)}</label>`).join("")}`).join("")}</fieldset>`;
}
