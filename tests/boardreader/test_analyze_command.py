"""`boardreader analyze` through the real command line: outputs, and bad input that keeps what was seen."""

import json
import subprocess
import sys
from pathlib import Path

from tests.vision import scripted_video

CLIP = Path(__file__).resolve().parents[2] / "sample_images" / "simulated" / "carrom" / "video" / "video.mp4"


def analyze(*args):
    return subprocess.run([sys.executable, "-m", "boardreader", "analyze", *args],
                          capture_output=True, text=True, timeout=300)


def test_not_a_video_exits_2_with_one_line(tmp_path):
    bad = tmp_path / "notes.mp4"
    bad.write_text("not a video")
    done = analyze(str(bad), "--game", "carrom", "--out", str(tmp_path / "out"))
    assert done.returncode == 2
    assert "notes.mp4" in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_a_video_without_a_board_says_so_and_writes_empty_results(tmp_path):
    video = scripted_video.write(tmp_path / "table.mp4", scripted_video.Script(frames=45))
    out = tmp_path / "out"
    done = analyze(str(video), "--game", "crokinole", "--out", str(out))
    assert done.returncode == 2
    assert "no crokinole board found" in done.stderr
    summary = json.loads(done.stdout)
    assert summary["board_found"] is False and summary["frames"] == 45
    assert (out / "events.jsonl").read_text() == ""
    assert json.loads((out / "score.json").read_text())["game"] == "crokinole"


def test_a_truncated_video_keeps_what_came_before(tmp_path):
    data = CLIP.read_bytes()
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(data[: int(len(data) * 0.6)])
    out = tmp_path / "out"
    done = analyze(str(cut), "--game", "carrom", "--out", str(out))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    if (out / "events.jsonl").exists():  # the container could be opened: the frames before the cut were read
        assert json.loads(done.stdout)["frames"] > 0


def test_bad_match_line_is_a_clear_error(tmp_path):
    done = analyze(str(CLIP), "--game", "carrom", "--out", str(tmp_path), "--match", "{nope")
    assert done.returncode == 2 and "--match is not valid JSON" in done.stderr
