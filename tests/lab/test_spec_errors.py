"""A bad spec's error names the key and what was wrong (issue 31: a spec's refusals were
its least tested lines; the developers' guide: "bad input gets a clear error saying what
was wrong and where"): [settings] that is no table, an empty list of values, an unknown
setting or module option (with the near miss), a module list that is no list of names,
and every problem of a spec at once."""

from __future__ import annotations

import pytest

from reliquary.lab.spec import SpecError, parse_spec

BASE = """
seed = 1
games_per_cell = 1
factions = [["pyre-choir", "grave-tide"]]
[[agents]]
name = "greedy"
"""


def _error(text: str) -> SpecError:
    with pytest.raises(SpecError) as err:
        parse_spec(text, "bad.toml")
    return err.value


@pytest.mark.parametrize(("settings", "key", "words"), [
    (None, "settings", "must be a table of rule settings"),
    ("round_cap = []", "settings.round_cap", "an empty list"),
    ("round_capp = 30", "settings.round_capp", "did you mean 'round_cap'"),
    ("regroup_limit = [1, -3]", "settings.regroup_limit", "whole number from 0 up, or None"),
    ("modules = [3]", "settings.modules", "must be a list of module names"),
    ('modules = ["keepers"]\n"keepers.nonsense" = 1', "settings.keepers.nonsense",
     "keepers."),
])
def test_a_bad_key_is_named_with_what_was_wrong(settings: str | None, key: str,
                                                words: str) -> None:
    text = (BASE.replace("seed = 1\n", "seed = 1\nsettings = 3\n") if settings is None
            else BASE + "[settings]\n" + settings + "\n")
    err = _error(text)
    assert err.file == "bad.toml"
    assert any(k == key and words in m for k, m in err.problems), err.problems


def test_every_problem_is_reported_at_once() -> None:
    err = _error(BASE + "[settings]\nround_cap = []\nround_capp = 30\n")
    keys = [k for k, _ in err.problems]
    assert keys == ["settings.round_cap", "settings.round_capp"]
    assert str(err).splitlines()[0].startswith("bad.toml: settings.round_cap: ")
    assert len(str(err).splitlines()) == 2
