"""What a rule module's INTERACT action or choice would do, for the page's previews.

Each option is applied to a copy of the game with its events recorded; the player's own
follow-up choices of the action (the actor, TEND's target, the delver, the Ruin, the
Minion to encamp) are walked through, and a chance step at the end (a DELVE's reveal) is
opened into its outcomes with the engine's own probabilities. What came of each path is
then told from the events in English and Spanish (``conditions_text``, ``keepers_text``)
with the squares it touches. Nothing here decides a rule: the engine does, on copies.

- :func:`action_outcomes` — one INTERACT action (``focus``, ``delve`` …) from the
  ``interact`` decision: every path of choices and what it does.
- :func:`decision_notes` — the current decision's options when they are a module's
  follow-up choices (or the Prize): each option's line, for the prompt and the board.
"""

from __future__ import annotations

from typing import Any

from ..engine import Event, Option, State, format_option
from . import conditions_text, keepers_text

#: The player's own choices inside one INTERACT action, walked through to their end.
CHAIN_KINDS = frozenset({"cond_actor", "tend_target", "delver", "delve_ruin", "encamper"})
#: Choices that a preview tells option by option (the chain, the Wayshrine's type, the
#: Prize, and the INTERACT actions themselves).
NOTE_KINDS = CHAIN_KINDS | {"wayshrine_type", "prize", "interact"}
#: The events that belong to an action (the turn's end that follows is not its doing:
#: expiries and Upkeep are left out by the text builders, which tell only these).
ACTION_EVENTS = frozenset({
    "cond_action", "condition", "condition_end", "condition_tick", "condition_cancelled",
    "condition_immune", "delve", "token_reveal", "token_lift", "lift_failed",
    "token_recover", "encamp", "decamp", "place", "prize"})
#: How many positions one action's walk may look at.
BUDGET = 400

Line = dict[str, str]


def _name(state: State, option: Option) -> str:
    return format_option(state, option)


def _events(state: State, since: int) -> list[Event]:
    assert state.events is not None
    return [e for e in state.events[since:] if e.kind in ACTION_EVENTS]


def _join(lines: list[Line]) -> Line:
    return {lang: " ".join(line[lang] for line in lines if line.get(lang)) for lang in ("en", "es")}


def _told(before: State, after: State, events: list[Event], player: int) -> Line:
    """The events of one path in words (each module tells its own)."""
    name = after.geometry.name
    lines = [conditions_text.preview_line(events, before, player, name),
             keepers_text.preview_line(events, before, after, player, name)]
    return _join([line for line in lines if line is not None])


def _squares(state: State, events: list[Event]) -> list[str]:
    """The squares a path touches: where its pieces stand, the Ruins, the Prize's Ruin."""
    out: list[str] = []
    for e in events:
        for key in ("square", "ruin", "to", "at"):
            sq = e.data.get(key)
            if isinstance(sq, int) and not isinstance(sq, bool) and sq >= 0:
                name = state.geometry.name(sq)
                if name not in out:
                    out.append(name)
    return out


def _copy(state: State) -> State:
    child = state.clone()
    child.events = list(state.events) if state.events is not None else []
    return child


def _root(state: State) -> State:
    """A copy that records events from now on (the game's own list is left alone)."""
    child = state.clone()
    child.events = []
    return child


class _Walk:
    """One look ahead from a decision of ``player``'s, within a budget of positions."""

    def __init__(self, root: State, player: int) -> None:
        self.root, self.player = root, player
        self.budget = BUDGET
        self.base = len(root.events or [])

    def paths(self, state: State, choices: list[str]) -> list[dict[str, Any]]:
        """Every end of the player's chain of choices from ``state``, told."""
        self.budget -= 1
        if not state.is_terminal and not state.is_chance and self.budget > 0:
            d = state.decision()
            if d.player == self.player and d.kind in CHAIN_KINDS:
                out: list[dict[str, Any]] = []
                for option in d.options:
                    child = _copy(state)
                    child.apply(option)
                    out.extend(self.paths(child, [*choices, _name(state, option)]))
                return out
        return [self.told(state, choices)]

    def told(self, state: State, choices: list[str]) -> dict[str, Any]:
        """One path's end: its events in words; a reveal opened into its outcomes."""
        events = _events(state, self.base)
        out: dict[str, Any] = {"choices": choices}
        if not state.is_terminal and state.is_chance and state.decision().kind == "reveal":
            out.update(self.reveal(state, events))
            return out
        if not state.is_terminal and state.decision().player == self.player \
                and state.decision().kind == "wayshrine_type":
            out.update(self.wayshrine(state, events))
            return out
        out["squares"] = _squares(state, events)
        out["text"] = _told(self.root, state, events, self.player)
        return out

    def reveal(self, state: State, events: list[Event]) -> dict[str, Any]:
        """M-KEEP-3 and 4: each value the token may turn up, its probability (the
        engine's chance outcomes) and whether the lift test passes with it."""
        odds = []
        lift = 0.0
        told: list[Event] = []
        for option, p in state.chance_outcomes():
            child = _copy(state)
            child.apply(option)
            after = _events(child, self.base)
            lifted = any(e.kind == "token_lift" for e in after)
            value = int(str(option)[1:])
            odds.append({"value": value, "p": round(p, 4), "lift": lifted})
            lift += p if lifted else 0.0
            told = told or after
        out: dict[str, Any] = {"squares": _squares(state, events), "odds": odds,
                               "lift": round(lift, 4)}
        out["text"] = _join([
            _told(self.root, state, events, self.player),
            keepers_text.odds_line(odds, lift)])
        return out

    def wayshrine(self, state: State, events: list[Event]) -> dict[str, Any]:
        """M-KEEP-20: the Encamp's end, with the types the Wayshrine may show."""
        types = [str(o) for o in state.decision().options]
        child = _copy(state)
        child.apply(types[0])
        after = _events(child, self.base)
        return {"squares": _squares(child, after), "types": types,
                "text": keepers_text.encamp_line(after, types, self.player,
                                                 child.geometry.name)}


def action_outcomes(state: State, action: Option) -> dict[str, Any]:
    """What INTERACT's ``action`` would do, at the ``interact`` decision of ``state``:
    ``outcomes`` (each path of choices with its ``text``, ``squares`` and, for a DELVE,
    ``odds`` and ``lift``) and a one-line ``text`` for the whole action."""
    player = state.decision().player
    root = _root(state)
    walk = _Walk(root, player)
    child = _copy(root)
    child.apply(action)
    outcomes = walk.paths(child, [])
    return {"outcomes": outcomes, "text": _summary(outcomes)}


def _summary(outcomes: list[dict[str, Any]]) -> Line:
    """One line for an action: its first path told, and the other first choices named."""
    if not outcomes:
        return {"en": "", "es": ""}
    first = outcomes[0]["text"]
    others = sorted({o["choices"][0] for o in outcomes[1:] if o["choices"]}
                    - set(outcomes[0]["choices"][:1]))
    if not others:
        return dict(first)
    return {"en": f"{first['en']} Also with: {', '.join(others)}.",
            "es": f"{first['es']} También con: {', '.join(others)}."}


def decision_notes(state: State, player: int) -> dict[str, dict[str, Any]] | None:
    """For a module's choice of ``player``'s (a ``NOTE_KINDS`` decision): each option's
    ``text`` and ``squares`` (and a DELVE's odds); None for any other decision."""
    if state.is_terminal or state.is_chance:
        return None
    d = state.decision()
    if d.player != player or d.kind not in NOTE_KINDS:
        return None
    if d.kind == "interact":
        actions: dict[str, dict[str, Any]] = {}
        for o in d.options:
            found = action_outcomes(state, o)
            actions[str(o)] = {"text": found["text"], "squares": sorted(
                {sq for path in found["outcomes"] for sq in path.get("squares", [])})}
        return actions
    root = _root(state)
    walk = _Walk(root, player)
    notes: dict[str, dict[str, Any]] = {}
    for option in d.options:
        child = _copy(root)
        child.apply(option)
        # the Wayshrine's type and the Prize end their action: told as they are
        paths = walk.paths(child, []) if d.kind in CHAIN_KINDS else [walk.told(child, [])]
        text = paths[0]["text"] if len(paths) == 1 else _summary(paths)
        if not text["en"] and d.kind == "prize":
            text = keepers_text.prize_pass_line(state)
        squares = sorted({sq for p in paths for sq in p.get("squares", [])})
        note: dict[str, Any] = {"text": text, "squares": squares}
        if len(paths) == 1 and "odds" in paths[0]:
            note["odds"], note["lift"] = paths[0]["odds"], paths[0]["lift"]
        notes[_name(state, option)] = note
    return notes
