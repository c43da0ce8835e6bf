"""Parallax of a piece's top face: seen from a camera at height H, a face h above the board appears
pushed away from the point under the camera by the factor H / (H - h).

The homography only describes the board plane; the camera's position is
recovered from it (principal point at the image centre, square pixels). A
camera looking straight down leaves its focal length undetermined by the
plane, so then a typical lens (horizontal field of view about 60 degrees) is
assumed; the correction is about 1 % of a piece's distance from the point
under the camera, so the assumption costs a fraction of a millimetre.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

TYPICAL_FOCAL_PER_WIDTH = 0.87
"""Focal length in units of the image width assumed when the view is too frontal to measure it (about 60 degrees)."""

MEASURED_FOCAL_PER_WIDTH = (0.2, 5.0)
"""Range of a measured focal length, in image widths, that a real lens can have (a wide-angle webcam lens of 130
degrees to a long lens); outside it the measurement is the noise of a frontal view. Synthetic wide lenses measure
0.25 to 0.3 widths, rightly (a typical lens assumed there moved their pieces by 5 mm)."""


@dataclass(frozen=True)
class CameraAbove:
    """Where the camera is over the board: the board point under it (mm) and its height (mm)."""

    nadir_mm: np.ndarray
    height_mm: float

    def correct(self, points_mm: np.ndarray, *, face_height_mm: float) -> np.ndarray:
        """Board positions (n, 2) of pieces whose top faces were measured at `points_mm`."""
        p = np.asarray(points_mm, np.float64).reshape(-1, 2)
        if not np.isfinite(self.height_mm) or self.height_mm <= 2 * face_height_mm:
            return p
        return self.nadir_mm + (p - self.nadir_mm) * (self.height_mm - face_height_mm) / self.height_mm


def _focal_px(h: np.ndarray) -> float | None:
    """Focal length from the orthogonality of the board axes (None when the view is too frontal)."""
    a1, b1, c1 = h[:, 0]
    a2, b2, c2 = h[:, 1]
    if abs(c1 * c2) > 1e-12:
        f2 = -(a1 * a2 + b1 * b2) / (c1 * c2)
        if f2 > 0:
            return float(np.sqrt(f2))
    if abs(c2 * c2 - c1 * c1) > 1e-12:
        f2 = (a1 * a1 + b1 * b1 - a2 * a2 - b2 * b2) / (c2 * c2 - c1 * c1)
        if f2 > 0:
            return float(np.sqrt(f2))
    return None


def camera_above(homography: np.ndarray, *, image_size: tuple[int, int]) -> CameraAbove:
    """The camera's nadir and height from a board homography (board mm -> image px).

    Parameters
    ----------
    homography : (3, 3) ndarray
    image_size : (width, height) of the image in px

    Returns
    -------
    CameraAbove

    Examples
    --------
    >>> camera_above(h, image_size=(1920, 1080)).height_mm  # doctest: +SKIP
    1050.2
    """
    width, height = image_size
    centre = np.array([(width - 1) / 2, (height - 1) / 2])
    shift = np.array([[1, 0, -centre[0]], [0, 1, -centre[1]], [0, 0, 1.0]])
    h = shift @ np.asarray(homography, np.float64)
    focal = _focal_px(h)
    # A focal length far from any real lens means the view was too frontal to measure it.
    if focal is None or not MEASURED_FOCAL_PER_WIDTH[0] * width < focal < MEASURED_FOCAL_PER_WIDTH[1] * width:
        focal = TYPICAL_FOCAL_PER_WIDTH * width
    m = np.diag([1 / focal, 1 / focal, 1.0]) @ h
    scale = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    r1, r2, t = m[:, 0] * scale, m[:, 1] * scale, m[:, 2] * scale
    rotation = np.column_stack([r1, r2, np.cross(r1, r2)])
    u, _, vt = np.linalg.svd(rotation)
    rotation = u @ vt
    centre_mm = -rotation.T @ t
    return CameraAbove(nadir_mm=centre_mm[:2].copy(), height_mm=float(abs(centre_mm[2])))
