import json

import pytest

from boardreader.cli import main


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "chess", "--seed", "1"], "--game must be one of"),
        (["--game", "carrom", "--seed", "x"], "--seed must be an integer"),
        (["--game", "carrom", "--seed", "-3"], "--seed must be between"),
        (["--game", "carrom", "--seed", "1", "--resolution", "big"], "--resolution must look like"),
        (["--game", "carrom", "--seed", "1", "--resolution", "1x1"], "--resolution sides"),
        (["--game", "carrom", "--seed", "1", "--fps", "0"], "--fps must be between"),
        (["--game", "carrom", "--seed", "1", "--boards", "0"], "--boards must be between"),
        (["--game", "carrom", "--seed", "1", "--difficulty", "extreme"], "--difficulty must be one of"),
        (["--game", "couronne", "--seed", "1", "--boards", "2"], "a couronne match is one game"),
        (["--game", "crokinole", "--seed", "1", "--model", "square"], "is not a crokinole board"),
    ],
)
def test_bad_arguments_give_one_line_and_exit_2(argv, message, tmp_path, capsys):
    assert main(["simulate", *argv, "--out", str(tmp_path / "out"), "--truth-only"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err
    assert captured.err.count("\n") == 1


def test_out_that_is_a_file_is_refused_and_left_alone(tmp_path, capsys):
    target = tmp_path / "file"
    target.write_text("keep me")
    assert main(["simulate", "--game", "carrom", "--seed", "1", "--out", str(target), "--truth-only"]) == 2
    assert target.read_text() == "keep me"


def test_video_truth_and_frames_are_written_and_identical_for_the_same_seed(tmp_path, capsys):
    outputs = []
    for name in ("a", "b"):
        out = tmp_path / name
        argv = ["simulate", "--game", "crokinole", "--seed", "4", "--boards", "1", "--strokes", "3", "--fps", "10",
                "--out", str(out), "--truth-only"]
        assert main(argv) == 0
        summary = json.loads(capsys.readouterr().out)
        assert summary["strokes"] == 3
        outputs.append(((out / "truth.json").read_bytes(), (out / "frames.jsonl").read_bytes()))
    assert outputs[0] == outputs[1]
    document = json.loads(outputs[0][0])
    assert document["game"] == "crokinole" and document["seed"] == 4
    assert [e["type"] for e in document["events"]].count("shot") == 3
    lines = outputs[0][1].decode().splitlines()
    assert len(lines) == summary["frames"]
    assert json.loads(lines[-1])["t"] == pytest.approx(document["duration_s"])


def test_still_truth_lists_pieces_in_the_read_shape(tmp_path, capsys):
    out = tmp_path / "still"
    assert main(["simulate", "--game", "crokinole", "--seed", "2", "--still", "--out", str(out), "--truth-only"]) == 0
    document = json.loads((out / "truth.json").read_text())
    assert document["pieces"], "a mid-round still has discs on the board"
    for piece in document["pieces"]:
        assert {"kind", "x_mm", "y_mm", "r_mm", "zone"} <= set(piece)
    assert set(document["counts"]) == {"light", "dark"}
    assert set(document["round_score"]) == {"light", "dark"}
