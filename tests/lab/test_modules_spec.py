"""Rule modules in lab specs (issue 22): a list of module lists is a grid, as variants
are; their options too; mistakes are named with the rest of the spec's problems."""

from __future__ import annotations

import pytest

from reliquary.engine import Settings
from reliquary.lab.spec import SpecError, parse_spec
from reliquary.lab.store import settings_columns

from ..modules import smoulder  # registers the worked example module

BASE = '''
name = "m"
seed = 1
games_per_cell = 1
[[agents]]
name = "random"
'''


def test_module_subsets_and_options_make_a_grid() -> None:
    spec = parse_spec(BASE + '[settings]\nmodules = [[], ["smoulder"]]\n'
                      '"smoulder.damage" = [1, 2]\n', "m.toml")
    base = Settings().as_dict()
    assert spec.settings_grid == [
        base,  # without the module its option has no say: one base cell
        {**base, "modules": ["smoulder"]},  # damage 1 is the default
        {**base, "modules": ["smoulder"], "smoulder.damage": 2},
    ]


def test_one_module_list_is_one_setting_and_is_described() -> None:
    spec = parse_spec(BASE + '[settings]\nmodules = ["smoulder"]\n', "m.toml")
    assert [s.get("modules") for s in spec.settings_grid] == [["smoulder"]]
    assert "modules=" in spec.describe_rules() and "smoulder" in spec.describe_rules()


def test_module_mistakes_are_named_with_the_others() -> None:
    with pytest.raises(SpecError) as caught:
        parse_spec(BASE + '[settings]\nmodules = ["smolder"]\n"smoulder.dmg" = 2\n'
                   'sise = 9\n', "m.toml")
    text = str(caught.value)
    assert "did you mean 'smoulder'" in text
    assert "smoulder.dmg" in text and "did you mean 'smoulder.damage'" in text
    assert "sise" in text


def test_the_store_writes_modules_as_text_columns() -> None:
    base = settings_columns(Settings())
    assert base["modules"] == "" and base["module_options"] == ""
    on = settings_columns(Settings(modules=(smoulder.MODULE.name,),
                                   module_options=(("smoulder.damage", 2),)))
    assert on["modules"] == "smoulder" and on["module_options"] == '{"smoulder.damage": 2}'


def test_a_run_with_and_without_a_module_stores_both(tmp_path: object) -> None:
    from pathlib import Path

    import polars as pl

    from reliquary.lab.runner import run_spec

    spec = parse_spec(BASE.replace("games_per_cell = 1", 'factions = "free"')
                      + '[settings]\nmodules = [[], ["smoulder"]]\n', "m.toml")
    run = Path(str(tmp_path)) / "run"
    run_spec(spec, run, workers=1)  # one worker plays here, where the module is registered
    frame = pl.concat([pl.read_parquet(p) for p in sorted(run.rglob("*.parquet"))])
    assert sorted(frame["modules"].to_list()) == ["", "smoulder"]


def test_a_module_s_game_figures_reach_the_store_and_the_report(tmp_path: object) -> None:
    """Hooks.game_stats: each game with the module names its figures, ``module.figure``;
    the base game's games give none, and the report averages them over the games."""
    from pathlib import Path

    import polars as pl

    from reliquary.lab.metrics import module_figures
    from reliquary.lab.runner import run_spec
    from reliquary.lab.store import Store

    spec = parse_spec(BASE.replace("games_per_cell = 1", 'games_per_cell = 2\nfactions = "free"')
                      + '[settings]\nmodules = [[], ["smoulder"]]\n', "m.toml")
    run = Path(str(tmp_path)) / "run"
    run_spec(spec, run, workers=1)
    frame = pl.from_arrow(Store(run).arrow())
    assert isinstance(frame, pl.DataFrame)
    for modules, stats in zip(frame["modules"], frame["module_stats"], strict=True):
        names = [s["name"] for s in stats]
        assert names == (["smoulder.smouldered"] if modules else [])
    table = module_figures(frame)
    assert table["figure"].to_list() == ["smoulder.smouldered"]
    values = [s["value"] for stats in frame["module_stats"] for s in stats]
    assert table["games"].to_list() == [len(values)]
    assert table["mean"][0] == pytest.approx(sum(values) / len(values))
