"""Human-readable notation for options, one token per decision.

Squares are named like chess: files ``a``.., ranks ``1``.. from Key's back row.

==============  ======================================  ===========================
decision        option                                  token
==============  ======================================  ===========================
play            a card and its mode                     ``Bolt:attack``, ``Vault:move``
escort          a step of a piece                       ``c1-c2``
most others     a square                                ``d4``
optional parts  decline (no Escort step, stay, stop…)   ``pass``
faction, rite   the content id                          ``pyre-choir``, ``Harrow``
deal            the card dealt                          ``Gale``
roll            the die face                            ``5``
==============  ======================================  ===========================

>>> from reliquary import new_game
>>> state = new_game()
>>> format_option(state, parse_option(state, "c3"))
'c3'
"""

from __future__ import annotations

from .state import State
from .types import INTERACT, MODES, PASS, IllegalOptionError, NotationError, Option, Play, Step

_PLAY_MODES = (*MODES, INTERACT)

_SQUARE_KINDS = frozenset({
    "ruin", "deploy", "relic", "mover", "destination", "attacker", "lunge", "target",
    "second_target", "gale_step", "gale_push", "rapture_step", "after_step", "kill_step",
    "swap", "grave_return", "regroup", "rite_effect", "lantern_step",
})
_ID_KINDS = frozenset({"faction", "rite", "deal", "interact"})


def format_option(state: State, option: Option) -> str:
    """The token of an option (squares named on the state's board)."""
    name = state.geometry.name
    if option == PASS:
        return PASS
    if isinstance(option, Play):
        return f"{option.card}:{option.mode}"
    if isinstance(option, Step):
        return f"{name(option.frm)}-{name(option.to)}"
    if isinstance(option, str):
        return option
    if state.is_chance:  # the die
        return str(option)
    if state.stack:
        module_kind = state._rules.decisions.get(state.stack[-1][0])
        if module_kind is not None and module_kind.notation != "square":
            return str(option)
    return name(option)


def read_option(state: State, kind: str, text: str) -> Option:
    """Read a token as an option of a decision kind, without checking legality."""
    text = text.strip()
    geo = state.geometry
    try:
        if text == PASS:
            return PASS
        if kind == "play":
            card, _, mode = text.partition(":")
            if mode not in _PLAY_MODES:
                raise NotationError(
                    f"{text!r}: a play is 'Card:mode' with mode one of {', '.join(MODES)}")
            return Play(card, INTERACT if mode == INTERACT else MODES[MODES.index(mode)])
        if kind == "escort":
            frm, sep, to = text.partition("-")
            if not sep:
                raise NotationError(f"{text!r}: an Escort step is written 'c1-c2' (or 'pass')")
            return Step(geo.parse(frm), geo.parse(to))
        if kind == "roll":
            if not text.isdigit():
                raise NotationError(f"{text!r}: a die roll is a number from 1 to 6")
            return int(text)
        if kind in _ID_KINDS:
            return text
        if kind in _SQUARE_KINDS:
            return geo.parse(text)
        module_kind = state._rules.decisions.get(kind)
        if module_kind is not None:
            if module_kind.notation == "id":
                return text
            if module_kind.notation == "step":
                frm, sep, to = text.partition("-")
                if not sep:
                    raise NotationError(f"{text!r}: a step is written 'c1-c2' (or 'pass')")
                return Step(geo.parse(frm), geo.parse(to))
            if module_kind.notation == "value":
                if not text.lstrip("-").isdigit():
                    raise NotationError(f"{text!r}: the {kind!r} decision takes a number")
                return int(text)
            return geo.parse(text)
    except ValueError as err:
        if isinstance(err, NotationError):
            raise
        raise NotationError(str(err)) from None
    raise NotationError(f"unknown decision kind {kind!r}")


def parse_option(state: State, text: str) -> Option:
    """Read a token as an option of the current decision and check that it is legal.

    Raises :class:`NotationError` for text that is not an option of this kind and
    :class:`IllegalOptionError` for an option that is not legal now.
    """
    decision = state.decision()
    option = read_option(state, decision.kind, text)
    if option not in decision.options:
        legal = ", ".join(format_option(state, o) for o in decision.options)
        raise IllegalOptionError(
            f"{text!r} is not legal for the {decision.kind!r} decision now; legal: {legal}")
    return option
