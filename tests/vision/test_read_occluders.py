"""Something above the board (an arm, a robot's gantry): the reading says where, and reads nothing on it."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.geometry import load_board
from simulation.film import film_still
from simulation.scene import SceneFrame
from vision.frames import load_image
from vision.homography import project
from vision.localise import locate_board
from vision.pieces_read import read_pieces

ARM_MM = np.array([[-70.0, -372.0], [70.0, -372.0], [55.0, -140.0], [-55.0, -140.0]])
KNUCKLES_MM = np.array([[-25.0, -160.0], [25.0, -165.0]])
WEBCAM = Path(__file__).resolve().parents[3] / "shared" / "realdata" / "carrom" / "webcam_surco"


def _inside(piece, cover) -> bool:
    return cover.x_min_mm <= piece.x_mm <= cover.x_max_mm and cover.y_min_mm <= piece.y_mm <= cover.y_max_mm


def test_an_arm_over_an_empty_board_is_reported_not_read():
    board = load_board("carrom")
    image, homography = film_still(SceneFrame(0.0, ()), board=board, seed=5201, difficulty="clean",
                                   resolution=(1280, 720))
    bare = read_pieces(image, homography=homography, board=board)
    assert bare.occluded == ()
    covered = image.copy()
    cv2.fillPoly(covered, [np.rint(project(homography, ARM_MM)).astype(np.int32)], (120, 150, 205))
    for knuckle in project(homography, KNUCKLES_MM):
        radius_px = int(np.linalg.norm(project(homography, KNUCKLES_MM[:1] + [15.5, 0]) - project(homography, KNUCKLES_MM[:1])))
        cv2.circle(covered, tuple(int(v) for v in np.rint(knuckle)), radius_px, (200, 215, 235), -1)
    reading = read_pieces(covered, homography=homography, board=board)
    assert len(reading.occluded) == 1
    cover = reading.occluded[0]
    # The arm enters over the rim, which is left out; the rest of it is the patch.
    assert cover.x_min_mm < -40 and cover.x_max_mm > 40 and cover.y_max_mm > -160 and cover.y_min_mm < -300
    assert reading.hidden_share - bare.hidden_share > 0.04
    assert not any(_inside(piece, cover) for piece in reading.pieces)
    assert reading.to_json()["occluded"][0]["share"] > 0.04


@pytest.mark.skipif(not WEBCAM.is_dir(), reason="the shared real photos are not on this machine")
def test_the_robot_gantry_over_a_real_board_is_reported():
    image = load_image(WEBCAM / "a1.jpg")
    location = locate_board(image, game="carrom")
    assert location.found
    reading = read_pieces(image, homography=location.homography, board=load_board("carrom", location.model))
    # The gantry's carriage stands over the south base line, near the middle.
    carriage = [c for c in reading.occluded if c.y_max_mm > -260 and c.y_min_mm < -240 and c.x_min_mm < 0 < c.x_max_mm]
    assert carriage
    assert not any(_inside(piece, cover) for piece in reading.pieces for cover in carriage)
