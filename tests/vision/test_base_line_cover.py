"""A striker placed between two base lines hides both over its chord, even where it shows no rim."""

import numpy as np
import pytest

from calibration.geometry import load_board
from tests.vision.kept_views import nearest_mm
from vision.base_line_cover import STRIKER_CHORD_MM, hidden_stretches_mm, striker_hiding_base_lines
from vision.classify_pieces import classify_pieces
from vision.detect_pieces import detect_pieces
from vision.pieces_read import read_pieces
from vision.rectify_board import board_view

from bench.read import synthetic_still, undistorted


def _still(seed: int):
    image, homography, document, report = synthetic_still("carrom", seed, resolution=(1280, 720))
    return undistorted(image, report), homography, document["pieces"]


def _kind_mm(pieces, kind: str) -> np.ndarray:
    return np.array([(p["x_mm"], p["y_mm"]) for p in pieces if p["kind"] == kind]).reshape(-1, 2)


def test_both_base_lines_are_hidden_over_a_strikers_chord_where_it_lies_and_nowhere_else():
    # Fresh still 98007 ("hard", 0.37 source px/mm): a pale striker at (-6, -252) mm shows no rim.
    image, homography, true_pieces = _still(98007)
    board = load_board("carrom")
    stretches = hidden_stretches_mm(board_view(image, homography=homography, board=board), board=board)
    striker_mm = _kind_mm(true_pieces, "striker")
    low, high = STRIKER_CHORD_MM
    assert len(stretches) == 1
    assert low <= stretches[0, 2] <= high
    assert nearest_mm(stretches[:, :2], striker_mm)[0] < 3.0


@pytest.mark.parametrize("seed", [
    98007,  # no rim read at all
    97091,  # the same, on a sandy board
    97075,  # its inner rim read as a white's
])
def test_a_striker_placed_between_the_base_lines_and_not_read_by_its_rim_is_read(seed):
    image, homography, true_pieces = _still(seed)
    reading = read_pieces(image, homography=homography, board=load_board("carrom"))
    strikers_mm = np.array([(p.x_mm, p.y_mm) for p in reading.pieces if p.kind == "striker"]).reshape(-1, 2)
    assert len(strikers_mm) == 1
    assert nearest_mm(strikers_mm, _kind_mm(true_pieces, "striker"))[0] < 4.0
    # It is read once: no coin is left where it lies.
    coins_mm = np.array([(p.x_mm, p.y_mm) for p in reading.pieces if p.kind != "striker"]).reshape(-1, 2)
    assert nearest_mm(strikers_mm, coins_mm)[0] > 30.0


def test_a_stretch_a_coin_read_beside_it_hides_is_no_striker():
    # Tuning still 96238: a white 9 mm off the middle of a pair of base lines hides both over 20 mm.
    image, homography, _ = _still(96238)
    board = load_board("carrom")
    view = board_view(image, homography=homography, board=board)
    found = detect_pieces(view, board=board)
    classes = classify_pieces(found, board=board)
    coins = np.array([kind != "striker" for kind in classes.kinds])
    found, classes = found.filter(coins), classes.filter(coins)
    stretches = hidden_stretches_mm(view, board=board)
    beside_white = stretches[(stretches[:, 2] >= STRIKER_CHORD_MM[0]) & (stretches[:, 2] <= STRIKER_CHORD_MM[1])]
    assert len(beside_white) == 1
    after, after_classes = striker_hiding_base_lines(view, found, classes, board=board)
    assert len(after) == len(found)
    assert after_classes.kinds == classes.kinds


def test_base_lines_are_looked_at_on_carrom_boards_only():
    image, homography, _ = _still(98007)
    view = board_view(image, homography=homography, board=load_board("carrom"))
    with pytest.raises(ValueError, match="carrom"):
        hidden_stretches_mm(view, board=load_board("crokinole"))
