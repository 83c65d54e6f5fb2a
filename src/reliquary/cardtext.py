"""Card text from the numbers: attack and passive texts put together from the content.

The texts of movement cards and factions are not free text beside the numbers: they
are built from the attack lines (damage, push, pull, range, LoS, riders, roll tables)
with the designer's wording kept as templates in ``data/card_text.toml``. A changed
number therefore changes the text of ``rules``, the print, the help and the web alike.

>>> wording = load_wording()
>>> bolt = AttackLine(effect="strike", damage=3, range=2, los=True)
>>> line_text(wording, "en", "hero", bolt).prose()
'Hero: 3 damage, range 2, LoS.'

Where a designer still writes a text (``text`` of a card's attack or of a faction),
:func:`check_numbers` makes sure it names the same numbers as the data.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from .engine import AttackLine, ContentError, Faction
from .engine.content import Attack, ChanceRow

LANGS = ("en", "es")
WORDING_FILE = "card_text.toml"
PULL_UNTIL_ADJACENT = 99  # the data's "pull until adjacent" (Hook)
ROLES = ("hero", "minion", "any")


class Wording(BaseModel):
    """The templates of one language (a table of ``card_text.toml``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    hero: str
    minion: str
    any: str
    passive: str
    damage: str
    push: str
    pull: str
    plus: str
    adjacent: str
    range: str
    enemy_at: str
    los: str
    after_step: str
    two_targets: str
    kill_step: str
    swap_minion: str
    pull_until: str
    strict_los: str
    gale: str
    veil: str
    passage: str
    aegis: str
    ordeal: str
    rapture: str
    faces_or: str
    miss: str
    self_damage: str
    both: str
    steps: str
    steps_many: str
    up_to_steps: str
    hero_hp: str
    grave_return: str
    lantern_step: str


class WordingFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    content: str
    en: Wording
    es: Wording

    def lang(self, lang: str) -> Wording:
        return self.es if lang == "es" else self.en


@cache
def _packaged_wording() -> WordingFile:
    text = resources.files("reliquary.data").joinpath(WORDING_FILE).read_text(encoding="utf-8")
    return _parse_wording(WORDING_FILE, text)


def load_wording(folder: str | Path | None = None) -> WordingFile:
    """The templates: ``card_text.toml`` of ``folder`` if it has one, else the package's."""
    path = Path(folder) / WORDING_FILE if folder is not None else None
    if path is None or not path.exists():
        return _packaged_wording()
    return _parse_wording(str(path), path.read_text(encoding="utf-8"))


def _parse_wording(name: str, text: str) -> WordingFile:
    try:
        return WordingFile.model_validate(tomllib.loads(text))
    except tomllib.TOMLDecodeError as err:
        raise ContentError(f"{name}: not valid TOML: {err}") from None
    except ValidationError as err:
        problems = []
        for e in err.errors():
            where = ".".join(str(p) for p in e["loc"])
            what = "missing" if e["type"] == "missing" else (
                "not a template of the card text" if e["type"] == "extra_forbidden"
                else "must be a text")
            problems.append(f"{name}: '{where}': {what}")
        raise ContentError("\n".join(problems)) from None


# -- the text of one line -----------------------------------------------------------
@dataclass(frozen=True)
class TextLine:
    """One line of a card («Héroe: …»): its role label, its text and any roll table.

    ``before`` and ``after`` surround the table: ``rows`` are (faces, outcome) pairs,
    printed as a table and told as prose elsewhere.
    """

    label: str
    before: str
    rows: tuple[tuple[str, str], ...] = ()
    after: str = ""

    def prose(self) -> str:
        table = "; ".join(f"{faces} {outcome}" for faces, outcome in self.rows)
        body = _sentence(f"{self.before} {table}{self.after}" if self.rows else self.before)
        return f"{self.label} {body}"


@dataclass(frozen=True)
class CardText:
    """A card's or faction's whole text: its lines in order."""

    lines: tuple[TextLine, ...] = field(default_factory=tuple)

    def prose(self) -> str:
        return " ".join(line.prose() for line in self.lines)


def _sentence(text: str) -> str:
    """End a text with a full stop unless it already ends one (also «.)»)."""
    text = text.strip()
    return text if text.endswith((".", ".)")) else text + "."


def _faces(w: Wording, faces: tuple[int, ...]) -> str:
    names = [str(f) for f in sorted(faces)]
    if len(names) == 1:
        return names[0]
    return w.faces_or.format(a=", ".join(names[:-1]), b=names[-1])


def _outcome(w: Wording, row: ChanceRow) -> str:
    parts = []
    if row.damage:
        parts.append(w.damage.format(n=row.damage))
    elif row.self_damage:
        parts.append(w.miss)
    if row.self_damage:
        parts.append(w.self_damage.format(n=row.self_damage))
    if row.steps:
        template = w.up_to_steps if row.up_to else (w.steps if row.steps == 1 else w.steps_many)
        parts.append(template.format(n=row.steps))
    if not parts:
        parts.append(w.miss)
    text = parts[0]
    for part in parts[1:]:
        text = w.both.format(a=text, b=part)
    return text


def _with_table(w: Wording, template: str, line: AttackLine, **fields: object
                ) -> tuple[str, tuple[tuple[str, str], ...], str]:
    """Fill a template holding ``{table}``: the text before it, the rows, the text after."""
    before, _, after = template.partition("{table}")
    rows = tuple((_faces(w, row.faces), _outcome(w, row)) for row in line.table)
    return before.format(**fields).rstrip(), rows, after.format(**fields)


def _strike(w: Wording, line: AttackLine, name: str) -> str:
    los = f", {w.los}" if line.los else ""
    if line.pull >= PULL_UNTIL_ADJACENT:
        text = w.pull_until.format(range=line.range, los=los)
        if line.damage:
            text = w.damage.format(n=line.damage) + w.plus + text
    else:
        effects = [w.damage.format(n=line.damage)] if line.damage else []
        if line.push:
            effects.append(w.push.format(n=line.push))
        if line.pull:
            effects.append(w.pull.format(n=line.pull))
        if line.range == 1:
            reach = w.adjacent
        elif line.push or line.pull:
            reach = w.enemy_at.format(n=line.range)
        else:
            reach = w.range.format(n=line.range)
        parts = [w.plus.join(effects), reach] if effects else [reach]
        if line.los:
            parts.append(w.los)
        if line.after_step:
            parts.append(w.after_step)
        if line.targets == 2:
            parts.append(w.two_targets)
        text = ", ".join(parts)
        if line.kill_step:
            text += "; " + w.kill_step
        if line.swap_minion_range:
            text += "; " + w.swap_minion.format(n=line.swap_minion_range)
    if line.strict_los:
        text = _sentence(text) + " " + w.strict_los.format(name=name)
    return text


def line_text(wording: WordingFile, lang: str, role: str, line: AttackLine,
              name: str = "") -> TextLine:
    """The text of one attack line in ``lang``; ``role`` is hero, minion or any."""
    w = wording.lang(lang)
    label = getattr(w, role)
    los = f", {w.los}" if line.los else ""
    if line.effect == "strike":
        return TextLine(label, _strike(w, line, name))
    if line.effect in ("ordeal", "rapture"):
        template = w.ordeal if line.effect == "ordeal" else w.rapture
        before, rows, after = _with_table(w, template, line, range=line.range, los=los)
        return TextLine(label, before, rows, after)
    templates = {"gale": w.gale, "veil": w.veil, "passage": w.passage, "aegis": w.aegis}
    return TextLine(label, templates[line.effect].format(n=line.push, range=line.range,
                                                         los=los))


def attack_text(wording: WordingFile, lang: str, attack: Attack | dict[str, AttackLine],
                name: str = "") -> CardText:
    """The text of a unique card's attack (its hero and minion lines, or its any line)."""
    lines = attack if isinstance(attack, dict) else {
        role: getattr(attack, role) for role in ROLES if getattr(attack, role) is not None}
    return CardText(tuple(line_text(wording, lang, role, line, name)
                          for role, line in lines.items()))


DEFAULT_HERO_HP = int(Faction.model_fields["hero_hp"].default)


def faction_text(wording: WordingFile, lang: str, hero: AttackLine, minion: AttackLine,
                 hero_hp: int = DEFAULT_HERO_HP, passive: str = "none", name: str = ""
                 ) -> CardText:
    """A faction's text: its Hero and Minion lines, then its passive (and a Hero's other HP)."""
    w = wording.lang(lang)
    lines = [line_text(wording, lang, "hero", hero, name),
             line_text(wording, lang, "minion", minion, name)]
    passives = []
    if hero_hp != DEFAULT_HERO_HP:
        passives.append(w.hero_hp.format(n=hero_hp))
    if passive in ("grave_return", "lantern_step"):
        passives.append(getattr(w, passive))
    if passives:
        lines.append(TextLine(w.passive, "; ".join(passives)))
    return CardText(tuple(lines))


# -- designers' free text: the same numbers as the data ---------------------------------
_NUMBER = re.compile(r"\d+")


def numbers_in(text: str) -> list[int]:
    """The whole numbers a text names, in order."""
    return [int(n) for n in _NUMBER.findall(text)]


def check_numbers(given: str, generated: str) -> str | None:
    """``None`` when a designer's text names the same numbers as the generated one,
    else what differs (for an error naming the file and field)."""
    have, want = sorted(numbers_in(given)), sorted(numbers_in(generated))
    if have == want:
        return None
    shown = ", ".join(map(str, have)) or "none"
    return (f"the text names the numbers {shown} but the data gives "
            f"{', '.join(map(str, want)) or 'none'} (as in: {generated!r})")
