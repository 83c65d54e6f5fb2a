"""`ActionSpace.ranges()`: every kind of action and its range, as docs/research.md's
table and docs/modules.md give them — the ranges in order, back to back, covering the
whole space, each of its documented size, and every action in a range decoding to an
option of that kind (issue 31: a kind dropped from `ranges()` passed every test)."""

from __future__ import annotations

import pytest

from reliquary import default_content
from reliquary.engine import PASS, Play, Settings, Step
from reliquary.engine.types import INTERACT
from reliquary.env.encoding import ActionSpace

KINDS = ("square", "step", "play", "pass", "faction", "rite", "interact", "module_name")


def _check_partition(space: ActionSpace) -> dict[str, tuple[int, int]]:
    ranges = space.ranges()
    assert tuple(ranges) == KINDS
    stop = 0
    for kind in KINDS:
        start, end = ranges[kind]
        assert start == stop, kind  # back to back, in the documented order
        assert end >= start, kind
        stop = end
    assert stop == space.size
    return ranges


@pytest.mark.parametrize("side", [8, 6])
def test_the_base_game_ranges_have_the_documented_sizes(side: int) -> None:
    space = ActionSpace(default_content(), side)
    ranges = _check_partition(space)
    sizes = {kind: end - start for kind, (start, end) in ranges.items()}
    area = side * side
    assert sizes == {"square": area, "step": area * 8, "play": 18 * 5, "pass": 1,
                     "faction": 9, "rite": 3, "interact": 0, "module_name": 0}
    if side == 8:
        assert space.size == 679


def _kind_of(option: object, space: ActionSpace) -> str:
    if option == PASS:
        return "pass"
    if isinstance(option, Step):
        return "step"
    if isinstance(option, Play):
        return "interact" if option.mode == INTERACT else "play"
    if isinstance(option, int):
        return "square"
    if option in space.factions:
        return "faction"
    if option in space.rites:
        return "rite"
    assert option in space.names, option
    return "module_name"


@pytest.mark.parametrize("modules", [(), ("keepers",), ("glory",), ("conditions",)])
def test_every_action_decodes_to_an_option_of_its_range(modules: tuple[str, ...]) -> None:
    content = default_content()
    space = ActionSpace(content, 8, Settings(modules=modules) if modules else None)
    ranges = _check_partition(space)
    base = ActionSpace(content, 8).ranges()
    for kind in KINDS[:6]:
        assert ranges[kind] == base[kind], kind  # a module never moves a base range
    interact = ranges["interact"][1] - ranges["interact"][0]
    assert interact in (0, len(space.cards))
    assert ranges["module_name"][1] - ranges["module_name"][0] == len(space.names)
    if modules:
        assert ranges["module_name"][1] > ranges["module_name"][0]
    for kind, (start, end) in ranges.items():
        for action in range(start, end):
            try:
                option = space.decode(action, 0)
            except ValueError:  # a step off the board is in the step range all the same
                assert kind == "step", action
                continue
            assert _kind_of(option, space) == kind, (action, option)
            assert space.encode(option, 0) == action
