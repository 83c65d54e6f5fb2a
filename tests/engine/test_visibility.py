"""What each viewer may see (issue 22: one place decides it): the secret faction
choice (S3) reaches only its owner until both have chosen."""

from __future__ import annotations

from reliquary.engine import Content, Event, State
from reliquary.engine.visibility import (
    HIDDEN,
    REFEREE,
    SPECTATOR,
    decision_for,
    event_for,
    hint_allowed,
    observation_state,
    pending_secrets,
    position_for,
    record_visible,
    viewer_for,
)


def after_key_chose(content: Content) -> State:
    state = State(content)
    while state.decision().kind != "faction":
        state.apply(state.legal_options()[0])
    state.apply("bone-wardens")  # Key chooses in secret; Skull is to choose
    return state


def test_s3_the_secret_choice_reaches_only_its_owner(content: Content) -> None:
    state = after_key_chose(content)
    assert pending_secrets(state) == {0: "bone-wardens"}
    assert position_for(state, 0)["secret_factions"]["key"] == "bone-wardens"
    for viewer in (1, SPECTATOR):
        assert position_for(state, viewer)["secret_factions"]["key"] == HIDDEN
        assert "bone-wardens" not in repr(position_for(state, viewer)["secret_factions"])
    assert position_for(state, REFEREE)["secret_factions"]["key"] == "bone-wardens"
    # the record holds the choice: not for Skull or a spectator until the reveal
    assert record_visible(state, 0) and not record_visible(state, 1)
    assert not record_visible(state, SPECTATOR)
    # no hint on a secret choice; an observation made for Skull cannot hold it
    assert not hint_allowed(state, 1)
    assert observation_state(state, 1).secret_faction == [None, None]
    assert observation_state(state, 0).secret_faction[0] == "bone-wardens"


def test_after_the_reveal_nothing_is_secret(content: Content) -> None:
    state = after_key_chose(content)
    state.apply("pyre-choir")
    assert pending_secrets(state) == {}
    assert record_visible(state, 1) and record_visible(state, SPECTATOR)
    assert position_for(state, SPECTATOR)["factions"] == {"key": "bone-wardens",
                                                          "skull": "pyre-choir"}


def test_decision_options_only_for_the_player_who_decides(content: Content) -> None:
    state = after_key_chose(content)
    mine = decision_for(state, 1)
    theirs = decision_for(state, 0)
    assert mine is not None and mine.options
    assert theirs is not None and theirs.kind == "faction" and theirs.options == ()


def test_events_marked_secret_reach_only_their_owner(content: Content) -> None:
    state = State(content)
    secret = Event("drawn", {"secret_of": 1, "card": "x"})
    assert event_for(state, secret, 1) is secret
    assert event_for(state, secret, 0) is None and event_for(state, secret, SPECTATOR) is None
    public = Event("vigil", {"value": 5})
    assert event_for(state, public, SPECTATOR) is public


def test_one_screen_for_both_seats_sees_as_a_spectator() -> None:
    assert viewer_for({0}) == 0 and viewer_for({1}) == 1
    assert viewer_for({0, 1}) == SPECTATOR and viewer_for(set()) == SPECTATOR


def test_the_environments_observation_cannot_hold_the_others_secret(content: Content) -> None:
    import numpy as np

    from reliquary.env.encoding import Observer

    chose_wardens = after_key_chose(content)
    chose_choir = State(content)
    while chose_choir.decision().kind != "faction":
        chose_choir.apply(chose_choir.legal_options()[0])
    chose_choir.apply("pyre-choir")
    observer = Observer(content, 8)
    # Skull's observation is the same whatever Key chose in secret; Key's differs
    assert np.array_equal(observer.encode(chose_wardens, 1), observer.encode(chose_choir, 1))
    assert not np.array_equal(observer.encode(chose_wardens, 0),
                              observer.encode(chose_choir, 0))
