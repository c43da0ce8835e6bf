"""The bundled carrom clip through the whole analysis with real localisation and reading.

A hand covers the tracker's patches now and then, so the board is found again
where it was; the gate must keep its view of the table then (a fresh one would
take the arm in sight for the empty table and never let the board settle).
A live table reads ahead: the reading starts when the board stops, so it is
ready when the board counts as settled.
"""

import json
from collections import deque
from pathlib import Path

import pytest

from bench.event_matching import match_events
from bench.truth_playback import TruthPlayback
from vision.analysis import BoardAnalyzer
from vision.pieces_read import read_pieces
from vision.sources import VideoFileSource

CLIP = Path(__file__).resolve().parents[2] / "sample_images" / "simulated" / "carrom" / "video"
ARM_IN_SIGHT_FRAME = 30  # the player's arm is over the table beside the board in this frame


def _analyse(analyzer: BoardAnalyzer, *, first_frame: int = 0, truth: TruthPlayback | None = None):
    """The steps with observations, and for each reading (by id) the index of the frame it read."""
    recent: deque = deque(maxlen=90)  # the last frames, kept alive so that their ids stay theirs
    index_of: dict[int, int] = {}
    read_frame: dict[int, int] = {}
    read = analyzer.read

    def noting_read(image, **kwargs):
        reading = read(image, **kwargs)
        read_frame[id(reading)] = index_of[id(image)]
        return reading

    analyzer.read = noting_read
    steps = []
    for frame in VideoFileSource(CLIP / "video.mp4"):
        if frame.index < first_frame:
            continue
        recent.append(frame)
        index_of[id(frame.image)] = frame.index
        if truth is not None:
            truth.t_s = frame.t_s
        step = analyzer.update(frame)
        if step.observations:
            steps.append(step)
    last = analyzer.finish()
    if last is not None and last.observations:
        steps.append(last)
    return steps, read_frame


def _observed(steps) -> list[dict]:
    return [o.to_json() for step in steps for o in step.observations]


def _true_events(after_s: float = 0.0) -> list[dict]:
    truth = json.loads((CLIP / "truth.json").read_text())
    return [e for e in truth["events"] if e["t"] >= after_s]


@pytest.fixture(scope="module")
def plain():
    return _analyse(BoardAnalyzer("carrom", read=read_pieces))


@pytest.fixture(scope="module")
def ahead():
    return _analyse(BoardAnalyzer("carrom", read=read_pieces, read_ahead=True))


def test_every_true_event_is_seen_with_real_eyes_though_hands_cover_the_board(plain):
    steps, _ = plain
    matched, n_observed, n_true = match_events(_observed(steps), _true_events())
    assert n_true > 0
    assert matched == n_observed == n_true


def test_reading_ahead_draws_the_same_events(plain, ahead):
    assert [(o["type"], o.get("piece")) for o in _observed(ahead[0])] == \
        [(o["type"], o.get("piece")) for o in _observed(plain[0])]


def test_readings_ahead_are_of_a_frame_before_the_board_counted_as_settled(plain, ahead):
    for (steps, read_frame), read_early in ((plain, False), (ahead, True)):
        assert steps
        for step in steps:
            assert (read_frame[id(step.reading)] < step.frame_index) == read_early


def test_a_clip_that_begins_with_an_arm_over_the_table_is_read_once_the_arm_is_gone():
    truth = TruthPlayback(CLIP)
    analyzer = BoardAnalyzer("carrom", locate=truth.locate, read=truth.read)
    steps, _ = _analyse(analyzer, first_frame=ARM_IN_SIGHT_FRAME, truth=truth)
    true_events = _true_events(after_s=ARM_IN_SIGHT_FRAME / 30)
    matched, n_observed, n_true = match_events(_observed(steps), true_events)
    assert n_true > 0
    assert matched == n_observed == n_true
