"""The board's symmetric places tell its print from a piece: on drawn views and on rendered carrom boards."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.geometry import load_board
from simulation.film import film_still
from simulation.scene import PieceState, SceneFrame
from vision.pieces_read import read_pieces
from vision.print_symmetry import symmetry_gap

SIDE_PX = 401
COIN_RADIUS_PX = 15.0


def _arcs_view(*, coin_at: tuple[int, int] | None = None) -> np.ndarray:
    """A pale board, an open arc printed the same at each corner (a quarter turn apart), a coin where asked."""
    image = np.full((SIDE_PX, SIDE_PX, 3), (160, 200, 225), np.uint8)
    middle = (SIDE_PX - 1) / 2
    for k in range(4):
        angle = np.pi / 4 + k * np.pi / 2
        u, v = middle + 120 * np.cos(angle), middle + 120 * np.sin(angle)
        cv2.ellipse(image, (int(round(u)), int(round(v))), (18, 18), np.degrees(angle), 40, 320, (60, 60, 60), 2,
                    cv2.LINE_AA)
    if coin_at is not None:
        cv2.circle(image, coin_at, int(COIN_RADIUS_PX), (215, 230, 240), -1, cv2.LINE_AA)
        cv2.circle(image, coin_at, int(COIN_RADIUS_PX), (90, 100, 110), 1, cv2.LINE_AA)
    return cv2.cvtColor(cv2.GaussianBlur(image, (0, 0), 1.0), cv2.COLOR_BGR2LAB)


def _arc_centre(k: int) -> tuple[float, float]:
    middle = (SIDE_PX - 1) / 2
    angle = np.pi / 4 + k * np.pi / 2
    return middle + 120 * np.cos(angle), middle + 120 * np.sin(angle)


def test_a_printed_arc_matches_its_symmetric_places_and_a_coin_beside_it_matches_none():
    coin = (110, 250)
    lab = _arcs_view(coin_at=coin)
    gaps = symmetry_gap(lab, np.array([_arc_centre(0), coin]), radius_px=COIN_RADIUS_PX)
    assert gaps[0] < 3.0
    assert gaps[1] > 10.0


def test_symmetric_places_under_pieces_are_not_compared():
    lab = _arcs_view()
    places = np.array([_arc_centre(k) for k in range(4)])
    # Each arc's three images lie under the other arcs: with those marked occupied nothing is left to compare.
    gaps = symmetry_gap(lab, places[:1], radius_px=COIN_RADIUS_PX, occupied_px=places)
    assert np.isinf(gaps).all()
    assert np.isfinite(symmetry_gap(lab, places[:1], radius_px=COIN_RADIUS_PX, occupied_px=places[1:2])).all()


def test_a_view_that_is_not_square_is_refused():
    with pytest.raises(ValueError, match="square"):
        symmetry_gap(np.zeros((40, 50, 3), np.uint8), np.zeros((1, 2)), radius_px=5.0)


def _assert_read_as_placed(places: list[tuple[str, float, float]], *, look: str, seed: int) -> None:
    """Render the carrom pieces at `places` (kind, x_mm, y_mm); each must be read where it lies, and nothing else."""
    board = load_board("carrom")
    radius_mm = board.coin_diameter_mm / 2
    frame = SceneFrame(0.0, tuple(PieceState(i, kind, x, y, radius_mm) for i, (kind, x, y) in enumerate(places)))
    image, homography = film_still(frame, board=board, seed=seed, difficulty="medium", resolution=(960, 540),
                                   look=look)
    reading = read_pieces(image, homography=homography, board=board)
    for kind, x, y in places:
        assert [p.kind for p in reading.pieces if np.hypot(p.x_mm - x, p.y_mm - y) < 8.0] == [kind]
    assert len(reading.pieces) == len(places)


@pytest.mark.parametrize("look, seed", [("birch_black_frame", 2), ("birch_black_frame", 3),
                                        ("plywood_brown_frame", 2), ("plywood_brown_frame", 3)])
def test_light_coins_alone_on_the_centre_figure_are_read(look, seed):
    # Against the outer circle and over the star's points: their faces are the pale board's colour, their rims
    # partly lost against the print.
    _assert_read_as_placed([("white", -27.0, 81.0), ("white", -42.0, -17.0), ("black", 150.0, -200.0)],
                           look=look, seed=seed)


@pytest.mark.parametrize("look, seed", [("birch_black_frame", 4), ("plywood_brown_frame", 1),
                                        ("plywood_brown_frame", 3), ("plywood_brown_frame", 5)])
def test_pale_coins_by_the_frame_the_base_lines_and_the_base_circles_are_not_taken_for_print(look, seed):
    # Pale whites by the frame, a base circle, a base line and an arrow's line: circles of the board's colour there
    # are judged by the board's symmetric places, which a pale coin may come close to.
    _assert_read_as_placed([("white", 31.0, -351.0), ("white", -351.0, 140.0), ("white", -186.0, 255.0),
                            ("white", 120.0, -247.0), ("black", 150.0, -120.0), ("black", -100.0, 180.0),
                            ("white", 220.0, 150.0)], look=look, seed=seed)
