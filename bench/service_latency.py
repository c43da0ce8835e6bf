"""Live feed latency on loopback: from sending an event POST to each client holding the new state.

Starts `boardreader serve` over a temp SQLite file, connects 100 clients to one
match (WebSocket, then SSE), posts events one at a time and prints p50/p95/max
per feed; plus the overlay page in headless Chromium with the 100 WebSocket
clients connected, and the POST acknowledgement itself.

    .venv/bin/python bench/service_latency.py [--clients 100] [--events 40]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect as ws_connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service.process import ServiceProcess  # noqa: E402
from tests.service.games import ready_script  # noqa: E402

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def ws_listener(url: str, arrivals: dict[int, list[float]], ready: asyncio.Event, last_seq: int) -> None:
    async with ws_connect(url, max_queue=None) as socket:
        await socket.recv()
        ready.set()
        while True:
            message = await socket.recv()
            seen_s = time.perf_counter()
            seq = json.loads(message)["seq"]
            arrivals.setdefault(seq, []).append(seen_s)
            if seq >= last_seq:
                return


async def sse_listener(url: str, arrivals: dict[int, list[float]], ready: asyncio.Event, last_seq: int) -> None:
    async with httpx.AsyncClient(timeout=60) as http, http.stream("GET", url) as stream:
        first = True
        async for line in stream.aiter_lines():
            if not line.startswith("id:"):
                continue
            seen_s = time.perf_counter()
            if first:
                first = False
                ready.set()
                continue
            seq = int(line.split(":", 1)[1])
            arrivals.setdefault(seq, []).append(seen_s)
            if seq >= last_seq:
                return


async def measure_feed(process: ServiceProcess, headers: dict, match_id: int, *, kind: str, clients: int,
                       events: int, event: dict) -> tuple[list[float], list[float]]:
    """(latencies of every client for every event, POST acknowledgement times), in ms."""
    async with httpx.AsyncClient(base_url=process.url, headers=headers, timeout=30) as http:
        start_seq = (await http.get(f"/api/matches/{match_id}")).json()["seq"]
        arrivals: dict[int, list[float]] = {}
        ready = [asyncio.Event() for _ in range(clients)]
        last_seq = start_seq + events
        if kind == "websocket":
            url = f"ws://127.0.0.1:{process.port}/api/matches/{match_id}/live"
            tasks = [asyncio.create_task(ws_listener(url, arrivals, r, last_seq)) for r in ready]
        else:
            url = f"{process.url}/api/matches/{match_id}/stream"
            tasks = [asyncio.create_task(sse_listener(url, arrivals, r, last_seq)) for r in ready]
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in ready)), timeout=60)
        sent_at: dict[int, float] = {}
        acks = []
        for k in range(events):
            sent_at[start_seq + k + 1] = time.perf_counter()
            response = await http.post(f"/api/matches/{match_id}/events", json=event)
            acks.append((time.perf_counter() - sent_at[start_seq + k + 1]) * 1000)
            response.raise_for_status()
            await asyncio.sleep(0.05)  # events a human pace apart would be far sparser still
        await asyncio.wait_for(asyncio.gather(*tasks), timeout=60)
    latencies = [(t - sent_at[seq]) * 1000 for seq, times in arrivals.items() if seq in sent_at for t in times]
    return latencies, acks


def measure_overlay(process: ServiceProcess, headers: dict, match_id: int, *, events: int, event: dict,
                    background_clients: int) -> list[float]:
    """POST to the overlay page's DOM showing the new state, with WebSocket clients also connected."""
    from playwright.sync_api import sync_playwright

    async def hold_clients(stop: asyncio.Event) -> None:
        url = f"ws://127.0.0.1:{process.port}/api/matches/{match_id}/live"

        async def one() -> None:
            async with ws_connect(url, max_queue=None) as socket:
                while not stop.is_set():
                    try:
                        await asyncio.wait_for(socket.recv(), timeout=0.2)
                    except TimeoutError:
                        pass

        await asyncio.gather(*(one() for _ in range(background_clients)))

    import threading
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    holder = threading.Thread(target=lambda: loop.run_until_complete(hold_clients(stop)), daemon=True)
    holder.start()
    latencies = []
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as playwright, \
            httpx.Client(base_url=process.url, headers=headers, timeout=30) as http:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=shutil.which("chromium") or "/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS)
        seen: dict[int, float] = {}
        page = context.new_page()
        page.expose_function("reportSeq", lambda seq: seen.setdefault(int(seq), time.perf_counter()))
        page.goto(f"{process.url}/overlay/{match_id}")
        page.wait_for_function("document.body.dataset.seq !== undefined")
        page.evaluate("""new MutationObserver(() => window.reportSeq(document.body.dataset.seq))
                         .observe(document.body, {attributes: true, attributeFilter: ['data-seq']})""")
        for _ in range(events):
            sent = time.perf_counter()
            seq = http.post(f"/api/matches/{match_id}/events", json=event).json()["state"]["seq"]
            deadline = time.perf_counter() + 5
            while seq not in seen and time.perf_counter() < deadline:
                page.wait_for_timeout(5)
            latencies.append((seen[seq] - sent) * 1000)
        context.close()
    loop.call_soon_threadsafe(stop.set)
    holder.join(timeout=10)
    return latencies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--events", type=int, default=40)
    args = parser.parse_args()
    script = ready_script()
    if script is None:
        print("no rules engine in this build yet")
        return 1
    token = secrets.token_urlsafe(16)
    headers = {"Authorization": f"Bearer {token}"}
    rows = []
    with tempfile.TemporaryDirectory() as folder, ServiceProcess(db_path=Path(folder) / "bench.db", token=token) as process:
        with httpx.Client(base_url=process.url, headers=headers) as http:
            match_id = http.post("/api/matches", json=script.match).json()["id"]
        for kind in ("websocket", "sse"):
            latencies, acks = asyncio.run(measure_feed(process, headers, match_id, kind=kind, clients=args.clients,
                                                       events=args.events, event=script.quiet))
            rows.append((f"{kind} update", args.clients, args.events, latencies))
            rows.append((f"POST acknowledged ({kind} run)", 1, args.events, acks))
        overlay = measure_overlay(process, headers, match_id, events=min(args.events, 20), event=script.quiet,
                                  background_clients=args.clients)
        rows.append((f"overlay DOM (Chromium, +{args.clients} ws)", 1, len(overlay), overlay))
    print(f"game {script.game}; loopback; SQLite WAL, synchronous=FULL; one event at a time, 50 ms apart")
    print(f"| {'what':40} | clients | events | samples | p50 ms | p95 ms | max ms |")
    print(f"|{'-' * 42}|---------|--------|---------|--------|--------|--------|")
    for what, clients, events, values in rows:
        print(f"| {what:40} | {clients:7} | {events:6} | {len(values):7} | {statistics.median(values):6.1f} | "
              f"{percentile(values, 0.95):6.1f} | {max(values):6.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
