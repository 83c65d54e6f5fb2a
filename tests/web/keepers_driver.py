"""Play a Keepers' Relics web game through its API with a module-aware agent, working
from the view's own position (tests of the web face: the API and the browser)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reliquary import default_content
from reliquary.ai import get_agent
from reliquary.engine import State, format_option, position_from_dict
from reliquary.engine.modules.keepers import kstate

View = dict[str, Any]


def engine_of(view: View) -> State:
    return position_from_dict(view["position"], default_content())


def can_delve(view: View) -> bool:
    """Whether the side to play may DELVE now (a play decision of the view)."""
    d = view.get("decision")
    if not d or d["kind"] != "play" or not d["mine"]:
        return False
    state = engine_of(view)
    return "delve" in state.interact_actions(state.current)


def carrying(view: View) -> bool:
    state = engine_of(view)
    return any(t.carrier >= 0 for t in kstate(state).tokens)


def choose(view: View, agent: Any) -> str:
    """The agent's option for the view's decision, as the engine's token; a DELVE
    whenever one can be made (so that reveals and lifts come soon)."""
    state = engine_of(view)
    kind = view["decision"]["kind"]
    if kind == "play" and "delve" in state.interact_actions(state.current):
        option = next(o for o in state.legal_options() if getattr(o, "mode", "") == "interact")
    elif kind == "interact" and "delve" in state.legal_options():
        option = "delve"
    else:
        option = agent.choose(state)
    return format_option(state, option)


def play_until(get: Callable[[], View], post: Callable[[str, str], View],
               done: Callable[[View], bool], limit: int = 1500) -> View:
    """Decide with a greedy agent until ``done(view)`` (or the game ends)."""
    agent = get_agent("greedy")
    view = get()
    for _ in range(limit):
        if view.get("result") or done(view):
            return view
        d = view["decision"]
        if not d or not d["mine"]:
            view = get()
            continue
        view = post(choose(view, agent), view["rev"])
    return view
