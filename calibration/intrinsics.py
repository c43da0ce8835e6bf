"""Camera intrinsics and lens distortion from photos of a ChArUco board (OpenCV's ArUco module)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np


_MAPS: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
"""Undistortion remap tables by camera and frame size (a video's frames share one)."""


class CalibrationError(ValueError):
    """The images do not allow a camera calibration (too few views of the board)."""


@dataclass(frozen=True)
class CharucoSpec:
    """The printed ChArUco board: squares across and down, their size, and the marker dictionary."""

    squares_x: int = 7
    squares_y: int = 5
    square_mm: float = 40.0
    marker_mm: float = 30.0
    dictionary: str = "DICT_5X5_100"

    def __post_init__(self) -> None:
        if self.squares_x < 3 or self.squares_y < 3:
            raise ValueError("a ChArUco board needs at least 3x3 squares")
        if not 0 < self.marker_mm < self.square_mm:
            raise ValueError("marker_mm must be positive and smaller than square_mm")
        if not hasattr(cv2.aruco, self.dictionary):
            raise ValueError(f"unknown ArUco dictionary {self.dictionary!r}")

    def board(self) -> cv2.aruco.CharucoBoard:
        dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, self.dictionary))
        return cv2.aruco.CharucoBoard((self.squares_x, self.squares_y), self.square_mm, self.marker_mm, dictionary)


@dataclass(frozen=True)
class CameraIntrinsics:
    """A calibrated camera.

    Attributes
    ----------
    camera_matrix : (3, 3) ndarray, pixels
    dist_coeffs : (k,) ndarray, OpenCV order (k1, k2, p1, p2, k3)
    image_size : (width, height) in pixels
    rms_px : RMS reprojection error of the calibration
    views : number of images used
    """

    camera_matrix: np.ndarray
    dist_coeffs: np.ndarray
    image_size: tuple[int, int]
    rms_px: float
    views: int

    def to_json(self) -> dict:
        return {
            "camera_matrix": np.asarray(self.camera_matrix).tolist(),
            "dist_coeffs": np.asarray(self.dist_coeffs).ravel().tolist(),
            "image_size": list(self.image_size),
            "rms_px": float(self.rms_px),
            "views": int(self.views),
        }

    @classmethod
    def from_json(cls, data: dict) -> "CameraIntrinsics":
        try:
            matrix = np.array(data["camera_matrix"], np.float64)
            dist = np.array(data["dist_coeffs"], np.float64)
            size = tuple(int(v) for v in data["image_size"])
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"camera file: missing or malformed field ({error})") from None
        if matrix.shape != (3, 3) or len(size) != 2:
            raise ValueError("camera file: camera_matrix must be 3x3 and image_size [width, height]")
        return cls(matrix, dist, size, float(data.get("rms_px", 0.0)), int(data.get("views", 0)))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=2) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> "CameraIntrinsics":
        try:
            return cls.from_json(json.loads(Path(path).read_text()))
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}: not JSON ({error})") from None

    def for_size(self, size: tuple[int, int]) -> "CameraIntrinsics":
        """The same camera for frames resized to ``size`` (width, height): its matrix scaled to match."""
        sx, sy = size[0] / self.image_size[0], size[1] / self.image_size[1]
        matrix = np.diag([sx, sy, 1.0]) @ np.asarray(self.camera_matrix, np.float64)
        return CameraIntrinsics(matrix, np.asarray(self.dist_coeffs, np.float64), (int(size[0]), int(size[1])), self.rms_px, self.views)

    def undistort_image(self, image: np.ndarray) -> np.ndarray:
        """The frame as an ideal pinhole camera with the same matrix would see it (any frame size:
        the matrix is scaled to it); the remap tables are built once per camera and size."""
        height, width = image.shape[:2]
        key = (np.asarray(self.camera_matrix, np.float64).tobytes(), np.asarray(self.dist_coeffs, np.float64).tobytes(),
               tuple(self.image_size), (width, height))
        if key not in _MAPS:
            camera = self.for_size((width, height))
            if len(_MAPS) >= 8:
                _MAPS.pop(next(iter(_MAPS)))
            _MAPS[key] = cv2.initUndistortRectifyMap(
                camera.camera_matrix, camera.dist_coeffs, None, camera.camera_matrix, (width, height), cv2.CV_16SC2
            )
        map_xy, map_fraction = _MAPS[key]
        return cv2.remap(image, map_xy, map_fraction, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def undistort_points(self, points_px: np.ndarray) -> np.ndarray:
        """Map distorted image pixels to the pixels of an ideal pinhole camera with the same matrix."""
        pts = np.asarray(points_px, np.float64).reshape(-1, 1, 2)
        return cv2.undistortPoints(pts, self.camera_matrix, self.dist_coeffs, P=self.camera_matrix).reshape(-1, 2)


def detect_charuco(image: np.ndarray, *, spec: CharucoSpec) -> tuple[np.ndarray, np.ndarray]:
    """ChArUco corners in one image.

    Returns
    -------
    object_mm : (n, 3) board-plane corner positions
    image_px : (n, 2) their detected image positions (n may be 0)
    """
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    board = spec.board()
    corners, ids, _, _ = cv2.aruco.CharucoDetector(board).detectBoard(gray)
    if corners is None or ids is None or len(corners) < 4:
        return np.zeros((0, 3)), np.zeros((0, 2))
    object_pts, image_pts = board.matchImagePoints(corners, ids)
    return object_pts.reshape(-1, 3), image_pts.reshape(-1, 2)


def calibrate_camera(images: list[np.ndarray], *, spec: CharucoSpec = CharucoSpec(), min_corners: int = 6) -> CameraIntrinsics:
    """Camera matrix and distortion from several views of a ChArUco board.

    Parameters
    ----------
    images : list of (H, W, 3) or (H, W) uint8 ndarray, all the same size
        Views of the board from different angles (at least 3 usable).
    spec : CharucoSpec
    min_corners : int
        Views with fewer detected corners are skipped.

    Raises
    ------
    CalibrationError
        Fewer than 3 usable views, or images of different sizes.
    """
    if not images:
        raise CalibrationError("no images given")
    sizes = {im.shape[:2] for im in images}
    if len(sizes) != 1:
        raise CalibrationError(f"images differ in size: {sorted(sizes)}")
    object_points, image_points = [], []
    for image in images:
        obj, img = detect_charuco(image, spec=spec)
        if len(obj) >= min_corners:
            object_points.append(obj.astype(np.float32))
            image_points.append(img.astype(np.float32))
    if len(object_points) < 3:
        raise CalibrationError(
            f"the ChArUco board was found in {len(object_points)} of {len(images)} images; at least 3 are needed"
        )
    height, width = next(iter(sizes))
    rms, matrix, dist, _, _ = cv2.calibrateCamera(object_points, image_points, (width, height), None, None)
    return CameraIntrinsics(matrix, dist.ravel(), (width, height), float(rms), len(object_points))
