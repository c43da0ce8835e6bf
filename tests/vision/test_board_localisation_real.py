"""Board localisation on real photos (read from ../shared/realdata, never copied here).

The fit is judged against the photo itself, not against itself: the printed lines
must be darker exactly where the fitted model puts them than a few millimetres
to either side.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.geometry import load_board
from vision.board_primitives import sample_primitives, square_primitives
from vision.frames import load_image
from vision.homography import project
from vision.line_features import dark_line_response, sample
from vision.localise import locate_board
from vision.localise_crokinole import QUADRANT_LINE_ANGLES_DEG

REALDATA = Path(__file__).resolve().parents[3] / "shared" / "realdata"
pytestmark = pytest.mark.skipif(not REALDATA.is_dir(), reason=f"real photos not available at {REALDATA}")

CROKINOLE = ["sam_board_2025/sam_board1.jpg", "sam_board_2025/sam_board5.jpg", "sam_board_2025_earlier/sam_board3.jpg"]
CARROM = ["a1.jpg", "cap2.jpg", "carrom.jpg"]


def _contrast_on_model(image: np.ndarray, homography: np.ndarray, points_mm: np.ndarray, normals_mm: np.ndarray) -> float:
    """Median line response on the projected model points over that 4 mm to either side."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    response = dark_line_response(gray, width_px=9)
    on = sample(response, project(homography, points_mm).astype(np.float32))
    beside = [sample(response, project(homography, points_mm + s * normals_mm).astype(np.float32)) for s in (-4.0, 4.0)]
    return float(np.median(on) / max(np.median(np.concatenate(beside)), 1e-3))


@pytest.mark.parametrize("name", CROKINOLE)
def test_crokinole_lines_land_on_the_printed_lines(name):
    image = load_image(REALDATA / "crokinole" / name, max_side_px=1600)
    board = load_board("crokinole", "octagon_club")
    location = locate_board(image, game="crokinole", models=["octagon_club"])
    assert location.found, location.reason
    assert location.error_mm < 0.6
    t = np.linspace(0, 2 * math.pi, 720, endpoint=False)
    unit = np.stack([np.cos(t), np.sin(t)], 1)
    for radius in board.line_radii_mm().values():
        assert _contrast_on_model(image, location.homography, unit * radius, unit) > 2.0
    # the board is seen from above: the south seat towards the bottom of the photo (or a side, never the top)
    centre, south = project(location.homography, np.array([[0.0, 0.0], [0.0, -100.0]]))
    assert south[1] - centre[1] > -1e-6 or abs(south[0] - centre[0]) > 0.5 * np.linalg.norm(south - centre)


@pytest.mark.parametrize("name", CARROM)
def test_carrom_lines_land_on_the_printed_lines(name):
    image = load_image(REALDATA / "carrom" / "webcam_surco" / name)
    board = load_board("carrom", "icf")
    location = locate_board(image, game="carrom", models=["icf"])
    assert location.found, location.reason
    assert location.error_mm < 1.5
    points, normals, index = sample_primitives(square_primitives(board), spacing_mm=3.0)
    lines = np.array([not square_primitives(board)[i].is_circle for i in index])
    assert _contrast_on_model(image, location.homography, points[lines], normals[lines]) > 2.0
    # the photos are square to the camera: the board's x axis runs along the image rows, south at the bottom
    centre, east, south = project(location.homography, np.array([[0.0, 0.0], [100.0, 0.0], [0.0, -100.0]]))
    assert abs(math.degrees(math.atan2(east[1] - centre[1], east[0] - centre[0]))) < 5
    assert south[1] > centre[1]


@pytest.mark.parametrize("name", CROKINOLE)
def test_the_board_is_turned_onto_its_printed_quadrant_lines(name):
    # the pegs' heads stand off their feet (parallax): a fit they pull turns up to a degree off the
    # quadrant lines, and a degree is 4 mm at their outer end, well off a 1.5 mm line
    image = load_image(REALDATA / "crokinole" / name, max_side_px=1600)
    board = load_board("crokinole", "octagon_club")
    location = locate_board(image, game="crokinole", models=["octagon_club"])
    radii = board.line_radii_mm()
    along = np.linspace(radii[10] + 10.0, radii[5] - 10.0, 40)
    contrasts = []
    for k in range(4):
        angle = math.radians(QUADRANT_LINE_ANGLES_DEG[0] + 90.0 * k)
        direction = np.array([[math.cos(angle), math.sin(angle)]])
        normal = np.array([[-math.sin(angle), math.cos(angle)]])
        contrasts.append(_contrast_on_model(image, location.homography, along[:, None] * direction, np.repeat(normal, len(along), 0)))
    # discs lie on some of them (two on sam_board5)
    assert sorted(contrasts)[2] > 2.0, contrasts


@pytest.mark.parametrize("max_side_px", [1100, 1200, 1600, 2048])
@pytest.mark.parametrize("name", ["sam_board_2025_earlier/sam_board1.jpg", "sam_board_2025_earlier/sam_board10.jpg"])
def test_a_crokinole_photo_is_found_at_any_working_size(name, max_side_px):
    # these oblique crops put the lines' ellipses on visibly different centres: the coarse vote
    # lands among them, a different place at each size, and must still lead to the board
    image = load_image(REALDATA / "crokinole" / name, max_side_px=max_side_px)
    location = locate_board(image, game="crokinole")
    assert location.found, location.reason
    assert location.model == "octagon_club"
    assert location.error_mm < 0.6


def test_the_measured_club_model_is_chosen_for_the_octagonal_board():
    image = load_image(REALDATA / "crokinole" / "sam_board_2025" / "sam_board2.jpg", max_side_px=1600)
    location = locate_board(image, game="crokinole")
    assert location.found and location.model == "octagon_club"


def test_a_crokinole_photo_is_no_carrom_board():
    image = load_image(REALDATA / "crokinole" / "sam_board_2025" / "sam_board3.jpg", max_side_px=1024)
    assert not locate_board(image, game="carrom").found


def test_half_a_board_is_a_clear_answer():
    image = load_image(REALDATA / "crokinole" / "sam_board_2025" / "sam_board1.jpg", max_side_px=1200)
    half = np.ascontiguousarray(image[:, : int(image.shape[1] * 0.4)])
    location = locate_board(half, game="crokinole", models=["octagon_club"])
    assert not location.found
    assert location.reason
