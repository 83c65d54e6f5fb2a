"""The rule modules in the terminal app (MODULES.md §4–§6): what the board marks and
what the modules' panel says, read from the engine's state and each module's data.

- **Board.** Each module's marks after a square's own, as the text board writes them
  (``Hooks.text_marks``): Glory's objective markers ``o`` (the Shrine ``O``), Keepers'
  tokens by their type's initial and value (``i2``; ``i?`` face down; ``*`` before a
  carried one) and ``@`` with the type after a Wayshrine. A piece with a Glory upgrade
  shows ``^``; conditions show their letter and value (``b2``).
- **Panel.** Glory: each side's Glory and unspent Glory, the markers held, the phase
  and the rounds to the next End phase, both public hands with each objective's
  condition (``✓`` when met now), the upgrades on the pieces, and the End phase as its
  own step (score › discard › upgrade › draw, the current one in brackets). Keepers'
  Relics: relic points with the target and each side's set progress, every token on
  the board (face down: its type; face up: its value too) and who carries which, the
  Wayshrines, the box. Conditions: each piece's conditions with their values.

Nothing here decides a rule: the numbers are the engine's (``rules.met``, ``held``,
``rounds_to_end_phase``, the keepers state …), the words the web's (``glory_text``,
``keepers_text``, ``conditions_text`` and the modules' scripts' string tables, read by
:func:`~.i18n.t`).
"""

from __future__ import annotations

from rich.text import Text

from ..engine import State
from ..engine.hooks import OBJECT, Hooks
from ..engine.modules import glory as g
from ..engine.modules.conditions import DATA as CONDITIONS
from ..engine.modules.keepers import DATA as KEEPERS
from ..engine.modules.keepers import KeepersHooks, kstate
from ..web.conditions_text import action_name, condition_name
from ..web.glory_text import objective_name, objective_text, upgrade_name, upgrade_text
from ..web.keepers_text import type_name
from .i18n import side, t

#: The styles of each module's board marks (a module not listed: the last one).
MARK_STYLES = {"glory": "bold yellow", "keepers": "bold magenta", "": "bold magenta"}
#: A piece's mark for a Glory upgrade (its name is in the panel).
UPGRADE_MARK = "^"
#: The End phase's steps (M-GLORY-8) and the decisions that are each one.
END_STEPS = ("gl_step_score", "gl_step_discard", "gl_step_upgrade", "gl_step_draw")
END_STEP_OF = {"discard_objective": 1, "upgrade": 2, "upgrade_piece": 2,
               g.DRAW: 3}


def module_name(hooks: Hooks) -> str:
    """The registered name of a module's hooks (``""`` for one the panel does not know)."""
    if isinstance(hooks, g.GloryHooks):
        return "glory"
    if isinstance(hooks, KeepersHooks):
        return "keepers"
    return ""


def board_marks(state: State) -> dict[int, list[tuple[str, str]]]:
    """Each square's module marks with their styles, in the order of the modules."""
    marks: dict[int, list[tuple[str, str]]] = {}
    if not state.settings.modules:
        return marks
    for hooks in state._rules.hooks:
        style = MARK_STYLES.get(module_name(hooks), MARK_STYLES[""])
        for sq, mark in hooks.text_marks(state).items():
            marks.setdefault(sq, []).append((mark, style))
    return marks


def upgrade_conditions(state: State) -> frozenset[str]:
    """The condition names Glory's upgrades put on pieces (none without the module)."""
    if "glory" not in state.settings.modules:
        return frozenset()
    return g.rules_of(state).upgrade_conds


def _keepers_hooks(state: State) -> KeepersHooks | None:
    for hooks in state._rules.hooks:
        if isinstance(hooks, KeepersHooks):
            return hooks
    return None


# ---------------------------------------------------------------------- the panel
def _in_end_phase(state: State) -> bool:
    """Whether the stack holds an End phase's draw step (M-GLORY-8 step 4), so that an
    objective draw is the End phase's and not a surge's or the deal's."""
    return any(frame[0] == g.END_DRAW for frame in state.stack)


def end_phase_banner(state: State, lang: str) -> str:
    """The End phase as its own step, whose it is and where it stands (``""`` when no
    End phase decision waits)."""
    if "glory" not in state.settings.modules or state.is_terminal:
        return ""
    d = state.decision()
    at = END_STEP_OF.get(d.kind)
    if at is None or (d.kind == g.DRAW and not _in_end_phase(state)):
        return ""
    player = d.player if d.player in (0, 1) else int(state.stack[-1][1])
    steps = []
    for i, key in enumerate(END_STEPS):
        word = t(lang, key)
        steps.append(f"[{word}]" if i == at else word)
    phase = g.glory_state(state).phase
    return f"{t(lang, 'gl_end_phase')} {phase} · {side(lang, player)}: {' › '.join(steps)}"


def module_panel(state: State, lang: str) -> Text:
    """The modules' panel: Glory, Keepers' Relics and Conditions as the game has them."""
    out = Text()
    modules = state.settings.modules
    if "glory" in modules:
        _glory(out, state, lang)
    if "keepers" in modules:
        _keepers(out, state, lang)
    if "conditions" in modules or any(
            c[0] not in ("veil", "aegis") for p in state.pieces.values() for c in p.conds):
        _conditions(out, state, lang)
    out.rstrip()
    return out


def module_status(state: State, lang: str) -> list[str]:
    """The modules' scores for the status line: each side's Glory with the rounds to
    the next End phase, each side's relic points with the target."""
    out = []
    modules = state.settings.modules
    if "glory" in modules:
        gs = g.glory_state(state)
        left = g.rounds_to_end_phase(state, g.rules_of(state))
        out.append(f"{t(lang, 'gl_glory')} {gs.glory[0]}–{gs.glory[1]} "
                   f"({t(lang, 'gl_end_in')} {left})")
    if "keepers" in modules:
        st = kstate(state)
        hooks = _keepers_hooks(state)
        aim = (f" / {hooks.target}" if hooks is not None and hooks.target > 0
               and not hooks.glory else "")
        out.append(f"{t(lang, 'kp_points')} {st.points[0]}–{st.points[1]}{aim}")
    return out


def _head(out: Text, title: str) -> None:
    if out.plain:
        out.append("\n")
    out.append(title + "\n", "bold underline")


def _glory(out: Text, state: State, lang: str) -> None:
    rules = g.rules_of(state)
    gs = g.glory_state(state)
    _head(out, t(lang, "gl_glory"))
    banner = end_phase_banner(state, lang)
    if banner:
        out.append(banner + "\n", "bold reverse")
    left = g.rounds_to_end_phase(state, rules)
    rounds = t(lang, "gl_round" if left == 1 else "gl_rounds")
    phase = (f"{t(lang, 'gl_phase')} {gs.phase + 1} {t(lang, 'gl_of')} {rules.phases}"
             if rules.phases else t(lang, "gl_no_end"))
    out.append(f"{t(lang, 'gl_end_in')} {left} {rounds} · {phase}\n", "bold yellow")
    for p in (0, 1):
        out.append(side(lang, p), ("bold bright_cyan", "bold bright_red")[p])
        out.append(f" {gs.glory[p]} {t(lang, 'gl_glory')} ({gs.unspent(p)} "
                   f"{t(lang, 'gl_unspent')}) · {t(lang, 'gl_markers')} "
                   f"{rules.held(state, p)}\n")
        for oid in gs.hands[p]:
            obj = rules.objectives[oid]
            met = obj.timing == "end_phase" and rules.met(state, p, obj)
            out.append("  ✓ " if met else "  · ", "bold green" if met else "")
            out.append(f"{objective_name(oid, lang)} ({obj.glory}★) ", "bold")
            out.append(objective_text(oid, lang) + "\n")
        for piece in sorted(state._own[p], key=lambda q: q.sq):
            for cond in (c[0] for c in piece.conds):
                if cond in rules.upgrade_conds:
                    uid = next(u.id for u in rules.upgrades.values() if u.condition == cond)
                    out.append(f"  {UPGRADE_MARK} {upgrade_name(uid, lang)} "
                               f"{state.geometry.name(piece.sq)}: ",
                               "bold")
                    out.append(upgrade_text(uid, lang) + "\n")
    deck = len(rules.deck(state))
    out.append(f"{t(lang, 'gl_objectives')}: {deck} {t(lang, 'gl_deck')}\n", "dim")


def _token_words(kind: int, value: int, lang: str) -> str:
    name = type_name(KEEPERS.relic_type[kind].id, lang)
    return f"{name} {value}" if value else f"{name} ({t(lang, 'kp_face_down')})"


def _keepers(out: Text, state: State, lang: str) -> None:
    st = kstate(state)
    hooks = _keepers_hooks(state)
    geo = state.geometry
    _head(out, t(lang, "kp_points"))
    target = hooks.target if hooks is not None and hooks.target > 0 and not hooks.glory else 0
    for p in (0, 1):
        out.append(side(lang, p), ("bold bright_cyan", "bold bright_red")[p])
        aim = f" / {target} ({t(lang, 'kp_target')})" if target else ""
        types = " ".join(
            (type_name(tp.id, lang) if st.recovered[p][k] > st.sets[p] else "·")
            for k, tp in enumerate(KEEPERS.relic_type))
        out.append(f" {st.points[p]}{aim} · {t(lang, 'kp_sets')} {st.sets[p]} · "
                   f"{t(lang, 'next_set')} [{types}]\n")
    for token in st.tokens:
        if token.recovered >= 0:
            continue
        words = _token_words(token.kind, token.value, lang)
        if token.sq >= 0:
            out.append(f"  {geo.name(token.sq)} {words}\n")
        elif token.carrier in state.pieces:
            carrier = state.pieces[token.carrier]
            out.append(f"  {geo.name(carrier.sq)} ", "")
            out.append(f"{t(lang, 'kp_carried')} ({side(lang, carrier.owner)}): {words}\n",
                       "bold")
    for p, (pid, kind) in enumerate(zip(st.shrine, st.shrine_type, strict=True)):
        if pid in state.pieces:
            out.append(f"  {t(lang, 'kp_wayshrine')} {side(lang, p)} "
                       f"{geo.name(state.pieces[pid].sq)}: "
                       f"{type_name(KEEPERS.relic_type[kind].id, lang)}\n")
    box = ", ".join(f"{type_name(tp.id, lang)} {n}"
                    for tp, n in zip(KEEPERS.relic_type, st.box, strict=True))
    out.append(f"{t(lang, 'token_box')}: {box}\n", "dim")


def _conditions(out: Text, state: State, lang: str) -> None:
    hidden = {"veil", "aegis", "wayshrine", *upgrade_conditions(state)}
    rows = []
    for piece in sorted(state.pieces.values(), key=lambda q: q.sq):
        conds = [condition_name(c[0], lang) + (f" {c[1]}" if c[1] else "")
                 for c in piece.conds if c[0] not in hidden]
        if conds and not piece.bans & OBJECT:
            rows.append((piece, conds))
    if not rows:
        return
    _head(out, t(lang, "conditions_title"))
    for piece, conds in rows:
        out.append(f"  {state.geometry.name(piece.sq)} ", "")
        out.append(side(lang, piece.owner), ("bold bright_cyan", "bold bright_red")[piece.owner])
        out.append(f": {', '.join(conds)}\n")


def option_names(state: State, lang: str) -> dict[str, dict[str, str]]:
    """The modules' options in words, by decision kind then option token (the options
    list shows ``token · words``): objectives and upgrades with their Glory or cost and
    text, INTERACT's actions, relic types and tokens by name."""
    modules = state.settings.modules
    out: dict[str, dict[str, str]] = {}
    if "glory" in modules:
        rules = g.rules_of(state)
        out[g.DISCARD] = {oid: f"{objective_name(oid, lang)} {o.glory}★: "
                               f"{objective_text(oid, lang)}"
                          for oid, o in rules.objectives.items()}
        out[g.DRAW] = out[g.DISCARD]
        out[g.UPGRADE] = {uid: f"{upgrade_name(uid, lang)} {u.cost}★: "
                               f"{upgrade_text(uid, lang)}"
                          for uid, u in rules.upgrades.items()}
    interact: dict[str, str] = {}
    if "conditions" in modules:
        interact.update((a.id, action_name(a.id, lang)) for a in CONDITIONS.action)
    if "keepers" in modules:
        interact.update((a.id, t(lang, f"kp_{a.id}")) for a in KEEPERS.action)
        types = {tp.id: type_name(tp.id, lang) for tp in KEEPERS.relic_type}
        out["wayshrine_type"] = types
        out["token_type"] = types
        out["token_pickup"] = {f"{tp.id}{v}": f"{types[tp.id]} {v}"
                               for tp in KEEPERS.relic_type for v in set(tp.values)}
    if interact:
        out["interact"] = interact
    return out


def module_help(state: State, lang: str) -> list[str]:
    """The help text of each module the game has (the web page's, in ``lang``)."""
    keys = {"conditions": "cd_help", "glory": "gl_help", "keepers": "kp_help"}
    return [t(lang, keys[m]) for m in state.settings.modules if m in keys]


__all__ = ["END_STEPS", "MARK_STYLES", "UPGRADE_MARK", "board_marks", "end_phase_banner",
           "module_help", "module_name", "module_panel", "module_status", "option_names",
           "upgrade_conditions"]
