"""The OpenAPI document fuzzed by schemathesis against the real server: no 5xx on any request.

Driven with hypothesis directly (schemathesis' pytest plugin does not load under this
pytest), one operation at a time, positive and negative data.
"""

from __future__ import annotations

import httpx
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

EXAMPLES_PER_OPERATION = 12


def test_no_operation_answers_5xx(server, token, script):
    # The SSE stream of an existing match never ends by design; it has its own tests.
    schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json").exclude(path_regex=r"/stream$")
    headers = {"Authorization": f"Bearer {token}"}
    tried, statuses = [], []
    # Deletes go last: a table the fuzz removes early would leave the frame upload nothing to reach.
    operations = sorted((result.ok() for result in schema.get_all_operations()), key=lambda op: op.method == "delete")
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, database=None,
                      suppress_health_check=list(HealthCheck))
            def call(case) -> None:
                response = case.call_and_validate(base_url=server.url, headers=headers, checks=[not_a_server_error])
                statuses.append(response.status_code)

            try:
                call()
            except Unsatisfiable:
                # An operation with no parameters and no body has no invalid form.
                assert mode is GenerationMode.NEGATIVE
        tried.append(operation.label)
    assert "POST /api/matches/{match_id}/events" in tried and "POST /api/tables/{table_id}/frames" in tried
    assert {201, 202} <= set(statuses), "the fuzz never got a write through"


def test_the_fuzzer_token_opens_the_write_paths(server, token):
    """The fuzz above is only worth something if its token is accepted."""
    response = httpx.post(f"{server.url}/api/tokens", json={"name": "fuzz check"},
                          headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 201
