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
    "prize": (f"Prize: put the dropped token face up on a free Ruin (+{DATA.prize} point), "
              "or pass.",
              f"Botín: pon la ficha caída boca arriba en una Ruina libre (+{DATA.prize} "
              "punto), o pasa."),
    "token_pickup": ("Several tokens lie here: choose the one to pick up.",
                     "Aquí hay varias fichas: elige la que recoges."),
    "encamper": ("Encamp: choose the Minion your Wayshrine replaces (it leaves the game).",
                 "Acampar: elige el Esbirro que tu Ermita sustituye (sale del juego)."),
    "wayshrine_type": ("Encamp: choose the type your Wayshrine shows.",
                       "Acampar: elige el tipo que muestra tu Ermita."),
}


def _cap(text: str) -> str:
    """The first letter up (str.capitalize would lower the type's: 'The scroll 2')."""
    return text[:1].upper() + text[1:]


def type_name(type_id: str, lang: str) -> str:
    for t in DATA.relic_type:
        if t.id == type_id:
            return t.name.get(lang)
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
            "en": f"{_cap(_token(d, 'en'))} is dropped on {at(d, 'at')}.",
            "es": f"{_cap(_token(d, 'es'))} cae en {at(d, 'at')}."},
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
            "es": f"{side(d['owner'], 'es')} acampa una Ermita del "
                  f"{type_name(d['type'], 'es')} en {at(d)}."},
        "decamp": lambda d: {
            "en": f"{side(d['player'], 'en')} decamps: a Minion takes the Wayshrine's place "
                  f"on {at(d)}.",
            "es": f"{side(d['player'], 'es')} levanta el campamento: un Esbirro ocupa el "
                  f"lugar de la Ermita en {at(d)}."},
        "wayshrine_destroyed": lambda d: {
            "en": f"{side(d['owner'], 'en')}'s Wayshrine on {at(d)} is destroyed: +1 point "
                  f"for {side(d['to'], 'en')}.",
            "es": f"La Ermita de {side(d['owner'], 'es')} en {at(d)} es destruida: +1 "
                  f"punto para {side(d['to'], 'es')}."},
    }


def event_line(kind: str, d: dict[str, Any], side: Callable[[int, str], str],
               name: Callable[[int], str], piece: Callable[[str], str]) -> Line | None:
    """The log line of a Keepers event, or None if ``kind`` is not one."""
    line = _lines(side, name, piece).get(kind)
    return line(d) if line is not None else None


# ---------------------------------------------------------------------- previews
def _pct(p: float, lang: str) -> str:
    return f"{round(p * 100)}%" if lang == "en" else f"{round(p * 100)} %"


def _sq(name: Callable[[int], str], sq: Any) -> str:
    return name(sq) if isinstance(sq, int) and sq >= 0 else "?"


def _minion_or_hero(d: dict[str, Any], lang: str) -> str:
    if lang == "en":
        return "your Hero" if d.get("hero") else "your Minion"
    return "tu Héroe" if d.get("hero") else "tu Esbirro"


def _shrine_powers(lang: str, kind: str | None = None) -> str:
    """What a Wayshrine does once it stands (M-KEEP-7, 21, 23), the points from the data."""
    what = type_name(kind, lang) if kind else ""
    if lang == "en":
        tokens = f"{what} tokens" if kind else "tokens of its type"
        points = "1 point" if DATA.wayshrine_kill == 1 else f"{DATA.wayshrine_kill} points"
        return (f"REGROUP may place a Minion next to it, {tokens} are recovered next to it, "
                f"and whoever destroys it gains {points}.")
    tokens = f"las fichas de {what}" if kind else "las fichas de su tipo"
    points = "1 punto" if DATA.wayshrine_kill == 1 else f"{DATA.wayshrine_kill} puntos"
    return (f"REAGRUPAR puede poner un Esbirro junto a él, {tokens} se recuperan junto a "
            f"él, y quien lo destruya gana {points}.")


def preview_line(events: list[Any], before: Any, after: Any, player: int,
                 name: Callable[[int], str]) -> Line | None:
    """What a DELVE, ENCAMP, DECAMP or Prize would do, from its events on a copy: the
    token at stake (its type, and its value when face up), the pieces of yours next to
    the Ruin for the lift test, the lift or its failure, a recovery, the Prize's point.
    ``before`` and ``after``: the states around it. None if nothing of this module's."""
    from ..engine.modules.keepers import _counts_at, kstate

    parts: list[Line] = []
    for e in events:
        d = e.data
        if e.kind == "delve":
            token = kstate(before).tokens[d["token"]]
            kind = DATA.relic_type[token.kind].id
            what = {lang: _token({"type": kind, "value": token.value if token.face_up else 0},
                                 lang) for lang in ("en", "es")}
            mine = _counts_at(before, d["ruin"])[player]
            ruin, at = _sq(name, d["ruin"]), _sq(name, d.get("square"))
            parts.append({
                "en": f"{_cap(_minion_or_hero(d, 'en'))} on {at} delves the Ruin {ruin}"
                      f" for {what['en']}; your pieces next to it: {mine}, so it lifts a token of "
                      f"value {mine} or less.",
                "es": f"{_cap(_minion_or_hero(d, 'es'))} en {at} excava la Ruina {ruin}"
                      f" por {what['es']}; tus piezas junto a ella: {mine}, así que levanta "
                      f"una ficha de valor {mine} o menos."})
        elif e.kind == "token_lift":
            parts.append({"en": f"It lifts {_token(d, 'en')} and carries it.",
                          "es": f"Levanta {_token(d, 'es')} y lo lleva."})
        elif e.kind == "lift_failed":
            parts.append({"en": f"The lift fails ({d['pieces']} for a {d['value']}): the "
                                f"token stays face up.",
                          "es": f"El levantamiento falla ({d['pieces']} para un {d['value']}):"
                                f" la ficha queda boca arriba."})
        elif e.kind == "token_recover":
            parts.append({"en": f"Recovered at once: {d['points']} points{_bonus(d, 'en')}.",
                          "es": f"Recuperada en el acto: {d['points']} puntos"
                                f"{_bonus(d, 'es')}."})
        elif e.kind == "decamp":
            sq = _sq(name, d.get("square"))
            parts.append({
                "en": f"Your Wayshrine on {sq} gives way to a new Minion there; the Wayshrine "
                      f"goes back to your supply (you may Encamp again later).",
                "es": f"Tu Ermita en {sq} deja su sitio a un Esbirro nuevo; la Ermita "
                      f"vuelve a tu reserva (podrás Acampar de nuevo)."})
        elif e.kind == "encamp":
            line = encamp_line([e], [d["type"]], player, name)
            parts.append(line)
        elif e.kind == "prize":
            frm, to = _sq(name, d.get("square")), _sq(name, d.get("to"))
            parts.append({
                "en": f"{_cap(_token(d, 'en'))} (dropped on {frm}) goes face up to the "
                      f"Ruin {to}: +{DATA.prize} point ({d['points']} in all).",
                "es": f"{_cap(_token(d, 'es'))} (caído en {frm}) pasa boca arriba a la "
                      f"Ruina {to}: +{DATA.prize} punto ({d['points']} en total)."})
    if not parts:
        return None
    return {lang: " ".join(p[lang] for p in parts) for lang in ("en", "es")}


def odds_line(odds: list[dict[str, Any]], lift: float) -> Line:
    """The reveal's odds (the engine's chance outcomes) and the lift test's for each."""
    def one(o: dict[str, Any], lang: str) -> str:
        verdict = ("lifts" if o["lift"] else "fails") if lang == "en" else (
            "levanta" if o["lift"] else "falla")
        return f"{o['value']}: {_pct(o['p'], lang)} ({verdict})"

    return {"en": f"Reveal: {', '.join(one(o, 'en') for o in odds)}. "
                  f"Chance to lift: {_pct(lift, 'en')}.",
            "es": f"Revelado: {', '.join(one(o, 'es') for o in odds)}. "
                  f"Probabilidad de levantarla: {_pct(lift, 'es')}."}


def encamp_line(events: list[Any], types: list[str], player: int,
                name: Callable[[int], str]) -> Line:
    """M-KEEP-20: the Minion that leaves the game and the Wayshrine that takes its square
    (one type, or the types to choose from), and what the Wayshrine then does."""
    ev = next((e for e in events if e.kind == "encamp"), None)
    sq = _sq(name, ev.data.get("square")) if ev is not None else "?"
    one = types[0] if len(types) == 1 else None
    names = {lang: (type_name(one, lang) if one else
                    ", ".join(type_name(t, lang) for t in types)) for lang in ("en", "es")}
    return {
        "en": f"Your Minion on {sq} leaves the game (not to the pool); your Wayshrine stands "
              f"on {sq} showing " + (f"the {names['en']}" if one else
                                     f"the type you choose ({names['en']})")
              + f". {_shrine_powers('en', one)}",
        "es": f"Tu Esbirro en {sq} sale del juego (no va a la reserva); tu Ermita ocupa "
              f"{sq} mostrando " + (f"el {names['es']}" if one else
                                    f"el tipo que elijas ({names['es']})")
              + f". {_shrine_powers('es', one)}"}


def prize_pass_line(state: Any) -> Line:
    """The Prize passed up: the dropped token stays where it fell (M-KEEP-8)."""
    from ..engine.modules.keepers import kstate

    frame = state.stack[-1]
    token = kstate(state).tokens[frame[1]]
    d = {"type": DATA.relic_type[token.kind].id, "value": token.value}
    sq = state.geometry.name(token.sq) if token.sq >= 0 else "?"
    return {"en": f"Leave {_token(d, 'en')} where it fell, on {sq}: no point.",
            "es": f"Dejar {_token(d, 'es')} donde cayó, en {sq}: sin punto."}
