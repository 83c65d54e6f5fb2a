"""What each player, and a spectator, may see of a game: the one place that decides it.

The base game has one secret (S3): a faction chosen in secret stays hidden from
everyone but its owner until both have chosen. Modules add theirs through the same
functions. Every face (the web's views, events, records and replays, the hint, the
OpenSpiel information state, the environments) asks here instead of deciding itself.

A *viewer* is a seat (0 Key, 1 Skull), :data:`SPECTATOR` (sees what both players have
in common, no seat's secrets), or :data:`REFEREE` (``None``: everything, for the engine's
own records and tests). A screen shared by both seats (hot-seat) is a spectator while a
secret is being chosen, since each player must not see the other's choice.

>>> from reliquary import new_game
>>> state = new_game(seed=None)
>>> pending_secrets(state)
{}
"""

from __future__ import annotations

from typing import Any, Final

from .serialize import position_to_dict
from .state import State
from .types import SIDES, Decision, Event

#: A viewer with no seat: sees no player's secret.
SPECTATOR: Final = 2
#: Everything (None): the engine's own use, never a player's screen.
REFEREE: Final = None
#: What a secret shows as to those who may not see it.
HIDDEN: Final = "hidden"

Viewer = int | None


def viewer_for(seats: frozenset[int] | set[int]) -> int:
    """The viewer of a client holding ``seats``: one seat sees as that seat; both seats
    on one screen, or none, see as a spectator (neither secret is shown)."""
    return next(iter(seats)) if len(seats) == 1 else SPECTATOR


def pending_secrets(state: State) -> dict[int, str]:
    """The secrets held now, by owner: (S3) a faction chosen while the other still
    chooses. Empty when nothing is secret."""
    return {p: f for p, f in enumerate(state.secret_faction) if f is not None}


def may_see(state: State, viewer: Viewer, owner: int) -> bool:
    """Whether ``viewer`` may see ``owner``'s secrets."""
    return viewer is REFEREE or viewer == owner


def position_for(state: State, viewer: Viewer) -> dict[str, Any]:
    """The position as ``viewer`` may see it (:func:`position_to_dict`, secrets of others
    shown as :data:`HIDDEN`)."""
    data = position_to_dict(state)
    for owner in pending_secrets(state):
        if not may_see(state, viewer, owner):
            data["secret_factions"][SIDES[owner]] = HIDDEN
    return data


def decision_for(state: State, viewer: Viewer) -> Decision | None:
    """The current decision as ``viewer`` may see it: its options only for the player
    who takes it (or the referee); None when the game is over."""
    if state.result is not None:
        return None
    d = state.decision()
    if viewer is REFEREE or viewer == d.player or d.player < 0:
        return d
    return Decision(kind=d.kind, player=d.player, options=(), piece=d.piece, card=d.card)


def event_for(state: State, event: Event, viewer: Viewer) -> Event | None:
    """An event as ``viewer`` may see it, or None if it must not reach them. The base
    game's events are all public: a secret choice makes no event until it is revealed."""
    owner = event.data.get("secret_of")
    if owner is not None and not may_see(state, viewer, int(owner)):
        return None
    return event


def record_visible(state: State, viewer: Viewer) -> bool:
    """Whether ``viewer`` may have the game's record now: it holds every choice, so only
    once no secret is pending (or to the owner of every pending one)."""
    return all(may_see(state, viewer, owner) for owner in pending_secrets(state))


#: The decisions taken in secret (S3): their choice is the chooser's secret.
SECRET_CHOICES: Final = frozenset({"faction"})


def is_secret_choice(state: State) -> bool:
    """Whether the current decision is taken in secret: valuing its options could tell
    the other player's secret (a search reads the whole state), so advice on it gives
    the choice alone."""
    return state.result is None and bool(state.stack) and state.stack[-1][0] in SECRET_CHOICES


def hint_allowed(state: State, viewer: Viewer) -> bool:
    """Whether a search may advise ``viewer`` now: on their own decision, and not on a
    secret choice."""
    if state.result is not None or state.is_chance:
        return False
    if viewer is not REFEREE and state.current_player != viewer:
        return False
    return not is_secret_choice(state) and not pending_secrets(state)


def observation_state(state: State, viewer: Viewer) -> State:
    """A copy of ``state`` holding only what ``viewer`` may know, to encode or show (not
    to play on): the other player's secret choices are removed, so nothing made from it
    can leak them."""
    copy = state.clone()
    for owner in pending_secrets(state):
        if not may_see(state, viewer, owner):
            copy.secret_faction[owner] = None
    return copy
