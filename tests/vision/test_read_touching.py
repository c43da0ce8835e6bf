"""Coins wedged between others on rendered carrom boards: the break formation, read whole.

In the break formation every coin touches its neighbours, so much of each rim is
shared and the centres inside gather few votes; a coin there is looked for where it
would touch two found ones. A wide-angle camera (as the hard stills use) must also
have its focal length measured, not assumed, for the pieces' parallax to be undone.
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration.geometry import load_board
from simulation.film import camera_report, film_still
from simulation.play_carrom import break_formation
from simulation.scene import PieceState, SceneFrame
from vision.pieces_read import read_pieces
from vision.rectify_parallax import camera_above

RESOLUTION = (1280, 720)


def _formation_still(seed: int, difficulty: str, *, without: tuple[str, ...] = ()):
    board = load_board("carrom")
    places = [place for place in break_formation(board) if place[0] not in without]
    pieces = tuple(PieceState(i, kind, x, y, board.coin_diameter_mm / 2) for i, (kind, x, y) in enumerate(places))
    image, homography = film_still(SceneFrame(0.0, pieces), board=board, seed=seed, difficulty=difficulty,
                                   resolution=RESOLUTION)
    return places, read_pieces(image, homography=homography, board=board)


@pytest.mark.parametrize(("seed", "difficulty", "within_mm"), [(60083, "hard", 8.0), (60111, "hard", 10.0),
                                                             (60054, "medium", 5.0)])
def test_every_coin_of_the_break_formation_is_found_and_classed(seed, difficulty, within_mm):
    # The lights and cameras of stills whose break formations lost three to eleven coins. On the hard ones (a coin
    # 11 px across, blurred) a white coin wedged between whites is fitted up to 10 mm off, partly on the print.
    places, reading = _formation_still(seed, difficulty)
    found = np.array([[p.x_mm, p.y_mm] for p in reading.pieces])
    for kind, x, y in places:
        gaps = np.hypot(found[:, 0] - x, found[:, 1] - y)
        assert gaps.min() < within_mm, f"{kind} at ({x:.0f}, {y:.0f}) missed"
        assert reading.pieces[int(np.argmin(gaps))].kind == kind
    assert len(reading.pieces) == len(places)


@pytest.mark.parametrize("seed", [60000, 60004, 60092])
def test_the_bare_centre_circle_ringed_by_the_break_formation_without_its_queen_is_no_piece(seed):
    # Still 60092's light: the flat print, coins all round it, was read as the queen.
    places, reading = _formation_still(seed, "clean", without=("queen",))
    assert not any(np.hypot(p.x_mm, p.y_mm) < 8.0 for p in reading.pieces)
    assert reading.counts() == {"white": 9, "black": 9, "queen": 0, "striker": 0}


@pytest.mark.parametrize("seed", [60115, 75023])
def test_a_wide_angle_camera_is_placed_from_its_measured_focal_length(seed):
    # Focal lengths of a quarter of the image width: the camera stands 450 mm or more off the board's centre.
    board = load_board("carrom")
    report = camera_report(board=board, seed=seed, difficulty="hard", resolution=RESOLUTION)
    rotation, translation = np.array(report["rotation"]), np.array(report["translation_mm"])
    centre = -rotation.T @ translation
    camera = camera_above(np.array(report["homography"]), image_size=RESOLUTION)
    assert np.hypot(*(camera.nadir_mm - centre[:2])) < 20.0
    assert abs(camera.height_mm - centre[2]) < 20.0
