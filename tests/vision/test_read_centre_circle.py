"""Carrom's red centre circle is as large as a coin: bare, it is print, not a second queen.

The queen starts on it and may be put back on it; the rest of the board the circle
lies bare, and the reader must not see a queen there.
"""

from __future__ import annotations

import numpy as np

from calibration.geometry import load_board
from simulation.film import film_still
from vision.pieces_read import read_pieces

from bench.read import synthetic_still, undistorted
from tests.vision.board_places import carrom_frame

# Simulated clip 5200 at 9.5 s: the queen lies just off the centre circle, a white beside it.
CLIP_5200_AT_9_5_S = (
    ("queen", 6.45, 27.73), ("white", 132.05, 153.33), ("black", -66.57, 17.95), ("white", -133.97, 112.1),
    ("white", -20.84, 0.91), ("black", -24.2, 66.42), ("black", -30.53, 309.4), ("black", -172.28, -322.4),
    ("white", 234.8, -189.46), ("white", -198.77, 255.01), ("black", -310.03, -4.73), ("white", 12.52, 172.06),
    ("white", -353.09, -262.43), ("black", -38.29, -54.12), ("white", 224.45, 261.11), ("white", 339.39, 227.55),
    ("striker", -103.8, 54.83),
)


def test_the_bare_centre_circle_beside_the_queen_is_no_second_queen():
    board = load_board("carrom")
    image, homography = film_still(carrom_frame(CLIP_5200_AT_9_5_S, board), board=board, seed=5200, difficulty="medium", resolution=(960, 540))
    reading = read_pieces(image, homography=homography, board=board)
    queens = [(p.x_mm, p.y_mm) for p in reading.pieces if p.kind == "queen"]
    assert len(queens) == 1
    assert np.hypot(queens[0][0] - 6.45, queens[0][1] - 27.73) < 5.0
    # The white touching the circle's other side is read too.
    assert [p.kind for p in reading.pieces if np.hypot(p.x_mm + 20.84, p.y_mm - 0.91) < 5.0] == ["white"]


def test_the_bare_centre_circle_redder_than_the_base_circles_but_as_flat_is_print():
    # Tuning still 81019: the queen is pocketed; the centre circle's face stands 16 Lab units from the base
    # circles' (beyond the 14 that calls a face their print) yet is as flat as theirs.
    image, homography, document, report = synthetic_still("carrom", 81019, resolution=(1280, 720))
    assert "queen" not in [p["kind"] for p in document["pieces"]]
    reading = read_pieces(undistorted(image, report), homography=homography, board=load_board("carrom"))
    assert [p.kind for p in reading.pieces if np.hypot(p.x_mm, p.y_mm) < 16.0] == []
    assert len(reading.pieces) == len(document["pieces"])
