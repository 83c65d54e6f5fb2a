"""Glory & Support in print (issue 25): with the module on, the table sheet carries the
twelve objective cards and the five upgrade cards (at the cards' size, drawn from
glory.toml), the tokens pages the objective markers, the Shrine and a Glory track; the
rulebook has the module's section in English and Spanish."""

from __future__ import annotations

import io

import pdfplumber
import pytest

from reliquary.engine import Content, Settings
from reliquary.engine.modules.glory import DATA
from reliquary.printing import PrintOptions, context_for, render_pdf
from reliquary.printing.cards import table_faces
from reliquary.printing.common import CARD_H, CARD_W, mm
from reliquary.printing.rulebook import rulebook_text
from reliquary.printing.tokens import token_groups


def _text(content: Content, lang: str, sheets: tuple[str, ...]) -> str:
    options = PrintOptions(sheets=sheets, lang=lang,
                           settings=Settings(size=8, modules=("glory",)))
    pdf = pdfplumber.open(io.BytesIO(render_pdf(context_for(options, content))))
    return "\n".join(page.extract_text() or "" for page in pdf.pages)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_objective_and_upgrade_card_is_in_the_pdf(content: Content, lang: str) -> None:
    text = _text(content, lang, ("table",)).replace("\n", " ")
    flat = " ".join(text.split())
    for o in DATA.objective:
        assert getattr(o.name, lang) in flat, o.id  # the card's title: its name
        words = (o.en if lang == "en" else o.es).split()
        assert " ".join(words[:4]) in flat, o.id  # the card's condition, as written
    for u in DATA.upgrade:
        assert getattr(u.name, lang) in flat, u.id
    assert ("Surge" if lang == "en" else "Oleada") in flat


def test_the_cards_are_card_sized_and_the_tokens_are_there(content: Content) -> None:
    assert (round(CARD_W / mm, 1), round(CARD_H / mm, 1)) == (63.5, 88.9)
    ctx = context_for(PrintOptions(lang="en", settings=Settings(size=8, modules=("glory",))),
                      content)
    ids = [f.key for f in table_faces(ctx)]
    assert sum(1 for i in ids if i.startswith("glory-objective-")) == 12
    assert sum(1 for i in ids if i.startswith("glory-upgrade-")) == 5
    groups = token_groups(ctx)
    markers = next(g for g in groups if g.title.startswith("Objective markers"))
    assert len(markers.painters) == max(r.markers for r in DATA.table) + 1  # + the Shrine
    track = next(g for g in groups if g.title.startswith("Glory track"))
    assert len(track.painters) == 21
    plain = context_for(PrintOptions(lang="en", settings=Settings(size=8)), content)
    assert not any(f.key.startswith("glory-") for f in table_faces(plain))


def test_the_tokens_pages_show_the_shrine(content: Content) -> None:
    assert "SHRINE" in _text(content, "en", ("tokens",))
    assert "SANTUARIO" in _text(content, "es", ("tokens",))


@pytest.mark.parametrize(("lang", "heading", "words"), [
    ("en", "## Optional module: Glory & Support", ("End phase", "Support", "Honed Edge")),
    ("es", "## Módulo opcional: Gloria y Apoyo", ("fase final", "Apoyo", "Filo templado")),
])
def test_the_rulebook_has_the_module_in_both_languages(lang: str, heading: str,
                                                       words: tuple[str, ...]) -> None:
    text = rulebook_text(lang)
    assert heading in text
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    for word in words:
        assert word in section
