"""Keepers' Relics (MODULES.md §6) in the web's words: the prompts of its decisions and
the log lines of its events, in English and Spanish."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.modules.keepers import DATA

Line = dict[str, str]

PROMPTS: dict[str, tuple[str, str]] = {
    "interact": ("Interact: choose the action.", "Interactuar: elige la acción."),
    "delver": ("Delve: choose the piece next to a Ruin you rule.",
               "Excavar: elige la pieza junto a una Ruina que dominas."),
    "delve_ruin": ("Delve: choose the Ruin.", "Excavar: elige la Ruina."),
    "prize": ("Prize: put the dropped token face up on a free Ruin (+1 point), or pass.",
              "Botín: pon la ficha caída boca arriba en una Ruina libre (+1 punto), o pasa."),
    "token_pickup": ("Several tokens lie here: choose the one to pick up.",
                     "Aquí hay varias fichas: elige la que recoges."),
    "encamper": ("Encamp: choose the Minion your Wayshrine replaces (it leaves the game).",
                 "Acampar: elige el Esbirro que tu Santuario sustituye (sale del juego)."),
    "wayshrine_type": ("Encamp: choose the type your Wayshrine shows.",
                       "Acampar: elige el tipo que muestra tu Santuario."),
}


def type_name(type_id: str, lang: str) -> str:
    for t in DATA.relic_type:
        if t.id == type_id:
            return t.name.en if lang == "en" else t.name.es
    return type_id


def _token(d: dict[str, Any], lang: str) -> str:
    kind = type_name(d["type"], lang)
    value = d.get("value") or 0
    if lang == "en":
        return f"the {kind} {value}" if value else f"a face-down {kind}"
    return f"el {kind} {value}" if value else f"un {kind} boca abajo"


def _bonus(d: dict[str, Any], lang: str) -> str:
    if not d.get("bonus"):
        return ""
    return f" (+{d['bonus']} for a set)" if lang == "en" else f" (+{d['bonus']} por un juego)"


def _lines(side: Callable[[int, str], str], name: Callable[[int], str],
           piece: Callable[[str], str]) -> dict[str, Callable[[dict[str, Any]], Line | None]]:
    """Each event kind's line, given the log's words for sides, squares and the piece."""
    def at(d: dict[str, Any], key: str = "square") -> str:
        return name(d[key]) if isinstance(d.get(key), int) and d[key] >= 0 else "?"

    return {
        "token_placed": lambda d: {
            "en": f"A face-down {type_name(d['type'], 'en')} is placed on the Ruin {at(d)}.",
            "es": f"Un {type_name(d['type'], 'es')} boca abajo se coloca en la Ruina {at(d)}."},
        "delve": lambda d: {
            "en": f"{piece('en')} on {at(d)} delves the Ruin {at(d, 'ruin')}.",
            "es": f"{piece('es')} en {at(d)} excava la Ruina {at(d, 'ruin')}."},
        "token_reveal": lambda d: {
            "en": f"Revealed on {at(d)}: {type_name(d['type'], 'en')} {d['value']}.",
            "es": f"Revelado en {at(d)}: {type_name(d['type'], 'es')} {d['value']}."},
        "token_lift": lambda d: {
            "en": f"{piece('en')} lifts {_token(d, 'en')} and carries it.",
            "es": f"{piece('es')} levanta {_token(d, 'es')} y lo lleva."},
        "lift_failed": lambda d: {
            "en": f"The lift fails: {d['pieces']} piece(s) for a {d['value']}; the token stays "
                  f"face up on {at(d, 'ruin')}.",
            "es": f"El levantamiento falla: {d['pieces']} pieza(s) para un {d['value']}; la "
                  f"ficha queda boca arriba en {at(d, 'ruin')}."},
        "token_pickup": lambda d: {
            "en": f"{piece('en')} on {at(d)} picks up {_token(d, 'en')}.",
            "es": f"{piece('es')} en {at(d)} recoge {_token(d, 'es')}."},
        "token_drop": lambda d: {
            "en": f"{_token(d, 'en').capitalize()} is dropped on {at(d, 'at')}.",
            "es": f"{_token(d, 'es').capitalize()} cae en {at(d, 'at')}."},
        "prize": lambda d: {
            "en": f"{side(d['player'], 'en')} takes {_token(d, 'en')} as a Prize to the Ruin "
                  f"{at(d, 'to')}: {d['points']} points.",
            "es": f"{side(d['player'], 'es')} toma {_token(d, 'es')} como Botín a la Ruina "
                  f"{at(d, 'to')}: {d['points']} puntos."},
        "token_recover": lambda d: {
            "en": f"{piece('en')} recovers {_token(d, 'en')}{_bonus(d, 'en')}: "
                  f"{d['points']} points.",
            "es": f"{piece('es')} recupera {_token(d, 'es')}{_bonus(d, 'es')}: "
                  f"{d['points']} puntos."},
        "devout": lambda d: {
            "en": f"Devout: {piece('en')} on {at(d)} takes 1 less damage.",
            "es": f"Devoto: {piece('es')} en {at(d)} recibe 1 de daño menos."},
        "encamp": lambda d: {
            "en": f"{side(d['owner'], 'en')} encamps a Wayshrine of the "
                  f"{type_name(d['type'], 'en')} on {at(d)}.",
            "es": f"{side(d['owner'], 'es')} acampa un Santuario del "
                  f"{type_name(d['type'], 'es')} en {at(d)}."},
        "decamp": lambda d: {
            "en": f"{side(d['player'], 'en')} decamps: a Minion takes the Wayshrine's place "
                  f"on {at(d)}.",
            "es": f"{side(d['player'], 'es')} levanta el campamento: un Esbirro ocupa el "
                  f"lugar del Santuario en {at(d)}."},
        "wayshrine_destroyed": lambda d: {
            "en": f"{side(d['owner'], 'en')}'s Wayshrine on {at(d)} is destroyed: +1 point "
                  f"for {side(d['to'], 'en')}.",
            "es": f"El Santuario de {side(d['owner'], 'es')} en {at(d)} es destruido: +1 "
                  f"punto para {side(d['to'], 'es')}."},
    }


def event_line(kind: str, d: dict[str, Any], side: Callable[[int, str], str],
               name: Callable[[int], str], piece: Callable[[str], str]) -> Line | None:
    """The log line of a Keepers event, or None if ``kind`` is not one."""
    line = _lines(side, name, piece).get(kind)
    return line(d) if line is not None else None
