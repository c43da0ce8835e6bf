"""Crokinole discs of the board's own colour, rendered at video resolution: found by the shading of their bevel.

A light disc on pale maple shows no colour step round its rim and, at 960x540,
only part of its rim at all: its shaded side and shadow. The lamp lights its
bevel on one side and shades it on the other; print and grain lie flat in the
light. The discs here are where stills 60042, 60063 and 60090 left them unread.
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration.geometry import load_board
from simulation.film import film_still
from simulation.scene import PieceState, SceneFrame
from vision.pieces_read import read_pieces
from vision.rim_shading import bevel_swing

RESOLUTION = (960, 540)


def _read(places, *, seed: int, difficulty: str):
    board = load_board("crokinole")
    r = board.disc_diameter_mm / 2
    frame = SceneFrame(0.0, tuple(PieceState(i, kind, x, y, r) for i, (kind, x, y) in enumerate(places)))
    image, homography = film_still(frame, board=board, seed=seed, difficulty=difficulty, resolution=RESOLUTION)
    return read_pieces(image, homography=homography, board=board)


@pytest.mark.parametrize("places, seed, difficulty", [
    ((("light", -127.06, -225.74), ("dark", 180.59, 126.62)), 60042, "medium"),
    ((("light", 81.95, -268.25), ("light", 107.29, -248.63)), 60063, "hard"),
    ((("light", -78.43, -275.44), ("light", 9.09, 169.85), ("dark", -11.18, 8.9)), 60090, "medium"),
])
def test_a_disc_of_the_boards_colour_is_found_by_its_shading(places, seed, difficulty):
    reading = _read(places, seed=seed, difficulty=difficulty)
    for kind, x, y in places:
        assert [p.kind for p in reading.pieces if np.hypot(p.x_mm - x, p.y_mm - y) < 5.0] == [kind]
    assert len(reading.pieces) == len(places)


@pytest.mark.parametrize("places, seed, difficulty", [
    # a disc-sized circle where the 10 line meets a quadrant line (still 60009), round a dark figure of the grain
    # (still 60012): both swing in lightness round their bevels, neither is a disc
    ((("light", 100.71, -79.81), ("dark", 117.1, -18.98)), 60009, "easy"),
    ((("light", -50.83, 71.14), ("dark", -40.84, 40.9)), 60012, "clean"),
    # where the shooting line meets a quadrant line, a rim of bare board, flat in the light (still 60092)
    ((("light", 260.99, -49.83), ("light", 116.82, -115.39), ("light", -15.63, 4.59), ("light", 145.94, 163.89),
      ("light", 141.44, -95.22)), 60092, "clean"),
])
def test_print_and_grain_are_not_taken_for_discs_of_the_boards_colour(places, seed, difficulty):
    reading = _read(places, seed=seed, difficulty=difficulty)
    for piece in reading.pieces:
        assert any(np.hypot(piece.x_mm - x, piece.y_mm - y) < 5.0 for _, x, y in places), piece
    assert len(reading.pieces) == len(places)


def test_the_bevel_swings_round_a_shaded_disc_and_not_round_flat_paint():
    lab = np.full((80, 160, 3), (170, 128, 150), np.uint8)
    yy, xx = np.mgrid[:80, :160]
    angle = np.arctan2(yy - 40, xx - 40)
    from_disc = np.hypot(xx - 40, yy - 40)
    # a disc of the board's colour: its bevel shaded on one side, lit on the other
    bevel = (from_disc > 11) & (from_disc < 16)
    lab[..., 0] = np.where(bevel, np.clip(150 + 30 * np.cos(angle), 0, 255), lab[..., 0]).astype(np.uint8)
    # a flat painted ring of the same size
    lab[..., 0] = np.where((np.hypot(xx - 120, yy - 40) > 11) & (np.hypot(xx - 120, yy - 40) < 16), 150,
                           lab[..., 0]).astype(np.uint8)
    shading = bevel_swing(lab, np.array([[40.0, 40.0], [120.0, 40.0]]), np.array([16.0, 16.0]))
    assert shading.swing[0] > 20 and shading.swing[1] < 2
    assert shading.shade[0] > 10 and shading.shade[1] > 10
