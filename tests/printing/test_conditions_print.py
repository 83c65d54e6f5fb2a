"""Conditions in print (issue 23): with the module on, the tokens pages carry a marker row
per condition (the valued ones with their numbers), the table cards a condition reference
card and an INTERACT and Dread card, and the unique cards their rider reminders; the
rulebook has the module's section in English and Spanish. Without it, none of them."""

from __future__ import annotations

import io
from collections import Counter

import pdfplumber
import pytest

from reliquary.engine import Content, Settings
from reliquary.engine.modules.conditions import DATA
from reliquary.printing import PrintOptions, context_for, render_pdf
from reliquary.printing.conditions_print import UNVALUED, VALUES
from reliquary.printing.rulebook import rulebook_text


def _pdf_text(content: Content, lang: str, modules: tuple[str, ...],
              sheets: tuple[str, ...] | None = None) -> tuple[str, list[str]]:
    options = PrintOptions(lang=lang, settings=Settings(size=8, modules=modules),
                           **({"sheets": sheets} if sheets else {}))
    pdf = pdfplumber.open(io.BytesIO(render_pdf(context_for(options, content))))
    text = " ".join(" ".join((page.extract_text() or "").split()) for page in pdf.pages)
    words = [w["text"] for page in pdf.pages for w in page.extract_words()]
    return text, words


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_condition_name_and_number_is_in_the_pdf(content: Content, lang: str) -> None:
    text, words = _pdf_text(content, lang, ("conditions",))
    counts = Counter(words)
    numbers = Counter(str(v) for c in DATA.condition if c.valued and not c.core for v in VALUES)
    for number, count in numbers.items():
        assert counts[number] >= count
    for cond in DATA.condition:
        if cond.core:
            continue
        name = cond.name.en if lang == "en" else cond.name.es
        assert name in text, name
        # its marker row (the valued markers name it under the number) and the card's line
        assert text.count(name) >= (len(VALUES) if cond.valued else UNVALUED), name
    for action in DATA.action:
        assert (action.name.en if lang == "en" else action.name.es) in text
    rider = "Rider (Conditions):" if lang == "en" else "Efecto añadido (Condiciones):"
    assert text.count(rider) == len({r.card for r in DATA.rider})
    card = "Interact and Dread" if lang == "en" else "Interactuar y Pavor"
    assert card in text


def test_nothing_of_the_module_without_it(content: Content) -> None:
    text, _ = _pdf_text(content, "en", ())
    assert "Rider (Conditions)" not in text and "Condition markers" not in text
    assert "Interact and Dread" not in text


@pytest.mark.parametrize(("lang", "heading", "words"), [
    ("en", "## Optional module: Conditions", ("Burning", "Poison", "FOCUS", "Dread")),
    ("es", "## Módulo opcional: Condiciones", ("Ardiente", "Veneno", "CONCENTRARSE", "Pavor")),
])
def test_the_rulebook_has_the_module_in_both_languages(lang: str, heading: str,
                                                       words: tuple[str, ...]) -> None:
    text = rulebook_text(lang)
    assert heading in text
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    for word in words:
        assert word in section
