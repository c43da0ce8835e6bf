"""Ring coins: on a board the camera gives few pixels, a white coin is a dark ring round a pale face."""

import cv2
import numpy as np
import pytest

from calibration.geometry import load_board
from tests.vision.kept_views import nearest_mm
from vision.detect_pieces import detect_pieces
from vision.homography import px_per_mm_at
from vision.pieces_read import read_pieces
from vision.rectify_board import board_view
from vision.ring_coins import COARSE_SOURCE_PX_PER_MM, ridge_field, ring_coins

from bench.read import synthetic_still, undistorted


def _still(seed: int):
    """The benchmark's 1280x720 carrom still of `seed` as the reader sees it, its homography and true pieces."""
    image, homography, document, report = synthetic_still("carrom", seed, resolution=(1280, 720))
    return undistorted(image, report), homography, document["pieces"]


def _kind_mm(pieces, kind: str) -> np.ndarray:
    return np.array([[p["x_mm"], p["y_mm"]] for p in pieces if p["kind"] == kind]).reshape(-1, 2)


def test_a_dark_ring_is_a_ridge_across_which_the_field_points():
    lab = np.full((120, 120, 3), (200, 128, 140), np.uint8)
    cv2.circle(lab, (60, 60), 25, (120, 128, 140), 3)
    field = ridge_field(lab)
    ys, xs = field.voters
    radius_px = np.hypot(xs - 60, ys - 60)
    assert len(xs) > 100
    # On the line drawn 3 px wide, a few pixels of its staircase on the diagonals aside.
    assert np.mean(np.abs(radius_px - 25) <= 1.5) > 0.9
    assert np.all(np.abs(radius_px - 25) <= 3.0)
    # Across the line is along the radius.
    radial = np.abs(field.ux[ys, xs] * (xs - 60) + field.uy[ys, xs] * (ys - 60)) / radius_px
    assert np.median(radial) > 0.95


@pytest.mark.parametrize("seed, whites_mm", [
    # Tuning still 96191 ("hard", the board at 0.2 source px/mm): whites left unread by their rims.
    (96191, [[-242.22, 327.7], [-307.68, -45.9], [-339.63, -260.88], [-68.01, 303.58], [201.12, 119.7]]),
    # Tuning still 96227 ("hard", 0.4 px/mm): at (299, -112) mm the edges peak 3.5 mm inside the rim, none at it.
    (96227, [[-248.32, 38.4], [28.8, 124.69], [299.18, -112.2]]),
])
def test_whites_seen_only_as_dark_rings_on_a_coarse_board_are_read_as_whites_and_nothing_more_is(seed, whites_mm):
    image, homography, true_pieces = _still(seed)
    board = load_board("carrom")
    assert px_per_mm_at(homography) < COARSE_SOURCE_PX_PER_MM
    reading = read_pieces(image, homography=homography, board=board)
    read_whites_mm = np.array([(p.x_mm, p.y_mm) for p in reading.pieces if p.kind == "white"])
    assert (nearest_mm(np.array(whites_mm), read_whites_mm) < 6.0).all()
    for kind in ("white", "black", "queen", "striker"):
        read_mm = np.array([(p.x_mm, p.y_mm) for p in reading.pieces if p.kind == kind]).reshape(-1, 2)
        assert (nearest_mm(read_mm, _kind_mm(true_pieces, kind)) < 8.0).all(), kind


@pytest.mark.parametrize("seed", [
    96255,  # the pale wedge between two of the centre star's arms, ringed by them and the hub
    96170,  # the same, between a yellow arm and a white one on blue
    96191,  # a base line's end under the red base circle
    96062,  # the board's lettering by its edge
])
def test_rings_the_print_draws_round_a_pale_place_are_no_coins(seed):
    image, homography, true_pieces = _still(seed)
    board = load_board("carrom")
    view = board_view(image, homography=homography, board=board)
    rings = ring_coins(view, detect_pieces(view, board=board), board=board)
    assert (nearest_mm(rings.centres_mm, _kind_mm(true_pieces, "white")) < 8.0).all()


def test_ring_coins_are_looked_for_on_carrom_boards_only():
    image, homography, _ = _still(96227)
    view = board_view(image, homography=homography, board=load_board("carrom"))
    with pytest.raises(ValueError, match="carrom"):
        ring_coins(view, detect_pieces(view, board=load_board("carrom")), board=load_board("crokinole"))
