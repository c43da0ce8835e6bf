"""The crokinole 20-hole watched frame by frame: a disc coming to lie in it, on drawn frames and a rendered clip."""

import json
import subprocess
import sys

import cv2
import numpy as np
import pytest

from bench.event_matching import unmatched_events
from bench.truth_playback import TruthPlayback
from boardreader.analysis_run import AnalysisRun
from calibration.geometry import load_board
from vision.pockets import HOLE_STEADY_S, HoleWatch, PocketWatch
from vision.sources import VideoFileSource

BOARD = load_board("crokinole")
HOMOGRAPHY = np.array([[0.4, 0.0, 200.0], [0.0, 0.4, 200.0], [0.0, 0.0, 1.0]])  # board mm -> px, centre at (200, 200)
FPS = 30.0


def frame(*, disc_at_mm: tuple[float, float] | None = None) -> np.ndarray:
    """A light board with its dark 20-hole, and a light disc where asked."""
    image = np.full((400, 400, 3), (150, 190, 220), np.uint8)
    cv2.circle(image, (200, 200), round(0.4 * BOARD.hole_diameter_mm / 2), (20, 20, 20), -1)
    if disc_at_mm is not None:
        x, y = (round(200 + 0.4 * v) for v in disc_at_mm)
        cv2.circle(image, (x, y), round(0.4 * 15.9), (120, 200, 235), -1)
    return image


def watch_over(frames: list[np.ndarray]) -> HoleWatch:
    empty = frame()
    watch = HoleWatch(PocketWatch(HOMOGRAPHY, board=BOARD, image_shape=empty.shape[:2]), empty=empty)
    for i, image in enumerate(frames):
        watch.update(image, i / FPS)
    return watch


def test_a_disc_lying_in_the_hole_is_an_entry_at_the_time_it_came_even_when_taken_out_again():
    lying = round(3 * HOLE_STEADY_S * FPS)
    watch = watch_over([frame()] * 10 + [frame(disc_at_mm=(0, 0))] * lying + [frame()] * 20)
    assert watch.entries() == pytest.approx((10 / FPS,))
    assert not watch.holding and not watch.is_full


def test_a_disc_rolling_over_the_hole_or_an_empty_hole_is_no_entry():
    rolling = [frame(disc_at_mm=(x, 0)) for x in (-30, -10, 10, 30)]
    assert watch_over([frame()] * 5 + rolling + [frame()] * 20).entries() == ()


def test_a_disc_rolling_slowly_across_the_hole_s_mouth_is_no_entry():
    # As tuning clip 5001 at 114.4 s: a first shot creeps over the mouth for a quarter second, then stops beside it.
    creeping = [frame(disc_at_mm=(x, 0)) for x in np.linspace(-6, 6, round(0.25 * FPS))]
    assert watch_over([frame()] * 5 + creeping + [frame(disc_at_mm=(30, 0))] * 20).entries() == ()


def test_a_disc_that_stays_in_the_hole_is_one_entry_and_the_watch_forgets_it_on_reset():
    watch = watch_over([frame(disc_at_mm=(0, 0))] * 30)
    assert len(watch.entries()) == 1 and watch.holding
    watch.reset()
    watch.update(frame(disc_at_mm=(0, 0)), 2.0)
    assert watch.entries() == () and watch.holding


def test_a_hole_that_only_just_looked_full_took_its_disc_when_its_look_changed_as_much_again():
    # As simulated clip 5132 at 9.7 s: the shooter's reach just changed the hole's look, the disc fell in 1.3 s later.
    just_full = frame()
    cv2.circle(just_full, (200, 200), round(0.4 * BOARD.hole_diameter_mm / 2), (55, 55, 55), -1)
    lying = round(3 * HOLE_STEADY_S * FPS)
    watch = watch_over([frame()] * 10 + [just_full] * 30 + [frame(disc_at_mm=(0, 0))] * lying)
    assert watch.entries() == pytest.approx((40 / FPS,))
    assert watch.brighter() == (True,)
    # A look that changes little more, or not for long, leaves the entry where it was.
    flicker = [frame(disc_at_mm=(0, 0))] * round(0.5 * HOLE_STEADY_S * FPS)
    watch = watch_over([frame()] * 10 + [just_full] * 30 + flicker + [just_full] * 20)
    assert watch.entries() == pytest.approx((10 / FPS,))


def red_hole_frame(*, gain=(1.0, 1.0, 1.0), disc_bgr=None) -> np.ndarray:
    """A green board with a red 20-hole (BGR, as painted boards have), lit with `gain` per channel, a disc in the hole if asked."""
    image = np.full((400, 400, 3), (75, 123, 61), np.uint8)
    cv2.circle(image, (200, 200), round(0.4 * BOARD.hole_diameter_mm / 2), (30, 23, 153), -1)
    if disc_bgr is not None:
        cv2.circle(image, (200, 200), round(0.4 * 15.9), disc_bgr, -1)
    return np.clip(image * np.array(gain), 0, 255).astype(np.uint8)


def test_an_empty_hole_under_a_brighter_light_is_no_entry_and_a_disc_in_it_still_is():
    brighter = (2.1, 1.6, 1.15)  # as a light change of a tuning clip: the hole's darkest channels gain most
    empty = red_hole_frame()
    watch = HoleWatch(PocketWatch(HOMOGRAPHY, board=BOARD, image_shape=empty.shape[:2]), empty=empty)
    for i in range(30):
        watch.update(red_hole_frame(gain=brighter), i / FPS)
    assert watch.entries() == () and not watch.is_full
    for i in range(30, 60):
        watch.update(red_hole_frame(gain=brighter, disc_bgr=(60, 80, 90)), i / FPS)
    assert watch.entries() == pytest.approx((30 / FPS,))


def test_the_hole_looks_brighter_with_a_light_disc_in_it_and_darker_with_a_dark_one_under_a_brighter_light():
    brighter_light = (1.3, 1.2, 1.1)
    empty = red_hole_frame()
    for disc_bgr, looks_brighter in (((150, 170, 180), True), ((15, 15, 15), False)):
        watch = HoleWatch(PocketWatch(HOMOGRAPHY, board=BOARD, image_shape=empty.shape[:2]), empty=empty)
        for i in range(60):
            watch.update(red_hole_frame(gain=brighter_light, disc_bgr=disc_bgr if i >= 30 else None), i / FPS)
        assert watch.entries() == pytest.approx((30 / FPS,))
        assert watch.brighter() == (looks_brighter,)
        watch.reset()
        assert watch.brighter() == ()


def test_a_disc_deep_in_the_hole_s_shade_is_an_entry_under_a_dimmer_light_and_the_empty_hole_is_not():
    dimmer = 0.55  # as the lamp of tuning clip 5002 lit its board against the round's first view
    deep_disc = (60, 60, 60)  # a light disc in the shade of a black hole, in the first view's light
    shaded = frame()
    cv2.circle(shaded, (200, 200), round(0.4 * 15.9), deep_disc, -1)
    dim = [np.clip(image * dimmer, 0, 255).astype(np.uint8) for image in (frame(), shaded)]
    lying = round(3 * HOLE_STEADY_S * FPS)
    watch = watch_over([dim[0]] * 10 + [dim[1]] * lying)
    assert watch.entries() == pytest.approx((10 / FPS,))
    assert watch_over([dim[0]] * 30).entries() == ()


def test_a_black_hole_is_dark_and_a_red_one_is_not_even_under_a_dimmer_light():
    dark = HoleWatch(PocketWatch(HOMOGRAPHY, board=BOARD, image_shape=(400, 400)), empty=frame())
    assert dark.is_dark
    empty = red_hole_frame()
    red = HoleWatch(PocketWatch(HOMOGRAPHY, board=BOARD, image_shape=empty.shape[:2]), empty=empty)
    red.update(red_hole_frame(gain=(0.6, 0.6, 0.6)), 0.0)
    assert not red.is_dark


@pytest.fixture(scope="module")
def sunk_clip(tmp_path_factory):
    """Seed 927's first shot: the light disc goes straight into the hole, and the board is bumped as it lies there."""
    out = tmp_path_factory.mktemp("clip")
    subprocess.run([sys.executable, "-m", "boardreader", "simulate", "--game", "crokinole", "--seed", "927",
                    "--strokes", "1", "--resolution", "640x360", "--out", str(out)], check=True, capture_output=True)
    return out


def test_a_shot_straight_into_the_hole_across_a_bump_is_a_20_and_nothing_else(sunk_clip, tmp_path):
    truth = TruthPlayback(sunk_clip)
    assert [e["type"] for e in truth.truth["events"]] == ["shot", "sunk_20"]
    assert truth.truth.get("homography_changes")
    run = AnalysisRun("crokinole", truth.truth["event_log"][0], out=tmp_path, locate=truth.locate, read=truth.read)
    for video_frame in VideoFileSource(sunk_clip / "video.mp4"):
        truth.t_s = video_frame.t_s
        run.update(video_frame)
    run.finish()
    observed = [json.loads(line) for line in (tmp_path / "events.jsonl").read_text().splitlines()]
    assert unmatched_events(observed, truth.truth["events"]) == ([], [])
