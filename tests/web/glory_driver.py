"""Play a Glory & Support web game through its API with a greedy agent, working from the
view's own position, until an End phase (tests of the web face: the API and the browser)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reliquary import default_content
from reliquary.ai import get_agent
from reliquary.engine import State, format_option, position_from_dict

View = dict[str, Any]
END_PHASE_KINDS = ("discard_objective", "upgrade", "upgrade_piece")


def engine_of(view: View) -> State:
    return position_from_dict(view["position"], default_content())


def at_end_phase(view: View) -> bool:
    d = view.get("decision")
    return bool(d) and d["kind"] in END_PHASE_KINDS


def play_until(get: Callable[[], View], post: Callable[[str, str], View],
               done: Callable[[View], bool], limit: int = 600) -> View:
    """Decide with a greedy agent until ``done(view)`` (or the game ends)."""
    agent = get_agent("greedy", seed=3)
    view = get()
    for _ in range(limit):
        if view.get("result") or done(view):
            return view
        d = view["decision"]
        if not d or not d["mine"]:
            view = get()
            continue
        state = engine_of(view)
        view = post(format_option(state, agent.choose(state)), view["rev"])
    return view
