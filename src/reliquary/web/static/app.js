// Reliquary's front end: the server decides every rule; this page only draws and asks.
"use strict";
(() => {
  const app = document.getElementById("app");
  const SIDES = ["key", "skull"];
  let lang = localStorage.getItem("lang") ||
    ((navigator.language || "en").slice(0, 2) === "es" ? "es" : "en");
  let meta = null;
  let view = null;        // the game as the server shows it to this seat
  let token = null;
  let gameId = null;
  let selectedCard = null;
  let escortFrom = null;
  let socket = null;
  let replayAt = 0;
  let busy = false;
  let pendingRefresh = false;
  let latestSeq = -1;

  const T = {
    en: {new_game: "New game", rules: "Rules", quick: "Quick game against the AI",
      quick_note: "One click: random legal setup, you play Key.", mode: "Mode",
      ai: "Against the AI", hotseat: "Hot-seat (one screen)", online: "Online (invite by link)",
      level: "AI level", seat: "Your side", random: "Random", size: "Board size",
      los: "Line of sight", geometric: "Geometric (rulebook)", straight: "Straight lines (reference card)",
      first_turn: "First turn", no_damage: "No damage (rulebook)", no_attack: "No attack (reference card)",
      setup: "Setup", quick_setup: "Quick (random setup)", full_setup: "Play the setup in full",
      faction: "Your faction", start: "Start game", load: "Replay a game record",
      load_note: "Load a record (.json) downloaded from a game.",
      turn: "to decide", you: "you", vigil: "Vigil", rites: "Rite", pools: "Killed Minions",
      waiting: "Waiting card", hand: "hand", played: "played", undo: "Take back the last turn",
      pass: "Pass", last_roll: "Last roll", log: "Game log", invite: "Invite link for your opponent",
      watch: "Link for spectators", replay: "Replay", download: "Download record",
      first: "First", prev: "Back", next: "Forward", last: "Last", step: "Decision",
      spectating: "You are watching.", waiting_opp: "Waiting for the opponent…",
      ai_thinking: "The AI is thinking…", move: "Move", attack: "Attack", regroup: "Regroup",
      rite: "Rite", pass_mode: "Pass (card only waits)", choose_card: "Click a card in your hand.",
      hero: "Hero", minion: "Minion", setup_phase: "Setup", result: "Result",
      stay: "Pass / stay", none: "none", connection: "Reconnecting…"},
    es: {new_game: "Nueva partida", rules: "Reglas", quick: "Partida rápida contra la IA",
      quick_note: "Un clic: preparación aleatoria legal, juegas con Llave.", mode: "Modo",
      ai: "Contra la IA", hotseat: "Misma pantalla", online: "En línea (invitación por enlace)",
      level: "Nivel de la IA", seat: "Tu bando", random: "Al azar", size: "Tamaño del tablero",
      los: "Línea de visión", geometric: "Geométrica (reglamento)", straight: "Líneas rectas (carta de referencia)",
      first_turn: "Primer turno", no_damage: "Sin daño (reglamento)", no_attack: "Sin ataque (carta de referencia)",
      setup: "Preparación", quick_setup: "Rápida (al azar)", full_setup: "Jugar la preparación completa",
      faction: "Tu facción", start: "Empezar", load: "Reproducir un registro",
      load_note: "Carga un registro (.json) descargado de una partida.",
      turn: "decide", you: "tú", vigil: "Vigilia", rites: "Rito", pools: "Esbirros abatidos",
      waiting: "Carta en espera", hand: "mano", played: "jugado", undo: "Deshacer el último turno",
      pass: "Pasar", last_roll: "Última tirada", log: "Registro", invite: "Enlace de invitación para tu rival",
      watch: "Enlace para espectadores", replay: "Repetición", download: "Descargar registro",
      first: "Inicio", prev: "Atrás", next: "Adelante", last: "Final", step: "Decisión",
      spectating: "Estás mirando.", waiting_opp: "Esperando al rival…",
      ai_thinking: "La IA está pensando…", move: "Mover", attack: "Atacar", regroup: "Reagrupar",
      rite: "Rito", pass_mode: "Pasar (la carta solo espera)", choose_card: "Pulsa una carta de tu mano.",
      hero: "Héroe", minion: "Esbirro", setup_phase: "Preparación", result: "Resultado",
      stay: "Pasar / quedarse", none: "ninguno", connection: "Reconectando…"},
  };
  const SIDE_NAME = {en: {key: "Key", skull: "Skull"}, es: {key: "Llave", skull: "Calavera"}};
  const t = key => (T[lang] && T[lang][key]) || T.en[key] || key;
  const esc = Cards.esc;

  // ---------------------------------------------------------------- helpers
  async function api(method, url, body) {
    const res = await fetch(url, {method, headers: {"Content-Type": "application/json"},
      body: body === undefined ? undefined : JSON.stringify(body)});
    const data = await res.json().catch(() => ({error: res.statusText}));
    if (!res.ok) throw new Error(data.error || res.statusText);
    return data;
  }
  function flash(message) {
    let box = document.getElementById("flash");
    if (!box) {
      box = document.createElement("div");
      box.id = "flash";
      document.body.appendChild(box);
    }
    box.textContent = message;
    box.className = "show";
    setTimeout(() => { box.className = ""; }, 4000);
  }
  function setBusy(value) {
    busy = value;
    document.body.classList.toggle("busy", value);
  }
  function applyI18n() {
    document.documentElement.lang = lang;
    document.querySelectorAll("[data-i18n]").forEach(el => { el.textContent = t(el.dataset.i18n); });
    document.querySelectorAll("[data-lang]").forEach(el =>
      el.classList.toggle("active", el.dataset.lang === lang));
  }
  document.querySelectorAll("[data-lang]").forEach(el => el.addEventListener("click", () => {
    lang = el.dataset.lang;
    localStorage.setItem("lang", lang);
    applyI18n();
    route();
  }));
  const cardById = id => meta.cards.find(c => c.id === id);
  const factionName = id => (meta.factions.find(f => f.id === id) || {name: id}).name;

  // ---------------------------------------------------------------- home
  function renderHome() {
    const levels = meta.levels.map(l => `<option value="${l}">${l}</option>`).join("");
    const sizes = meta.sizes.map(s => `<option value="${s}">${s}×${s}</option>`).join("");
    const factions = meta.factions.map(f => `<option value="${f.id}">${esc(f.name)}</option>`).join("");
    app.innerHTML = `
      <section class="home">
        <div class="quick">
          <button id="quick-ai" class="big">${t("quick")}</button>
          <p>${t("quick_note")}</p>
        </div>
        <form id="new-game" class="panel">
          <h2>${t("new_game")}</h2>
          <label>${t("mode")} <select name="mode" id="mode">
            <option value="ai">${t("ai")}</option><option value="hotseat">${t("hotseat")}</option>
            <option value="online">${t("online")}</option></select></label>
          <label class="for-ai">${t("level")} <select name="level">${levels}</select></label>
          <label>${t("seat")} <select name="seat"><option value="key">${SIDE_NAME[lang].key}</option>
            <option value="skull">${SIDE_NAME[lang].skull}</option><option value="random">${t("random")}</option></select></label>
          <label>${t("size")} <select name="size">${sizes}</select></label>
          <label>${t("los")} <select name="los"><option value="geometric">${t("geometric")}</option>
            <option value="straight">${t("straight")}</option></select></label>
          <label>${t("first_turn")} <select name="first_turn"><option value="no_damage">${t("no_damage")}</option>
            <option value="no_attack">${t("no_attack")}</option></select></label>
          <label>${t("setup")} <select name="quick"><option value="1">${t("quick_setup")}</option>
            <option value="0">${t("full_setup")}</option></select></label>
          <label>${t("faction")} <select name="faction"><option value="">${t("random")}</option>${factions}</select></label>
          <button type="submit" id="start" class="big">${t("start")}</button>
        </form>
        <div class="panel">
          <h2>${t("load")}</h2><p>${t("load_note")}</p>
          <input type="file" id="record-file" accept=".json,application/json">
        </div>
      </section>`;
    document.getElementById("quick-ai").addEventListener("click", () =>
      startGame({mode: "ai", level: meta.levels[0], seat: "key", quick: true}));
    document.getElementById("new-game").addEventListener("submit", ev => {
      ev.preventDefault();
      const f = new FormData(ev.target);
      startGame({mode: f.get("mode"), level: f.get("level"), seat: f.get("seat"),
        size: Number(f.get("size")), los: f.get("los"), first_turn: f.get("first_turn"),
        quick: f.get("quick") === "1", faction: f.get("faction") || null});
    });
    document.getElementById("record-file").addEventListener("change", async ev => {
      const file = ev.target.files[0];
      if (!file) return;
      try {
        const record = JSON.parse(await file.text());
        const out = await api("POST", "/api/records", record);
        location.href = out.links.replay;
      } catch (err) { flash(err.message); }
    });
  }
  async function startGame(body) {
    try {
      const out = await api("POST", "/api/games", body);
      location.href = out.links.play;
    } catch (err) { flash(err.message); }
  }

  // ---------------------------------------------------------------- board geometry
  const CELL = 60;
  function sqXY(name, n, flipped) {
    const file = name.charCodeAt(0) - 97, rank = Number(name.slice(1)) - 1;
    return flipped ? [n - 1 - file, rank] : [file, n - 1 - rank];
  }
  function sqName(file, rank) { return String.fromCharCode(97 + file) + (rank + 1); }
  function viewerSide(v) {
    if (v.seats.length === 1) return v.seats[0];
    return "key";
  }

  function boardSVG(v, options) {
    const pos = v.position;
    const n = pos.settings.size;
    const flipped = viewerSide(v) === "skull";
    const rows = v.deploy_rows;
    const parts = [];
    const last = new Set(v.last_turn || []);
    const optSquares = options.squares || new Set();
    for (let rank = 0; rank < n; rank++) for (let file = 0; file < n; file++) {
      const name = sqName(file, rank);
      const [x, y] = sqXY(name, n, flipped);
      const cls = ["sq", (file + rank) % 2 ? "light" : "dark"];
      const halfKey = rank < Math.floor(n / 2), halfSkull = rank >= Math.ceil(n / 2);
      if (halfKey) cls.push("half-key");
      if (halfSkull) cls.push("half-skull");
      if (rank === 0) cls.push("back-key");
      if (rank === n - 1) cls.push("back-skull");
      if (v.phase === "setup" && (rank < rows || rank >= n - rows)) cls.push("deploy");
      if (last.has(name)) cls.push("last");
      parts.push(`<rect class="${cls.join(" ")}" x="${x * CELL}" y="${y * CELL}" width="${CELL}" height="${CELL}"/>`);
    }
    // the centre: halves meet here (on an odd board the central row belongs to nobody)
    for (const r of n % 2 ? [Math.floor(n / 2), Math.ceil(n / 2)] : [n / 2]) {
      parts.push(`<line class="half-line" x1="0" x2="${n * CELL}" y1="${r * CELL}" y2="${r * CELL}"/>`);
    }
    for (const ruin of pos.ruins) {
      const [x, y] = sqXY(ruin, n, flipped);
      parts.push(`<g class="ruin" data-sq="${ruin}"><rect x="${x * CELL + 4}" y="${y * CELL + 4}" width="${CELL - 8}" height="${CELL - 8}" rx="4"/>
        <path d="M${x * CELL + 14} ${y * CELL + 46} l8 -18 l6 10 l8 -20 l10 28 z" class="ruin-mark"/></g>`);
    }
    const byId = {};
    for (const p of pos.pieces) byId[p.id] = p;
    // relics on the ground
    for (const side of SIDES) {
      const relic = pos.relics[side];
      if (relic && relic.square) {
        const [x, y] = sqXY(relic.square, n, flipped);
        parts.push(relicShape(side, x * CELL + CELL / 2, y * CELL + CELL / 2, 14, relic.square));
      }
    }
    for (const p of pos.pieces) {
      const [x, y] = sqXY(p.square, n, flipped);
      const cx = x * CELL + CELL / 2, cy = y * CELL + CELL / 2;
      const r = p.kind === "hero" ? 24 : 17;
      const cls = `piece owner-${p.owner} ${p.kind}` + (v.decision && v.decision.piece === p.square ? " subject" : "");
      let g = `<g class="${cls}" data-sq="${p.square}" data-piece="${p.id}">`;
      if (p.aegis) g += `<circle class="aegis" cx="${cx}" cy="${cy}" r="${r + 4}"><title>Aegis</title></circle>`;
      g += `<circle cx="${cx}" cy="${cy}" r="${r}"/>`;
      if (p.kind === "hero") g += `<path class="crown" d="M${cx - 11} ${cy - 7} l5 6 l6 -9 l6 9 l5 -6 l-2 11 h-18 z"/>`;
      if (p.harrowed) g += `<text class="harrow" x="${cx - r + 2}" y="${cy - r + 10}">✠</text>`;
      g += `<text class="hp" x="${cx}" y="${cy + (p.kind === "hero" ? 16 : 5)}">${p.hp}</text>`;
      if (p.veiled) g += `<circle class="veil" cx="${cx}" cy="${cy}" r="${r + 2}"><title>Veil</title></circle>`;
      g += `<title>${SIDE_NAME[lang][p.owner]} ${t(p.kind)} ${p.square}: ${p.hp}/${p.max_hp} HP${p.veiled ? ", Veil" : ""}${p.aegis ? ", Aegis" : ""}</title></g>`;
      parts.push(g);
    }
    for (const side of SIDES) {
      const relic = pos.relics[side];
      if (relic && relic.carrier !== undefined && byId[relic.carrier]) {
        const [x, y] = sqXY(byId[relic.carrier].square, n, flipped);
        parts.push(relicShape(side, x * CELL + CELL - 12, y * CELL + 12, 9, byId[relic.carrier].square, true));
      }
    }
    // coordinates
    for (let i = 0; i < n; i++) {
      const [fx] = sqXY(sqName(i, 0), n, flipped);
      const [, ry] = sqXY(sqName(0, i), n, flipped);
      parts.push(`<text class="coord" x="${fx * CELL + CELL - 8}" y="${n * CELL - 4}">${String.fromCharCode(97 + i)}</text>`);
      parts.push(`<text class="coord" x="3" y="${ry * CELL + 12}">${i + 1}</text>`);
    }
    for (const name of optSquares) {
      const [x, y] = sqXY(name, n, flipped);
      parts.push(`<rect class="opt-sq opt" data-opt-sq="${name}" id="opt-${name}" x="${x * CELL + 2}" y="${y * CELL + 2}" width="${CELL - 4}" height="${CELL - 4}" rx="6"/>`);
    }
    return `<svg id="board" class="board${flipped ? " flipped" : ""}" viewBox="0 0 ${n * CELL} ${n * CELL}" role="img" aria-label="board">${parts.join("")}</svg>`;
  }
  function relicShape(side, cx, cy, s, square, carried) {
    return `<g class="relic relic-${side}${carried ? " carried" : ""}" data-relic="${side}"><path d="M${cx} ${cy - s} L${cx + s * 0.8} ${cy} L${cx} ${cy + s} L${cx - s * 0.8} ${cy} Z"/>
      <title>${SIDE_NAME[lang][side]} relic ${carried ? "(carried) " : ""}${square}</title></g>`;
  }

  // ---------------------------------------------------------------- game page
  function decisionOptions(v) {
    // What the current decision offers, sorted for drawing: squares, buttons, cards.
    const d = v.decision;
    const out = {squares: new Set(), buttons: [], plays: {}};
    if (!d || !d.mine) return out;
    for (const opt of d.options) {
      if (d.kind === "play") {
        const [card, mode] = opt.split(":");
        (out.plays[card] = out.plays[card] || []).push(mode);
      } else if (d.kind === "escort") {
        if (opt === "pass") out.buttons.push({opt, label: t("pass")});
        else {
          const [from, to] = opt.split("-");
          if (escortFrom === null) out.squares.add(from);
          else if (from === escortFrom) out.squares.add(to);
        }
      } else if (d.kind === "faction") {
        const f = meta.factions.find(x => x.id === opt);
        out.buttons.push({opt, label: f.name, note: f.text[lang]});
      } else if (d.kind === "rite") {
        const r = meta.rites.find(x => x.id === opt);
        out.buttons.push({opt, label: r.id, note: r.text[lang]});
      } else if (opt === "pass") {
        out.buttons.push({opt, label: d.kind === "lunge" ? t("stay") : t("pass")});
      } else if (/^[a-z]\d+$/.test(opt)) {
        out.squares.add(opt);
      } else {
        out.buttons.push({opt, label: opt});
      }
    }
    if (d.kind === "play") {
      const playable = Object.keys(out.plays);
      if (!selectedCard || !out.plays[selectedCard]) selectedCard = playable[0] || null;
      for (const mode of (out.plays[selectedCard] || [])) {
        out.buttons.push({opt: `${selectedCard}:${mode}`,
          label: `${selectedCard}: ${mode === "pass" ? t("pass_mode") : t(mode)}`});
      }
    }
    return out;
  }

  function statusLine(v) {
    if (v.result) return `<b>${t("result")}:</b> ${esc(v.result_text[lang])}`;
    const d = v.decision;
    const side = d.side;
    const who = side === "chance" ? "…" : SIDE_NAME[lang][side];
    const me = d.mine ? ` (${t("you")})` : "";
    let extra = "";
    if (!d.mine) {
      if (v.seats.length === 0) extra = ` — ${t("spectating")}`;
      else if (v.ai && v.ai.seat === side) extra = ` — ${t("ai_thinking")}`;
      else extra = ` — ${t("waiting_opp")}`;
    }
    const phase = v.phase === "setup" ? `${t("setup_phase")}: ` : "";
    return `${phase}<span class="turn-${side}">${esc(who)}</span>${me} ${t("turn")}${extra}`;
  }

  function vigilDie(value) {
    return `<svg class="vigil-die" viewBox="0 0 40 40" aria-label="Vigil ${value}"><rect x="2" y="2" width="36" height="36" rx="7"/>
      <text x="20" y="28">${value}</text></svg>`;
  }

  function sidePanel(v, side) {
    const pos = v.position;
    const faction = pos.factions[side];
    const rite = pos.rites[side];
    return `<div class="side side-${side}" data-side="${side}">
      <b class="turn-${side}">${SIDE_NAME[lang][side]}</b> ${faction ? "· " + esc(factionName(faction)) : ""}
      · ${t("rites")}: ${rite ? esc(rite) : `<i>${t("none")}</i>`}
      · ${t("pools")}: <span class="pool" data-pool="${side}">${pos.pools[side]}</span></div>`;
  }

  function renderGame(v) {
    view = v;
    document.body.dataset.seq = v.seq;
    document.body.dataset.over = v.result ? "1" : "0";
    document.body.dataset.turns = v.position.turns_taken.key + v.position.turns_taken.skull;
    document.body.dataset.side = v.decision ? v.decision.side : "";
    document.body.dataset.mine = v.decision && v.decision.mine ? "1" : "0";
    const opts = decisionOptions(v);
    const me = viewerSide(v);
    const other = me === "key" ? "skull" : "key";
    const pos = v.position;
    const d = v.decision;
    const prompt = d && d.mine ? esc(d.prompt[lang]) + (d.kind === "play" ? " " + t("choose_card") : "") : "";
    const buttons = opts.buttons.map((b, i) =>
      `<button class="opt opt-btn" data-opt="${esc(b.opt)}" id="opt-btn-${i}">${esc(b.label)}${b.note ? `<small>${esc(b.note)}</small>` : ""}</button>`).join("");
    const roll = v.last_roll ? `<div class="roll">${t("last_roll")}: <span class="die">${esc(v.last_roll.face)}</span> ${esc(v.last_roll.card || "")}</div>` : "";
    const invite = v.invite ? `<div class="links"><label>${t("invite")} <input id="invite-link" readonly value="${location.origin}${v.invite}"></label>
      <label>${t("watch")} <input id="watch-link" readonly value="${location.origin}/g/${v.id}"></label></div>` : "";
    const result = v.result ? `<div class="result" id="result"><h2>${esc(v.result_text[lang])}</h2>
      <a class="button" id="replay-link" href="/replay/${v.id}">${t("replay")}</a>
      <a class="button" id="download-link" href="/api/games/${v.id}/record" download>${t("download")}</a></div>` : "";
    app.innerHTML = `
      <section class="game">
        <div class="board-wrap">
          <div class="status" id="status">${statusLine(v)}</div>
          <div class="strip">${t("vigil")} ${vigilDie(pos.vigil)} ${roll}
            ${sidePanel(v, "key")}${sidePanel(v, "skull")}</div>
          <div class="hand hand-top" id="hand-${other}"></div>
          ${boardSVG(v, opts)}
          <div class="hand hand-bottom" id="hand-${me}"></div>
        </div>
        <aside class="panel-side">
          ${result}
          <div class="prompt" id="prompt">${prompt}</div>
          <div class="buttons" id="buttons">${buttons}</div>
          <div class="waiting-wrap"><span>${t("waiting")}</span><div id="waiting"></div></div>
          ${v.undo ? `<button id="undo">${t("undo")}</button>` : ""}
          ${invite}
          <h3>${t("log")}</h3>
          <ol class="log" id="log">${v.log.map(l => `<li>${esc(l[lang])}</li>`).join("")}</ol>
        </aside>
      </section>`;
    for (const side of SIDES) {
      const box = document.getElementById(`hand-${side}`);
      const rotated = side !== me;
      const label = document.createElement("div");
      label.className = "hand-label";
      label.textContent = `${SIDE_NAME[lang][side]} — ${t("hand")}`;
      box.appendChild(label);
      for (const id of pos.hands[side]) {
        const playable = d && d.mine && d.kind === "play" && opts.plays[id];
        const el = Cards.cardElement(cardById(id), rotated, lang,
          (playable ? "playable" : "") + (id === selectedCard && playable ? " selected" : ""));
        if (playable) el.addEventListener("click", () => { selectedCard = id; renderGame(view); });
        box.appendChild(el);
      }
    }
    if (pos.waiting) document.getElementById("waiting").appendChild(
      Cards.cardElement(cardById(pos.waiting), false, lang, "waiting"));
    document.querySelectorAll("[data-opt]").forEach(el =>
      el.addEventListener("click", () => submit(el.dataset.opt)));
    document.querySelectorAll("[data-opt-sq]").forEach(el => el.addEventListener("click", () => {
      const sq = el.dataset.optSq;
      if (d.kind === "escort") {
        if (escortFrom === null) { escortFrom = sq; renderGame(view); return; }
        const from = escortFrom;
        escortFrom = null;
        submit(`${from}-${sq}`);
        return;
      }
      submit(sq);
    }));
    const undo = document.getElementById("undo");
    if (undo) undo.addEventListener("click", async () => {
      try { renderGame(await api("POST", `/api/games/${gameId}/undo`, {token})); }
      catch (err) { flash(err.message); }
    });
    const log = document.getElementById("log");
    log.scrollTop = log.scrollHeight;
  }

  async function submit(option) {
    if (busy || !view) return;
    setBusy(true);
    try {
      const v = await api("POST", `/api/games/${gameId}/decide`, {token, seq: view.seq, option});
      escortFrom = null;
      renderGame(v);
    } catch (err) {
      flash(err.message);
      await refresh();
    } finally {
      setBusy(false);
      // The game moved on while we waited (the AI, the opponent): catch up.
      if (pendingRefresh || latestSeq > view.seq) { pendingRefresh = false; refresh(); }
    }
  }

  async function refresh() {
    try {
      const v = await api("GET", `/api/games/${gameId}` + (token ? `?t=${encodeURIComponent(token)}` : ""));
      if (!view || v.seq !== view.seq || v.seats.join() !== view.seats.join()) escortFrom = null;
      renderGame(v);
    } catch (err) { app.innerHTML = `<p class="error">${esc(err.message)}</p>`; }
  }

  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    let delay = 500;
    const open = () => {
      socket = new WebSocket(`${proto}://${location.host}/api/games/${gameId}/ws`);
      socket.onopen = () => { delay = 500; document.body.classList.remove("offline"); };
      socket.onmessage = ev => {
        const msg = JSON.parse(ev.data);
        if (msg.seq === undefined) return;
        latestSeq = msg.seq;
        if (!view || msg.seq !== view.seq) {
          if (busy) pendingRefresh = true;  // after the answer being awaited
          else refresh();
        }
      };
      socket.onclose = () => {
        document.body.classList.add("offline");
        setTimeout(() => { open(); refresh(); }, delay);  // reconnect, then catch up
        delay = Math.min(delay * 2, 5000);
      };
    };
    open();
  }

  // ---------------------------------------------------------------- replay
  async function showReplay(at) {
    try {
      const v = await api("GET", `/api/games/${gameId}/replay` + (at === null ? "" : `?at=${at}`));
      replayAt = v.at;
      view = v;
      document.body.dataset.at = v.at;
      app.innerHTML = `
        <section class="game replay">
          <div class="board-wrap">
            <div class="status">${t("replay")} — ${t("step")} <span id="replay-at">${v.at}</span> / ${v.total}</div>
            <div class="strip">${t("vigil")} ${vigilDie(v.position.vigil)}
              ${sidePanel(v, "key")}${sidePanel(v, "skull")}</div>
            <div class="hand hand-top" id="hand-skull"></div>
            ${boardSVG(v, {squares: new Set()})}
            <div class="hand hand-bottom" id="hand-key"></div>
            <div class="replay-controls">
              <button id="rp-first">|◀ ${t("first")}</button><button id="rp-prev">◀ ${t("prev")}</button>
              <button id="rp-next">${t("next")} ▶</button><button id="rp-last">${t("last")} ▶|</button>
            </div>
          </div>
          <aside class="panel-side">
            <div class="result"><h2 id="final-result">${esc((v.final_result_text || {})[lang] || "")}</h2>
              <a class="button" href="/api/games/${gameId}/record" download>${t("download")}</a></div>
            <h3>${t("log")}</h3>
            <ol class="log" id="log">${v.log.map(l => `<li>${esc(l[lang])}</li>`).join("")}</ol>
          </aside>
        </section>`;
      for (const side of SIDES) {
        const box = document.getElementById(`hand-${side}`);
        for (const id of v.position.hands[side]) box.appendChild(Cards.cardElement(cardById(id), side === "skull", lang));
      }
      const go = n => showReplay(Math.max(0, Math.min(v.total, n)));
      document.getElementById("rp-first").onclick = () => go(0);
      document.getElementById("rp-prev").onclick = () => go(replayAt - 1);
      document.getElementById("rp-next").onclick = () => go(replayAt + 1);
      document.getElementById("rp-last").onclick = () => go(v.total);
      const log = document.getElementById("log");
      log.scrollTop = log.scrollHeight;
    } catch (err) { app.innerHTML = `<p class="error">${esc(err.message)}</p>`; }
  }
  document.addEventListener("keydown", ev => {
    if (!location.pathname.startsWith("/replay/") || !view) return;
    if (ev.key === "ArrowLeft" && replayAt > 0) showReplay(replayAt - 1);
    if (ev.key === "ArrowRight" && replayAt < view.total) showReplay(replayAt + 1);
  });

  // ---------------------------------------------------------------- routing
  function route() {
    const path = location.pathname;
    let m;
    if ((m = path.match(/^\/g\/([0-9a-f]+)$/))) {
      gameId = m[1];
      token = new URLSearchParams(location.search).get("t");
      if (view && view.id === gameId && !path.startsWith("/replay")) renderGame(view);
      else { refresh(); connect(); }
    } else if ((m = path.match(/^\/replay\/([0-9a-f]+)$/))) {
      gameId = m[1];
      showReplay(view && view.at !== undefined ? replayAt : 0);
    } else {
      renderHome();
    }
  }

  // For tests and the curious: drop the live connection to watch it come back.
  window.Reliquary = {dropSocket: () => socket && socket.close()};

  (async () => {
    applyI18n();
    meta = await api("GET", "/api/meta");
    route();
  })();
})();
