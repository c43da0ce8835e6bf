"""The light shades a piece's face and not the board's print: on drawn faces and on rendered carrom boards."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.geometry import load_board
from simulation.film import film_still
from simulation.scene import PieceState, SceneFrame
from vision.face_shading import face_shading
from vision.pieces_read import read_pieces

from bench.read import synthetic_still, undistorted

RADIUS_PX = 12.0


def _face(slope_x: float, slope_y: float) -> np.ndarray:
    """A grey view with one disc whose lightness changes by the given amounts from its centre to its rim."""
    lab = np.full((61, 61, 3), 128, np.uint8)
    ys, xs = np.mgrid[-30:31, -30:31].astype(np.float64)
    inside = np.hypot(xs, ys) <= RADIUS_PX + 2
    lightness = 150 + slope_x * xs / RADIUS_PX + slope_y * ys / RADIUS_PX
    lab[..., 0] = np.where(inside, np.clip(np.rint(lightness), 0, 255), 90).astype(np.uint8)
    return lab


def test_the_slope_across_a_face_is_measured_and_a_flat_face_has_none():
    slopes = face_shading(_face(-12.0, 20.0), np.array([[30.0, 30.0]]), radius_px=RADIUS_PX)
    np.testing.assert_allclose(slopes[0], [-12.0, 20.0], atol=0.5)
    assert np.abs(face_shading(_face(0.0, 0.0), np.array([[30.0, 30.0]]), radius_px=RADIUS_PX)).max() < 0.5


def test_a_radius_of_a_pixel_or_less_is_refused():
    with pytest.raises(ValueError, match="radius_px"):
        face_shading(_face(0.0, 0.0), np.array([[30.0, 30.0]]), radius_px=1.0)


def _read_centre(*, with_queen: bool, look: str, seed: int):
    board = load_board("carrom")
    radius_mm = board.coin_diameter_mm / 2
    places = [("white", -230.0, 120.0), ("black", 150.0, -200.0), ("white", 210.0, 160.0), ("black", -120.0, -260.0)]
    if with_queen:
        places.append(("queen", 0.0, 0.0))
    frame = SceneFrame(0.0, tuple(PieceState(i, kind, x, y, radius_mm) for i, (kind, x, y) in enumerate(places)))
    image, homography = film_still(frame, board=board, seed=seed, difficulty="medium", resolution=(960, 540),
                                   look=look)
    reading = read_pieces(image, homography=homography, board=board)
    return [p.kind for p in reading.pieces if np.hypot(p.x_mm, p.y_mm) < 8.0], len(reading.pieces)


@pytest.mark.parametrize("look, seed", [("birch_black_frame", 3), ("birch_black_frame", 4), ("birch_black_frame", 5)])
def test_the_queen_put_back_alone_on_the_centre_circle_is_read_and_the_bare_circle_is_not(look, seed):
    at_centre, count = _read_centre(with_queen=True, look=look, seed=seed)
    assert at_centre == ["queen"]
    assert count == 5
    at_centre, count = _read_centre(with_queen=False, look=look, seed=seed)
    assert at_centre == []
    assert count == 4


@pytest.mark.parametrize("seed, x_mm, y_mm", [(71031, 25.34, 42.05), (71053, -259.5, 251.2), (71065, -248.56, -337.34)])
def test_pale_coins_the_light_shades_are_read_on_the_print_and_where_their_rim_barely_steps(seed, x_mm, y_mm):
    # Check stills: a white on the centre figure's star (71031), by a base line's end (71053) and by the frame
    # (71065), each of the pale board's colour and missed without the shading of its face.
    image, homography, document, report = synthetic_still("carrom", seed, resolution=(1280, 720))
    reading = read_pieces(undistorted(image, report), homography=homography, board=load_board("carrom"))
    assert [p.kind for p in reading.pieces if np.hypot(p.x_mm - x_mm, p.y_mm - y_mm) < 5.0] == ["white"]
    assert len(reading.pieces) <= len(document["pieces"])
