"""Frames pushed faster than a table's rate are refused (429) for that table alone, and accepted again once it has passed.

A server of its own at one frame per second: the limit is then met by two posts in a row
however slowly a loaded machine answers them.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from service.process import ServiceProcess
from tests.service.conftest import referee_client
from tests.service.test_api import jpeg_bytes


@pytest.fixture(scope="module")
def slow_client(tmp_path_factory, token) -> Iterator[httpx.Client]:
    env = {"BOARDREADER_MAX_FRAMES_PER_S": "1"}
    with ServiceProcess(db_path=tmp_path_factory.mktemp("rate") / "rate.db", token=token, env=env) as server:
        with referee_client(server, token) as client:
            yield client


def push(client: httpx.Client, table_id: int) -> httpx.Response:
    return client.post(f"/api/tables/{table_id}/frames", content=jpeg_bytes(), headers={"Content-Type": "image/jpeg"})


def test_frames_above_the_rate_are_refused_for_that_table_only(slow_client):
    first, second = (slow_client.post("/api/tables", json={"name": name, "game": "crokinole"}).json()["id"]
                     for name in ("fast camera", "other camera"))
    assert push(slow_client, first).status_code == 202
    refused = push(slow_client, first)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "1"
    assert push(slow_client, second).status_code == 202
    time.sleep(1.05)
    assert push(slow_client, first).status_code == 202
    assert slow_client.get(f"/api/tables/{first}").json()["frames_queued"] == 2
