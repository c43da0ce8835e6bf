"""A real service for the tests: `boardreader serve` in a child process over a temp SQLite file."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import httpx
import pytest

from service.process import ServiceProcess
from tests.service.games import SCRIPTS, GameScript


@pytest.fixture(scope="session")
def token() -> str:
    return secrets.token_urlsafe(16)


@pytest.fixture(scope="session")
def server(tmp_path_factory, token) -> Iterator[ServiceProcess]:
    # A short busy timeout keeps the locked-database test quick; the fuzz may start tables' vision
    # workers, a few at most.
    with ServiceProcess(db_path=tmp_path_factory.mktemp("service") / "boardreader.db", token=token,
                        env={"BOARDREADER_DB_BUSY_TIMEOUT_S": "0.3", "BOARDREADER_MAX_WORKERS": "2"}) as process:
        yield process


def referee_client(server: ServiceProcess, token: str, *, timeout_s: float = 10.0) -> httpx.Client:
    """A client of `server` that writes with `token`."""
    return httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {token}"}, timeout=timeout_s)


@pytest.fixture
def client(server, token) -> Iterator[httpx.Client]:
    with referee_client(server, token) as http:
        yield http


@pytest.fixture(scope="session")
def script() -> GameScript:
    return SCRIPTS[0]  # carrom: the console's operator forms are carrom's


def new_match(http: httpx.Client, script: GameScript) -> int:
    response = http.post("/api/matches", json=script.match)
    assert response.status_code == 201, response.text
    return response.json()["id"]


@pytest.fixture
def match_id(client, script) -> int:
    return new_match(client, script)
