"""A whole simulated clip through gate, pockets and inference, with the simulator's truth as the eyes.

This measures everything after the reader: settling, stroke timing, pocket
assignment and the event log. The reader itself is measured on its own.
"""

import json
from pathlib import Path

import pytest

from bench.event_matching import match_events
from boardreader.analysis_run import AnalysisRun
from bench.truth_playback import TruthPlayback
from vision.sources import VideoFileSource

CLIP = Path(__file__).resolve().parents[2] / "sample_images" / "simulated" / "carrom" / "video"


@pytest.fixture(scope="module")
def analysed(tmp_path_factory):
    out = tmp_path_factory.mktemp("analysis")
    truth = TruthPlayback(CLIP)
    run = AnalysisRun("carrom", truth.truth["event_log"][0], out=out, locate=truth.locate, read=truth.read)
    for frame in VideoFileSource(CLIP / "video.mp4"):
        truth.t_s = frame.t_s
        run.update(frame)
    return truth.truth, run.finish(report=True), out


def test_every_true_event_is_observed_in_time_and_nothing_else(analysed):
    truth, _, out = analysed
    observed = [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]
    matched, n_observed, n_true = match_events(observed, truth["events"])
    assert n_true > 0
    assert matched == n_true == n_observed


def test_the_log_built_from_the_video_scores_like_the_true_log(analysed):
    truth, summary, out = analysed
    ours = [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]
    strokes = [(e["pocketed"] and sorted(e["pocketed"]), e["striker"]) for e in ours[1:]]
    true_strokes = [(e["pocketed"] and sorted(e["pocketed"]), e["striker"]) for e in truth["event_log"][1:]]
    assert strokes == true_strokes
    assert summary["held_for_review"] == 0


def test_outputs_follow_the_contract(analysed):
    _, summary, out = analysed
    score = json.loads((out / "score.json").read_text())
    assert score["game"] == "carrom" and "games" in score
    assert summary["board_found"] and summary["frames"] > 0
    assert (out / "report.html").read_text().count("<img") >= 2
