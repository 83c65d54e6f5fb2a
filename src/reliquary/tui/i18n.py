"""Words of the terminal app in English and Spanish.

The game's own words come from the web's tables, so both faces say the same thing:
the log and result lines (:mod:`reliquary.web.text`), the decision prompts
(``PROMPTS`` of :mod:`reliquary.web.games`) and the page's vocabulary (``STRINGS`` of
``web/static/js/i18n.js``, read as data). Only what the terminal alone needs (keys,
dialogs) is written here.
"""

from __future__ import annotations

import json
import locale
import os
import re
from functools import cache
from importlib import resources

from ..engine import DECISION_KINDS
from ..engine.modules import registered
from ..web.games import PROMPTS
from ..web.text import SIDE

LANGS = ("en", "es")

#: What only the terminal app says (the web's vocabulary covers the rest).
OWN: dict[str, dict[str, str]] = {
    "en": {
        "title": "Reliquary", "options": "Options", "board": "Board", "cards": "Cards",
        "no_decision": "Nothing to decide.", "thinking": "thinking", "your_move": "your move",
        "over": "Game over", "round": "Round", "preview": "Preview",
        "k_undo": "Undo", "k_hint": "Hint", "k_help": "Help", "k_quit": "Quit",
        "k_choose": "Choose", "k_next": "Next", "k_new": "New game",
        "k_save": "Save", "k_open": "Open", "k_rules": "Rules", "k_close": "Close",
        "k_step": "Step", "k_turn": "Turn", "k_end": "End", "k_start": "Start",
        "undo_refused": "Nothing to take back (never past a die roll or a deal).",
        "undone": "Taken back: {n} decisions.", "saved": "Written to {path}.",
        "loaded": "Loaded {path}.", "hint_for": "Hint", "hint_busy": "Looking for a hint…",
        "not_yours": "Not your decision: wait for the AI.",
        "new_title": "New game", "opponent": "Opponent", "human": "Human (hot-seat)",
        "settings": "Settings", "variants": "Variants", "seed": "Seed (empty: random)",
        "round_cap": "Round limit", "regroup_limit": "Regroup limit (empty: none)",
        "vigil_reset": "Vigil reset", "vigil_start": "Vigil starts at",
        "killed_minions": "Killed Minions", "any_hp": "Any HP lost (V1)",
        "hero_hp": "Only a Hero's HP (VAR2)", "pool": "Pool (rulebook)",
        "removed": "Removed from the game (VAR4)", "cancel": "Cancel", "language": "Language",
        "save_title": "Save", "save_record": "Game record", "save_position": "Position",
        "open_title": "Open a record or a position", "file": "File",
        "bad_number": "{field}: a whole number, please (got {value!r}).",
        "help_title": "Help", "help_keys": "Keys",
        "keys_text": "arrows or h j k l: move the cursor · Tab / Shift+Tab: next / previous "
                     "option · Enter or Space: choose · click a square twice or an option "
                     "once: choose · u: undo · i or H: hint (h moves left) · ?: help · "
                     "r: rules · d: the game's details (ruleset, modules) · n: new game · "
                     "w: save · o: open · q: quit",
        "replay_title": "Replay", "decision_n": "Decision {n} of {total}",
        "hidden_card": "?", "legend": "H/M Key Hero/Minion · h/m Skull · digit HP · "
                                     "+ carries a relic · K/S relic · ░ Ruin",
        "position_no_record": "A game loaded from a position has no record: save the "
                              "position instead.",
        "record_written": "Record written to {path}.",
        "the_card": "The card", "the_mode": "The mode", "the_rite": "The rite",
        "the_faction": "Faction", "rule": "Rule",
        "no_hint_secret": "No hint on a choice made in secret.",
        "modules": "Rule modules", "no_modules": "none in this version",
        "module_options": "Module options (m.option=value; …)",
        "conditions_title": "Conditions", "modules_title": "Rule modules",
        "next_set": "next set", "token_box": "In the box (unseen)",
        "ruleset": "Ruleset", "ruleset_as_written": "No changes: the rules as written.",
        "ruleset_given": "The ruleset given on the command line.",
        "details_title": "Game details", "k_details": "Details", "players": "Players",
        "no_modules_on": "None: the base game.", "fingerprint": "content",
        "legend_modules": "o objective marker (O the Shrine) · i2 relic token: its type's "
                          "initial and value (i? face down) · *i2 a carried token · W/w "
                          "Wayshrine (@ and its type) · ^ an upgrade · b2 a condition and "
                          "its value",
    },
    "es": {
        "title": "Reliquary", "options": "Opciones", "board": "Tablero", "cards": "Cartas",
        "no_decision": "Nada que decidir.", "thinking": "pensando", "your_move": "te toca",
        "over": "Fin de la partida", "round": "Ronda", "preview": "Vista previa",
        "k_undo": "Deshacer", "k_hint": "Pista", "k_help": "Ayuda", "k_quit": "Salir",
        "k_choose": "Elegir", "k_next": "Otra", "k_new": "Nueva partida",
        "k_save": "Guardar", "k_open": "Abrir", "k_rules": "Reglas", "k_close": "Cerrar",
        "k_step": "Paso", "k_turn": "Turno", "k_end": "Final", "k_start": "Inicio",
        "undo_refused": "Nada que deshacer (nunca antes de una tirada o un reparto).",
        "undone": "Deshecho: {n} decisiones.", "saved": "Guardado en {path}.",
        "loaded": "Cargado {path}.", "hint_for": "Pista", "hint_busy": "Buscando una pista…",
        "not_yours": "No es tu decisión: espera a la IA.",
        "new_title": "Nueva partida", "opponent": "Rival", "human": "Humano (misma pantalla)",
        "settings": "Ajustes", "variants": "Variantes", "seed": "Semilla (vacía: al azar)",
        "round_cap": "Límite de rondas", "regroup_limit": "Límite de reagrupar (vacío: sin límite)",
        "vigil_reset": "Reinicio de la Vigilia", "vigil_start": "La Vigilia empieza en",
        "killed_minions": "Esbirros abatidos", "any_hp": "Cualquier PV perdido (V1)",
        "hero_hp": "Solo PV de un Héroe (VAR2)", "pool": "Reserva (reglamento)",
        "removed": "Fuera de la partida (VAR4)", "cancel": "Cancelar", "language": "Idioma",
        "save_title": "Guardar", "save_record": "Registro de la partida",
        "save_position": "Posición", "open_title": "Abrir un registro o una posición",
        "file": "Fichero", "bad_number": "{field}: un número entero, por favor "
                                          "(se leyó {value!r}).",
        "help_title": "Ayuda", "help_keys": "Teclas",
        "keys_text": "flechas o h j k l: mover el cursor · Tab / Mayús+Tab: opción siguiente / "
                     "anterior · Intro o Espacio: elegir · pulsa dos veces una casilla o una "
                     "vez una opción: elegir · u: deshacer · i o H: pista (h mueve a la "
                     "izquierda) · ?: ayuda · r: reglas · d: detalles de la partida (reglamento, "
                     "módulos) · n: nueva partida · w: guardar · o: abrir · q: salir",
        "replay_title": "Repetición", "decision_n": "Decisión {n} de {total}",
        "hidden_card": "?", "legend": "H/M Héroe/Esbirro de Llave · h/m Calavera · cifra PV · "
                                     "+ lleva Reliquia · K/S Reliquia · ░ Ruina",
        "position_no_record": "Una partida cargada de una posición no tiene registro: "
                              "guarda la posición.",
        "record_written": "Registro escrito en {path}.",
        "the_card": "La carta", "the_mode": "El modo", "the_rite": "El rito",
        "the_faction": "Facción", "rule": "Regla",
        "no_hint_secret": "No hay pista para una elección en secreto.",
        "modules": "Módulos de reglas", "no_modules": "ninguno en esta versión",
        "module_options": "Opciones de módulo (m.opción=valor; …)",
        "conditions_title": "Condiciones", "modules_title": "Módulos de reglas",
        "next_set": "siguiente juego", "token_box": "En la caja (sin ver)",
        "ruleset": "Reglamento", "ruleset_as_written": "Sin cambios: las reglas tal como "
                                                       "están escritas.",
        "ruleset_given": "El reglamento dado en la línea de órdenes.",
        "details_title": "Detalles de la partida", "k_details": "Detalles",
        "players": "Jugadores", "no_modules_on": "Ninguno: el juego base.",
        "fingerprint": "contenido",
        "legend_modules": "o marcador de objetivo (O el Santuario) · i2 ficha de reliquia: "
                          "la inicial de su tipo y su valor (i? boca abajo) · *i2 una ficha "
                          "llevada · W/w Ermita (@ y su tipo) · ^ una mejora · "
                          "b2 una condición y su valor",
    },
}

_ENTRY = re.compile(r'(\w+):\s*("(?:[^"\\]|\\.)*")')


@cache
def web_strings() -> dict[str, dict[str, str]]:
    """The web page's vocabulary (``STRINGS`` in ``i18n.js``), by language."""
    source = (resources.files("reliquary.web") / "static" / "js" / "i18n.js").read_text(
        encoding="utf-8")
    out: dict[str, dict[str, str]] = {}
    for lang in LANGS:
        start = source.index(f"\n  {lang}: {{")
        end = source.index("\n  },", start)
        out[lang] = {key: json.loads(text) for key, text in _ENTRY.findall(source[start:end])}
    return out


#: The rule modules' scripts, whose string tables (``addStrings({en: …, es: …})``) hold
#: the modules' words on the page.
MODULE_SCRIPTS = ("conditions.js", "glory.js", "keepers.js")


@cache
def module_strings() -> dict[str, dict[str, str]]:
    """The rule modules' words from their web scripts, by language."""
    out: dict[str, dict[str, str]] = {lang: {} for lang in LANGS}
    folder = resources.files("reliquary.web") / "static" / "js"
    for script in MODULE_SCRIPTS:
        source = (folder / script).read_text(encoding="utf-8")
        start = source.index("addStrings({")
        block = source[start:source.index("\n});", start)]
        en, es = block.index("\n  en:"), block.index("\n  es:")
        for lang, part in (("en", block[en:es]), ("es", block[es:])):
            out[lang].update((k, json.loads(v)) for k, v in _ENTRY.findall(part))
    return out


def t(lang: str, key: str, **fields: object) -> str:
    """A word or sentence in a language: the terminal's own, else the web page's (the
    rule modules' scripts included)."""
    text = (OWN[lang].get(key) or web_strings()[lang].get(key)
            or module_strings()[lang].get(key) or key)
    return text.format(**fields) if fields else text


def side(lang: str, player: int) -> str:
    """Key/Skull (Llave/Calavera), as the web's log names them."""
    return SIDE[lang][player]


def prompt(lang: str, kind: str) -> str:
    """What a decision asks, as the web page asks it (a module's decision: its help)."""
    if kind not in PROMPTS:
        for module in registered().values():
            if kind in module.decisions:
                return module.decisions[kind]
        return DECISION_KINDS.get(kind, kind)
    en, es = PROMPTS[kind]
    return es if lang == "es" else en


def default_lang() -> str:
    """Spanish when the locale says so (LC_ALL, LC_MESSAGES, LANG), else English."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return "es" if value.lower().startswith("es") else "en"
    found = locale.getlocale()[0] or ""
    return "es" if found.lower().startswith("es") else "en"
