"""The live feed: WebSocket and SSE clients get the state on connect and every change after."""

from __future__ import annotations

import asyncio
import json
import time

import httpx
import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect_sync


def ws_url(server, match_id: int) -> str:
    return f"ws://127.0.0.1:{server.port}/api/matches/{match_id}/live"


def test_websocket_state_on_connect_then_each_change(server, client, script, match_id):
    client.post(f"/api/matches/{match_id}/events", json=script.quiet).raise_for_status()
    with ws_connect_sync(ws_url(server, match_id)) as socket:
        first = json.loads(socket.recv(timeout=5))
        assert first["seq"] == 1 and first == client.get(f"/api/matches/{match_id}").json()
        client.post(f"/api/matches/{match_id}/events", json=script.scoring).raise_for_status()
        second = json.loads(socket.recv(timeout=5))
        assert second["seq"] == 2
        assert second == client.get(f"/api/matches/{match_id}").json()


def test_websocket_for_unknown_match_closes_with_4404(server):
    with ws_connect_sync(ws_url(server, 999999)) as socket:
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=5)
    assert closed.value.rcvd.code == 4404


def read_sse(lines) -> dict:
    """The next `state` event of an SSE line iterator, parsed."""
    event = None
    for line in lines:
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and event == "state":
            return json.loads(line.split(":", 1)[1])
    raise AssertionError("the stream ended")


def test_sse_state_on_connect_then_each_change(server, client, script, match_id):
    with httpx.stream("GET", f"{server.url}/api/matches/{match_id}/stream", timeout=5) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.iter_lines()
        assert read_sse(lines)["seq"] == 0
        client.post(f"/api/matches/{match_id}/events", json=[script.quiet, script.scoring]).raise_for_status()
        update = read_sse(lines)
        assert update["seq"] == 2 and update == client.get(f"/api/matches/{match_id}").json()


def test_sse_for_unknown_match_is_404(server):
    assert httpx.get(f"{server.url}/api/matches/999999/stream").status_code == 404


CLIENTS = 100
EVENTS = 5


async def _ws_client(url: str, ready: asyncio.Event, seen: list[int], target_seq: int) -> None:
    async with ws_connect(url) as socket:
        seen.append(json.loads(await socket.recv())["seq"])
        ready.set()
        while seen[-1] < target_seq:
            seen.append(json.loads(await socket.recv())["seq"])


async def _sse_client(url: str, ready: asyncio.Event, seen: list[int], target_seq: int) -> None:
    async with httpx.AsyncClient(timeout=20) as http, http.stream("GET", url) as stream:
        event = None
        async for line in stream.aiter_lines():
            if line.startswith("event:"):
                event = line.split(":", 1)[1].strip()
            elif line.startswith("data:") and event == "state":
                seen.append(json.loads(line.split(":", 1)[1])["seq"])
                ready.set()
                if seen[-1] >= target_seq:
                    return


def test_a_hundred_clients_all_get_every_final_state(server, client, script, match_id):
    """Half WebSocket, half SSE; events keep arriving while they connect and listen."""

    async def scenario() -> list[list[int]]:
        seen: list[list[int]] = [[] for _ in range(CLIENTS)]
        ready = [asyncio.Event() for _ in range(CLIENTS)]
        sse_url = f"{server.url}/api/matches/{match_id}/stream"
        tasks = [
            asyncio.create_task(
                _ws_client(ws_url(server, match_id), ready[i], seen[i], EVENTS) if i % 2 == 0
                else _sse_client(sse_url, ready[i], seen[i], EVENTS))
            for i in range(CLIENTS)
        ]
        async with httpx.AsyncClient(base_url=server.url, headers=client.headers, timeout=20) as writer:
            (await writer.post(f"/api/matches/{match_id}/events", json=script.quiet)).raise_for_status()
            await asyncio.wait_for(asyncio.gather(*(r.wait() for r in ready)), timeout=20)
            for _ in range(EVENTS - 1):
                (await writer.post(f"/api/matches/{match_id}/events", json=script.quiet)).raise_for_status()
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=20)
        return seen

    seen = asyncio.run(scenario())
    assert all(history[-1] == EVENTS for history in seen)
    assert all(history == sorted(set(history)) for history in seen), "a client saw a state twice or out of order"
    assert_all_clients_released(client)


def assert_all_clients_released(client, timeout_s: float = 5.0) -> None:
    """Closed clients leave the hub (no subscription leaks)."""
    deadline = time.monotonic() + timeout_s
    while client.get("/healthz").json()["live_clients"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert client.get("/healthz").json()["live_clients"] == 0
