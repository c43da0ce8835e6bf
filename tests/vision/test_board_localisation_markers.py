"""Frame markers: a board with ArUco markers pasted on its frame corners is placed by them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.geometry import load_board
from calibration.markers import frame_markers, marker_image
from simulation.film import film_still
from simulation.scene import SceneFrame
from vision.homography import image_to_board, project
from vision.localise import locate_board


def _paste_markers(image: np.ndarray, homography: np.ndarray, board, ids) -> np.ndarray:
    """The image with the layout's markers (and a white margin a sixth of their side) drawn flat on the board plane."""
    layout = frame_markers(board)
    side_px, margin_px = 120, 20
    out = image.copy()
    for marker_id in ids:
        printed = cv2.copyMakeBorder(marker_image(layout, marker_id, side_px=side_px), *(4 * [margin_px]),
                                     cv2.BORDER_CONSTANT, value=255)
        corners_mm = layout.corners_mm(marker_id)
        grow = margin_px / side_px * (corners_mm - corners_mm.mean(axis=0)) * 2
        full = side_px + 2 * margin_px
        # pixel centres at integers: the printed square's outline runs along the half-pixel lines
        edge = np.float32([[0, 0], [full, 0], [full, full], [0, full]]) - 0.5
        to_board = cv2.getPerspectiveTransform(edge, (corners_mm + grow).astype(np.float32))
        to_image = homography @ to_board
        size = (image.shape[1], image.shape[0])
        warped = cv2.warpPerspective(cv2.cvtColor(printed, cv2.COLOR_GRAY2BGR), to_image, size, flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full(printed.shape, 255, np.uint8), to_image, size) > 127
        out[mask] = warped[mask]
    return out


def _tilted_view(width: int, height: int, board) -> np.ndarray:
    """A board mm -> px homography: the board turned 20 degrees, foreshortened, off the image centre."""
    half = board.half_side_mm + board.frame_width_mm
    corners_mm = np.float32([[-half, -half], [half, -half], [half, half], [-half, half]])
    corners_px = np.float32([[300, 660], [930, 610], [1000, 90], [360, 40]])
    return cv2.getPerspectiveTransform(corners_mm, corners_px)


def _board_error_mm(found: np.ndarray, truth: np.ndarray, board) -> float:
    grid = np.array([(x, y) for x in (-0.8, 0, 0.8) for y in (-0.8, 0, 0.8)]) * board.half_side_mm
    return float(np.linalg.norm(image_to_board(found, project(truth, grid)) - grid, axis=1).max())


@pytest.fixture(scope="module")
def rendered_carrom():
    board = load_board("carrom")
    image, truth = film_still(SceneFrame(0.0, ()), board=board, seed=7, difficulty="clean", resolution=(1280, 720))
    return board, image, truth


@pytest.mark.parametrize("ids", [(0, 1, 2, 3), (1, 2)])
def test_a_rendered_board_with_frame_markers_is_found_in_their_orientation(rendered_carrom, ids):
    board, image, truth = rendered_carrom
    location = locate_board(_paste_markers(image, truth, board, ids), game="carrom", models=["icf"])
    assert location.found, location.reason
    # refined on the printed lines, and no quarter-turn ambiguity: the markers say where south is
    assert not location.landmarks.names[0].startswith("marker")
    assert _board_error_mm(location.homography, truth, board) < 1.0


def test_all_four_markers_alone_place_the_board():
    board = load_board("couronne")
    truth = _tilted_view(1280, 720, board)
    blank = np.full((720, 1280, 3), 90, np.uint8)
    location = locate_board(_paste_markers(blank, truth, board, (0, 1, 2, 3)), game="couronne", models=["micki"])
    assert location.found
    assert all(name.startswith("marker") for name in location.landmarks.names)
    assert _board_error_mm(location.homography, truth, board) < 1.0


@pytest.mark.parametrize("ids", [(2,), (1, 3)])
def test_a_few_markers_without_a_board_are_not_enough(ids):
    board = load_board("couronne")
    truth = _tilted_view(1280, 720, board)
    blank = np.full((720, 1280, 3), 90, np.uint8)
    location = locate_board(_paste_markers(blank, truth, board, ids), game="couronne", models=["micki"])
    assert not location.found
