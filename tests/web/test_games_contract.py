"""The game keeper's small pieces, value by value (web/games.py; issue 31, by class: the
lines its set never ran): which seats a token decides for (both, one, a spectator, a
wrong token, not a string); the settings' refusals, each naming what is wrong; a stored
concession replayed (a loss on time, a resignation, a draw by agreement) and only on an
unfinished game; a module's choice listing what each option would do, for its owner
only; a decision answered from the options the last view listed, and read afresh once
the game moved on; and the view's JSON with its log spliced in."""

from __future__ import annotations

import json
from typing import Any

import pytest

from reliquary.content import default_content
from reliquary.engine import Builder, Content, Play, State
from reliquary.web.db import GameRow
from reliquary.web.errors import encode_json
from reliquary.web.games import Session, new_session, settings_from, view, view_json
from reliquary.web.module_preview import decision_notes

KEY, SKULL = 0, 1
TOKENS = {"both": "tb", "key": "tk", "skull": "ts", "spectator": "tw", "invite": "ti"}


def _row(mode: str = "hotseat", **kw: Any) -> GameRow:
    return GameRow("g1", mode, {"round_cap": 12}, {"creator": "key"}, dict(TOKENS), False,
                   rev=3, **kw)


def test_the_seats_a_token_decides_for() -> None:
    session = new_session(_row(), default_content(), [])
    assert session.seats_of("tb") == frozenset({0, 1})
    assert session.seats_of("tk") == frozenset({0})
    assert session.seats_of("ts") == frozenset({1})
    assert session.seats_of("tw") == frozenset()  # a spectator's link
    assert session.seats_of("") == session.seats_of(None) == frozenset()  # no token
    assert session.seats_of("ti") is None  # the invite is no seat token
    assert session.seats_of("tk2") is None and session.seats_of("TK") is None
    assert session.seats_of(123) is None and session.seats_of(["tk"]) is None
    row = _row()
    row.tokens = {"key": "tk"}  # no other roles kept
    assert new_session(row, default_content(), []).seats_of("ts") is None


def test_settings_refusals_name_what_is_wrong() -> None:
    content = default_content()
    with pytest.raises(ValueError) as wrong_kind:
        settings_from({"round_cap": 12, "no_such_setting": 1}, content)
    assert "no_such_setting" in str(wrong_kind.value)
    sizes = sorted(content.sizes)
    with pytest.raises(ValueError, match=f"^board size must be {sizes[0]} to {sizes[-1]}, "
                                         f"not {sizes[-1] + 1}$"):
        settings_from({"size": sizes[-1] + 1}, content)
    for size in (sizes[0], sizes[-1]):
        assert settings_from({"size": size}, content).size == size
    # the game's ruleset and its patch are kept beside the settings, not read as them
    assert settings_from({"ruleset": "tournament", "ruleset_patch": {"x": 1}},
                         content).size == 8


@pytest.mark.parametrize(("conceded", "winner", "reason"), [
    ({"loser": 0, "reason": "timeout"}, 1, "timeout"),
    ({"loser": 1, "reason": "resign"}, 0, "resign"),
    ({"reason": "agreed"}, None, "agreed")])
def test_a_stored_concession_ends_the_game_as_it_was_conceded(
        conceded: dict[str, Any], winner: int | None, reason: str) -> None:
    session = new_session(_row(conceded=conceded), default_content(), [])
    result = session.state.result
    assert session.state.is_terminal and result is not None
    assert (result.winner, result.reason) == (winner, reason)


def test_no_concession_leaves_the_game_going() -> None:
    session = new_session(_row(conceded=None), default_content(), [])
    assert not session.state.is_terminal


def test_a_game_its_decisions_ended_keeps_its_own_result() -> None:
    """A concession stored beside a game its decisions already ended changes nothing."""
    import random

    from reliquary.engine import Game, Settings, format_option

    rng = random.Random(4)
    game = Game(default_content(), Settings(round_cap=2))
    tokens = []
    while not game.state.is_terminal:
        option = rng.choice(game.state.legal_options())
        tokens.append(format_option(game.state, option))
        game.apply(option)
    own = game.state.result
    assert own is not None and own.reason != "timeout"
    row = _row(conceded={"loser": 0, "reason": "timeout"})
    row.settings = {"round_cap": 2}
    result = new_session(row, default_content(), tokens).state.result
    assert result is not None and (result.winner, result.reason) == (own.winner, own.reason)


class _Game:
    """A game at a built position (no history)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.history: list[Any] = []


def test_a_module_choice_lists_what_each_option_would_do_for_its_owner_only(
        content: Content) -> None:
    s = (Builder(content, 8, factions=("pyre-choir", "pyre-choir"), modules=("conditions",))
         .hero(KEY, "d1").hero(SKULL, "e8").minion(KEY, "c3").build())
    s.apply(Play(next(o.card for o in s.legal_options() if isinstance(o, Play)), "interact"))
    assert s.decision().player == KEY
    session = Session(_row(), _Game(s), None)  # type: ignore[arg-type]
    own = view(session, frozenset({KEY}), ai=None, clocks=None)
    assert own["decision"]["notes"] == decision_notes(s, KEY)
    assert own["decision"]["notes"]
    for seats in (frozenset({SKULL}), frozenset()):
        assert "notes" not in view(session, seats, ai=None, clocks=None)["decision"]
    past = view(session, frozenset({KEY}), ai=None, clocks=None, upto=0)
    assert "notes" not in past["decision"]


def test_a_decision_is_answered_from_the_last_view_s_options_of_this_moment() -> None:
    session = new_session(_row(), default_content(), [])
    got = view(session, frozenset({0, 1}), ai=None, clocks=None)
    token = got["decision"]["options"][0]
    assert session.choices is not None and session.choices[0] == session.seq
    listed = session.choices[1][token]
    assert session.option_of(token) is listed  # looked up, not read again
    session.apply(listed)
    later = session.state.decision()
    # the view's list is of another moment now: the token is read on the game as it is
    from reliquary.engine import IllegalOptionError, NotationError, format_option

    fresh = format_option(session.state, later.options[0])
    assert session.option_of(fresh) == later.options[0]
    if token not in [format_option(session.state, o) for o in later.options]:
        with pytest.raises((IllegalOptionError, NotationError)):
            session.option_of(token)


def test_the_view_s_json_splices_in_the_log_as_written() -> None:
    session = new_session(_row(), default_content(), [])
    for _ in range(6):
        session.apply(session.state.decision().options[0])
    got = view(session, frozenset({0, 1}), ai=None, clocks=None)
    body = json.loads(view_json(session, got))
    assert body == json.loads(encode_json(got))
    assert list(body)[-1] == "log" and len(body["log"]) == len(session.log) > 0
    assert json.loads(view_json(session, {"log": session.log})) == {
        "log": json.loads(encode_json(session.log))}
    with pytest.raises(AssertionError):
        view_json(session, {**got, "log": list(session.log)})
