"""Board localisation against a known homography: real photos warped by a known tilt, and no-board frames."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.geometry import load_board
from tests.vision.no_board_images import NO_BOARD_IMAGES
from vision.frames import load_image
from vision.homography import image_to_board, project, rectify
from vision.localise import locate_board

REALDATA = Path(__file__).resolve().parents[3] / "shared" / "realdata"
needs_realdata = pytest.mark.skipif(not REALDATA.is_dir(), reason=f"real photos not available at {REALDATA}")


def _quarter_turn(k: int) -> np.ndarray:
    c, s = round(math.cos(k * math.pi / 2)), round(math.sin(k * math.pi / 2))
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def _landmark_error_mm(found: np.ndarray, truth: np.ndarray, landmarks_mm: np.ndarray) -> float:
    """Mean board-mm error of the landmarks, over the board's quarter-turn symmetry."""
    return min(
        float(np.linalg.norm(image_to_board(found @ _quarter_turn(k), project(truth, landmarks_mm)) - landmarks_mm, axis=1).mean())
        for k in range(4)
    )


def _tilt(width: int, height: int, *, degrees: float, rotate_deg: float) -> np.ndarray:
    """The image as a camera turned by `degrees` about its horizontal axis and rolled by `rotate_deg` sees it,
    re-centred and shrunk a little so the board stays in the frame."""
    f = 1.2 * max(width, height)
    k = np.array([[f, 0, width / 2], [0, f, height / 2], [0, 0, 1]])
    a = math.radians(degrees)
    tilt = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    r = math.radians(rotate_deg)
    spin = np.array([[math.cos(r), -math.sin(r), 0], [math.sin(r), math.cos(r), 0], [0, 0, 1]])
    view = k @ spin @ tilt @ np.linalg.inv(k)
    centre = np.array([width / 2, height / 2])
    moved = project(view, centre[None, :])[0]
    shrink = np.array([[0.8, 0, 0.2 * centre[0]], [0, 0.8, 0.2 * centre[1]], [0, 0, 1]])
    shift = np.array([[1, 0, centre[0] - moved[0]], [0, 1, centre[1] - moved[1]], [0, 0, 1]])
    return shrink @ shift @ view


@needs_realdata
@pytest.mark.parametrize(
    "game, model, path, tilt_deg, rotate_deg, max_error_mm",
    [
        ("crokinole", "octagon_club", "crokinole/sam_board_2025/sam_board2.jpg", 25, 10, 1.5),
        ("carrom", "icf", "carrom/webcam_surco/carrom.jpg", 20, -15, 2.0),
    ],
)
def test_a_known_tilt_is_recovered(game, model, path, tilt_deg, rotate_deg, max_error_mm):
    image = load_image(REALDATA / path, max_side_px=1200)
    reference = locate_board(image, game=game, models=[model])
    assert reference.found
    h, w = image.shape[:2]
    warp = _tilt(w, h, degrees=tilt_deg, rotate_deg=rotate_deg)
    warped = cv2.warpPerspective(image, warp, (w, h), flags=cv2.INTER_LINEAR, borderValue=(40, 40, 40))
    truth = warp @ reference.homography
    location = locate_board(warped, game=game, models=[model])
    assert location.found, location.reason
    board = load_board(game, model)
    extent = getattr(board, "surface_radius_mm", None) or board.half_side_mm
    grid = np.array([(x, y) for x in np.linspace(-0.8, 0.8, 5) for y in np.linspace(-0.8, 0.8, 5)]) * extent
    assert _landmark_error_mm(location.homography, truth, grid) < max_error_mm


@pytest.mark.parametrize("name", sorted(NO_BOARD_IMAGES))
@pytest.mark.parametrize("game", ["carrom", "crokinole", "couronne"])
def test_no_board_is_found_where_there_is_none(name, game):
    location = locate_board(NO_BOARD_IMAGES[name](640), game=game)
    assert not location.found
    assert location.reason


def test_rectify_puts_board_points_where_promised():
    image = np.zeros((400, 400, 3), np.uint8)
    homography = np.array([[0.5, 0.1, 200], [0.05, -0.5, 210], [0.0001, 0.0002, 1]])
    spot_mm = np.array([[100.0, 50.0]])
    x, y = project(homography, spot_mm)[0]
    cv2.circle(image, (int(round(x)), int(round(y))), 3, (255, 255, 255), -1)
    board = rectify(image, homography, px_per_mm=1.0, half_extent_mm=300)
    weight = board[:, :, 0].astype(float)
    v, u = np.mgrid[0 : board.shape[0], 0 : board.shape[1]]
    u_mean, v_mean = (weight * u).sum() / weight.sum(), (weight * v).sum() / weight.sum()
    assert (u_mean + 0.5) - 300 == pytest.approx(100, abs=1.5)
    assert 300 - (v_mean + 0.5) == pytest.approx(50, abs=1.5)


@pytest.mark.parametrize("game", ["carrom", "crokinole", "couronne"])
def test_a_frame_without_printed_lines_is_refused_before_any_search(game):
    from simulation.film import film_still
    from simulation.scene import SceneFrame
    from vision.line_features import line_share
    from vision.localise import MIN_LINE_SHARE

    for name in ("blank_wall", "wooden_table"):
        location = locate_board(NO_BOARD_IMAGES[name](1080), game=game)
        assert not location.found and location.reason == "no printed lines in view"
    # a small, hard board still shows its lines well above the bar
    board = load_board(game)
    image, _ = film_still(SceneFrame(0.0, ()), board=board, seed=3, difficulty="hard", resolution=(960, 540))
    assert line_share(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)) > 10 * MIN_LINE_SHARE


@pytest.mark.parametrize("seed, difficulty", [(11, "easy"), (12, "hard")])
def test_a_club_carrom_board_gets_the_club_model(seed, difficulty):
    from simulation.film import film_still
    from simulation.scene import SceneFrame

    # the default ICF model is tried first; the club model is refined from its fit and must win
    board = load_board("carrom", "club")
    image, truth = film_still(SceneFrame(0.0, ()), board=board, seed=seed, difficulty=difficulty, resolution=(1280, 720))
    location = locate_board(image, game="carrom")
    assert location.found and location.model == "club"
    grid = np.array([(x, y) for x in np.linspace(-0.9, 0.9, 5) for y in np.linspace(-0.9, 0.9, 5)]) * board.half_side_mm
    assert _landmark_error_mm(location.homography, truth, grid) < 1.5


@pytest.mark.parametrize("seed", [2, 4, 5])
def test_a_far_carrom_board_is_found_though_its_base_circles_blur_into_spots(seed):
    from simulation.film import film_still
    from simulation.scene import SceneFrame

    # at 0.15-0.23 px/mm a base circle's ring and its coloured fill blur into one spot of 5 px radius
    board = load_board("carrom")
    image, truth = film_still(SceneFrame(0.0, ()), board=board, seed=seed, difficulty="medium", resolution=(560, 315))
    location = locate_board(image, game="carrom")
    assert location.found, location.reason
    grid = np.array([(x, y) for x in np.linspace(-0.9, 0.9, 5) for y in np.linspace(-0.9, 0.9, 5)]) * board.half_side_mm
    assert _landmark_error_mm(location.homography, truth, grid) < 1.5
