"""`boardreader read` through the real command line: the design.md shape, no board, bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import cv2
import pytest

from calibration.geometry import load_board
from simulation.film import film_still
from simulation.play_still import still_scene
from tests.vision.no_board_images import blank_wall


def run_read(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "boardreader", "read", *args],
                          capture_output=True, text=True, timeout=120)


def test_a_crokinole_still_gives_the_contract_shape(tmp_path):
    board = load_board("crokinole")
    timeline, _ = still_scene(board, seed=5201)
    image, _ = film_still(timeline.frames[-1], board=board, seed=5201, difficulty="clean", resolution=(1280, 720))
    photo = tmp_path / "still.png"
    cv2.imwrite(str(photo), image)
    drawn = tmp_path / "drawn.png"
    done = run_read(str(photo), "--game", "crokinole", "--annotate", str(drawn))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    result = json.loads(done.stdout)
    assert result["game"] == "crokinole"
    assert result["board"]["found"] is True
    assert len(result["board"]["homography"]) == 3 and all(len(row) == 3 for row in result["board"]["homography"])
    assert result["pieces"], "the still has discs on the surface"
    for piece in result["pieces"]:
        assert {"kind", "x_mm", "y_mm", "r_mm", "zone", "needs_review", "confidence"} <= piece.keys()
        assert piece["kind"] in ("light", "dark") and piece["zone"] in (0, 5, 10, 15)
    assert set(result["counts"]) == {"light", "dark"}
    assert sum(result["counts"].values()) == len(result["pieces"])
    assert result["round_score"] == {
        team: sum(p["zone"] for p in result["pieces"] if p["kind"] == team) + 20 * result["twenties"][team]
        for team in ("light", "dark")
    }
    assert cv2.imread(str(drawn)).shape == image.shape


def test_no_board_is_an_answer_not_an_error(tmp_path):
    photo = tmp_path / "wall.png"
    cv2.imwrite(str(photo), blank_wall(640))
    done = run_read(str(photo), "--game", "carrom")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["board"]["found"] is False
    assert result["pieces"] == []
    assert result["counts"] == {"white": 0, "black": 0, "queen": 0, "striker": 0}


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "empty"),
        (b"this is not a picture\n", "not an image"),
        (None, "truncated"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, content, words):
    photo = tmp_path / "bad.jpg"
    if content is None:
        ok, encoded = cv2.imencode(".jpg", blank_wall(200))
        content = encoded.tobytes()[: len(encoded) // 2]
    photo.write_bytes(content)
    done = run_read(str(photo), "--game", "crokinole")
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and words in done.stderr


def test_unknown_game_and_missing_file(tmp_path):
    done = run_read(str(tmp_path / "nothing.png"), "--game", "chess")
    assert done.returncode == 2 and "--game" in done.stderr
    done = run_read(str(tmp_path / "nothing.png"), "--game", "carrom")
    assert done.returncode == 2 and "no such file" in done.stderr
