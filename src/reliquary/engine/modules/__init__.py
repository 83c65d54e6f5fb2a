"""The registry of rule modules (MODULES.md M-MOD-1, M-MOD-2).

A module is a named set of optional rules, off by default. It declares its options
(``module.option``, each with a default, a range and help), the rule ids it covers, and
the :class:`~reliquary.engine.hooks.Hooks` that the engine calls at fixed points of the
game (M-MOD-4). Modules register themselves by name with :func:`register`; settings,
content validation and every face ask this registry, never a list of their own.

>>> from reliquary.engine.modules import OptionSpec
>>> OptionSpec(3, lo=1, hi=6).check("conditions.dread_tn", 7)
Traceback (most recent call last):
...
ValueError: conditions.dread_tn must be a whole number from 1 to 6, not 7
"""

from __future__ import annotations

import difflib
import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..content import Content
    from ..hooks import Hooks
    from ..types import Settings


@dataclass(frozen=True)
class OptionSpec:
    """One module option: its default and what values it takes.

    ``choices``: the values allowed (strings); ``lo``/``hi``: a whole-number range;
    ``subset``: the option is a set of these names (written as a sorted tuple).
    """

    default: Any
    help: str = ""
    choices: tuple[str, ...] = ()
    lo: int | None = None
    hi: int | None = None
    subset: tuple[str, ...] = ()

    def check(self, key: str, value: Any) -> Any:
        """The value in canonical form, or a ValueError that names the option."""
        if self.subset:
            items = [value] if isinstance(value, str) else value
            if not isinstance(items, (list, tuple)) or not all(
                    isinstance(v, str) for v in items):
                raise ValueError(f"{key} must be a list of names from "
                                 f"{', '.join(self.subset)}, not {value!r}")
            for item in items:
                if item not in self.subset:
                    raise ValueError(f"{key}: {item!r} is not one of "
                                     f"{', '.join(self.subset)}{_did_you_mean(item, self.subset)}")
            return tuple(sorted(set(items), key=self.subset.index))
        if self.choices:
            if value not in self.choices:
                raise ValueError(f"{key} must be one of {', '.join(map(repr, self.choices))}, "
                                 f"not {value!r}")
            return value
        if self.lo is not None or self.hi is not None:
            if not isinstance(value, int) or isinstance(value, bool) or (
                    self.lo is not None and value < self.lo) or (
                    self.hi is not None and value > self.hi):
                span = (f"from {self.lo} to {self.hi}" if self.lo is not None and
                        self.hi is not None else f"from {self.lo} up" if self.lo is not None
                        else f"up to {self.hi}")
                raise ValueError(f"{key} must be a whole number {span}, not {value!r}")
            return value
        return value

    def describe(self) -> str:
        """The values it takes, for help texts."""
        if self.subset:
            return f"any of {', '.join(self.subset)} (default {', '.join(self.default)})"
        if self.choices:
            return f"{' | '.join(self.choices)} (default {self.default})"
        if self.lo is not None and self.hi is not None:
            return f"{self.lo} to {self.hi} (default {self.default})"
        return f"default {self.default}"


@dataclass(frozen=True)
class Module:
    """A rule module: what it is called, what it covers, its options and its hooks.

    ``hooks`` makes the module's :class:`~reliquary.engine.hooks.Hooks` for one game's
    content and settings (called once per (content, settings) by the rulebook), so a
    hook reads its options once, not at every call. ``events`` and ``decisions`` are
    the event and decision kinds it adds, with their help text; ``data`` its validated
    data file (:func:`reliquary.module_data.load_module_data`).
    """

    name: str
    title: str
    rules: str
    summary: str
    hooks: Callable[[Content, Settings], Hooks]
    options: Mapping[str, OptionSpec] = field(default_factory=dict)
    requires: tuple[str, ...] = ()
    decisions: Mapping[str, str] = field(default_factory=dict)
    events: Mapping[str, str] = field(default_factory=dict)
    #: The module's validated data (its TOML file), if it has any.
    data: Any = None

    def option_key(self, option: str) -> str:
        return f"{self.name}.{option}"

    @property
    def fingerprint(self) -> str:
        """A short hash of the module's data: records name it, apart from the base
        content's, so editing a module's file never stops base-game records replaying."""
        dumped = self.data.model_dump(mode="json") if self.data is not None else None
        canon = json.dumps([self.name, dumped], sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canon.encode()).hexdigest()[:16]


#: Modules by name, in registration order (the order M-MOD-1 resolves them in).
_REGISTRY: dict[str, Module] = {}
#: Modules the rules specify but no code provides yet, with where they are specified.
SPECIFIED: dict[str, str] = {}
#: The modules that ship with the engine, in M-MOD-1's order: each is a file of this
#: package (``keepers.py``), imported the first time the registry is asked, so that
#: ``Settings(modules=("keepers",))`` works in every face with no import of its own.
BUILT_IN: tuple[str, ...] = ("conditions", "glory", "keepers")
_built_in_loaded = False


def _load_built_in() -> None:
    global _built_in_loaded
    if _built_in_loaded:
        return
    _built_in_loaded = True
    import importlib

    for name in BUILT_IN:
        importlib.import_module(f"{__name__}.{name}")


def register(module: Module) -> Module:
    """Add a module to the registry (once; a second module of the same name is an error)."""
    if not module.name.isidentifier() or module.name != module.name.lower():
        raise ValueError(f"module name {module.name!r} must be a lower-case identifier")
    if module.name in _REGISTRY and _REGISTRY[module.name] is not module:
        raise ValueError(f"a module named {module.name!r} is already registered")
    for dep in module.requires:
        if dep not in _REGISTRY:
            raise ValueError(f"module {module.name!r} requires {dep!r}, which is not registered")
    _REGISTRY[module.name] = module
    return module


def unregister(name: str) -> None:
    """Remove a module (tests that register throwaway modules clean up with this)."""
    _REGISTRY.pop(name, None)


def registered() -> dict[str, Module]:
    """The registered modules by name, in resolution order."""
    _load_built_in()
    return dict(_REGISTRY)


def get(name: str) -> Module:
    """The module called ``name``; a ValueError that says what exists otherwise."""
    module = _REGISTRY.get(name)
    if module is None and not _built_in_loaded:
        _load_built_in()
        module = _REGISTRY.get(name)
    if module is None:
        if name in SPECIFIED:
            raise ValueError(f"module {name!r} is specified in {SPECIFIED[name]} but not "
                             f"implemented in this version; available modules: "
                             f"{', '.join(_REGISTRY) or 'none'}")
        raise ValueError(f"unknown module {name!r}{_did_you_mean(name, [*_REGISTRY, *SPECIFIED])}"
                         f"; available modules: {', '.join(_REGISTRY) or 'none'}")
    return module


def check_modules(names: Any) -> tuple[str, ...]:
    """``names`` as the canonical tuple (registry order, no repeats), with ``requires``
    met; a ValueError that names the problem otherwise."""
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, (list, tuple, set, frozenset)) or not all(
            isinstance(n, str) for n in names):
        raise ValueError(f"modules must be a list of module names, not {names!r}")
    chosen = {get(n).name for n in names}
    for name in chosen:
        for dep in _REGISTRY[name].requires:
            if dep not in chosen:
                raise ValueError(f"module {name!r} requires module {dep!r}")
    return tuple(n for n in _REGISTRY if n in chosen)


def check_options(modules: tuple[str, ...], values: Mapping[str, Any]
                  ) -> tuple[tuple[str, Any], ...]:
    """Module options (``module.option`` keys) checked against the modules that are on,
    as a sorted tuple of the values that differ from their defaults."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        name, dot, option = key.partition(".")
        if not dot:
            raise ValueError(f"module option {key!r} must be written module.option")
        if name not in modules:
            if name in _REGISTRY or name in SPECIFIED:
                raise ValueError(f"option {key!r} belongs to module {name!r}, which is off "
                                 f"(turn it on with modules = [{name!r}])")
            raise ValueError(f"option {key!r}: unknown module {name!r}"
                             f"{_did_you_mean(name, list(_REGISTRY))}")
        spec = _REGISTRY[name].options.get(option)
        if spec is None:
            known = [f"{name}.{o}" for o in _REGISTRY[name].options]
            raise ValueError(f"unknown option {key!r}{_did_you_mean(key, known)}; "
                             f"module {name!r} has: {', '.join(known) or 'no options'}")
        value = spec.check(key, value)
        if value != spec.default:
            out[key] = value
    return tuple(sorted(out.items()))


def option_value(settings: Settings, key: str) -> Any:
    """The value of module option ``key`` in ``settings`` (its default if not set)."""
    for k, v in settings.module_options:
        if k == key:
            return v
    name, _, option = key.partition(".")
    return get(name).options[option].default


def parse_option_text(text: str) -> tuple[str, Any]:
    """``module.option=value`` as written on a command line or in a game parameter: the
    key and its value, a whole number, a list (``a,b``; ``,`` alone is the empty list)
    or a name. Whether the option exists is :func:`check_options`' question."""
    key, eq, value = text.partition("=")
    key, value = key.strip(), value.strip()
    if not eq or "." not in key:
        raise ValueError(f"{text!r}: write a module option as MODULE.OPTION=VALUE")
    if value.lstrip("-").isdigit():
        return key, int(value)
    if "," in value:
        return key, [part.strip() for part in value.split(",") if part.strip()]
    return key, value


def _did_you_mean(word: str, choices: Any) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


def hooks_for(content: Content, settings: Settings) -> list[Hooks]:
    """Each enabled module's hooks for this content and settings, in registry order."""
    return [get(name).hooks(content, settings) for name in settings.modules]
