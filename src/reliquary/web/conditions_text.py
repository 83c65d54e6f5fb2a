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
    return cond if name is None else name.get(lang)


def action_name(action: str, lang: str) -> str:
    name = _ACTIONS.get(action)
    return action if name is None else name.get(lang)


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


# ---------------------------------------------------------------------- previews
#: When a condition gained now ends, by its data's duration ({side}: its owner).
_ENDS: dict[str, tuple[str, str]] = {
    "owner_turn": ("until the end of {side}'s next turn",
                   "hasta el final del siguiente turno de {side}"),
    "until_owner_turn_start": ("until {side}'s next turn starts",
                               "hasta que empiece el siguiente turno de {side}"),
    "upkeep": ("until Upkeep, at the round's end", "hasta el Mantenimiento, al final de la ronda"),
    "round": ("until the round's end", "hasta el final de la ronda"),
    "permanent": ("while it stays on the board", "mientras siga en el tablero"),
}
_SIDE = {"en": ("Key", "Skull"), "es": ("Llave", "Calavera")}
_KIND = {"en": ("Minion", "Hero"), "es": ("Esbirro", "Héroe")}


def ends_text(cond: str, owner: int, lang: str) -> str:
    """When condition ``cond`` gained now by a piece of ``owner`` ends, from the data."""
    data = next((c for c in DATA.condition if c.id == cond), None)
    if data is None:
        return ""
    en, es = _ENDS[data.duration]
    text = (en if lang == "en" else es).format(side=_SIDE[lang][owner])
    if data.on_attack is not None and data.on_attack.consume:
        text += " or when it attacks" if lang == "en" else " o hasta que ataque"
    return text


def piece_words(d: dict[str, Any], player: int, lang: str, name: Callable[[int], str]) -> str:
    """'your Hero on c3' / 'tu Héroe en c3' (an enemy's: 'Skull's Minion on e5')."""
    kind = _KIND[lang][bool(d.get("hero"))]
    sq = name(d["square"]) if isinstance(d.get("square"), int) and d["square"] >= 0 else "?"
    owner = d.get("owner", player)
    if lang == "en":
        whose = "your" if owner == player else f"{_SIDE['en'][owner]}'s"
        return f"{whose} {kind} on {sq}"
    whose = "tu" if owner == player else "el"
    tail = "" if owner == player else f" de {_SIDE['es'][owner]}"
    return f"{whose} {kind}{tail} en {sq}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def preview_line(events: list[Any], before: Any, player: int, name: Callable[[int], str]
                 ) -> Line | None:
    """What a general action's events would do, in words: who gains or loses which
    condition and value, and when it ends. ``before``: the state before the action (a
    gain that only restarts a duration says so, M-COND-D7). None if nothing of this
    module's happened."""
    parts: list[Line] = []
    for e in events:
        d = e.data
        kind = e.kind
        if kind not in ("condition", "condition_end", "condition_tick", "condition_cancelled",
                        "condition_immune") or d.get("condition") not in _NAMES:
            continue
        if kind in ("condition_end", "condition_tick") and d.get("why") not in (
                "tended", "used"):
            continue  # an expiry or Upkeep at the turn's or round's end: not the action's
        who = {lang: _cap(piece_words(d, player, lang, name)) for lang in ("en", "es")}
        cond = {lang: condition_name(d["condition"], lang) for lang in ("en", "es")}
        old_piece = before.pieces.get(d.get("piece", -1))
        old = old_piece.value(d["condition"]) if old_piece is not None \
            and old_piece.has(d["condition"]) else None
        if kind == "condition":
            value = d.get("value") or 0
            owner = d.get("owner", player)
            ends = {lang: ends_text(d["condition"], owner, lang) for lang in ("en", "es")}
            v = f" {value}" if value else ""
            if old is not None and (old or 0) >= value:
                parts.append({
                    "en": f"{who['en']} keeps {cond['en']}{v}; it now lasts "
                          f"{ends['en']}.",
                    "es": f"{who['es']} mantiene {cond['es']}{v}; ahora dura "
                          f"{ends['es']}."})
            else:
                parts.append({
                    "en": f"{who['en']} gains {cond['en']}{v}, {ends['en']}.",
                    "es": f"{who['es']} gana {cond['es']}{v}, {ends['es']}."})
        elif kind == "condition_tick":
            was = f"{old} → " if old else ""
            parts.append({
                "en": f"{who['en']}: {cond['en']} {was}{d.get('value')}.",
                "es": f"{who['es']}: {cond['es']} {was}{d.get('value')}."})
        elif kind == "condition_end":
            was = f" {old}" if old else ""
            parts.append({"en": f"{who['en']} loses {cond['en']}{was}.",
                          "es": f"{who['es']} pierde {cond['es']}{was}."})
        elif kind == "condition_cancelled":
            by = {lang: condition_name(d["by"], lang) for lang in ("en", "es")}
            parts.append({
                "en": f"{who['en']}: {cond['en']} and {by['en']} cancel each "
                      f"other (both end).",
                "es": f"{who['es']}: {cond['es']} y {by['es']} se anulan (ambas "
                      f"acaban)."})
        else:
            parts.append({"en": f"{who['en']} is immune to {cond['en']}.",
                          "es": f"{who['es']} es inmune a {cond['es']}."})
    if not parts:
        return None
    return {lang: " ".join(p[lang] for p in parts) for lang in ("en", "es")}
