"""The overlay and the referee console in a real headless Chromium (Debian's), driven by Playwright."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import BrowserContext, Page, sync_playwright

from service.process import ServiceProcess
from tests.service.conftest import new_match

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
OVERLAY_PNG = "/tmp/boardreader_overlay.png"
CONSOLE_PNG = "/tmp/boardreader_referee.png"


def displayed_score(state: dict, side: str) -> int:
    """What the overlay promises to show beside a name: the current game's score
    (crokinole: game points; couronne: rings pocketed)."""
    if state["game"] == "couronne":
        return state["pocketed"][side]
    game = state["games"][-1]
    if state["game"] == "crokinole":
        return game["points"][side]
    return game.get("display_score", game["score"])[side]


@pytest.fixture(scope="module")
def browser(tmp_path_factory) -> Iterator[BrowserContext]:
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=CHROMIUM, headless=True,
            args=CHROMIUM_ARGS, viewport={"width": 1100, "height": 760})
        yield context
        context.close()


@pytest.fixture
def page_server(server) -> ServiceProcess:
    return server


@pytest.fixture
def http(client) -> httpx.Client:
    return client


def seq_shown(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.seq ?? -1"))


def wait_for_seq(page: Page, seq: int, timeout_s: float) -> float:
    """Seconds until the page shows state `seq` (raises after `timeout_s`)."""
    start = time.monotonic()
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}", timeout=timeout_s * 1000, polling=20)
    return time.monotonic() - start


def open_console(browser: BrowserContext, page_server: ServiceProcess, match_id: int, token: str) -> Page:
    """The referee console of a match, with the referee token entered."""
    page = browser.new_page()
    page.goto(f"{page_server.url}/referee/{match_id}")
    page.fill("#token", token)
    page.dispatch_event("#token", "change")
    return page


def post(http: httpx.Client, match_id: int, events) -> dict:
    response = http.post(f"/api/matches/{match_id}/events", json=events)
    assert response.status_code == 201, response.text
    return response.json()["state"]


def test_overlay_shows_the_score_and_updates_within_a_second(browser, page_server, http, script):
    match_id = new_match(http, script)
    state = post(http, match_id, script.scoring)
    side = script.match["sides"][0]
    page = browser.new_page()
    page.goto(f"{page_server.url}/overlay/{match_id}")
    wait_for_seq(page, state["seq"], timeout_s=10)
    assert page.inner_text("#name-0") == side
    assert page.inner_text("#score-0") == str(displayed_score(state, side))
    assert page.inner_text("#last") != ""

    before = page.inner_text("#score-0")
    posted_at = time.monotonic()
    state = post(http, match_id, script.scoring)
    page.wait_for_function(f"document.getElementById('score-0').textContent === '{displayed_score(state, side)}'",
                           timeout=5000, polling=10)
    assert time.monotonic() - posted_at < 1.0
    assert page.inner_text("#score-0") != before
    page.screenshot(path=OVERLAY_PNG, omit_background=True)
    page.close()


def test_overlay_delay_holds_each_change(browser, page_server, http, script):
    match_id = new_match(http, script)
    page = browser.new_page()
    page.goto(f"{page_server.url}/overlay/{match_id}?delay=3")
    wait_for_seq(page, 0, timeout_s=10)
    state = post(http, match_id, script.scoring)
    posted_at = time.monotonic()
    page.wait_for_timeout(2700)
    assert seq_shown(page) == 0, "shown before the delay"
    wait_for_seq(page, state["seq"], timeout_s=3)
    assert 3.0 <= time.monotonic() - posted_at < 5.0
    page.close()


def test_overlay_reconnects_after_a_server_restart(browser, page_server, http, script):
    match_id = new_match(http, script)
    page = browser.new_page()
    page.goto(f"{page_server.url}/overlay/{match_id}")
    wait_for_seq(page, 0, timeout_s=10)
    page_server.kill()
    page.wait_for_function("document.body.classList.contains('offline')", timeout=10_000)
    page_server.start()
    state = post(http, match_id, script.scoring)
    wait_for_seq(page, state["seq"], timeout_s=10)
    assert not page.evaluate("document.body.classList.contains('offline')")
    page.close()


def test_console_confirms_a_flagged_event_with_one_click(browser, page_server, http, token, script):
    match_id = new_match(http, script)
    post(http, match_id, [script.scoring, script.quiet])
    state = post(http, match_id, {**script.scoring, "needs_review": True, "confidence": 0.55})
    page = open_console(browser, page_server, match_id, token)
    wait_for_seq(page, state["seq"], timeout_s=10)
    page.wait_for_selector("#events tr.review button:text('Confirm')", timeout=10_000)
    assert page.inner_text("#review-count") == "1"
    page.screenshot(path=CONSOLE_PNG, full_page=True)
    page.click("#events tr.review button:text('Confirm')")
    wait_for_seq(page, state["seq"] + 1, timeout_s=10)
    after = http.get(f"/api/matches/{match_id}").json()
    assert after["needs_review"] == [] and after["last_event"]["event"]["type"] == "correct"
    assert page.inner_text("#review-count") == "0"
    audit = http.get(f"/api/matches/{match_id}/audit").json()
    assert audit[-1]["action"] == "event.correct"

    page.click("#undo")
    wait_for_seq(page, state["seq"] + 2, timeout_s=10)
    undone = http.get(f"/api/matches/{match_id}").json()
    assert undone["last_event"]["event"]["type"] == "void"
    page.wait_for_function("document.getElementById('audit').textContent.includes('event.void')", timeout=10_000)
    page.close()


def test_console_sends_operator_events_and_shows_rejections(browser, page_server, http, token, script):
    match_id = new_match(http, script)
    page = open_console(browser, page_server, match_id, token)
    wait_for_seq(page, 0, timeout_s=10)
    page.click("text=Any event (JSON)")
    page.fill("#raw-event", json.dumps(script.scoring))
    page.click("#send-raw")
    wait_for_seq(page, 1, timeout_s=10)
    assert http.get(f"/api/matches/{match_id}/events").json()[0]["event"]["type"] == script.scoring["type"]
    assert page.inner_text("#score-0") == str(displayed_score(http.get(f"/api/matches/{match_id}").json(),
                                                              script.match["sides"][0]))
    page.fill("#raw-event", json.dumps({"type": "no_such_event"}))
    page.click("#send-raw")
    page.wait_for_function("document.getElementById('message').className === 'error'", timeout=10_000)
    assert "422" in page.inner_text("#message") and "no_such_event" in page.inner_text("#message")
    assert http.get(f"/api/matches/{match_id}").json()["seq"] == 1
    page.close()


def test_console_issues_a_working_token(browser, page_server, http, token, script):
    match_id = new_match(http, script)
    page = open_console(browser, page_server, match_id, token)
    page.click("text=Issue a referee token")
    page.fill("#token-name", "court 2 scorer")
    page.click("#issue-token")
    page.wait_for_function("document.getElementById('issued-token').textContent.length > 20", timeout=10_000)
    issued = page.inner_text("#issued-token")
    page.close()
    response = httpx.post(f"{page_server.url}/api/matches/{match_id}/events", json=script.quiet,
                          headers={"Authorization": f"Bearer {issued}"})
    assert response.status_code == 201 and response.json()["events"][0]["by"] == "court 2 scorer"


def test_index_page_creates_a_match_and_links_to_it(browser, page_server, http, token, script):
    page = browser.new_page()
    page.goto(f"{page_server.url}/")
    page.fill("#token", token)
    page.dispatch_event("#token", "change")
    page.select_option("#game", script.game)
    page.fill("#side-a", "North")
    page.fill("#side-b", "South")
    page.click("#create")
    page.wait_for_function("document.getElementById('message').className === 'ok'", timeout=10_000)
    match_id = int(page.inner_text("#message").split()[1])
    assert http.get(f"/api/matches/{match_id}").json()["match"]["sides"] == ["North", "South"]
    page.wait_for_selector(f"a[href='/referee/{match_id}']", timeout=10_000)
    page.click(f"a[href='/overlay/{match_id}']")
    wait_for_seq(page, 0, timeout_s=10)
    assert page.inner_text("#name-0") == "North"
    page.close()


def test_console_carrom_operator_forms(browser, page_server, http, token, script):
    match_id = new_match(http, script)
    page = open_console(browser, page_server, match_id, token)
    wait_for_seq(page, 0, timeout_s=10)
    stroke = page.locator(".form", has=page.locator("button[data-send='stroke']"))
    stroke.locator("input[name='white']").fill("1")
    stroke.locator("button").click()
    wait_for_seq(page, 1, timeout_s=10)
    page.click("button[data-send='foul-last']")
    wait_for_seq(page, 2, timeout_s=10)
    board = page.locator(".form", has=page.locator("button[data-send='board']"))
    board.locator("input[name='left']").fill("3")
    board.locator("select[name='queen-to']").select_option("none")
    board.locator("button").click()
    wait_for_seq(page, 3, timeout_s=10)
    events = [row["event"] for row in http.get(f"/api/matches/{match_id}/events").json()]
    assert events[0]["type"] == "stroke" and events[0]["pocketed"] == ["white"]
    assert events[1]["type"] == "correct" and events[1]["target"] == events[0]["id"] and events[1]["event"]["foul"]
    assert events[2]["type"] == "board" and events[2]["opponent_coins_left"] == 3
    state = http.get(f"/api/matches/{match_id}").json()
    assert page.inner_text("#score-0") == str(displayed_score(state, script.match["sides"][0]))
    page.close()


def test_console_shows_the_cameras_of_the_match(browser, page_server, http, token, script):
    match_id = new_match(http, script)
    pushing = http.post("/api/tables", json={"name": "court 1", "game": script.match["game"], "match_id": match_id})
    broken = http.post("/api/tables", json={"name": "court 2", "game": script.match["game"], "match_id": match_id,
                                            "source": "/nowhere/court2.mp4"})
    assert pushing.status_code == broken.status_code == 201
    page = open_console(browser, page_server, match_id, token)
    page.wait_for_selector(f"#cameras tr[data-table='{pushing.json()['id']}']:has-text('running')", timeout=30_000)
    # Down at once ("waiting" while other workers hold the slots, as on a loaded machine), then failed in its turn.
    down = page.wait_for_selector(f"#cameras tr.camera-down[data-table='{broken.json()['id']}']:has-text('failed')",
                                  timeout=60_000)
    assert "failed" in down.inner_text() and "no such video file: /nowhere/court2.mp4" in down.inner_text()
    page.screenshot(path="/tmp/boardreader_referee_cameras.png", full_page=True)
    for table in (pushing, broken):
        http.delete(f"/api/tables/{table.json()['id']}")
    page.close()
