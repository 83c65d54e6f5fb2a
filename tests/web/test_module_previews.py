"""The rule modules' previews on the web (issues 23 and 24): what each INTERACT action and
each of a module's choices would do, worked out by the engine on copies of the game
(``reliquary.web.module_preview``), in English and Spanish, with the squares it touches
and a DELVE's odds from the engine's own chance outcomes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from reliquary.engine import Builder, Content, Play, State, format_option
from reliquary.engine.modules.keepers import DATA, Token, kstate, reveal_odds
from reliquary.engine.types import PASS
from reliquary.web import create_app
from reliquary.web.module_preview import action_outcomes, decision_notes
from reliquary.web.preview import preview_of

KEY, SKULL = 0, 1


def board(content: Content, *modules: str) -> Builder:
    return Builder(content, 8, factions=("pyre-choir", "pyre-choir"), modules=modules)


def at(s: State, name: str) -> int:
    return s.geometry.parse(name)


def put(s: State, square: str, kind: str, value: int = 0, carrier: str | None = None) -> int:
    """A token on ``square`` (face down unless ``value``) or carried by the piece on
    ``carrier``, taken out of the box; its index."""
    st = kstate(s)
    k = DATA.type_index(kind)
    st.box[k] -= 1
    if carrier is None:
        st.tokens.append(Token(k, value, at(s, square)))
    else:
        st.tokens.append(Token(k, value, carrier=s.board[at(s, carrier)]))
    s._options = None  # the tokens change what INTERACT offers
    return len(st.tokens) - 1


def interact_play(s: State) -> str:
    play = next(o for o in s.legal_options() if isinstance(o, Play) and o.mode == "interact")
    return format_option(s, play)


def preview(s: State) -> dict[str, Any]:
    key = s.key()
    out = preview_of(s, frozenset({s.decision().player}), interact_play(s))
    assert s.key() == key  # worked out on copies: the game is unchanged
    return out


def by_actor(action: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {"+".join(o["choices"]): o for o in action["outcomes"]}


# ---------------------------------------------------------------------- Conditions
def test_guard_and_focus_say_who_gains_what_and_when_it_ends(content: Content) -> None:
    s = (board(content, "conditions").hero(KEY, "d1").hero(SKULL, "e8").minion(KEY, "c3")
         .build())
    actions = preview(s)["actions"]
    assert set(actions) == {"focus", "guard"}
    guard = by_actor(actions["guard"])
    assert set(guard) == {"c3", "d1"} and guard["c3"]["squares"] == ["c3"]
    assert guard["c3"]["text"] == {
        "en": "Your Minion on c3 gains Defensive 1, until Key's next turn starts.",
        "es": "Tu Esbirro en c3 gana Defensiva 1, hasta que empiece el siguiente turno de "
              "Llave."}
    focus = by_actor(actions["focus"])
    assert focus["d1"]["text"]["en"] == ("Your Hero on d1 gains Focus 1, until the end of "
                                         "Key's next turn or when it attacks.")
    assert "gana Concentración 1" in focus["d1"]["text"]["es"]
    assert "Also with: " in actions["guard"]["text"]["en"]  # one line for the whole action
    assert "También con: " in actions["guard"]["text"]["es"]


def test_a_second_focus_only_restarts_its_duration(content: Content) -> None:
    s = (board(content, "conditions").hero(KEY, "d1").hero(SKULL, "e8").minion(KEY, "c3")
         .build())
    s.add_condition(s.pieces[s.board[at(s, "c3")]], "focus", 1)
    text = by_actor(preview(s)["actions"]["focus"])["c3"]["text"]
    assert text["en"].startswith("Your Minion on c3 keeps Focus 1; it now lasts")  # M-COND-D7
    assert text["es"].startswith("Tu Esbirro en c3 mantiene Concentración 1; ahora dura")


def test_tend_names_the_actor_the_target_and_the_burning_before_and_after(
        content: Content) -> None:
    s = (board(content, "conditions").hero(KEY, "d1").hero(SKULL, "e8").minion(KEY, "c3")
         .minion(KEY, "c4").build())
    s.add_condition(s.pieces[s.board[at(s, "c4")]], "burning", 2)
    s._options = None
    tend = by_actor(preview(s)["actions"]["tend"])
    assert set(tend) == {"c3+c4", "c4+c4"}  # the actor, then the Burning friend
    assert tend["c3+c4"]["squares"] == ["c3", "c4"]
    assert tend["c3+c4"]["text"] == {"en": "Your Minion on c4: Burning 2 → 1.",
                                     "es": "Tu Esbirro en c4: Ardiente 2 → 1."}
    s.pieces[s.board[at(s, "c4")]].set_condition(s._rules.conditions["burning"], True, 1, 0)
    s._options = None
    tend = by_actor(preview(s)["actions"]["tend"])
    assert tend["c3+c4"]["text"]["en"] == "Your Minion on c4 loses Burning 1."
    assert tend["c3+c4"]["text"]["es"] == "Tu Esbirro en c4 pierde Ardiente 1."


def test_the_actor_choice_notes_each_square(content: Content) -> None:
    s = (board(content, "conditions").hero(KEY, "d1").hero(SKULL, "e8").minion(KEY, "c3")
         .build())
    s.apply(Play(next(o.card for o in s.legal_options() if isinstance(o, Play)), "interact"))
    notes = decision_notes(s, KEY)
    assert notes is not None and set(notes) == {"focus", "guard"}
    assert "gains Defensive 1" in notes["guard"]["text"]["en"]
    assert notes["guard"]["squares"] == ["c3", "d1"]  # every piece it could take
    s.apply("guard")
    notes = decision_notes(s, KEY)
    assert notes is not None and set(notes) == {"c3", "d1"}
    assert notes["c3"] == {"text": {
        "en": "Your Minion on c3 gains Defensive 1, until Key's next turn starts.",
        "es": "Tu Esbirro en c3 gana Defensiva 1, hasta que empiece el siguiente turno de "
              "Llave."}, "squares": ["c3"]}
    assert decision_notes(s, SKULL) is None  # not Skull's decision


# ---------------------------------------------------------------------- Keepers
def _delve_board(content: Content, *, second: bool = True) -> State:
    b = board(content, "keepers").hero(KEY, "d1").hero(SKULL, "h8").minion(KEY, "c3")
    if second:  # two of Key's next to d4 against one of Skull's: Key rules it
        b = b.minion(KEY, "e3").minion(SKULL, "c5")
    return b.ruins("d4").build()


def test_delve_gives_the_token_at_stake_the_pieces_and_the_engines_odds(
        content: Content) -> None:
    s = _delve_board(content)
    i = put(s, "d4", "chalice")
    delve = by_actor(preview(s)["actions"]["delve"])
    assert set(delve) == {"c3", "e3"}
    path = delve["c3"]
    assert path["squares"] == ["c3", "d4"]
    # the odds are the engine's reveal odds for the token's type, the lift test its own:
    # two Key pieces next to d4 lift a value of 2 or less
    odds = reveal_odds(kstate(s), kstate(s).tokens[i].kind)
    assert {o["value"]: o["p"] for o in path["odds"]} == pytest.approx(odds, abs=1e-3)
    assert {o["value"]: o["lift"] for o in path["odds"]} == {v: v <= 2 for v in odds}
    assert path["lift"] == pytest.approx(sum(p for v, p in odds.items() if v <= 2))
    assert path["text"]["en"].startswith(
        "Your Minion on c3 delves the Ruin d4 for a face-down Chalice; your pieces next to "
        "it: 2, so it lifts a token of value 2 or less.")
    assert f"Chance to lift: {round(path['lift'] * 100)}%." in path["text"]["en"]
    assert "Cáliz boca abajo" in path["text"]["es"]
    assert f"Probabilidad de levantarla: {round(path['lift'] * 100)} %." in path["text"]["es"]


def test_the_odds_follow_the_values_already_seen_and_the_pieces_next_to_the_ruin(
        content: Content) -> None:
    s = _delve_board(content, second=False)
    i = put(s, "d4", "scroll")
    put(s, "a8", "scroll", value=3)  # a Scroll 3 seen: fewer 3s left in the bag
    odds = reveal_odds(kstate(s), kstate(s).tokens[i].kind)
    path = by_actor(preview(s)["actions"]["delve"])["c3"]
    assert {o["value"]: o["p"] for o in path["odds"]} == pytest.approx(odds, abs=1e-3)
    assert odds[1] > 0 and path["lift"] == pytest.approx(odds[1], abs=1e-3)  # one piece: a 1


def test_a_face_up_token_is_a_sure_lift_with_no_odds(content: Content) -> None:
    s = _delve_board(content)
    put(s, "d4", "icon", value=2)
    path = by_actor(preview(s)["actions"]["delve"])["c3"]
    assert "odds" not in path
    assert path["text"]["en"].endswith("It lifts the Icon 2 and carries it.")
    assert path["text"]["es"].endswith("Levanta el Icono 2 y lo lleva.")


def test_encamp_and_the_wayshrine_type_say_what_the_wayshrine_does(content: Content) -> None:
    s = (board(content, "keepers").hero(KEY, "d1").hero(SKULL, "h8").minion(KEY, "c3")
         .build())
    encamp = by_actor(preview(s)["actions"]["encamp"])
    assert set(encamp) == {"c3"}
    assert encamp["c3"]["types"] == [t.id for t in DATA.relic_type]
    text = encamp["c3"]["text"]
    assert text["en"].startswith("Your Minion on c3 leaves the game (not to the pool); your "
                                 "Wayshrine stands on c3 showing the type you choose")
    assert f"whoever destroys it gains {DATA.wayshrine_kill} point" in text["en"]
    assert "REAGRUPAR puede poner un Esbirro junto a él" in text["es"]
    s.apply(Play(next(o.card for o in s.legal_options() if isinstance(o, Play)), "interact"))
    s.apply("encamp")
    s.apply(at(s, "c3"))
    notes = decision_notes(s, KEY)
    assert notes is not None and set(notes) == {t.id for t in DATA.relic_type}
    assert "showing the Scroll. " in notes["scroll"]["text"]["en"]
    assert "Scroll tokens are recovered next to it" in notes["scroll"]["text"]["en"]
    assert "mostrando el Pergamino." in notes["scroll"]["text"]["es"]
    s.apply("scroll")
    s.apply(next(o for o in s.legal_options() if isinstance(o, Play)))  # Skull's turn
    while s.current != KEY or s.decision().kind != "play":
        options = s.legal_options()
        s.apply(PASS if PASS in options else options[0])
    decamp = preview(s)["actions"]["decamp"]
    assert decamp["outcomes"][0]["squares"] == ["c3"]
    assert decamp["text"]["en"].startswith("Your Wayshrine on c3 gives way to a new Minion")
    assert decamp["text"]["es"].startswith("Tu Ermita en c3 deja su sitio a un Esbirro")


def test_the_prize_choice_says_what_each_ruin_gives(content: Content) -> None:
    s = (Builder(content, 8, factions=("pyre-choir", "pyre-choir"), modules=("keepers",),
                 module_options=(("keepers.devout", "off"),))
         .hero(KEY, "d3").hero(SKULL, "h8").minion(SKULL, "d4").ruins("b6", "g3")
         .hands(key=["Smite", "Pilgrim", "Crossroads"]).build())
    put(s, "g3", "icon")
    put(s, "a1", "scroll", 2, carrier="d4")
    s.apply(next(o for o in s.legal_options() if isinstance(o, Play) and o.mode == "attack"
                 and o.card == "Smite"))
    s.apply(at(s, "d3"))
    if s.decision().kind == "lunge":
        s.apply(PASS)
    s.apply(at(s, "d4"))
    assert s.decision().kind == "prize"
    notes = decision_notes(s, KEY)
    assert notes is not None and set(notes) == {"b6", "pass"}
    assert notes["b6"]["text"] == {
        "en": f"The Scroll 2 (dropped on d4) goes face up to the Ruin b6: +{DATA.prize} point "
              f"({DATA.prize} in all).",
        "es": f"El Pergamino 2 (caído en d4) pasa boca arriba a la Ruina b6: +{DATA.prize} "
              f"punto ({DATA.prize} en total)."}
    assert notes["b6"]["squares"] == ["b6", "d4"]
    assert notes["pass"]["text"]["en"] == "Leave the Scroll 2 where it fell, on d4: no point."
    assert notes["pass"]["text"]["es"] == "Dejar el Pergamino 2 donde cayó, en d4: sin punto."


def test_action_outcomes_leave_the_game_alone(content: Content) -> None:
    s = _delve_board(content)
    put(s, "d4", "chalice")
    s.apply(Play(next(o.card for o in s.legal_options() if isinstance(o, Play)), "interact"))
    key, events = s.key(), s.events
    out = action_outcomes(s, "delve")
    assert s.key() == key and s.events is events and s.decision().kind == "interact"
    assert len(out["outcomes"]) == 2


# ---------------------------------------------------------------------- through the API
@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'previews.db'}", ai_delay=0)
    with TestClient(app) as test_client:
        yield test_client


def test_the_view_and_the_preview_carry_the_notes(client: TestClient) -> None:
    response = client.post("/api/games", json={"mode": "hotseat", "modules": ["conditions"]})
    assert response.status_code == 201, response.text
    gid, token = response.json()["id"], response.json()["token"]
    view = client.get(f"/api/games/{gid}", params={"t": token}).json()
    assert view["decision"]["kind"] == "play" and "notes" not in view["decision"]
    play = next(o for o in view["decision"]["options"] if o.endswith(":interact"))
    pv = client.get(f"/api/games/{gid}/preview", params={"t": token, "option": play}).json()
    guard = pv["actions"]["guard"]
    assert guard["outcomes"] and all(
        o["squares"] == o["choices"] and "gains Defensive 1" in o["text"]["en"]
        and "gana Defensiva 1" in o["text"]["es"] for o in guard["outcomes"])
    view = client.post(f"/api/games/{gid}/decide",
                       json={"token": token, "rev": view["rev"], "option": play}).json()
    assert set(view["decision"]["notes"]) == set(view["decision"]["options"])
    view = client.post(f"/api/games/{gid}/decide",
                       json={"token": token, "rev": view["rev"], "option": "guard"}).json()
    notes = view["decision"]["notes"]
    assert set(notes) == set(view["decision"]["options"])
    assert all(n["squares"] == [sq] for sq, n in notes.items())
    spectator = client.get(f"/api/games/{gid}").json()  # no seat: no options, no notes
    assert "notes" not in spectator["decision"]
