"""The request bodies of the API as pydantic models (FastAPI documents them in OpenAPI).

Strict types: ``"quick": "false"`` is refused, not read as true; every string and list
has a length bound; unknown fields are refused. What the models cannot know (a rule
setting's allowed values, a legal option) the engine checks afterwards, and a refusal
of either kind is a 400 with a message naming the field.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr

#: Bounds on what a request may carry (all far above what a real game needs).
MAX_TOKEN = 64          # a seat token, an invite code, a revision, an option token
MAX_NAME = 40           # a faction, an AI level, a rule setting's value
MAX_SETUP = 200         # setup decisions in a record
MAX_TURNS = 4000        # turns in a record (two per round, round_cap at most 2000)
MAX_TURN_DECISIONS = 200

Token = Annotated[StrictStr, Field(max_length=MAX_TOKEN)]
Name = Annotated[StrictStr, Field(max_length=MAX_NAME)]


class Body(BaseModel):
    """A request body: a JSON object with only the documented fields."""

    model_config = ConfigDict(extra="forbid")


class Clock(Body):
    """A chess clock for an online game."""

    initial_s: StrictFloat = Field(ge=10, le=3 * 3600,
                                         description="time for each player, 10 s to 3 h")
    increment_s: StrictFloat = Field(0, ge=0, le=60,
                                           description="added when a turn ends, 0 to 60 s")


class NewGame(Body):
    """``POST /api/games``: a new game and its rule settings (the engine's Settings)."""

    mode: Literal["ai", "hotseat", "online"] = "ai"
    level: Name | None = Field(None, description="AI level (games against the AI)")
    seat: Literal["key", "skull", "random"] = "key"
    quick: StrictBool = Field(True, description="deal a random legal setup")
    faction: Name | None = Field(None, description="the creator's faction (quick setup)")
    public: StrictBool = Field(False, description="online: list the game in the lobby")
    clock: Clock | None = None
    # The engine's rule settings: each is checked by Settings (400 naming the field).
    size: StrictInt = Field(8, ge=1, le=64)
    los: Name = "geometric"
    first_turn: Name = "no_damage"
    round_cap: StrictInt = Field(200, ge=1, le=2000)
    regroup_limit: StrictInt | None = Field(None, ge=0, le=1000)
    vigil_reset: Name | None = None
    vigil_start: StrictInt | None = Field(None, ge=0, le=100)
    killed_minions: Name | None = None
    # M-MOD-1, M-MOD-2: rule modules and their options ("module.option": value), checked
    # by Settings like the rest (400 naming the module or option).
    modules: list[Name] = Field(default_factory=list, max_length=8,
                                description="rule modules to turn on (GET /api/meta)")
    module_options: dict[Name, StrictInt | Name | list[Name]] = Field(
        default_factory=dict, max_length=32,
        description="module options by 'module.option' (GET /api/meta lists them)")
    ruleset: Name | None = Field(None, description="a named ruleset (GET /api/meta lists "
                                 "them): its settings are the defaults of the fields above")

    def settings(self) -> dict[str, Any]:
        """The rule settings given (the engine's defaults for the rest)."""
        names = ("size", "los", "first_turn", "round_cap", "regroup_limit", "vigil_reset",
                 "vigil_start", "killed_minions")
        given = self.model_dump(include=set(names))
        chosen = {k: v for k, v in given.items()
                  if k in self.model_fields_set or k in ("size", "los", "first_turn",
                                                         "round_cap")}
        if self.modules:
            chosen["modules"] = list(self.modules)
        chosen.update(self.module_options)
        return chosen


class Decide(Body):
    """``POST /api/games/{id}/decide``: one decision answering revision ``rev``."""

    token: Token | None = Field(description="the deciding seat's token")
    rev: Token = Field(description="the revision of the view the decision answers")
    option: Token = Field(description="the engine's token of the option (c4, Bolt:attack…)")


class Undo(Body):
    """``POST /api/games/{id}/undo``: take back the last turn, at revision ``rev``."""

    token: Token | None = None
    rev: Token


class Resign(Body):
    """``POST /api/games/{id}/resign``: the token's seat resigns, at revision ``rev``
    (on one screen: the side to move)."""

    token: Token = Field(description="the resigning seat's token")
    rev: Token = Field(description="the revision of the view the resignation answers")


class Claim(Body):
    """``POST /api/games/{id}/claim``: exchange an invite for the guest's seat token."""

    invite: Token


class Join(Body):
    """``POST /api/games/{id}/join``: take the open seat of a public game (no fields)."""


class Rematch(Body):
    """``POST /api/games/{id}/rematch``: a new game after a finished one."""

    token: Token


class RecordContent(BaseModel):
    """The content a record was made with."""

    fingerprint: Annotated[StrictStr, Field(max_length=200)]
    provisional: StrictBool | None = None


class Record(BaseModel):
    """``POST /api/records``: a finished game's record, the engine's format
    (docs/formats.md). Replayed decision by decision before it is stored."""

    model_config = ConfigDict(extra="allow")

    format: Annotated[StrictStr, Field(max_length=MAX_NAME)]
    version: StrictInt
    content: RecordContent
    settings: dict[str, StrictInt | Name | None] = Field(max_length=16)
    meta: dict[str, Any] = Field(default_factory=dict, max_length=64)
    setup: list[Token] = Field(max_length=MAX_SETUP)
    turns: list[Annotated[list[Token], Field(max_length=MAX_TURN_DECISIONS)]] = Field(
        max_length=MAX_TURNS)
    result: dict[str, Any] | None = None


class Error(BaseModel):
    """A refused request: an English message and a stable code (the page translates it)."""

    error: str
    code: str
    rev: str | None = Field(None, description="the current revision (code 'stale')")
