"""Unsure coins: coin-sized circles the reader leaves out, for a video to weigh."""

import numpy as np
import pytest

from calibration.geometry import load_board
from tests.vision.kept_views import kept_view, nearest_mm
from vision.detect_pieces import detect_pieces
from vision.pieces_read import read_pieces
from vision.unsure_coins import unsure_coins


def test_pale_whites_on_a_washed_out_board_left_out_by_the_reader_are_its_unsure_coins_and_no_print_is():
    # Simulated clip 5211 at 96.2 s (1080p, H.264, a board washed out by a bright light): two whites struck far, one
    # across a base line, show most of their rims but step from the board on too little of them to be read.
    view, true_mm = kept_view("clip_5211_at_96_2s")
    board = load_board("carrom")
    found = detect_pieces(view, board=board)
    unsure = unsure_coins(view, found, board=board)
    whites_mm = np.array([[14.69, -69.69], [222.88, 40.7]])
    assert (nearest_mm(whites_mm, found.centres_mm) > 10.0).all()
    assert (nearest_mm(whites_mm, unsure.centres_mm) < 4.0).all()
    # Every unsure coin is a piece: the base circles, the centre's hub and the arrows' arcs are none.
    assert (nearest_mm(unsure.centres_mm, true_mm) < 6.0).all()
    gaps = np.hypot(*(unsure.centres_mm[:, None] - found.centres_mm[None]).transpose(2, 0, 1))
    assert (gaps >= unsure.radii_mm[:, None] + found.radii_mm[None]).all()


def test_unsure_coins_are_looked_for_on_carrom_boards_only():
    view, _ = kept_view("clip_5211_at_96_2s")
    with pytest.raises(ValueError, match="carrom"):
        unsure_coins(view, detect_pieces(view, board=load_board("carrom")), board=load_board("crokinole"))


def test_a_reading_asked_for_them_gives_the_unsure_coins_named_as_pieces_and_otherwise_none():
    view, true_mm = kept_view("clip_5211_at_96_2s")
    board = load_board("carrom")
    middle_px = view.half_extent_mm * view.px_per_mm - 0.5
    # The view's own homography: board mm to its pixels (y up on the board, down in the image).
    homography = np.array([[view.px_per_mm, 0, middle_px], [0, -view.px_per_mm, middle_px], [0, 0, 1.0]])
    asked = read_pieces(view.image, homography=homography, board=board, with_unsure=True)
    whites_mm = np.array([[14.69, -69.69], [222.88, 40.7]])
    unsure_mm = np.array([(p.x_mm, p.y_mm) for p in asked.unsure])
    assert (nearest_mm(whites_mm, unsure_mm) < 5.0).all()
    assert {p.kind for p in asked.unsure} == {"white"}
    assert (nearest_mm(whites_mm, np.array([(p.x_mm, p.y_mm) for p in asked.pieces])) > 10.0).all()
    assert read_pieces(view.image, homography=homography, board=board).unsure == ()
