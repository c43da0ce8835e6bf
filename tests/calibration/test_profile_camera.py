"""Camera intrinsics from ChArUco boards rendered here and photographed by a known, distorting camera."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from calibration.intrinsics import CalibrationError, CameraIntrinsics, CharucoSpec, calibrate_camera

SIZE = (960, 720)
TRUE_MATRIX = np.array([[820.0, 0, 480.0], [0, 820.0, 360.0], [0, 0, 1]])
TRUE_DIST = np.array([-0.12, 0.03, 0.0, 0.0, 0.0])


def _rotation(rx: float, ry: float, rz: float) -> np.ndarray:
    r, _ = cv2.Rodrigues(np.array([math.radians(rx), math.radians(ry), math.radians(rz)]))
    return r


def _photograph(
    spec: CharucoSpec, rx: float, ry: float, rz: float, distance_mm: float, dx_mm: float = 0.0, dy_mm: float = 0.0
) -> np.ndarray:
    """The printed board seen by the true camera (pinhole, then radial distortion), on a grey desk."""
    px_per_mm = 4.0
    width_mm, height_mm = spec.squares_x * spec.square_mm, spec.squares_y * spec.square_mm
    board_image = spec.board().generateImage((int(width_mm * px_per_mm), int(height_mm * px_per_mm)))
    # the board plane, centred in front of the camera, rotated
    r = _rotation(rx, ry, rz)
    t = np.array([dx_mm, dy_mm, distance_mm]) - r @ np.array([width_mm / 2, height_mm / 2, 0.0])
    # every output pixel: undistort, cast onto the board plane, look up the printed image
    u, v = np.meshgrid(np.arange(SIZE[0], dtype=np.float32), np.arange(SIZE[1], dtype=np.float32))
    pts = np.stack([u.ravel(), v.ravel()], 1).reshape(-1, 1, 2)
    rays = cv2.undistortPoints(pts, TRUE_MATRIX, TRUE_DIST).reshape(-1, 2)
    rays = np.concatenate([rays, np.ones((len(rays), 1))], 1)
    normal = r[:, 2]
    depth = (normal @ t) / (rays @ normal)
    world = rays * depth[:, None]
    local = (world - t) @ r  # board coordinates in mm
    map_x = (local[:, 0] * px_per_mm).reshape(SIZE[1], SIZE[0]).astype(np.float32)
    map_y = (local[:, 1] * px_per_mm).reshape(SIZE[1], SIZE[0]).astype(np.float32)
    return cv2.remap(board_image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=128)


@pytest.fixture(scope="module")
def views() -> list[np.ndarray]:
    spec = CharucoSpec()
    # close enough, and off-centre, that the board reaches the image corners where the lens distorts most
    poses = [
        (0, 0, 0, 330, 0, 0), (20, 0, 5, 340, 60, 40), (-20, 10, -5, 340, -60, -40), (0, 20, 10, 330, 60, -40),
        (15, -20, 0, 350, -60, 40), (-15, -15, 15, 340, 0, 50), (10, 15, -10, 340, 0, -50),
    ]
    return [_photograph(spec, *pose) for pose in poses]


def test_recovers_the_known_camera(views, tmp_path):
    intrinsics = calibrate_camera(views)
    assert intrinsics.views == len(views)
    assert intrinsics.rms_px < 0.5
    assert intrinsics.camera_matrix[0, 0] == pytest.approx(820, rel=0.02)
    assert intrinsics.camera_matrix[:2, 2] == pytest.approx([480, 360], abs=8)
    assert intrinsics.dist_coeffs[0] == pytest.approx(-0.12, abs=0.06)
    # and undoes the distortion of a point well off-centre to within a pixel
    ideal = np.array([[150.0, 120.0]])
    normalised = (ideal - TRUE_MATRIX[:2, 2]) / 820.0
    distorted, _ = cv2.projectPoints(np.array([[normalised[0, 0], normalised[0, 1], 1.0]]), np.zeros(3), np.zeros(3), TRUE_MATRIX, TRUE_DIST)
    assert intrinsics.undistort_points(distorted.reshape(-1, 2)) == pytest.approx(ideal, abs=1.0)
    path = tmp_path / "camera.json"
    intrinsics.save(path)
    loaded = CameraIntrinsics.load(path)
    assert np.allclose(loaded.camera_matrix, intrinsics.camera_matrix)


def test_too_few_views_are_refused(views):
    blank = np.full((SIZE[1], SIZE[0], 3), 128, np.uint8)
    with pytest.raises(CalibrationError, match="found in 1 of 3"):
        calibrate_camera([views[0], blank, blank])
    with pytest.raises(CalibrationError, match="differ in size"):
        calibrate_camera([views[0], blank[:100]])


def test_bad_specs_are_refused():
    with pytest.raises(ValueError, match="smaller than square_mm"):
        CharucoSpec(marker_mm=50.0)
    with pytest.raises(ValueError, match="dictionary"):
        CharucoSpec(dictionary="DICT_NOPE")
