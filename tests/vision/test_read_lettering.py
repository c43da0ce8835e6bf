"""A maker's name printed on a carrom board is no coin; a coin lying on it is one.

Real boards print their maker's name between a base line and the cushion, in the
colour of their base circles, and so does the simulator. Its letters draw faint
coin-sized rims whose face is the board thinned towards the print's colour.
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration.geometry import load_board
from simulation.film import film_still
from vision.carrom_print import printed_lettering
from vision.pieces_read import read_pieces

from tests.vision.board_places import carrom_frame

# Simulated clip 5146 at 4 s: its pale board prints the maker's name in red by the west cushion, round (-337, -6).
CLIP_5146_AT_4_S = (
    ("queen", 19.3, 84.48), ("black", -326.02, 193.36), ("white", -38.88, 106.4), ("black", -107.63, 74.13),
    ("white", -2.25, 1.45), ("black", 325.5, 34.13), ("black", -200.01, 282.3), ("white", 247.4, -101.58),
    ("white", -255.59, 253.75), ("black", -293.52, 310.59), ("black", -350.4, -33.92), ("white", 306.29, 348.83),
    ("white", 199.47, -347.83), ("black", -233.24, -49.84), ("black", 276.76, -25.86), ("white", 175.71, -121.59),
    ("striker", 32.34, -64.6),
)
LETTERING_MM = (-337.0, -6.0)


def _still(places):
    board = load_board("carrom")
    image, homography = film_still(carrom_frame(places, board), board=board, seed=5146, difficulty="medium", resolution=(960, 540))
    return read_pieces(image, homography=homography, board=board)


def test_no_coin_is_read_on_the_makers_name():
    reading = _still(CLIP_5146_AT_4_S)
    true = np.array([(x, y) for _, x, y in CLIP_5146_AT_4_S])
    read = np.array([(p.x_mm, p.y_mm) for p in reading.pieces])
    nearest_true_mm = np.hypot(read[:, None, 0] - true[None, :, 0], read[:, None, 1] - true[None, :, 1]).min(axis=1)
    assert nearest_true_mm.max() < 5.0
    # The pieces that stand out are all read (pale whites on this pale board may go unread).
    for kind, x, y in CLIP_5146_AT_4_S:
        if kind != "white":
            assert [p.kind for p in reading.pieces if np.hypot(p.x_mm - x, p.y_mm - y) < 5.0] == [kind]


@pytest.mark.parametrize("kind, x_mm, y_mm", [
    ("white", -337.0, -6.0), ("white", -330.0, 10.0), ("black", -337.0, -6.0),
])
def test_a_coin_lying_on_the_makers_name_is_read(kind, x_mm, y_mm):
    places = (("black", -350.4, 100.0), ("queen", 19.3, 84.48), (kind, x_mm, y_mm))
    reading = _still(places)
    assert [p.kind for p in reading.pieces if np.hypot(p.x_mm - x_mm, p.y_mm - y_mm) < 5.0] == [kind]
    assert len(reading.pieces) == len(places)


def test_lettering_is_a_face_between_the_board_and_its_print():
    board_lab, print_lab = np.array([187.0, 128.0, 141.0]), np.array([84.0, 174.0, 150.0])
    faces = np.array([
        board_lab + 0.3 * (print_lab - board_lab),  # letters and board between them
        board_lab + np.array([6.0, 1.0, 2.0]),  # a pale coin, near the board's colour
        np.array([40.0, 130.0, 128.0]),  # a black coin, darker than the print
        board_lab + 0.3 * (print_lab - board_lab) + np.array([0.0, 0.0, 30.0]),  # between them but off the line
    ])
    looks = printed_lettering(faces, np.repeat(board_lab[None], len(faces), axis=0), print_lab)
    assert looks.tolist() == [True, False, False, False]
