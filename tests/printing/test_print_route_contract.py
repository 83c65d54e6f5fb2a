"""The print download's contract, value by value (issue 31, by class). From
docs/print.md ("From the web game") and the module's docstrings: ``GET /print.pdf``
with ``paper`` a4 (the default) or letter and ``lang`` es (the default) or en answers
the whole print set of the server's content (board 8 × 8) as an attachment named
``reliquary-<lang>-<paper>.pdf``, cacheable for an hour; each variant — content,
paper and language — is drawn once per process and then served from memory; a bad
variant is a 400 naming the values allowed and the one given (cut short).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

import reliquary.printing
from reliquary.content import default_content
from reliquary.web import create_app, print_routes


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'print.db'}", ai_delay=0)) as client:
        yield client


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """An empty cache, and each drawing recorded (content, paper, lang, board) instead
    of made: the PDF is its own description."""
    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(print_routes, "_cache", {})

    def render(ctx: Any) -> bytes:
        calls.append((ctx.content.fingerprint, ctx.options.paper, ctx.options.lang,
                      ctx.options.size))
        return f"%PDF {ctx.options.paper} {ctx.options.lang} {len(calls)}".encode()

    monkeypatch.setattr(reliquary.printing, "render_pdf", render)
    return calls


def test_each_variant_is_drawn_once_and_kept(drawn: list[tuple[Any, ...]]) -> None:
    content = default_content()
    # another content (a larger hand), with a fingerprint of its own
    other = type(content).model_validate({**content.model_dump(),
                                          "hand_size": content.hand_size + 1})
    assert other.fingerprint != content.fingerprint
    first = print_routes.print_pdf_bytes(content, "a4", "es")
    assert first == b"%PDF a4 es 1"
    assert drawn == [(content.fingerprint, "a4", "es", 8)]
    assert print_routes.print_pdf_bytes(content, "a4", "es") is first  # kept
    assert print_routes.print_pdf_bytes(content, "a4", "en") == b"%PDF a4 en 2"
    assert print_routes.print_pdf_bytes(content, "letter", "es") == b"%PDF letter es 3"
    assert print_routes.print_pdf_bytes(other, "a4", "es") == b"%PDF a4 es 4"
    for _ in range(2):
        assert print_routes.print_pdf_bytes(content, "letter", "es") == b"%PDF letter es 3"
        assert print_routes.print_pdf_bytes(other, "a4", "es") == b"%PDF a4 es 4"
    assert len(drawn) == 4
    assert set(print_routes._cache) == {(content.fingerprint, "a4", "es"),
                                        (content.fingerprint, "a4", "en"),
                                        (content.fingerprint, "letter", "es"),
                                        (other.fingerprint, "a4", "es")}


def test_a_variant_drawn_while_one_waited_is_read_not_drawn_again(
        drawn: list[tuple[Any, ...]], monkeypatch: pytest.MonkeyPatch) -> None:
    """A second request for a variant being drawn waits for the lock, then finds it
    kept: the check is made again under the lock."""
    content = default_content()
    key = (content.fingerprint, "a4", "en")

    class Late(dict):  # type: ignore[type-arg]
        """Empty at the first look (before the lock), then holding the drawing."""

        looked = False

        def get(self, k: Any, default: Any = None) -> Any:
            if not self.looked:
                self.looked = True
                self[key] = b"drawn by the other request"
                return None
            return super().get(k, default)

    monkeypatch.setattr(print_routes, "_cache", Late())
    assert print_routes.print_pdf_bytes(content, "a4", "en") == b"drawn by the other request"
    assert drawn == []


def test_a_kept_variant_is_read_without_the_drawing_lock(
        drawn: list[tuple[Any, ...]], monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a drawing takes the lock: a kept variant never waits behind another
    variant's drawing (the module's docstring: drawn once, then served from memory)."""
    taken: list[str] = []

    class Lock:
        def __enter__(self) -> None:
            taken.append("lock")

        def __exit__(self, *exc: object) -> None:
            taken.append("unlock")

    monkeypatch.setattr(print_routes, "_lock", Lock())
    content = default_content()
    print_routes.print_pdf_bytes(content, "a4", "en")
    assert taken == ["lock", "unlock"] and len(drawn) == 1
    for _ in range(3):
        assert print_routes.print_pdf_bytes(content, "a4", "en") == b"%PDF a4 en 1"
    assert taken == ["lock", "unlock"] and len(drawn) == 1


def test_the_download_s_defaults_name_and_headers(client: TestClient,
                                                  drawn: list[tuple[Any, ...]]) -> None:
    response = client.get("/print.pdf")
    assert response.status_code == 200
    assert response.content == b"%PDF a4 es 1"
    assert response.headers["content-type"] == "application/pdf"
    assert response.headers["content-disposition"] == (
        'attachment; filename="reliquary-es-a4.pdf"')
    assert response.headers["cache-control"] == "public, max-age=3600"
    response = client.get("/print.pdf", params={"paper": "letter", "lang": "en"})
    assert response.headers["content-disposition"] == (
        'attachment; filename="reliquary-en-letter.pdf"')
    assert response.content == b"%PDF letter en 2"
    assert client.get("/print.pdf", params={"lang": "en"}).headers[
        "content-disposition"] == 'attachment; filename="reliquary-en-a4.pdf"'
    assert client.get("/print.pdf", params={"paper": "letter"}).headers[
        "content-disposition"] == 'attachment; filename="reliquary-es-letter.pdf"'
    assert [d[1:3] for d in drawn] == [("a4", "es"), ("letter", "en"), ("a4", "en"),
                                       ("letter", "es")]


def test_the_server_s_content_is_printed(client: TestClient, monkeypatch: pytest.MonkeyPatch,
                                         drawn: list[tuple[Any, ...]]) -> None:
    asked: list[Any] = []

    def record(content: Any, paper: str, lang: str) -> bytes:
        asked.append((content, paper, lang))
        return b"%PDF"

    monkeypatch.setattr(print_routes, "print_pdf_bytes", record)
    mine = SimpleNamespace(fingerprint="mine")
    state = client.app.state  # type: ignore[attr-defined]
    real = state.manager
    assert client.get("/print.pdf").status_code == 200
    assert asked[-1] == (real.content, "a4", "es")
    monkeypatch.setattr(state, "manager", SimpleNamespace(content=mine))  # put back after
    client.get("/print.pdf", params={"paper": "letter", "lang": "en"})
    assert asked[-1] == (mine, "letter", "en")
    for without in (SimpleNamespace(content=None), None):  # no content: the package's
        monkeypatch.setattr(state, "manager", without)
        client.get("/print.pdf")
        assert asked[-1][0] is default_content()
    monkeypatch.delattr(state, "manager")
    client.get("/print.pdf")
    assert asked[-1][0] is default_content()


@pytest.mark.parametrize(("params", "message"), [
    ({"paper": "a3"}, "paper must be one of a4, letter, not 'a3'"),
    ({"paper": "A4"}, "paper must be one of a4, letter, not 'A4'"),
    ({"paper": ""}, "paper must be one of a4, letter, not ''"),
    ({"lang": "fr"}, "lang must be one of es, en, not 'fr'"),
    ({"paper": "letter", "lang": "EN"}, "lang must be one of es, en, not 'EN'"),
    ({"paper": "x" * 30}, "paper must be one of a4, letter, not 'xxxxxxxxxxxxxxxxxxx… "
                          "(32 characters)"),
    ({"paper": "a3", "lang": "fr"}, "paper must be one of a4, letter, not 'a3'")])
def test_a_bad_variant_names_what_is_allowed(client: TestClient,
                                             drawn: list[tuple[Any, ...]],
                                             params: dict[str, str], message: str) -> None:
    response = client.get("/print.pdf", params=params)
    assert response.status_code == 400
    assert response.json() == {"error": message, "code": "bad_request"}
    assert drawn == []


def test_a_server_without_the_print_extra(client: TestClient,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(*args: object) -> bytes:
        raise ImportError("No module named 'reportlab'")

    monkeypatch.setattr(print_routes, "print_pdf_bytes", missing)
    response = client.get("/print.pdf")
    assert response.status_code == 503
    assert response.json() == {
        "error": "printing is not installed on this server (the 'print' extra): "
                 "No module named 'reportlab'", "code": "unavailable"}
    assert print_routes.PAPERS == ("a4", "letter") and print_routes.LANGS == ("es", "en")
