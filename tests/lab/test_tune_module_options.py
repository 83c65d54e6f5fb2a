"""``lab tune --space`` over a rule module's options (MODULES.md §10.2 step 3): an
option's own word ``none``, a negative number and a set of names reach the trial's
games as the module reads them."""

from __future__ import annotations

from pathlib import Path

from reliquary.cli.lab_cmds import _parse_space
from reliquary.lab.store import Store
from reliquary.lab.tune import setting_overrides, tune

CONDITIONS = """
seed = 3
games_per_cell = 1
factions = [["pyre-choir", "grave-tide"], ["grave-tide", "pyre-choir"]]
[settings]
round_cap = 6
modules = ["conditions"]
[[agents]]
name = "random"
"""


def test_space_keeps_a_module_options_words_and_negative_numbers() -> None:
    space = _parse_space(("conditions.dread=carrier,none", "keepers.target=-1,5",
                          "conditions.actions=focus+tend,focus+guard+tend",
                          "regroup_limit=none,2"))
    assert space == {"conditions.dread": ["carrier", "none"], "keepers.target": [-1, 5],
                     "conditions.actions": ["focus+tend", "focus+guard+tend"],
                     "regroup_limit": [None, 2]}
    assert setting_overrides({"conditions.actions": "focus+tend"}) == \
        {"conditions.actions": ["focus", "tend"]}
    # a word with a plus that is not a set of names stays a word
    assert setting_overrides({"keepers.target": "ruins+1"}) == {"keepers.target": "ruins+1"}


def test_tune_plays_each_trial_with_its_module_options(tmp_path: Path) -> None:
    space = _parse_space(("conditions.dread=none", "conditions.actions=focus+tend"))
    assert space is not None
    rows = tune(CONDITIONS, tmp_path / "t.toml", tmp_path / "study", trials=1, space=space,
                seed=1, workers=1)
    [row] = rows
    assert row["settings"] == {"conditions.dread": "none", "conditions.actions": "focus+tend"}
    options = set(Store(row["run"]).table()["module_options"].to_list())
    [played] = options
    assert '"conditions.dread": "none"' in played
    assert '"conditions.actions": ["focus", "tend"]' in played
