"""The rules page's download: ``GET /print.pdf?paper=…&lang=…``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from reliquary.web import create_app

from .conftest import MM, open_printed


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'print.db'}", ai_delay=0)) as client:
        yield client


def test_print_pdf_is_served_per_variant_and_cached(client: TestClient, tmp_path: Path) -> None:
    response = client.get("/print.pdf", params={"paper": "letter", "lang": "en"})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/pdf"
    assert "reliquary-en-letter.pdf" in response.headers["content-disposition"]
    path = tmp_path / "download.pdf"
    path.write_bytes(response.content)
    first = open_printed(path).pages[0]
    assert abs(first.width / MM - 215.9) < 0.05 and abs(first.height / MM - 279.4) < 0.05
    assert "Pilgrim" in first.extract_text() and "opponent" in first.extract_text()
    start = time.perf_counter()
    again = client.get("/print.pdf", params={"paper": "letter", "lang": "en"})
    assert again.content == response.content
    assert time.perf_counter() - start < 0.5  # from the cache, not drawn again


def test_print_pdf_refuses_unknown_variants(client: TestClient) -> None:
    response = client.get("/print.pdf", params={"paper": "a3"})
    assert response.status_code == 400
    assert "paper must be one of a4, letter" in response.json()["error"]
    response = client.get("/print.pdf", params={"lang": "fr"})
    assert response.status_code == 400 and "lang" in response.json()["error"]
