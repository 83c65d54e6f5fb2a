// Words on the page in English and Spanish; the server's own texts come with both.
const STRINGS = {
  en: {
    new_game: "New game", rules: "How to play", spec: "Rules specification", quick: "Quick game against the AI",
    quick_note: "One click: random legal setup, you play Key against the easy AI.", mode: "Mode",
    ai: "Against the AI", hotseat: "Hot-seat (one screen)", online: "Online (invite by link)",
    level: "AI level", seat: "Your side", random: "Random", size: "Board size",
    los: "Line of sight", geometric: "Geometric (rulebook)", straight: "Straight lines (reference card)",
    ruleset: "Ruleset", ruleset_note: "Its rules are the defaults of the variants below; what you set there still counts.",
    variants: "Variants and modules", regroup_limit: "Regroups per player (VAR1)", no_limit: "no limit",
    vigil_reset: "Vigil reset by (VAR2)", reset_any: "any HP lost", reset_hero: "a Hero's HP lost",
    vigil_start: "Vigil starts at (VAR3)", killed_minions: "Killed Minions (VAR4)",
    killed_pool: "wait to regroup", killed_removed: "leave the game", modules: "Rule modules",
    first_turn: "First turn", no_damage: "No damage (rulebook)", no_attack: "No attack (reference card)",
    setup: "Setup", quick_setup: "Quick (random setup)", full_setup: "Play the setup in full",
    faction: "Your faction", start: "Start game", load: "Replay a game record",
    load_note: "Load a record (.json) downloaded from a game.", public: "List it in the lobby (anyone may join)",
    clock: "Clock", no_clock: "No clock", tutorial: "First game? Learn the turn",
    tutorial_note: "A guided game against the easy AI, with hints.",
    turn: "to decide", you: "you", vigil: "Vigil", rite: "Rite", pools: "Killed Minions",
    waiting: "Waiting card", hand: "hand", your_hand: "Your hand", opp_hand: "Opponent's hand",
    undo: "Take back", undo_title: "Take back your last turn (and the AI's reply)",
    pass: "Pass", last_roll: "Last roll", log: "Log", help: "Help", info: "Game",
    invite: "Invite link for your opponent", watch: "Link for spectators", replay: "Replay",
    download: "Download record", rematch: "Rematch", first: "Start", prev: "Back", next: "Forward",
    last: "End", prev_turn: "Turn back", next_turn: "Turn forward", step: "Decision",
    spectating: "You are watching.", waiting_opp: "Waiting for the opponent…",
    ai_thinking: "The AI is thinking…", ai_queued: "The AI is waiting for its turn to think…",
    seconds_left: "s left", move: "Move", attack: "Attack", regroup: "Regroup",
    pass_mode: "Pass (the card only waits)", choose_card: "Choose a card in your hand.",
    hero: "Hero", minion: "Minion", setup_phase: "Setup", result: "Result", stay: "Pass / stay",
    none: "none", connection: "Reconnecting…", hint: "Hint", evaluation: "Evaluation",
    flip: "Turn the board", my_games: "My games", lobby: "Open games", join: "Join",
    no_open: "No open game is waiting right now.", no_mine: "No games yet on this browser.",
    resume: "Resume", forget: "Forget", created: "created", host_plays: "host plays",
    not_found_title: "No such game", not_found: "This link points to no game on this server. It may have been mistyped, or the game was removed.",
    back_home: "Back to the start page", your_turn: "Your turn", moved: "Opponent moved",
    sound: "Sound on opponent's move", skip: "Skip", close: "Close", next_tip: "Next", done: "Done",
    card_preview: "Where your pieces could go with", can_move: "may move here",
    can_attack: "may attack here", can_step: "may step here", escort_change: "Choose another piece",
    escort_piece: "Escort: moving the piece on", timeout: "Time", turn_n: "Turn",
    live_idle: "Live updates paused: this page was idle for a long time.", reconnect: "Reconnect",
    live_limited: "Live updates are refused for now: too many connections from here.",
    resign: "Resign", resign_title: "Give up this game (it counts as a loss)",
    resign_ask: "Resign this game? It counts as a loss.", resign_yes: "Yes, resign", resign_no: "No, play on",
    modes_title: "The four modes of a card", factions_title: "Factions in this game",
    rites_title: "Rites", your_faction: "Your faction", opp_faction: "Opponent's faction",
    passive: "Passive", no_passive: "no passive", hidden: "chosen in secret",
    help_move: "MOVE: move one of your pieces as the card's diagram shows (it jumps; it never ends on a blocked square). With the Escort mark, another of your pieces may then take 1 step.",
    help_attack: "ATTACK: one of your pieces does what the card's attack says (the Hero line for your Hero, the Minion line for a Minion). A generic card's attack is your faction's attack. Before an adjacent attack the attacker may take 1 step (lunge).",
    help_regroup: "REGROUP: return one of your killed Minions to an empty square of your back row. It never resets the Vigil.",
    help_rite: "RITE: once per game, with any card, do what your rite says instead; the Vigil goes back to 6.",
    help_pass: "PASS: only when no card offers anything legal: the card just becomes the waiting card.",
    help_goal: "Win by killing the enemy Hero, by ending a turn with the enemy relic on your back row, or on points when the Vigil reaches 0.",
    faction_attack: "Faction attack", escort: "Escort", seal: "seal",
    key_seal: "Key seal", skull_seal: "Skull seal", reduced: "Animations", hotseat_turn: "Turn the board for the player to move",
    record_bad: "This file is not a game record", copied: "Copied", copy: "Copy",
    invite_banner: "Send this link to your opponent:", hp: "HP", relic: "Relic", carried: "carried", game_over: "Game over", level_easy: "easy", tiebreak: "Decided by", choose_piece: "Several pieces can go there: click the piece first.",
    under_piece: "under a piece", bad_link_title: "This link does not open this game",
    bad_link: "The key in this link is not one of this game's: it may be cut short or mistyped. You can still watch the game, or start a new one.",
    watch_instead: "Watch this game", eval_title: "The AI's estimate of the game for you: from −1 (lost) to +1 (won)",
    lines: "lines", round: "Round", hint_line: "Line", hint_rite: "This spends your once-per-game rite: the search finds it the best play now",
    hint_rite_vs: "; the best without it:", record_not_json: "it is not a JSON file (a record is the .json downloaded from a game)",
    pace: "Opponent's turn, step by step", pace_fast: "fast", pace_normal: "normal", pace_slow: "slow",
    zoom_help: "Hover a card, press Z, or long-press it to read it in full.",
    deploy_count: "Piece {n} (Minions first, Hero last)",
    pitch: "A duel of movement cards on a small board: steal the enemy relic and bring it home, or kill the enemy Hero.",
    pitch_more: "Each card you play passes to your opponent. Play the AI, a friend on one screen, or online by link.",
    won: "Won", lost: "Lost", draw: "Draw", side_won: "{w} won", in_progress: "in progress",
  },
  es: {
    new_game: "Nueva partida", rules: "Cómo se juega", spec: "Especificación de reglas", quick: "Partida rápida contra la IA",
    quick_note: "Un clic: preparación aleatoria legal, juegas con Llave contra la IA fácil.", mode: "Modo",
    ai: "Contra la IA", hotseat: "Misma pantalla", online: "En línea (invitación por enlace)",
    level: "Nivel de la IA", seat: "Tu bando", random: "Al azar", size: "Tamaño del tablero",
    los: "Línea de visión", geometric: "Geométrica (reglamento)", straight: "Líneas rectas (carta de referencia)",
    ruleset: "Reglamento", ruleset_note: "Sus reglas son los valores por defecto de las variantes de abajo; lo que elijas ahí también cuenta.",
    variants: "Variantes y módulos", regroup_limit: "Reagrupar por jugador (VAR1)", no_limit: "sin límite",
    vigil_reset: "La Vigilia se reinicia con (VAR2)", reset_any: "cualquier PV perdido", reset_hero: "PV perdidos de un Héroe",
    vigil_start: "La Vigilia empieza en (VAR3)", killed_minions: "Esbirros muertos (VAR4)",
    killed_pool: "esperan para reagrupar", killed_removed: "salen del juego", modules: "Módulos de reglas",
    first_turn: "Primer turno", no_damage: "Sin daño (reglamento)", no_attack: "Sin ataque (carta de referencia)",
    setup: "Preparación", quick_setup: "Rápida (al azar)", full_setup: "Jugar la preparación completa",
    faction: "Tu facción", start: "Empezar", load: "Reproducir un registro",
    load_note: "Carga un registro (.json) descargado de una partida.", public: "Anunciarla en la sala (cualquiera puede unirse)",
    clock: "Reloj", no_clock: "Sin reloj", tutorial: "¿Primera partida? Aprende el turno",
    tutorial_note: "Una partida guiada contra la IA fácil, con pistas.",
    turn: "decide", you: "tú", vigil: "Vigilia", rite: "Rito", pools: "Esbirros abatidos",
    waiting: "Carta en espera", hand: "mano", your_hand: "Tu mano", opp_hand: "Mano del rival",
    undo: "Deshacer", undo_title: "Deshaz tu último turno (y la respuesta de la IA)",
    pass: "Pasar", last_roll: "Última tirada", log: "Registro", help: "Ayuda", info: "Partida",
    invite: "Enlace de invitación para tu rival", watch: "Enlace para espectadores", replay: "Repetición",
    download: "Descargar registro", rematch: "Revancha", first: "Inicio", prev: "Atrás", next: "Adelante",
    last: "Final", prev_turn: "Turno atrás", next_turn: "Turno adelante", step: "Decisión",
    spectating: "Estás mirando.", waiting_opp: "Esperando al rival…",
    ai_thinking: "La IA está pensando…", ai_queued: "La IA espera su turno para pensar…",
    seconds_left: "s restantes", move: "Mover", attack: "Atacar", regroup: "Reagrupar",
    pass_mode: "Pasar (la carta solo queda en espera)", choose_card: "Elige una carta de tu mano.",
    hero: "Héroe", minion: "Esbirro", setup_phase: "Preparación", result: "Resultado", stay: "Pasar / quedarse",
    none: "ninguno", connection: "Reconectando…", hint: "Pista", evaluation: "Evaluación",
    flip: "Girar el tablero", my_games: "Mis partidas", lobby: "Partidas abiertas", join: "Unirse",
    no_open: "Ahora mismo no hay partidas abiertas esperando.", no_mine: "Aún no hay partidas en este navegador.",
    resume: "Continuar", forget: "Olvidar", created: "creada", host_plays: "el anfitrión juega",
    not_found_title: "No existe esa partida", not_found: "Este enlace no lleva a ninguna partida de este servidor. Puede estar mal escrito, o la partida se borró.",
    back_home: "Volver a la portada", your_turn: "Tu turno", moved: "El rival ha movido",
    sound: "Sonido cuando mueve el rival", skip: "Saltar", close: "Cerrar", next_tip: "Siguiente", done: "Hecho",
    card_preview: "Adónde podrían ir tus piezas con", can_move: "puede mover aquí",
    can_attack: "puede atacar aquí", can_step: "puede dar un paso aquí", escort_change: "Elegir otra pieza",
    escort_piece: "Escolta: mueve la pieza de", timeout: "Tiempo", turn_n: "Turno",
    live_idle: "Actualizaciones en directo en pausa: la página estuvo inactiva mucho tiempo.", reconnect: "Reconectar",
    live_limited: "Ahora no se admiten más actualizaciones en directo: demasiadas conexiones desde aquí.",
    resign: "Abandonar", resign_title: "Rendirse en esta partida (cuenta como derrota)",
    resign_ask: "¿Abandonar la partida? Cuenta como derrota.", resign_yes: "Sí, abandonar", resign_no: "No, seguir",
    modes_title: "Los cuatro modos de una carta", factions_title: "Facciones de esta partida",
    rites_title: "Ritos", your_faction: "Tu facción", opp_faction: "Facción rival",
    passive: "Pasiva", no_passive: "sin pasiva", hidden: "elegida en secreto",
    help_move: "MOVER: mueve una de tus piezas como indica el diagrama de la carta (salta; nunca acaba en una casilla bloqueada). Con la marca de Escolta, otra pieza tuya puede dar luego 1 paso.",
    help_attack: "ATACAR: una de tus piezas hace lo que dice el ataque de la carta (la línea de Héroe para tu Héroe, la de Esbirro para un Esbirro). El ataque de una carta genérica es el de tu facción. Antes de un ataque adyacente el atacante puede dar 1 paso (acometida).",
    help_regroup: "REAGRUPAR: devuelve un Esbirro tuyo abatido a una casilla vacía de tu fila trasera. Nunca reinicia la Vigilia.",
    help_rite: "RITO: una vez por partida, con cualquier carta, haz lo que dice tu rito; la Vigilia vuelve a 6.",
    help_pass: "PASAR: solo si ninguna carta ofrece nada legal: la carta queda en espera sin más.",
    help_goal: "Gana abatiendo al Héroe enemigo, terminando un turno con la Reliquia enemiga en tu fila trasera, o a puntos cuando la Vigilia llega a 0.",
    faction_attack: "Ataque de facción", escort: "Escolta", seal: "sello",
    key_seal: "Sello de Llave", skull_seal: "Sello de Calavera", reduced: "Animaciones", hotseat_turn: "Girar el tablero hacia quien juega",
    record_bad: "Este archivo no es un registro de partida", copied: "Copiado", copy: "Copiar",
    invite_banner: "Envía este enlace a tu rival:", hp: "PV", relic: "Reliquia", carried: "portada", game_over: "Partida terminada", level_easy: "fácil", tiebreak: "Decidido por", choose_piece: "Varias piezas pueden ir ahí: pulsa primero la pieza.",
    under_piece: "bajo una pieza", bad_link_title: "Este enlace no abre esta partida",
    bad_link: "La clave de este enlace no es de esta partida: puede estar cortada o mal escrita. Aún puedes mirar la partida, o empezar otra.",
    watch_instead: "Mirar esta partida", eval_title: "La estimación de la IA de la partida para ti: de −1 (perdida) a +1 (ganada)",
    lines: "líneas", round: "Ronda", hint_line: "Línea", hint_rite: "Esto gasta tu rito de una vez por partida: la búsqueda lo ve como la mejor jugada ahora",
    hint_rite_vs: "; la mejor sin él:", record_not_json: "no es un archivo JSON (un registro es el .json descargado de una partida)",
    pace: "Turno del rival, paso a paso", pace_fast: "rápido", pace_normal: "normal", pace_slow: "lento",
    zoom_help: "Pasa el ratón sobre una carta, pulsa Z o mantenla pulsada para leerla entera.",
    deploy_count: "Pieza {n} (primero los Esbirros, el Héroe al final)",
    pitch: "Un duelo de cartas de movimiento en un tablero pequeño: roba la Reliquia enemiga y llévala a casa, o abate al Héroe enemigo.",
    pitch_more: "Cada carta que juegas pasa a tu rival. Juega contra la IA, con un amigo en una pantalla, o en línea con un enlace.",
    won: "Ganada", lost: "Perdida", draw: "Tablas", side_won: "Ganó {w}", in_progress: "en curso",
  },
};

const SIDE = {en: {key: "Key", skull: "Skull"}, es: {key: "Llave", skull: "Calavera"}};
const LEVEL_ES = {easy: "fácil", medium: "media", hard: "difícil", random: "azar", greedy: "voraz"};

// Server refusals by their stable code (contract §2); the English message is the fallback.
const ERRORS = {
  en: {bad_request: "The request was not understood.", forbidden: "This link cannot do that.",
    not_found: "No such game.", stale: "The game moved on meanwhile: the page caught up, choose again.",
    not_your_turn: "It is not your turn.", game_over: "The game is over.",
    illegal_option: "That choice is not legal now.", invite_used: "This invitation has already been used.",
    rate_limited: "Too many requests: wait a moment.", too_large: "That is too large.",
    unsupported_media_type: "The request had the wrong content type.",
    undo_refused: "Nothing to take back now (a die was rolled, or nothing was played yet).",
    busy: "The server is busy: try again in a moment.", gone: "This game has expired: nobody played it for a long time.", network: "The server cannot be reached.",
    waiting_for_guest: "Your opponent has not joined yet: the game starts when they open the invite link.",
    offer_pending: "An offer is already waiting for an answer.", offer_refused: "That offer cannot be made now.",
    no_offer: "That offer is no longer open.", not_online: "Offers and messages are for online games."},
  es: {bad_request: "No se entendió la petición.", forbidden: "Este enlace no puede hacer eso.",
    not_found: "No existe esa partida.", stale: "La partida avanzó mientras tanto: la página se ha puesto al día, elige de nuevo.",
    not_your_turn: "No es tu turno.", game_over: "La partida ha terminado.",
    illegal_option: "Esa elección no es legal ahora.", invite_used: "Esta invitación ya se usó.",
    rate_limited: "Demasiadas peticiones: espera un momento.", too_large: "Es demasiado grande.",
    unsupported_media_type: "La petición tenía un tipo de contenido incorrecto.",
    undo_refused: "Ahora no hay nada que deshacer (se tiró un dado, o aún no se jugó nada).",
    busy: "El servidor está ocupado: inténtalo en un momento.", gone: "Esta partida ha caducado: nadie la jugó en mucho tiempo.", network: "No se puede contactar con el servidor.",
    waiting_for_guest: "Tu rival aún no ha llegado: la partida empieza cuando abra el enlace de invitación.",
    offer_pending: "Ya hay una oferta esperando respuesta.", offer_refused: "Ahora no se puede hacer esa oferta.",
    no_offer: "Esa oferta ya no está abierta.", not_online: "Las ofertas y los mensajes son para partidas en línea."},
};

// A refused record's details in the page's language: the server's English phrases
// (its validation and record messages) by pattern; what no pattern knows is shown as
// the server said it, marked as such.
const RECORD_PHRASES = [
  [/^missing field '([^']*)'$/, "falta el campo «$1»"],
  [/^unknown field '([^']*)'$/, "campo desconocido «$1»"],
  [/^missing request body$/, "falta el contenido"],
  [/^the request body must be a JSON object$/, "el contenido debe ser un objeto JSON"],
  [/^malformed JSON in the request body$/, "JSON mal formado"],
  [/^field '([^']*)': (.*)$/, "campo «$1»: $2"],
  [/^this record cannot be loaded: it stops after (\d+) decisions, before the game is over \(only finished games can be replayed\)$/,
    "este registro no se puede cargar: se detiene tras $1 decisiones, antes del final (solo se reproducen partidas terminadas)"],
  [/^this record cannot be loaded: (.*)$/, "este registro no se puede cargar: $1"],
];
export function recordDetail(message) {
  if (lang === "en" || !message) return message || "";
  let more = "";
  const tail = message.match(/ \(and (\d+) more\)$/);
  if (tail) { message = message.slice(0, tail.index); more = ` (y ${tail[1]} más)`; }
  const parts = message.split("; ").map(part => {
    for (const [pattern, words] of RECORD_PHRASES) if (pattern.test(part)) return part.replace(pattern, words);
    return null;
  });
  if (parts.every(p => p !== null)) return parts.join("; ") + more;
  return `detalle del servidor (en inglés): ${message}${more}`;
}

// How a game was decided (contract §9): reason and, for the Vigil, the tie-break.
const REASONS = {
  en: {hero_killed: "{l}'s Hero was killed", relic_home: "{w} brought the enemy relic home",
    vigil: "the Vigil reached 0", round_cap: "the round limit was reached",
    timeout: "{l} ran out of time", resign: "{l} resigned", agreed: "both players agreed to a draw"},
  es: {hero_killed: "el Héroe de {l} fue abatido", relic_home: "{w} llevó la Reliquia enemiga a casa",
    vigil: "la Vigilia llegó a 0", round_cap: "se alcanzó el límite de rondas",
    timeout: "{l} se quedó sin tiempo", resign: "{l} abandonó", agreed: "ambos jugadores acordaron tablas"},
};
const HEADS = {
  en: {you_win: "You win!", you_lose: "You lose.", wins: "{w} wins.", draw: "Draw."},
  es: {you_win: "¡Has ganado!", you_lose: "Has perdido.", wins: "Gana {w}.", draw: "Tablas."},
};
const TIEBREAKS = {
  en: {"higher Vigil score": "the higher Vigil score (carriers of the enemy relic)",
    "less damage to the Hero": "equal scores: the Hero that had taken less damage",
    "more Minions": "equal scores and Hero damage: more Minions on the board",
    "tied on every count": "tied on score, Hero damage and Minions"},
  es: {"higher Vigil score": "la mayor puntuación de Vigilia (portadores de la Reliquia enemiga)",
    "less damage to the Hero": "puntuación igual: el Héroe con menos daño",
    "more Minions": "puntuación y daño iguales: más Esbirros en el tablero",
    "tied on every count": "empate en puntuación, daño al Héroe y Esbirros"},
};

export let lang = localStorage.getItem("lang") ||
  ((navigator.language || "en").slice(0, 2) === "es" ? "es" : "en");
const listeners = [];

export function t(key) {
  return (STRINGS[lang] && STRINGS[lang][key]) || STRINGS.en[key] || key;
}
export function setLang(value) {
  lang = value === "es" ? "es" : "en";
  localStorage.setItem("lang", lang);
  applyStatic();
  listeners.forEach(fn => fn(lang));
}
export function onLangChange(fn) { listeners.push(fn); }
// A part of the page brings its own words ({en: {...}, es: {...}}), kept beside its code.
export function addStrings(table) {
  for (const [code, words] of Object.entries(table)) STRINGS[code] = {...(STRINGS[code] || {}), ...words};
}
export function sideName(side) { return (SIDE[lang] || SIDE.en)[side] || side; }
export function factionName(meta, id) {
  if (!id) return "";
  if (id === "hidden") return t("hidden");
  const f = meta && meta.factions.find(x => x.id === id);
  if (f && f.names && f.names[lang]) return f.names[lang];  // game text: /api/meta
  return f ? f.name : id;
}
export function riteName(meta, id) {
  const r = meta && meta.rites.find(x => x.id === id);
  return (r && r.names && r.names[lang]) || id;
}
export function levelName(level) { return lang === "es" && LEVEL_ES[level] ? LEVEL_ES[level] : level; }
export function text(pair) {
  // A server text given as {en, es}.
  if (!pair) return "";
  if (typeof pair === "string") return pair;
  return pair[lang] || pair.en || "";
}
export function errorText(err) {
  const table = ERRORS[lang] || ERRORS.en;
  if (err && err.code && table[err.code]) return table[err.code];
  return (err && err.message) || String(err);
}
// How the game ended, in a sentence: "Skull's Hero was killed".
export function reasonText(reason, winner) {
  const loser = winner === "key" ? "skull" : winner === "skull" ? "key" : null;
  const template = (REASONS[lang] || REASONS.en)[reason] || reason;
  const sentence = template.replace("{w}", winner ? sideName(winner) : "").replace("{l}", loser ? sideName(loser) : "");
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}
// The result's headline for a viewer: "You win!", "Skull wins.", "Draw."
export function resultHead(winner, viewer) {
  const heads = HEADS[lang] || HEADS.en;
  if (!winner) return heads.draw;
  if (viewer) return viewer === winner ? heads.you_win : heads.you_lose;
  return heads.wins.replace("{w}", sideName(winner));
}
export function tiebreakText(detail) {
  if (!detail) return "";
  return (TIEBREAKS[lang] || TIEBREAKS.en)[detail] || detail;
}
export function applyStatic(root = document) {
  document.documentElement.lang = lang;
  root.querySelectorAll("[data-i18n]").forEach(el => { el.textContent = t(el.dataset.i18n); });
  root.querySelectorAll("[data-lang]").forEach(el =>
    el.classList.toggle("active", el.dataset.lang === lang));
}
export function bindLangButtons() {
  document.querySelectorAll("[data-lang]").forEach(el =>
    el.addEventListener("click", () => setLang(el.dataset.lang)));
}
export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;",
    '"': "&quot;", "'": "&#39;"}[c]));
}
