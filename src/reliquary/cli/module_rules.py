"""A rule module's rules as MODULES.md (shipped in ``reliquary.data``) writes them, for
``reliquary rules``: each rule's id and title, or the section's whole text."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from ..engine.modules import Module

#: A rule's opening: ``- **M-KEEP-4 Delve (INTERACT).**`` or ``Decision **M-KEEP-D1**``.
_RULE = re.compile(r"\*\*(M-[A-Z]+-D?\d+)\b([^*]*)\*\*:?[ \t]*([^\n]*)")


@cache
def _spec() -> str:
    return resources.files("reliquary.data").joinpath("MODULES.md").read_text("utf-8")


def prefix_of(module: Module) -> str:
    """The module's rule-id prefix (``M-KEEP``) from its ``rules`` (``M-KEEP-1 to ...``)."""
    match = re.match(r"(M-[A-Z]+)-", module.rules)
    return match.group(1) if match else ""


def rules_section(module: Module) -> str:
    """The text of the module's rules section (its ``### n.2 Rules``), or ''."""
    prefix = prefix_of(module)
    if not prefix:
        return ""
    for section in re.split(r"\n(?=### )", _spec()):
        if section.startswith("### ") and " Rules" in section.splitlines()[0] and \
                f"**{prefix}-1 " in section:
            return section.strip()
    return ""


def rule_titles(module: Module) -> list[tuple[str, str]]:
    """Each rule id of the module with its title, in the order written."""
    prefix = prefix_of(module)
    out: list[tuple[str, str]] = []
    for rule_id, title, rest in _RULE.findall(rules_section(module)):
        if rule_id.startswith(prefix + "-") and rule_id not in {r for r, _ in out}:
            title = title.strip().rstrip(".")
            if not title:  # a decision: the start of its sentence
                title = rest.split(". ")[0].rstrip(".")
                title = title if len(title) <= 72 else title[:71].rstrip() + "…"
            out.append((rule_id, title or "(decision)"))
    return out
