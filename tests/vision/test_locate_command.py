"""`boardreader locate` and `boardreader calibrate table`: JSON out, exit 2 with one line on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from boardreader.cli import main
from calibration.intrinsics import CameraIntrinsics
from calibration.profile import TableProfile
from vision.homography import project

REALDATA = Path(__file__).resolve().parents[3] / "shared" / "realdata"
PHOTO = REALDATA / "carrom" / "webcam_surco" / "cap2.jpg"
needs_realdata = pytest.mark.skipif(not REALDATA.is_dir(), reason=f"real photos not available at {REALDATA}")


@needs_realdata
def test_locate_prints_the_board_and_draws_it(tmp_path, capsys):
    annotated = tmp_path / "board.png"
    assert main(["locate", str(PHOTO), "--game", "carrom", "--model", "icf", "--annotate", str(annotated)]) == 0
    board = json.loads(capsys.readouterr().out)["board"]
    assert board["found"] and board["model"] == "icf"
    # the board's centre lies inside the 640x480 frame, near its middle
    centre = project(np.array(board["homography"]), np.zeros((1, 2)))[0]
    assert 200 < centre[0] < 440 and 120 < centre[1] < 360
    assert annotated.stat().st_size > 0


@needs_realdata
def test_locate_with_a_camera_file_undistorts_first(tmp_path, capsys):
    camera = tmp_path / "camera.json"
    CameraIntrinsics(np.array([[600.0, 0, 320], [0, 600.0, 240], [0, 0, 1]]), np.array([-0.02, 0, 0, 0, 0]),
                     (640, 480), 0.3, 5).save(camera)
    assert main(["locate", str(PHOTO), "--game", "carrom", "--model", "icf", "--camera", str(camera)]) == 0
    board = json.loads(capsys.readouterr().out)["board"]
    assert board["found"] and board["lens_corrected"]


@needs_realdata
def test_calibrate_table_writes_a_profile(tmp_path, capsys):
    out = tmp_path / "table.json"
    code = main(["calibrate", "table", str(PHOTO), "--game", "carrom", "--model", "icf", "--out", str(out),
                 "--piece", "red=0,0"])
    assert code == 0
    profile = TableProfile.load(out)
    assert profile.game == "carrom" and profile.image_size == (640, 480)
    assert "red" in profile.pieces and profile.surface["surface"].pixels > 100


@pytest.mark.parametrize(
    "argv, message",
    [
        (["locate", "{bad}", "--game", "carrom"], "not an image"),
        (["calibrate", "table", "{bad}", "--game", "crokinole", "--out", "{out}"], "not an image"),
        (["calibrate", "table", "{blank}", "--game", "crokinole", "--out", "{out}"], "no crokinole board found"),
        (["calibrate", "camera", "{blank}", "--out", "{out}"], "ChArUco board was found in 0 of 1"),
        (["calibrate", "camera", "{blank}", "--squares", "seven", "--out", "{out}"], "--squares"),
        (["locate", "{blank}", "--game", "carrom", "--camera", "{bad}"], "not JSON"),
        (["calibrate", "table", "{blank}", "--game", "carrom", "--camera", "{blank_json}", "--out", "{out}"], "camera file"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, argv, message):
    import cv2

    bad = tmp_path / "bad.jpg"
    bad.write_text("not an image")
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 128, np.uint8))
    blank_json = tmp_path / "camera.json"
    blank_json.write_text("{}")
    paths = {"bad": str(bad), "blank": str(blank), "blank_json": str(blank_json), "out": str(tmp_path / "out.json")}
    assert main([a.format(**paths) for a in argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err
    assert not (tmp_path / "out.json").exists()
