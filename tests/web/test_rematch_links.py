"""The rematch link each viewer of a finished online game gets (docs/web.md, Rematch:
"the old game's view shows the opponent `rematch: {id, link}` with the new game's
invite (the requester sees a link with their own token, spectators a watch link)").
Issue 31, sample F: the invite shown to every viewer, spectators included, passed."""

from __future__ import annotations

import json

from reliquary.web.games import rematch_view

NEW = "n3w"
# The rematch as stored: the requester (Key in the old game) took a seat of the new game;
# the other seat waits for the opponent's invite.
STORED = json.dumps({"id": NEW, "seats": {"key": {"links": {"self": f"/g/{NEW}?t=mine"}}},
                     "invite": {"side": "skull", "code": "c0de"}})


def test_the_requester_gets_a_link_with_their_own_token() -> None:
    assert rematch_view(STORED, frozenset({0})) == {"id": NEW, "link": f"/g/{NEW}?t=mine"}


def test_the_opponent_gets_the_new_game_s_invite() -> None:
    assert rematch_view(STORED, frozenset({1})) == {"id": NEW,
                                                    "link": f"/g/{NEW}?invite=c0de"}


def test_a_spectator_gets_a_watch_link() -> None:
    assert rematch_view(STORED, frozenset()) == {"id": NEW, "link": f"/g/{NEW}"}


def test_an_invite_for_the_other_side_is_not_the_viewer_s() -> None:
    other = json.dumps({"id": NEW, "seats": {}, "invite": {"side": "key", "code": "c0de"}})
    assert rematch_view(other, frozenset({1})) == {"id": NEW, "link": f"/g/{NEW}"}


def test_no_rematch_no_link() -> None:
    assert rematch_view(None, frozenset({0})) is None
