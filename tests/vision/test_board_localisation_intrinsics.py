"""Camera intrinsics: a frame through a distorting lens is located exactly once undistorted."""

from __future__ import annotations

import numpy as np

from calibration.geometry import load_board
from calibration.intrinsics import CameraIntrinsics
from simulation.film import camera_report, film_still
from simulation.scene import SceneFrame
from vision.homography import image_to_board, project
from vision.localise import locate_board


def _board_error_mm(found: np.ndarray, truth: np.ndarray, board) -> float:
    """Largest board-mm error over a grid across the surface, over the board's quarter turns
    (the renderer's homography is for the undistorted frame)."""
    grid = np.array([(x, y) for x in np.linspace(-0.9, 0.9, 7) for y in np.linspace(-0.9, 0.9, 7)]) * board.half_side_mm
    turns = [np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]]) for a in np.arange(4) * np.pi / 2]
    return min(float(np.linalg.norm(image_to_board(found @ t, project(truth, grid)) - grid, axis=1).max()) for t in turns)


def test_intrinsics_undo_the_lens_before_the_fit():
    board = load_board("carrom")
    seed, difficulty, size = 11, "medium", (1280, 720)  # about 6 px of barrel distortion at the frame
    image, truth = film_still(SceneFrame(0.0, ()), board=board, seed=seed, difficulty=difficulty, resolution=size)
    report = camera_report(board=board, seed=seed, difficulty=difficulty, resolution=size)
    camera = CameraIntrinsics(np.array(report["camera_matrix"]), np.array([*report["dist_coeffs"], 0.0, 0.0, 0.0]), size, 0.0, 0)

    plain = locate_board(image, game="carrom", models=["icf"])
    corrected = locate_board(image, game="carrom", models=["icf"], intrinsics=camera)
    assert plain.found and corrected.found
    assert corrected.lens_corrected and corrected.to_json()["lens_corrected"]
    assert _board_error_mm(corrected.homography, truth, board) < 1.0
    assert _board_error_mm(corrected.homography, truth, board) < 0.5 * _board_error_mm(plain.homography, truth, board)


def test_undistorting_a_smaller_copy_scales_the_camera():
    camera = CameraIntrinsics(np.array([[1000.0, 0, 960], [0, 1000.0, 540], [0, 0, 1]]), np.array([-0.05, 0, 0, 0, 0]),
                              (1920, 1080), 0.0, 0)
    half = camera.for_size((960, 540))
    assert np.allclose(half.camera_matrix, [[500.0, 0, 480], [0, 500.0, 270], [0, 0, 1]])
    # a point near the corner moves outwards when undistorted (barrel), by the same share at either size
    full_shift = camera.undistort_points(np.array([[1800.0, 1000.0]]))[0] - [1800.0, 1000.0]
    half_shift = half.undistort_points(np.array([[900.0, 500.0]]))[0] - [900.0, 500.0]
    assert np.all(np.sign(full_shift) == [1, 1])
    assert np.allclose(half_shift, full_shift / 2, atol=0.05)
