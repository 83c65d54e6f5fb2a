"""Conditions (MODULES.md §4) in the web's words: the prompts of its decisions and the log
lines of its events, in English and Spanish, with the names the module's data gives."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.modules.conditions import DATA

Line = dict[str, str]

PROMPTS: dict[str, tuple[str, str]] = {
    "cond_actor": ("Choose the piece that takes the action (not a Paralyzed one).",
                   "Elige la pieza que hace la acción (no una Paralizada)."),
    "tend_target": ("TEND: choose your Burning piece (the actor or next to it).",
                    "ATENDER: elige tu pieza Ardiente (la que actúa o una adyacente)."),
    "fast_step": ("Fast: a Fast piece may take 1 step (click it, then its square), or pass.",
                  "Rápido: una pieza Rápida puede dar 1 paso (púlsala y luego la casilla), "
                  "o pasa."),
    "dread": ("Dread test: the die is rolled.", "Prueba de Pavor: se tira el dado."),
}

_NAMES = {c.id: c.name for c in DATA.condition}
_ACTIONS = {a.id: a.name for a in DATA.action}


def condition_name(cond: str, lang: str) -> str:
    name = _NAMES.get(cond)
    if name is None:
        return cond
    return name.en if lang == "en" else name.es


def action_name(action: str, lang: str) -> str:
    name = _ACTIONS.get(action)
    if name is None:
        return action
    return name.en if lang == "en" else name.es


def _with_value(d: dict[str, Any], lang: str) -> str:
    value = d.get("value") or 0
    return condition_name(d["condition"], lang) + (f" {value}" if value else "")


_WHY = {
    "en": {"expired": "it has run its course", "upkeep": "Upkeep", "used": "used by the attack",
           "tended": "tended", "cancelled": "Fast and Slow cancel"},
    "es": {"expired": "ha terminado", "upkeep": "Mantenimiento", "used": "gastada al atacar",
           "tended": "atendida", "cancelled": "Rápido y Lento se anulan"},
}


def _lines(name: Callable[[int], str], piece: Callable[[str], str]
           ) -> dict[str, Callable[[dict[str, Any]], Line | None]]:
    def at(d: dict[str, Any], key: str = "square") -> str:
        return name(d[key]) if isinstance(d.get(key), int) and d[key] >= 0 else "?"

    def why(d: dict[str, Any], lang: str) -> str:
        reason = _WHY[lang].get(d.get("why") or "", "")
        return f" ({reason})" if reason else ""

    return {
        "condition": lambda d: {
            "en": f"{piece('en')} on {at(d)} gains {_with_value(d, 'en')}.",
            "es": f"{piece('es')} en {at(d)} gana {_with_value(d, 'es')}."},
        "condition_end": lambda d: {
            "en": f"{piece('en')} on {at(d)} loses {condition_name(d['condition'], 'en')}"
                  f"{why(d, 'en')}.",
            "es": f"{piece('es')} en {at(d)} pierde {condition_name(d['condition'], 'es')}"
                  f"{why(d, 'es')}."},
        "condition_tick": lambda d: {
            "en": f"{piece('en')} on {at(d)} now has {_with_value(d, 'en')}.",
            "es": f"{piece('es')} en {at(d)} tiene ahora {_with_value(d, 'es')}."},
        "condition_cancelled": lambda d: {
            "en": f"{piece('en')} on {at(d)}: {condition_name(d['condition'], 'en')} and "
                  f"{condition_name(d['by'], 'en')} cancel each other.",
            "es": f"{piece('es')} en {at(d)}: {condition_name(d['condition'], 'es')} y "
                  f"{condition_name(d['by'], 'es')} se anulan."},
        "condition_immune": lambda d: {
            "en": f"{piece('en')} on {at(d)} is immune to "
                  f"{condition_name(d['condition'], 'en')}.",
            "es": f"{piece('es')} en {at(d)} es inmune a "
                  f"{condition_name(d['condition'], 'es')}."},
        "upkeep": lambda d: {
            "en": f"Upkeep: {piece('en')} on {at(d)} suffers its {_with_value(d, 'en')}.",
            "es": f"Mantenimiento: {piece('es')} en {at(d)} sufre su {_with_value(d, 'es')}."},
        "dread": lambda d: {
            "en": f"Dread test for {piece('en')} on {at(d)} against {at(d, 'target_square')}: "
                  f"{d['face']} against {d['tn']}, "
                  + ("passed." if d["passed"] else "failed: the attack ends"
                     + (", and it will be Paralyzed." if d.get("paralyzed") else ".")),
            "es": f"Prueba de Pavor de {piece('es')} en {at(d)} contra "
                  f"{at(d, 'target_square')}: {d['face']} contra {d['tn']}, "
                  + ("superada." if d["passed"] else "fallada: el ataque termina"
                     + (" y quedará Paralizada." if d.get("paralyzed") else "."))},
        "cond_action": lambda d: {
            "en": f"{action_name(d['action'], 'en')}: {piece('en')} on {at(d)} acts.",
            "es": f"{action_name(d['action'], 'es')}: {piece('es')} en {at(d)} actúa."},
    }


def event_line(kind: str, d: dict[str, Any], name: Callable[[int], str],
               piece: Callable[[str], str]) -> Line | None:
    """The log line of a Conditions event, or None if ``kind`` is not one."""
    line = _lines(name, piece).get(kind)
    return line(d) if line is not None else None
