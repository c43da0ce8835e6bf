"""Faults: a killed server loses no acknowledged event; a locked or full database answers 503
and keeps its log whole."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import httpx
import pytest

import scoring
from service.process import ServiceProcess
from tests.service.conftest import new_match


def integrity(db_path: Path) -> str:
    with contextlib.closing(sqlite3.connect(db_path)) as connection:
        return connection.execute("PRAGMA integrity_check").fetchone()[0]


def stored(http: httpx.Client, match_id: int) -> list[dict]:
    return http.get(f"/api/matches/{match_id}/events").json()


def writer_client(process: ServiceProcess) -> httpx.Client:
    return httpx.Client(base_url=process.url, headers={"Authorization": f"Bearer {process.token}"}, timeout=10)


def kill_mid_match_and_restart(process: ServiceProcess, script) -> None:
    """Post events back to back, SIGKILL the server mid-request, restart it over the same
    database: every acknowledged event is there, in order, and the state is the same."""
    acknowledged: list[dict] = []
    states: list[dict] = []
    with writer_client(process) as http:
        match_id = new_match(http, script)

        def write_until_killed() -> None:
            for k in range(200):
                event = {**script.quiet, "id": f"w{k}"}
                try:
                    response = http.post(f"/api/matches/{match_id}/events", json=event)
                except httpx.TransportError:
                    return
                assert response.status_code == 201, response.text
                acknowledged.append(response.json()["events"][0])
                states.append(response.json()["state"])

        writer = threading.Thread(target=write_until_killed)
        writer.start()
        while len(acknowledged) < 25 and writer.is_alive():
            time.sleep(0.005)
        process.kill()  # mid-POST: the writer never waits between requests
        writer.join()
    assert 25 <= len(acknowledged) < 200

    process.start()  # the same port, the same database
    with writer_client(process) as http:
        after = stored(http, match_id)
        # At most the one request in flight may have been stored without its answer.
        assert len(acknowledged) <= len(after) <= len(acknowledged) + 1
        assert [(e["seq"], e["event"]) for e in after[:len(acknowledged)]] == \
               [(e["seq"], e["event"]) for e in acknowledged]
        state = http.get(f"/api/matches/{match_id}").json()
        if len(after) == len(acknowledged):
            assert state == states[-1]
        match = state["match"]
        assert {k: state[k] for k in scoring.replay([match])} == scoring.replay([match, *(e["event"] for e in after)])
        assert http.post(f"/api/matches/{match_id}/events", json=script.quiet).status_code == 201


def test_sigkill_mid_match_loses_no_acknowledged_event(server, script):
    """On the shared server: it is killed and started again over its SQLite file."""
    kill_mid_match_and_restart(server, script)
    assert integrity(server.db_path) == "ok"


def test_locked_database_answers_503_and_keeps_the_log(server, client, script):
    """The shared server runs with a 0.3 s busy timeout (conftest)."""
    http = client
    match_id = new_match(http, script)
    http.post(f"/api/matches/{match_id}/events", json=[script.quiet, script.scoring]).raise_for_status()
    before = stored(http, match_id)
    locker = sqlite3.connect(server.db_path, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        refused = http.post(f"/api/matches/{match_id}/events", json=script.quiet)
        assert refused.status_code == 503
        assert "locked" in refused.json()["detail"] and "nothing was stored" in refused.json()["detail"]
        assert refused.headers["retry-after"] == "1"
        assert http.get(f"/api/matches/{match_id}").status_code == 200  # readers go on (WAL)
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    assert stored(http, match_id) == before
    assert integrity(server.db_path) == "ok"
    accepted = http.post(f"/api/matches/{match_id}/events", json=script.quiet)
    assert accepted.status_code == 201 and accepted.json()["events"][0]["seq"] == len(before) + 1


@contextlib.contextmanager
def small_filesystem(folder: Path, size_kib: int):
    """A tmpfs of `size_kib` mounted at `folder` (needs root, as CI and development machines have)."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (CI runs as root)")
    folder.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kib}k", "tmpfs", str(folder)], check=True)
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> Path:
    """Fill the file system of `folder` to the last byte."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as stream, contextlib.suppress(OSError):
        while True:
            stream.write(b"\0" * 4096)
    return filler


def test_full_disk_answers_503_and_keeps_the_log(tmp_path, token, script):
    with small_filesystem(tmp_path / "small", size_kib=2048) as folder:
        process = ServiceProcess(db_path=folder / "full.db", token=token).start()
        try:
            with writer_client(process) as http:
                match_id = new_match(http, script)
                http.post(f"/api/matches/{match_id}/events", json=script.quiet).raise_for_status()
                filler = fill(folder)
                answers, acknowledged = [], stored(http, match_id)
                for k in range(60):
                    response = http.post(f"/api/matches/{match_id}/events", json={**script.quiet, "note": "n" * 8000})
                    answers.append(response.status_code)
                    if response.status_code == 201:
                        acknowledged += response.json()["events"]
                    else:
                        assert response.status_code == 503, response.text
                        assert "full" in response.json()["detail"]
                        break
                assert answers[-1] == 503
                filler.unlink()
                assert [e["seq"] for e in stored(http, match_id)] == [e["seq"] for e in acknowledged]
                again = http.post(f"/api/matches/{match_id}/events", json=script.quiet)
                assert again.status_code == 201, again.text
        finally:
            process.stop()
        assert integrity(process.db_path) == "ok"
