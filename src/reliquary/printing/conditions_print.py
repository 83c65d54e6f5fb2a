"""Conditions (MODULES.md §4) to print: condition markers (the valued ones with their
numbers), a condition reference card and an INTERACT and Dread card, and the rider
reminders on the unique attack cards, when the printed game has the module on. Every
name and text comes from the module's data (``data/conditions.toml``)."""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from ..content import HelpCard, HelpLine, TableText
from ..engine.modules.conditions import DATA, ConditionData, RiderData
from .common import INK, Context, Painter, draw_text, mm

#: Each condition's colour (the web's markers too).
COLORS = {"burning": "#f4a261", "poison": "#90be6d", "fast": "#8ecae6", "slow": "#bdb2ff",
          "paralyzed": "#adb5bd", "focus": "#ffd166", "defensive": "#e5e5e5"}
#: How many markers of each value a valued condition gets, and of an unvalued one.
VALUES = (1, 1, 2, 2, 3)
UNVALUED = 5

LABELS = {
    "en": {"markers": "Condition markers: {name} (Conditions module)",
           "card": "Conditions", "actions_card": "Interact and Dread",
           "rider": "Rider (Conditions):", "target": "the target gains",
           "pulse": "every enemy it pushes gains", "attacker": "the attacker gains",
           "hero": "Hero", "minion": "Minion", "roll": "roll",
           "dread": "**Dread.** Declaring an enemy relic carrier as a target rolls a die "
                    "first: at least {tn} passes; less ends the attack and Paralyzes the "
                    "attacker in its next turn (Heroes are immune but still test).",
           "upkeep": "**Upkeep** (the round's end): Burning N deals N damage (Aegis "
                     "prevents, Defensive reduces), then goes; Poison takes 1 HP, then "
                     "drops by 1."},
    "es": {"markers": "Marcadores de Condición: {name} (módulo Condiciones)",
           "card": "Condiciones", "actions_card": "Interactuar y Pavor",
           "rider": "Efecto añadido (Condiciones):", "target": "el objetivo gana",
           "pulse": "cada enemigo que empuja gana", "attacker": "el atacante gana",
           "hero": "Héroe", "minion": "Esbirro", "roll": "tirada",
           "dread": "**Pavor.** Declarar como objetivo a un portador de la reliquia "
                    "enemiga obliga antes a tirar un dado: {tn} o más lo supera; menos "
                    "acaba el ataque y Paraliza al atacante en su siguiente turno (los "
                    "Héroes son inmunes pero tiran igual).",
           "upkeep": "**Mantenimiento** (final de la ronda): Ardiente N hace N de daño "
                     "(Égida lo previene, Defensiva lo reduce) y se retira; Veneno quita "
                     "1 PV y baja en 1."},
}


def _words(ctx: Context) -> dict[str, str]:
    return LABELS["es" if ctx.lang == "es" else "en"]


def _name(ctx: Context, cond: ConditionData) -> str:
    return cond.name.get(ctx.lang)


def _conditions() -> list[ConditionData]:
    return [c for c in DATA.condition if not c.core]


def _marker(ctx: Context, cond: ConditionData, value: int) -> Painter:
    def paint(c: Canvas, cx: float, cy: float, d: float) -> None:
        c.setFillColor(colors.HexColor(COLORS.get(cond.id, "#dddddd")))
        c.setStrokeColor(INK)
        c.setLineWidth(0.6)
        c.roundRect(cx - d / 2, cy - d / 2, d, d, d * 0.18, stroke=1, fill=1)
        label = _name(ctx, cond)
        if value:
            draw_text(c, str(value), cx, cy - d * 0.05, d / mm * 0.9, bold=True, color=INK,
                      align="center")
            draw_text(c, label, cx, cy - d * 0.38, d / mm * 0.3, color=INK, align="center",
                      max_width=d * 0.9)
        else:
            draw_text(c, label, cx, cy - d * 0.08, d / mm * 0.34, bold=True, color=INK,
                      align="center", max_width=d * 0.9)
    return paint


def conditions_groups(ctx: Context) -> list[tuple[str, float, list[Painter], bool]]:
    """(title, size, painters, square) of each row of condition markers."""
    words = _words(ctx)
    groups = []
    for cond in _conditions():
        values = VALUES if cond.valued else (0,) * UNVALUED
        groups.append((words["markers"].format(name=_name(ctx, cond)), 13 * mm,
                       [_marker(ctx, cond, v) for v in values], True))
    return groups


def _rider_text(ctx: Context, rider: RiderData) -> str:
    words = _words(ctx)
    cond = next(c for c in DATA.condition if c.id == rider.condition)
    gains = words["pulse" if rider.shape == "pulse" else rider.to]
    value = f" {rider.value}" if rider.value else ""
    who = {"hero": f"{words['hero']}: ", "minion": f"{words['minion']}: "}.get(rider.line, "")
    faces = f"{words['roll']} {'–'.join(str(f) for f in (rider.faces[0], rider.faces[-1]))}: " \
        if rider.faces else ""
    return f"{who}{faces}{gains} {_name(ctx, cond)}{value}"


def rider_reminder(ctx: Context, card_id: str) -> str | None:
    """The card's riders in a line (markup), or None: printed under the attack text."""
    if "conditions" not in ctx.options.rules.modules:
        return None
    riders = [r for r in DATA.rider if r.card == card_id]
    if not riders:
        return None
    text = "; ".join(_rider_text(ctx, r) for r in riders)
    return f"<b>{_words(ctx)['rider']}</b> {text}."


def _line(en: str, es: str) -> HelpLine:
    return HelpLine(en=en.replace("{", "{{").replace("}", "}}"),
                    es=es.replace("{", "{{").replace("}", "}}"))


def conditions_cards(ctx: Context) -> list[HelpCard]:
    """The condition reference card, and the card of INTERACT's actions and Dread."""
    if "conditions" not in ctx.options.rules.modules:
        return []
    en, es = LABELS["en"], LABELS["es"]
    lines = [_line(f"**{c.name.en}{' N' if c.valued else ''}**: {c.text.en.split(': ', 1)[-1]}",
                   f"**{c.name.es}{' N' if c.valued else ''}**: {c.text.es.split(': ', 1)[-1]}")
             for c in _conditions()]
    reference = HelpCard(id="conditions", title=TableText(en=en["card"], es=es["card"]),
                         lines=tuple(lines))
    tn = ctx.options.rules.option("conditions.dread_tn")
    enabled = set(ctx.options.rules.option("conditions.actions"))
    actions = [_line(f"**{a.name.en}**: {a.text.en.split(': ', 1)[-1]}",
                     f"**{a.name.es}**: {a.text.es.split(': ', 1)[-1]}")
               for a in DATA.action if a.id in enabled]
    actions.append(_line(en["upkeep"], es["upkeep"]))
    if ctx.options.rules.option("conditions.dread") != "none":
        actions.append(_line(en["dread"].format(tn=tn), es["dread"].format(tn=tn)))
    interact = HelpCard(id="conditions-actions",
                        title=TableText(en=en["actions_card"], es=es["actions_card"]),
                        lines=tuple(actions))
    return [reference, interact]
