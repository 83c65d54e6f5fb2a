"""The print download's refusals carry the API's error body (docs/web.md: a refused
request answers `error` and a stable `code`): 400 `bad_request` for an unknown
paper or language, and 503 `unavailable` when the server cannot print. Issue 31,
sample K: the codes swapped passed every test, which read only the status and the
message."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from reliquary.web import create_app, print_routes


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'print.db'}", ai_delay=0)) as client:
        yield client


@pytest.mark.parametrize("params", [{"paper": "a3"}, {"lang": "fr"},
                                    {"paper": "letter", "lang": "xx"}])
def test_an_unknown_variant_is_a_bad_request(client: TestClient,
                                             params: dict[str, str]) -> None:
    response = client.get("/print.pdf", params=params)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "bad_request" and body["error"]


def test_a_server_that_cannot_print_says_it_is_unavailable(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(*args: object) -> bytes:
        raise ImportError("No module named 'reportlab'")

    monkeypatch.setattr(print_routes, "print_pdf_bytes", missing)
    response = client.get("/print.pdf", params={"paper": "a4", "lang": "en"})
    assert response.status_code == 503
    body = response.json()
    assert body["code"] == "unavailable"
    assert "the 'print' extra" in body["error"]
