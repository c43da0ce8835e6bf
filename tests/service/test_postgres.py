"""The service over PostgreSQL (`--db postgresql+psycopg://...`): the same log guarantees.

Needs a server: `.ci/run` starts Debian's PostgreSQL and sets BOARDREADER_TEST_PG_URL
(the output of `.ci/start_postgres`); each run works in a database of its own.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
from collections.abc import Iterator

import httpx
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, make_url
from websockets.sync.client import connect as ws_connect_sync

import scoring
from service.config import Settings
from service.db import make_engine, migrate
from service.models import Base
from service.process import ServiceProcess
from tests.service.conftest import new_match
from tests.service.test_faults import kill_mid_match_and_restart

PG_URL = os.environ.get("BOARDREADER_TEST_PG_URL")
pytestmark = pytest.mark.skipif(not PG_URL, reason="no PostgreSQL: run `export BOARDREADER_TEST_PG_URL=$(.ci/start_postgres)`")


@pytest.fixture(scope="module")
def pg_url() -> Iterator[str]:
    name = f"boardreader_test_{secrets.token_hex(4)}"
    admin = create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE DATABASE "{name}"')
    yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    with admin.connect() as connection:
        connection.exec_driver_sql(f'DROP DATABASE "{name}" WITH (FORCE)')
    admin.dispose()


@pytest.fixture(scope="module")
def pg_server(pg_url, token) -> Iterator[ServiceProcess]:
    with ServiceProcess(db_url=pg_url, token=token) as process:
        yield process


@pytest.fixture
def pg_client(pg_server, token) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=pg_server.url, headers={"Authorization": f"Bearer {token}"}, timeout=10) as http:
        yield http


def test_migrations_match_the_models(pg_url):
    engine = make_engine(Settings(db_url=pg_url))
    migrate(engine)
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    engine.dispose()


def test_log_replays_and_bad_input_stores_nothing(pg_server, pg_client, script):
    match_id = new_match(pg_client, script)
    with ws_connect_sync(f"ws://127.0.0.1:{pg_server.port}/api/matches/{match_id}/live") as socket:
        assert json.loads(socket.recv(timeout=5))["seq"] == 0
        accepted = pg_client.post(f"/api/matches/{match_id}/events", json=[script.quiet, script.scoring])
        assert accepted.status_code == 201, accepted.text
        assert json.loads(socket.recv(timeout=5)) == pg_client.get(f"/api/matches/{match_id}").json()
    rejected = pg_client.post(f"/api/matches/{match_id}/events", json={**script.quiet, "type": "nonsense"})
    assert rejected.status_code == 422
    rows = pg_client.get(f"/api/matches/{match_id}/events").json()
    assert [row["seq"] for row in rows] == [1, 2]
    state = pg_client.get(f"/api/matches/{match_id}").json()
    expected = scoring.replay([script.match, *(row["event"] for row in rows)])
    assert {key: state[key] for key in expected} == expected


def test_concurrent_writers(pg_server, pg_client, script):
    match_id = new_match(pg_client, script)

    async def burst() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=pg_server.url, headers=pg_client.headers, timeout=20) as http:
            return await asyncio.gather(*(
                http.post(f"/api/matches/{match_id}/events", json={**script.quiet, "id": f"p{k}"}) for k in range(20)))

    assert [r.status_code for r in asyncio.run(burst())] == [201] * 20
    assert [row["seq"] for row in pg_client.get(f"/api/matches/{match_id}/events").json()] == list(range(1, 21))


def test_sigkill_mid_match_loses_no_acknowledged_event(pg_server, script):
    kill_mid_match_and_restart(pg_server, script)
