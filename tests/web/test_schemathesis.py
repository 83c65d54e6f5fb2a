"""Schemathesis against the app's own OpenAPI schema, in process (ASGI).

Every operation gets generated requests, valid and invalid (bodies included: each is a
documented pydantic model), some aimed at a real game and its seat token; each answer
must be no server error, a documented status code with the documented content type,
match the documented schema, and invalid data must be refused. Bounded in examples so
it stays well under a minute.

One pytest item runs every operation: schemathesis's pytest plugin ends an ASGI app's
lifespan after each item, and the app's AI pool does not start again once stopped (as
in a real server, whose lifespan runs once).
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.generation.modes import GenerationMode
from schemathesis.python import asgi
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from reliquary.web import create_app
from reliquary.web.guard import Limits

#: Examples per operation (about 20 operations): enough to reach every refusal path.
EXAMPLES = 40

#: The app under test, on a throwaway database (rate limits out of the way: they are
#: tested on their own in test_trust.py).
_DB = tempfile.TemporaryDirectory(prefix="reliquary-fuzz-")
APP = create_app(f"sqlite:///{Path(_DB.name) / 'fuzz.db'}", ai_delay=0,
                 limits=Limits(create_burst=10**6, create_per_minute=10**6))


def negative_data_rejected(ctx: Any, response: Any, case: schemathesis.Case) -> bool | None:
    """Schemathesis's negative-data check, counting 413 (a body over the size limit) as
    the rejection it is."""
    if response.status_code == 413:
        return None
    return negative_data_rejection(ctx, response, case)


CHECKS: list[Any] = [not_a_server_error, status_code_conformance, content_type_conformance,
                     response_schema_conformance, negative_data_rejected]


def aim(case: schemathesis.Case, games: list[dict[str, Any]]) -> None:
    """Point some generated requests at a real game and its seat token."""
    rng = random.Random(str(case.path_parameters) + str(case.body)[:200])
    game = rng.choice(games)
    if case.path_parameters and "game_id" in case.path_parameters and rng.random() < 0.7:
        case.path_parameters["game_id"] = game["id"]
    if isinstance(case.query, dict) and "t" in case.query and rng.random() < 0.5:
        case.query["t"] = game["token"]
    if isinstance(case.body, dict) and "token" in case.body and rng.random() < 0.5:
        case.body["token"] = game["token"]


def test_the_api_answers_as_documented() -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", APP)
    with asgi.get_client(APP) as client:  # one lifespan for the whole run
        games = [client.post(f"http://{asgi.HOST}/api/games", json=body).json()
                 for body in ({"mode": "hotseat"}, {"mode": "online", "public": True},
                              {"mode": "ai"})]
        operations = [result.ok() for result in schema.get_all_operations()]
        assert len(operations) >= 15
        failures: list[str] = []
        for operation in operations:
            strategy = st.one_of(operation.as_strategy(GenerationMode.POSITIVE),
                                 operation.as_strategy(GenerationMode.NEGATIVE))

            @given(case=strategy)
            @settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                      phases=[Phase.explicit, Phase.generate],
                      suppress_health_check=list(HealthCheck), database=None)
            def run(case: schemathesis.Case) -> None:
                aim(case, games)
                case.call_and_validate(session=client, checks=CHECKS)

            try:
                run()
            except Exception as err:  # gather every operation's failure, then report
                failures.append(f"{operation.label}: {err}")
        assert not failures, "\n\n".join(failures)
