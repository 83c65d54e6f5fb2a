"""Keepers' Relics in print (issue 24): with the module on, the tokens pages carry the
twelve relic tokens with both faces (type on the back, value on the face), the two
Wayshrines, their type markers and a points track; the rulebook has the module's section
in English and Spanish (and the rules page shows the rulebook)."""

from __future__ import annotations

import io
import re
from collections import Counter

import pdfplumber
import pytest

from reliquary.engine import Content, Settings
from reliquary.engine.modules.keepers import DATA
from reliquary.printing import PrintOptions, context_for, render_pdf
from reliquary.printing.rulebook import rulebook_text
from reliquary.printing.tokens import token_groups


def _words(content: Content, lang: str, modules: tuple[str, ...]) -> list[str]:
    options = PrintOptions(sheets=("tokens",), lang=lang,
                           settings=Settings(size=8, modules=modules))
    pdf = pdfplumber.open(io.BytesIO(render_pdf(context_for(options, content))))
    return [w["text"] for page in pdf.pages for w in page.extract_words()]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_all_twelve_tokens_both_faces_are_in_the_pdf(content: Content, lang: str) -> None:
    words = Counter(_words(content, lang, ("keepers",)))
    for t in DATA.relic_type:
        name = t.name.en if lang == "en" else t.name.es
        assert words[name.upper()] == len(t.values)  # the backs: the type, four of each
        assert words[name] >= len(t.values)  # the faces name their type under the value
    values = Counter(v for t in DATA.relic_type for v in t.values)
    shrine = "WAYSHRINE" if lang == "en" else "ERMITA"
    assert words[shrine] == 2
    for value, count in values.items():  # each face's value (the track's numbers too)
        assert words[str(value)] >= count


def test_no_keepers_tokens_without_the_module(content: Content) -> None:
    words = Counter(_words(content, "en", ()))
    assert words["ICON"] == 0 and words["WAYSHRINE"] == 0
    ctx = context_for(PrintOptions(lang="en", settings=Settings(size=8,
                                                                modules=("keepers",))), content)
    groups = token_groups(ctx)
    faces = next(g for g in groups if g.title.startswith("Relic tokens, faces"))
    assert len(faces.painters) == 12


@pytest.mark.parametrize(("lang", "heading", "words"), [
    ("en", "## Optional module: Keepers' Relics", ("Delve", "Devout", "Prize", "Wayshrine")),
    ("es", "## Módulo opcional: Reliquias de los Guardianes",
     ("Excavar", "Devoto", "Botín", "Ermita")),
])
def test_the_rulebook_has_the_module_in_both_languages(lang: str, heading: str,
                                                       words: tuple[str, ...]) -> None:
    text = rulebook_text(lang)
    section = text[text.index(heading):]
    for word in words:
        assert re.search(rf"\b{word}\b", section), word
