"""The HTTP API against a real server: writes need a token, the log replays, bad input stores nothing."""

from __future__ import annotations

import asyncio
import io

import httpx
import pytest
from PIL import Image

import scoring
from tests.service.conftest import new_match


def stored_log(http: httpx.Client, match_id: int) -> list[dict]:
    match = http.get(f"/api/matches/{match_id}").json()["match"]
    return [match, *(row["event"] for row in http.get(f"/api/matches/{match_id}/events").json())]


def test_health_and_openapi(client):
    assert client.get("/healthz").json()["status"] == "ok"
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/matches", "/api/matches/{match_id}/events", "/api/matches/{match_id}",
                 "/api/matches/{match_id}/stream", "/api/tokens", "/api/tables/{table_id}/frames"):
        assert path in paths


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic abc"}])
def test_writes_need_a_valid_token(server, script, headers):
    response = httpx.post(f"{server.url}/api/matches", json=script.match, headers=headers)
    assert response.status_code == 401
    assert "token" in response.json()["detail"]


def test_reads_are_public(server, client, match_id):
    assert httpx.get(f"{server.url}/api/matches/{match_id}").status_code == 200
    assert httpx.get(f"{server.url}/api/matches/{match_id}/events").status_code == 200


@pytest.mark.parametrize("line, status", [
    ({"type": "match", "game": "chess"}, 422),
    ({"type": "stroke", "game": "carrom"}, 422),
    ({"game": "carrom"}, 422),
    ([], 422),
])
def test_bad_match_lines_are_rejected(client, line, status):
    assert client.post("/api/matches", json=line).status_code == status


def test_state_is_the_replay_of_the_stored_log(client, script, match_id):
    one = client.post(f"/api/matches/{match_id}/events", json=script.quiet)
    assert one.status_code == 201, one.text
    listed = client.post(f"/api/matches/{match_id}/events", json=[script.scoring, script.quiet])
    assert listed.status_code == 201, listed.text
    assert [e["seq"] for e in listed.json()["events"]] == [2, 3]
    state = client.get(f"/api/matches/{match_id}").json()
    expected = scoring.replay(stored_log(client, match_id))
    assert {key: state[key] for key in expected} == expected
    assert state["seq"] == 3 and state["last_event"]["seq"] == 3
    assert state["live"] == expected["live"]


def test_an_invalid_event_is_rejected_and_nothing_is_stored(client, script, match_id):
    client.post(f"/api/matches/{match_id}/events", json=script.quiet).raise_for_status()
    before = client.get(f"/api/matches/{match_id}/events").json()
    bad = {**script.quiet, "type": "no_such_event"}
    response = client.post(f"/api/matches/{match_id}/events", json=[script.quiet, bad])
    assert response.status_code == 422
    assert "event 2 of this request" in response.json()["detail"]
    assert client.get(f"/api/matches/{match_id}/events").json() == before


@pytest.mark.parametrize("body", [[], {"no": "type"}, "text", [{"type": ""}]])
def test_malformed_event_bodies_are_422(client, match_id, body):
    assert client.post(f"/api/matches/{match_id}/events", json=body).status_code == 422


def test_unknown_match_is_404(client, script):
    assert client.get("/api/matches/999999").status_code == 404
    assert client.post("/api/matches/999999/events", json=script.quiet).status_code == 404


def test_undo_voids_and_review_is_confirmed_by_a_correction(client, script, match_id):
    flagged = {**script.scoring, "needs_review": True, "confidence": 0.4}
    posted = client.post(f"/api/matches/{match_id}/events", json=[script.quiet, flagged]).json()
    flagged_id = posted["events"][1]["event"]["id"]
    assert [e["id"] for e in posted["state"]["needs_review"]] == [flagged_id]
    confirmed = client.post(f"/api/matches/{match_id}/events",
                            json={"type": "correct", "target": flagged_id, "event": script.scoring})
    assert confirmed.status_code == 201, confirmed.text
    assert confirmed.json()["state"]["needs_review"] == []
    scored = confirmed.json()["state"]
    undone = client.post(f"/api/matches/{match_id}/events", json={"type": "void", "target": flagged_id}).json()["state"]
    assert undone["games"] != scored["games"]
    assert undone == {**undone, **{k: v for k, v in scoring.replay(stored_log(client, match_id)).items()}}


def test_correction_of_unknown_id_is_422(client, match_id):
    response = client.post(f"/api/matches/{match_id}/events", json={"type": "void", "target": "nope"})
    assert response.status_code == 422 and "nope" in response.json()["detail"]


def test_tokens_are_issued_and_work(server, client, script):
    issued = client.post("/api/tokens", json={"name": "table 3 desk"})
    assert issued.status_code == 201
    secret = issued.json()["token"]
    desk = httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {secret}"})
    match_id = new_match(desk, script)
    assert desk.post(f"/api/matches/{match_id}/events", json=script.quiet).status_code == 201
    audit = client.get(f"/api/matches/{match_id}/audit").json()
    assert [entry["by"] for entry in audit] == ["table 3 desk", "table 3 desk"]
    assert [entry["action"] for entry in audit] == ["match.create", "event.append"]


def test_bodies_over_the_limit_are_413(client, match_id, script):
    huge = [{**script.quiet, "note": "x" * 1000}] * 400
    response = client.post(f"/api/matches/{match_id}/events", json=huge)
    assert response.status_code == 413
    assert client.get(f"/api/matches/{match_id}").json()["seq"] == 0


def test_too_many_events_in_one_post_are_422(client, match_id, script):
    response = client.post(f"/api/matches/{match_id}/events", json=[{"type": "x"}] * 501)
    assert response.status_code == 422 and "at most 500" in response.json()["detail"]


def jpeg_bytes(width_px: int = 64, height_px: int = 48) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width_px, height_px), (180, 120, 60)).save(buffer, format="JPEG")
    return buffer.getvalue()


def test_frames_are_validated_and_queued(client):
    table = client.post("/api/tables", json={"name": "table 1", "game": "carrom", "source": None})
    assert table.status_code == 201
    table_id = table.json()["id"]
    assert client.get(f"/api/tables/{table_id}/frames/latest").status_code == 404
    url = f"/api/tables/{table_id}/frames"
    queued = client.post(url, content=jpeg_bytes(), headers={"Content-Type": "image/jpeg"})
    assert queued.status_code == 202
    assert (queued.json()["width_px"], queued.json()["height_px"]) == (64, 48)
    assert client.get(f"/api/tables/{table_id}").json()["frames_queued"] == 1
    latest = httpx.get(f"{client.base_url}{url}/latest")
    assert latest.headers["content-type"] == "image/jpeg" and latest.content == jpeg_bytes()
    png = io.BytesIO()
    Image.new("RGB", (8, 8)).save(png, format="PNG")
    assert client.post(url, content=png.getvalue(), headers={"Content-Type": "image/jpeg"}).status_code == 422
    assert client.post(url, content=jpeg_bytes()[:200], headers={"Content-Type": "image/jpeg"}).status_code == 422
    assert client.post(url, content=jpeg_bytes(), headers={"Content-Type": "image/png"}).status_code == 415
    assert client.post(url, content=b"\xff\xd8\xff" + b"0" * (5 * 1024 * 1024),
                       headers={"Content-Type": "image/jpeg"}).status_code == 413
    assert client.post("/api/tables/999999/frames", content=jpeg_bytes(),
                       headers={"Content-Type": "image/jpeg"}).status_code == 404
    assert httpx.post(f"{client.base_url}{url}", content=jpeg_bytes(),
                      headers={"Content-Type": "image/jpeg"}).status_code == 401


def test_pages_are_served_for_known_matches(client, match_id):
    overlay = client.get(f"/overlay/{match_id}?delay=2.5")
    assert overlay.status_code == 200 and "text/html" in overlay.headers["content-type"]
    assert client.get(f"/referee/{match_id}").status_code == 200
    assert client.get("/overlay/999999").status_code == 404
    assert client.get(f"/overlay/{match_id}?delay=-1").status_code == 422


def test_concurrent_writers_each_get_their_own_sequence_number(server, client, script, match_id):
    async def burst() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server.url, headers=client.headers, timeout=20) as http:
            return await asyncio.gather(*(
                http.post(f"/api/matches/{match_id}/events", json={**script.quiet, "id": f"c{k}"}) for k in range(20)))

    responses = asyncio.run(burst())
    assert [r.status_code for r in responses] == [201] * 20
    seqs = sorted(r.json()["events"][0]["seq"] for r in responses)
    assert seqs == list(range(1, 21))
    stored_ids = {row["event"]["id"] for row in client.get(f"/api/matches/{match_id}/events").json()}
    assert stored_ids == {f"c{k}" for k in range(20)}


def test_given_ids_never_collide_with_assigned_ones(client, script, match_id):
    client.post(f"/api/matches/{match_id}/events", json={**script.quiet, "id": "e2"}).raise_for_status()
    second = client.post(f"/api/matches/{match_id}/events", json=script.quiet)
    assert second.status_code == 201, second.text
    assert second.json()["events"][0]["event"]["id"] not in ("e2", None)
