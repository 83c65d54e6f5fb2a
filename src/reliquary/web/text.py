"""The game log in plain language, English and Spanish, built from the engine's events.

Each decision taken (an :class:`~reliquary.engine.Entry`) becomes zero or more lines;
what happened comes from the entry's events, never from re-deriving the rules. Each line
also carries ``seq`` and ``kind``, the number and kind of its decision, so that the page can
group the log by turn; an attack's damage line carries ``from`` and ``to``, the attacker's
and the target's squares, for the page's attack arrow.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..content import game_names
from ..engine import SIDES, Content, Entry, Event, Geometry, State
from ..engine.modules.conditions import MODULE as _CONDITIONS
from ..engine.modules.glory import MODULE as _GLORY
from ..engine.modules.keepers import MODULE as _KEEPERS
from .conditions_text import event_line as conditions_line
from .glory_text import event_line as glory_line
from .keepers_text import event_line as keepers_line

#: The events of Keepers' Relics, told by keepers_text.
KEEPERS_EVENTS = frozenset(_KEEPERS.events)
#: The events of Conditions, told by conditions_text.
CONDITIONS_EVENTS = frozenset(_CONDITIONS.events)
#: The events of Glory & Support, told by glory_text.
GLORY_EVENTS = frozenset(_GLORY.events)

SIDE = {"en": ("Key", "Skull"), "es": ("Llave", "Calavera")}
KIND = {"en": ("Minion", "Hero"), "es": ("Esbirro", "Héroe")}
MODE = {
    "en": {"move": "to move", "attack": "to attack", "regroup": "to regroup",
           "rite": "for its rite", "pass": "with nothing to do (it only waits)",
           "interact": "to interact"},
    "es": {"move": "para mover", "attack": "para atacar", "regroup": "para reagrupar",
           "rite": "para su rito", "pass": "sin nada posible (solo pasa a espera)",
           "interact": "para interactuar"},
}
PREVENTED = {
    "en": {"aegis": "prevented by Aegis", "first_turn": "prevented: first turn"},
    "es": {"aegis": "impedido por Égida", "first_turn": "impedido: primer turno"},
}
#: A decision passed ("pass" outside a card's play), by decision kind: what was not done.
PASSED = {
    "en": {"escort": "{s} takes no Escort step.", "lunge": "{s} does not lunge.",
           "second_target": "{s} attacks no second target.", "gale_step": "{s} takes no Gale step.",
           "rapture_step": "{s} stops the Rapture steps.", "after_step": "{s} takes no step "
           "after the attack.", "kill_step": "{s} does not step into the freed square.",
           "swap": "{s} does not swap.", "lantern_step": "{s} takes no Lantern step."},
    "es": {"escort": "{s} no da el paso de Escolta.", "lunge": "{s} no acomete.",
           "second_target": "{s} no ataca a un segundo objetivo.",
           "gale_step": "{s} no da el paso de Gale.", "rapture_step": "{s} detiene los pasos "
           "de Rapture.", "after_step": "{s} no da el paso tras el ataque.",
           "kill_step": "{s} no entra en la casilla liberada.", "swap": "{s} no se intercambia.",
           "lantern_step": "{s} no da el paso del Farol."},
}
GENERIC_PASS = {"en": "{s} passes ({k}).", "es": "{s} pasa ({k})."}

REASON = {
    "en": {"hero_killed": "the enemy Hero was killed", "relic_home": "the relic was brought home",
           "vigil": "the Vigil reached 0", "round_cap": "the round limit was reached",
           "timeout": "the opponent ran out of time", "resign": "the opponent resigned",
           "agreed": "both players agreed to a draw",
           "points": "the rule modules' points decided when the Vigil reached 0",
           "relic_points": "the relic points reached the target"},
    "es": {"hero_killed": "el Héroe enemigo fue abatido",
           "relic_home": "la Reliquia llegó a casa",
           "vigil": "la Vigilia llegó a 0", "round_cap": "se alcanzó el límite de rondas",
           "timeout": "el rival se quedó sin tiempo", "resign": "el rival abandonó",
           "agreed": "ambos jugadores acordaron tablas",
           "points": "los puntos de los módulos decidieron al llegar la Vigilia a 0",
           "relic_points": "los puntos de reliquia alcanzaron el objetivo"},
}


@dataclass
class LogContext:
    """What the log remembers between decisions: pieces, factions, the attacker."""

    content: Content
    geometry: Geometry
    pieces: dict[int, tuple[int, bool]] = field(default_factory=dict)  # id -> (owner, hero)
    factions: list[str | None] = field(default_factory=lambda: [None, None])
    attacker: int = -1
    dealt: int = 0
    decided: int = 0  # decisions described so far: the next one's ``seq``
    attacker_at: int = -1  # the attacking piece's square (after its lunge)

    def side(self, player: int, lang: str) -> str:
        return SIDE[lang][player]

    def faction(self, faction_id: str, lang: str) -> str:
        """A faction's name in a language (help_cards.toml's ``[names]``)."""
        return names_of(self.content)["factions"][faction_id][lang]

    def rite(self, rite_id: str, lang: str) -> str:
        """A rite's name in a language."""
        return names_of(self.content)["rites"].get(rite_id, {}).get(lang, rite_id)

    def who(self, player: int, lang: str) -> str:
        """A side, with its faction once revealed: 'Key (Pyre Choir)'."""
        fid = self.factions[player]
        if fid is None:
            return SIDE[lang][player]
        return f"{SIDE[lang][player]} ({self.faction(fid, lang)})"

    def piece(self, owner: int, hero: bool, lang: str) -> str:
        fid = self.factions[owner]
        name = self.faction(fid, lang) if fid else SIDE[lang][owner]
        if lang == "es":
            return f"{KIND[lang][hero]} de {name}"
        return f"{name} {KIND[lang][hero]}"


Line = dict[str, str]
#: Each content's names in each language, worked out once (by the content's identity:
#: hashing a Content is not cheap).
_NAMES: dict[int, tuple[Content, dict[str, dict[str, dict[str, str]]]]] = {}


def names_of(content: Content) -> dict[str, dict[str, dict[str, str]]]:
    """:func:`reliquary.content.game_names` of ``content``, cached."""
    found = _NAMES.get(id(content))
    if found is None or found[0] is not content:
        found = _NAMES[id(content)] = (content, game_names(content))
    return found[1]


def result_text(result: dict[str, Any] | None) -> Line | None:
    """The result in words: who won and why."""
    if result is None:
        return None
    reason = result["reason"]
    winner = result["winner"]
    out = {}
    for lang in ("en", "es"):
        why = REASON[lang][reason]
        if winner is None:
            text = f"Draw: {why}." if lang == "en" else f"Tablas: {why}."
        else:
            side = SIDE[lang][SIDES.index(winner)]
            text = f"{side} wins: {why}." if lang == "en" else f"Gana {side}: {why}."
        if result.get("scores"):
            k, s = result["scores"]
            text += (f" Vigil scores {k}–{s}." if lang == "en"
                     else f" Puntos de Vigilia {k}–{s}.")
        out[lang] = text
    return out


def note_before(ctx: LogContext, state: State, kind: str, option: Any) -> None:
    """Remember what a decision is about before it is applied (the attacking piece)."""
    if kind == "play":
        ctx.attacker = ctx.attacker_at = -1
    elif kind == "attacker" and isinstance(option, int):
        piece = state.piece_at(option)
        ctx.attacker = piece.id if piece else -1
        ctx.attacker_at = option


def describe(ctx: LogContext, entry: Entry) -> list[Line]:
    """The log lines of one decision, in both languages, each with its decision's ``seq``."""
    seq = str(ctx.decided)
    ctx.decided += 1
    return [{**line, "seq": seq, "kind": entry.kind} for line in _lines(ctx, entry)]


def passed_line(ctx: LogContext, player: int, kind: str) -> Line:
    """A passed decision in words: what the player chose not to do."""
    out = {}
    for lang in ("en", "es"):
        template = PASSED[lang].get(kind, GENERIC_PASS[lang])
        out[lang] = template.format(s=ctx.side(player, lang), k=kind.replace("_", " "))
    return out


def _lines(ctx: LogContext, entry: Entry) -> list[Line]:
    lines: list[Line] = []
    name = ctx.geometry.name
    p = entry.player
    if entry.kind == "ruin" and isinstance(entry.option, int):
        a, b = name(entry.option), name(ctx.geometry.mirror(entry.option))
        lines.append({"en": f"{ctx.side(p, 'en')} marks Ruins on {a} and {b}.",
                      "es": f"{ctx.side(p, 'es')} marca Ruinas en {a} y {b}."})
    elif entry.kind == "faction":
        lines.append({"en": f"{ctx.side(p, 'en')} chooses a faction in secret.",
                      "es": f"{ctx.side(p, 'es')} elige facción en secreto."})
    elif entry.kind == "deal":
        size = ctx.content.hand_size
        if ctx.dealt < 2 * size:
            to = ctx.dealt // size
            lines.append({"en": f"{entry.token} is dealt to {ctx.side(to, 'en')}.",
                          "es": f"{entry.token} se reparte a {ctx.side(to, 'es')}."})
        else:
            lines.append({"en": f"{entry.token} is the waiting card.",
                          "es": f"{entry.token} es la carta en espera."})
        ctx.dealt += 1
    elif entry.kind == "rite" and p >= 0:
        lines.append({"en": f"{ctx.side(p, 'en')} takes the rite "
                            f"{ctx.rite(entry.token, 'en')}.",
                      "es": f"{ctx.side(p, 'es')} toma el rito {ctx.rite(entry.token, 'es')}."})
    elif entry.kind == "relic":
        lines.append({"en": f"{ctx.side(p, 'en')} places its relic on {entry.token}.",
                      "es": f"{ctx.side(p, 'es')} coloca su Reliquia en {entry.token}."})
    elif entry.token == "pass" and entry.kind != "play":
        lines.append(passed_line(ctx, p, entry.kind))
    for ev in entry.events:
        line = _event_line(ctx, ev)
        if line:
            lines.append(line)
    return lines


def _event_line(ctx: LogContext, ev: Event) -> Line | None:
    d = ev.data
    name = ctx.geometry.name
    k = ev.kind
    if "piece" in d and k == "place":
        ctx.pieces[d["piece"]] = (d["owner"], d["hero"])

    def pc(lang: str) -> str:
        return ctx.piece(d["owner"], d["hero"], lang)

    if k == "place":
        sq = name(d["square"])
        if d.get("harrowed"):
            return {"en": f"A killed enemy Minion rises on {sq} for {ctx.side(d['owner'], 'en')}"
                          " (harrowed).",
                    "es": f"Un Esbirro enemigo abatido se alza en {sq} para "
                          f"{ctx.side(d['owner'], 'es')} (marcado)."}
        return {"en": f"{pc('en')} is placed on {sq}.", "es": f"{pc('es')} se coloca en {sq}."}
    if k in ("move", "step"):
        if d.get("piece") == ctx.attacker:  # a lunge: the attack comes from there
            ctx.attacker_at = d["to"]
        a, b = name(d["square"]), name(d["to"])
        verb = {"move": ("moves", "mueve"), "step": ("steps", "da un paso")}[k]
        return {"en": f"{pc('en')} {verb[0]} {a} → {b}.", "es": f"{pc('es')} {verb[1]} {a} → {b}."}
    if k == "swap":
        other = ctx.pieces.get(d["other"], (d["owner"], False))
        a, b = name(d["square"]), name(d["to"])
        en, es = ctx.piece(other[0], other[1], "en"), ctx.piece(other[0], other[1], "es")
        return {"en": f"{pc('en')} on {a} swaps with {en} on {b}.",
                "es": f"{pc('es')} en {a} se intercambia con {es} en {b}."}
    if k == "push":
        a, b = name(d["square"]), name(d["to"])
        if d["prevented"]:
            return {"en": f"{pc('en')} on {a} is not moved ({PREVENTED['en'][d['prevented']]}).",
                    "es": f"{pc('es')} en {a} no se mueve ({PREVENTED['es'][d['prevented']]})."}
        if a == b:
            return None  # a crush: told by its damage line
        verb = ("pulled", "atraído") if d["pull"] else ("pushed", "empujado")
        return {"en": f"{pc('en')} is {verb[0]} {a} → {b}.",
                "es": f"{pc('es')} es {verb[1]} {a} → {b}."}
    if k == "damage":
        sq = name(d["square"])
        amount = d["amount"]
        out = {}
        for lang in ("en", "es"):
            notes = []
            if d["crush"]:
                notes.append("crushed" if lang == "en" else "aplastado")
            if d["prevented"]:
                notes.append(PREVENTED[lang][d["prevented"]])
            note = f" ({', '.join(notes)})" if notes else ""
            dmg = f"{amount} damage" if lang == "en" else f"{amount} de daño"
            attacker = ctx.pieces.get(ctx.attacker)
            if attacker and attacker[0] != d["owner"]:
                hits = "smites" if lang == "en" else "golpea"
                out[lang] = f"{ctx.piece(attacker[0], attacker[1], lang)} {hits} {sq}: {dmg}{note}."
            else:
                takes = "takes" if lang == "en" else "recibe"
                on = "on" if lang == "en" else "en"
                out[lang] = f"{pc(lang)} {on} {sq} {takes} {dmg}{note}."
        attacker = ctx.pieces.get(ctx.attacker)
        if attacker and attacker[0] != d["owner"] and ctx.attacker_at >= 0:
            out.update({"from": name(ctx.attacker_at), "to": sq})  # the page's attack arrow
        return out
    if k == "kill":
        sq = name(d["square"])
        ctx.pieces.pop(d["piece"], None)
        return {"en": f"{pc('en')} on {sq} is killed.", "es": f"{pc('es')} en {sq} es abatido."}
    if k == "pickup":
        relic = d["relic"]
        return {"en": f"{pc('en')} picks up {ctx.side(relic, 'en')}'s relic on "
                      f"{name(d['square'])}.",
                "es": f"{pc('es')} recoge la Reliquia de {ctx.side(relic, 'es')} en "
                      f"{name(d['square'])}."}
    if k == "drop":
        relic = d["relic"]
        return {"en": f"{ctx.side(relic, 'en')}'s relic is dropped on {name(d['square'])}.",
                "es": f"La Reliquia de {ctx.side(relic, 'es')} cae en {name(d['square'])}."}
    if k == "veil":
        return {"en": f"{pc('en')} on {name(d['square'])} is veiled: no move or step next turn.",
                "es": f"{pc('es')} en {name(d['square'])} queda velado: sin mover ni pasos "
                      "su próximo turno."}
    if k == "aegis":
        return {"en": f"{pc('en')} on {name(d['square'])} raises Aegis.",
                "es": f"{pc('es')} en {name(d['square'])} alza la Égida."}
    if k == "roll":
        return {"en": f"Die roll for {d['card']}: {d['face']}.",
                "es": f"Tirada de dado para {d['card']}: {d['face']}."}
    if k == "play":
        pl = d["player"]
        return {"en": f"{ctx.who(pl, 'en')} plays {d['card']} {MODE['en'][d['mode']]}.",
                "es": f"{ctx.who(pl, 'es')} juega {d['card']} {MODE['es'][d['mode']]}."}
    if k == "ruin_removed":
        return {"en": f"The Ruin on {name(d['square'])} is removed.",
                "es": f"Se quita la Ruina de {name(d['square'])}."}
    if k == "faction_clash":
        return {"en": "Both chose the same faction: both choose again.",
                "es": "Ambos eligieron la misma facción: eligen de nuevo."}
    if k == "factions":
        ctx.factions = list(d["factions"])
        names_en = [ctx.faction(f, "en") for f in d["factions"]]
        names_es = [ctx.faction(f, "es") for f in d["factions"]]
        return {"en": f"Factions revealed: Key — {names_en[0]}, Skull — {names_en[1]}.",
                "es": f"Facciones reveladas: Llave — {names_es[0]}, "
                      f"Calavera — {names_es[1]}."}
    if k == "first":
        pl = d["player"]
        return {"en": f"The waiting card {d['card']} names {ctx.side(pl, 'en')} first player.",
                "es": f"La carta en espera {d['card']} da el primer turno a "
                      f"{ctx.side(pl, 'es')}."}
    if k == "vigil":
        return {"en": f"End of round {d['round']}: the Vigil is at {d['value']}.",
                "es": f"Fin de la ronda {d['round']}: la Vigilia está en {d['value']}."}
    if k in CONDITIONS_EVENTS:  # Conditions (MODULES.md §4)
        return conditions_line(k, d, name, pc)
    if k in GLORY_EVENTS:  # Glory & Support (MODULES.md §5)
        return glory_line(k, d, ctx.side, name)
    if k in KEEPERS_EVENTS:  # Keepers' Relics (MODULES.md §6)
        return keepers_line(k, d, ctx.side, name,
                            pc if "owner" in d and "hero" in d else lambda lang: "")
    if k == "result":
        winner = d["winner"]
        res = {"winner": None if winner is None else SIDES[winner],
               "reason": d["reason"], "scores": d.get("scores")}
        return result_text(res)
    return None
