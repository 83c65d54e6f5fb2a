"""The design lab: tournaments described in TOML, stored game by game in Parquet,
measured with honest intervals, compared sequentially and tuned over the rule variants.

Modules: :mod:`.spec` (the TOML spec), :mod:`.runner` (local processes or Ray),
:mod:`.store` (Parquet files per batch), :mod:`.metrics` (pure functions over a game
table), :mod:`.report` (HTML and Markdown), :mod:`.sprt` (sequential tests),
:mod:`.tune` (Optuna). See ``docs/lab.md``.
"""

from .spec import LabSpec, SpecError, load_spec

__all__ = ["LabSpec", "SpecError", "load_spec"]
