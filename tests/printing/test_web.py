"""The rules page's download: ``GET /print.pdf?paper=…&lang=…``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import reliquary.printing
from reliquary.web import create_app

from .conftest import MM, open_printed


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'print.db'}", ai_delay=0)) as client:
        yield client


def test_print_pdf_is_served_per_variant_and_cached(client: TestClient, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[tuple[str, str]] = []
    real = reliquary.printing.render_pdf

    def counting(ctx: Any) -> bytes:
        drawn.append((ctx.options.paper, ctx.options.lang))
        return real(ctx)

    monkeypatch.setattr(reliquary.printing, "render_pdf", counting)
    response = client.get("/print.pdf", params={"paper": "letter", "lang": "en"})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/pdf"
    assert "reliquary-en-letter.pdf" in response.headers["content-disposition"]
    path = tmp_path / "download.pdf"
    path.write_bytes(response.content)
    first = open_printed(path).pages[0]
    assert abs(first.width / MM - 215.9) < 0.05 and abs(first.height / MM - 279.4) < 0.05
    assert "Pilgrim" in first.extract_text() and "opponent" in first.extract_text()
    assert drawn in ([], [("letter", "en")])  # drawn now, or by an earlier test here
    before = len(drawn)
    again = client.get("/print.pdf", params={"paper": "letter", "lang": "en"})
    assert again.content == response.content
    assert len(drawn) == before  # from the cache, not drawn again


def test_print_pdf_refuses_unknown_variants(client: TestClient) -> None:
    response = client.get("/print.pdf", params={"paper": "a3"})
    assert response.status_code == 400
    assert "paper must be one of a4, letter" in response.json()["error"]
    response = client.get("/print.pdf", params={"lang": "fr"})
    assert response.status_code == 400 and "lang" in response.json()["error"]


def test_each_language_and_paper_is_its_own_download(client: TestClient, tmp_path: Path) -> None:
    english = client.get("/print.pdf", params={"paper": "letter", "lang": "en"})
    spanish = client.get("/print.pdf", params={"paper": "letter", "lang": "es"})
    a4 = client.get("/print.pdf", params={"paper": "a4", "lang": "es"})
    assert english.status_code == spanish.status_code == a4.status_code == 200
    assert len({english.content, spanish.content, a4.content}) == 3
    path = tmp_path / "es.pdf"
    path.write_bytes(spanish.content)
    first = open_printed(path).pages[0]
    assert abs(first.width / MM - 215.9) < 0.05  # Letter, as asked
    assert "opponent" not in first.extract_text()  # Spanish, not the English set
