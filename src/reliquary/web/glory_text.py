"""Glory & Support (MODULES.md §5) in the web's words: the prompts of its decisions (the
End phase's steps among them) and the log lines of its events, in English and Spanish."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..engine.modules.glory import DATA

Line = dict[str, str]

PROMPTS: dict[str, tuple[str, str]] = {
    "marker": ("Place an objective marker (not on a deployment row, 3 or more squares from "
               "the others).",
               "Coloca un marcador de objetivo (fuera de las filas de despliegue, a 3 o más "
               "casillas de los demás)."),
    "discard_objective": ("End phase: discard an objective you hold (it leaves the game), "
                          "or pass.",
                          "Fase final: descarta un objetivo que tengas (sale del juego), o "
                          "pasa."),
    "upgrade": ("End phase: buy an upgrade with unspent Glory, or pass.",
                "Fase final: compra una mejora con Gloria sin gastar, o pasa."),
    "upgrade_piece": ("End phase: choose the piece that takes the upgrade.",
                      "Fase final: elige la pieza que recibe la mejora."),
    "fast_step": ("Fleet: your upgraded piece may take 1 step, or pass.",
                  "Veloz: tu pieza mejorada puede dar 1 paso, o pasa."),
    "fleet_step": ("Fleet: your upgraded piece may take 1 step, or pass.",
                   "Veloz: tu pieza mejorada puede dar 1 paso, o pasa."),
}

_WHY = {"kill": ("for a kill", "por una muerte"), "shrine": ("for the Shrine", "por el Santuario"),
        "objective": ("for an objective", "por un objetivo")}


#: The data's objectives and upgrades by id.
_OBJECTIVES = {o.id: o for o in DATA.objective}
_UPGRADES = {u.id: u for u in DATA.upgrade}


def objective_name(oid: str, lang: str) -> str:
    """An objective's name in ``lang`` (its id if the data has no such objective)."""
    o = _OBJECTIVES.get(oid)
    return oid if o is None else o.name.get(lang)


def objective_text(oid: str, lang: str) -> str:
    o = _OBJECTIVES.get(oid)
    return oid if o is None else o.en if lang == "en" else o.es


def upgrade_name(uid: str, lang: str) -> str:
    """An upgrade's name in ``lang`` (its id if the data has no such upgrade)."""
    u = _UPGRADES.get(uid)
    return uid if u is None else u.name.get(lang)


def upgrade_text(uid: str, lang: str) -> str:
    u = _UPGRADES.get(uid)
    return uid if u is None else u.en if lang == "en" else u.es


def _lines(side: Callable[[int, str], str], name: Callable[[int], str]
           ) -> dict[str, Callable[[dict[str, Any]], Line | None]]:
    def at(d: dict[str, Any], key: str = "square") -> str:
        return name(d[key]) if isinstance(d.get(key), int) and d[key] >= 0 else "?"

    def glory(d: dict[str, Any]) -> Line:
        why = d.get("why", "")
        if why == "objective":
            en = f"for {objective_name(d['objective'], 'en')}"
            es = f"por {objective_name(d['objective'], 'es')}"
        elif why.startswith("keepers"):  # M-KEEP's relic points become Glory (§7)
            en, es = "in relic points", "en puntos de reliquia"
        else:
            en, es = _WHY.get(why, (f"({why})", f"({why})"))
        return {"en": f"{side(d['player'], 'en')} gains {d['amount']} Glory {en} "
                      f"(total {d['total']}).",
                "es": f"{side(d['player'], 'es')} gana {d['amount']} de Gloria {es} "
                      f"(total {d['total']})."}

    return {
        "glory": glory,
        "marker": lambda d: {
            "en": f"{side(d['player'], 'en')} places "
                  f"{'the Shrine' if d.get('shrine') else 'an objective marker'} on {at(d)}.",
            "es": f"{side(d['player'], 'es')} coloca "
                  f"{'el Santuario' if d.get('shrine') else 'un marcador de objetivo'} en "
                  f"{at(d)}."},
        "objective_draw": lambda d: {
            "en": f"{side(d['player'], 'en')} draws the objective "
                  f"{objective_name(d['objective'], 'en')}: "
                  f"{objective_text(d['objective'], 'en')}",
            "es": f"{side(d['player'], 'es')} roba el objetivo "
                  f"{objective_name(d['objective'], 'es')}: "
                  f"{objective_text(d['objective'], 'es')}"},
        "objective_scored": lambda d: {
            "en": f"{side(d['player'], 'en')} scores {objective_name(d['objective'], 'en')}.",
            "es": f"{side(d['player'], 'es')} puntúa {objective_name(d['objective'], 'es')}."},
        "objective_discard": lambda d: {
            "en": f"{side(d['player'], 'en')} discards {objective_name(d['objective'], 'en')}.",
            "es": f"{side(d['player'], 'es')} descarta {objective_name(d['objective'], 'es')}."},
        "upgrade": lambda d: {
            "en": f"{side(d['player'], 'en')} buys {upgrade_name(d['upgrade'], 'en')} "
                  f"({d['cost']} Glory) for the "
                  f"piece on {at(d)}: {upgrade_text(d['upgrade'], 'en')}",
            "es": f"{side(d['player'], 'es')} compra {upgrade_name(d['upgrade'], 'es')} "
                  f"({d['cost']} de Gloria) "
                  f"para la pieza en {at(d)}: {upgrade_text(d['upgrade'], 'es')}"},
        "end_phase": lambda d: {
            "en": f"{'Final End phase' if d['final'] else 'End phase'} {d['phase']} (after round "
                  f"{d['round']}).",
            "es": f"{'Fase final última' if d['final'] else 'Fase final'} {d['phase']} (tras la "
                  f"ronda {d['round']})."},
        "support": lambda d: None if not d.get("bonus") else {
            "en": f"Support on {at(d)}: {d['attackers']} attacking ally(ies) next to the "
                  f"target against {d['defenders']} defending ally(ies) next to the "
                  f"attacker: {'+1' if d['bonus'] > 0 else '−1'} damage.",
            "es": f"Apoyo en {at(d)}: {d['attackers']} aliado(s) atacante(s) junto al "
                  f"objetivo contra {d['defenders']} aliado(s) defensor(es) junto al "
                  f"atacante: {'+1' if d['bonus'] > 0 else '−1'} de daño."},
    }


def event_line(kind: str, d: dict[str, Any], side: Callable[[int, str], str],
               name: Callable[[int], str]) -> Line | None:
    """The log line of a Glory event, or None if ``kind`` is not one (or says nothing)."""
    line = _lines(side, name).get(kind)
    return line(d) if line is not None else None
