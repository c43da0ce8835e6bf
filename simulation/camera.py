"""A pinhole camera over the board: pose, focal length and radial distortion.

World coordinates are board millimetres with z up (the board plane is z = 0).
`Camera.homography()` maps board mm to *undistorted* image pixels; the image the
camera records is distorted by ``dist_coeffs`` (OpenCV's k1, k2; zero on "clean").
`Camera.project` gives the true (distorted) pixel of board points.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np


@dataclass(frozen=True)
class Camera:
    """A calibrated pinhole camera: ``x_cam = rotation @ X_world + translation``."""

    camera_matrix: np.ndarray
    rotation: np.ndarray
    translation: np.ndarray
    dist_coeffs: tuple[float, float]
    resolution: tuple[int, int]

    def homography(self) -> np.ndarray:
        """3x3 homography from board mm to undistorted image px, normalised so H[2, 2] == 1."""
        m = self.camera_matrix @ np.column_stack([self.rotation[:, 0], self.rotation[:, 1], self.translation])
        return m / m[2, 2]

    def centre_mm(self) -> np.ndarray:
        """Where the camera is, in board mm (x, y, height)."""
        return -self.rotation.T @ self.translation

    def dist_array(self) -> np.ndarray:
        return np.array([self.dist_coeffs[0], self.dist_coeffs[1], 0.0, 0.0, 0.0])

    def project(self, points_mm: np.ndarray) -> np.ndarray:
        """Image pixels (N, 2) of board points (N, 2) in mm, lens distortion included."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 2)
        obj = np.column_stack([pts, np.zeros(len(pts))])
        rvec, _ = cv2.Rodrigues(self.rotation)
        img, _ = cv2.projectPoints(obj, rvec, self.translation.reshape(3, 1), self.camera_matrix, self.dist_array())
        return img.reshape(-1, 2)

    def distortion_max_px(self, outline_mm: np.ndarray) -> float:
        """Largest gap in px between the homography and the true projection over `outline_mm`."""
        pts = np.asarray(outline_mm, np.float64).reshape(-1, 2)
        h = self.homography()
        hom = np.column_stack([pts, np.ones(len(pts))]) @ h.T
        flat = hom[:, :2] / hom[:, 2:]
        return float(np.max(np.linalg.norm(self.project(pts) - flat, axis=1)))

    def shifted(self, dx_mm: float, dy_mm: float, dz_mm: float, dyaw_deg: float = 0.0) -> Camera:
        """The camera moved by a few mm (a bump), in world axes, and turned slightly about the vertical."""
        centre = -self.rotation.T @ self.translation + np.array([dx_mm, dy_mm, dz_mm])
        rotation = self.rotation @ _rot_z(math.radians(dyaw_deg))
        return replace(self, rotation=rotation, translation=-rotation @ centre)

    def board_to_source_maps(self, source_from_board: np.ndarray, *, step_px: int = 4) -> tuple[np.ndarray, np.ndarray]:
        """Fixed-point maps for ``cv2.remap``: for each image pixel, where to sample a top-down source.

        `source_from_board` (3x3) maps board mm to source (canvas) px. Perspective and
        lens distortion are folded into one lookup; the maps are computed every
        `step_px` pixels and interpolated, which is exact to far below a pixel.
        """
        w, h = self.resolution
        gw, gh = w // step_px + 2, h // step_px + 2
        gx, gy = np.meshgrid(np.arange(gw) * step_px, np.arange(gh) * step_px)
        pix = np.stack([gx.ravel(), gy.ravel()], axis=1).astype(np.float64).reshape(-1, 1, 2)
        norm = _undistort_normalised(pix.reshape(-1, 2), self.camera_matrix, self.dist_coeffs)
        plane = np.column_stack([self.rotation[:, 0], self.rotation[:, 1], self.translation])
        to_source = source_from_board @ np.linalg.inv(plane)
        hom = np.column_stack([norm, np.ones(len(norm))]) @ to_source.T
        with np.errstate(invalid="ignore", divide="ignore"):
            src = hom[:, :2] / hom[:, 2:]
        # Rays that miss the source (behind the camera, or a lens model pushed past its range)
        # must stay outside it rather than wrap around in the fixed-point maps.
        src = np.where(np.isfinite(src) & (hom[:, 2:] > 0), src, -10.0)
        src = np.clip(src, -10.0, 30000.0).astype(np.float32)
        return _upsample_grid(src[:, 0].reshape(gh, gw), src[:, 1].reshape(gh, gw), step_px, w, h)


def _undistort_normalised(pix: np.ndarray, camera_matrix: np.ndarray, dist: tuple[float, float]) -> np.ndarray:
    """Undistorted normalised coordinates (N, 2) of distorted pixels (N, 2), radial k1, k2 only."""
    xd = (pix[:, 0] - camera_matrix[0, 2]) / camera_matrix[0, 0]
    yd = (pix[:, 1] - camera_matrix[1, 2]) / camera_matrix[1, 1]
    k1, k2 = dist
    xu, yu = xd.copy(), yd.copy()
    for _ in range(40):
        r2 = xu * xu + yu * yu
        f = np.maximum(1.0 + k1 * r2 + k2 * r2 * r2, 0.2)
        xu, yu = xd / f, yd / f
    return np.column_stack([xu, yu])


def _upsample_grid(coarse_x: np.ndarray, coarse_y: np.ndarray, step: int, w: int, h: int):
    """Bilinear upsampling of grids whose node k lies at pixel k*step, as fixed-point remap maps."""
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32) / step, np.arange(h, dtype=np.float32) / step)
    big_x = cv2.remap(coarse_x, xs, ys, cv2.INTER_LINEAR)
    big_y = cv2.remap(coarse_y, xs, ys, cv2.INTER_LINEAR)
    return cv2.convertMaps(big_x, big_y, cv2.CV_16SC2)


def _rot_x(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _rot_z(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


_LOOK_DOWN = np.diag([1.0, -1.0, -1.0])  # camera x = world x, camera y = -world y, optical axis = -z


def sample_camera(
    *, outline_mm: np.ndarray, resolution: tuple[int, int], settings: dict, rng: np.random.Generator
) -> Camera:
    """A camera above the board drawn from the difficulty `settings`.

    Tilt from vertical, rotation about the vertical, height and lens are random; the
    focal length is then chosen so the board `outline_mm` (N, 2) fills a share
    ``settings["fill"]`` of the frame in its tighter direction.
    """
    w, h = resolution
    if w < 16 or h < 16:
        raise ValueError(f"resolution must be at least 16x16, got {resolution}")
    tilt = math.radians(rng.uniform(*settings["tilt_deg"]))
    if settings["yaw_any"]:
        yaw = rng.uniform(0, 2 * math.pi)
    else:
        yaw = int(rng.integers(4)) * math.pi / 2 + math.radians(rng.uniform(-1, 1) * settings["yaw_jitter_deg"])
    tilt_dir = rng.uniform(0, 2 * math.pi)
    roll = math.radians(rng.uniform(-1.5, 1.5))
    # Tilt about an axis in the camera's x-y plane at a random direction, then a small roll.
    rotation = _rot_z(roll) @ _rot_z(tilt_dir) @ _rot_x(tilt) @ _rot_z(-tilt_dir) @ _LOOK_DOWN @ _rot_z(yaw)
    outline = np.asarray(outline_mm, np.float64).reshape(-1, 2)
    extent = float(np.max(np.abs(outline)))
    target = rng.uniform(-0.04, 0.04, size=2) * extent
    distance = rng.uniform(2.2, 3.2) * extent
    axis_world = rotation.T @ np.array([0.0, 0.0, 1.0])
    centre = np.array([target[0], target[1], 0.0]) - distance * axis_world
    translation = -rotation @ centre
    cam_pts = np.column_stack([outline, np.zeros(len(outline))]) @ rotation.T + translation
    xn = cam_pts[:, 0] / cam_pts[:, 2]
    yn = cam_pts[:, 1] / cam_pts[:, 2]
    fill = rng.uniform(*settings["fill"])
    f = min(fill * w / 2 / np.max(np.abs(xn)), fill * h / 2 / np.max(np.abs(yn)))
    k = np.array([[f, 0, (w - 1) / 2], [0, f, (h - 1) / 2], [0, 0, 1.0]])
    k1 = float(rng.uniform(-1.0, 0.3) * settings["k1"])
    k2 = float(rng.uniform(-1.0, 1.0) * settings["k2"])
    return Camera(camera_matrix=k, rotation=rotation, translation=translation, dist_coeffs=(k1, k2), resolution=(w, h))
