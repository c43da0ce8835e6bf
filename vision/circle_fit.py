"""Homography from points on known concentric circles (and optional known points).

Concentric circles alone fix the homography up to a rotation about their centre;
that rotation is held where it starts (a gauge term) unless point landmarks such
as crokinole pegs pin it.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import least_squares

from vision.homography import image_to_board, normalised

_GAUGE_WEIGHT = 50.0


def _local_matrix(params: np.ndarray, length_mm: float) -> np.ndarray:
    """The correction M applied on the board side: H = H0 @ M, near identity for small params."""
    a, b, c, d, e, f, g, h = params
    return np.array(
        [
            [1 + a, b, c * length_mm],
            [d, 1 + e, f * length_mm],
            [g / length_mm, h / length_mm, 1.0],
        ]
    )


def _apply_inverse(m: np.ndarray, points: np.ndarray) -> np.ndarray:
    inv = np.linalg.inv(m)
    xyw = points @ inv[:, :2].T + inv[:, 2]
    return xyw[:, :2] / xyw[:, 2:3]


def refine_on_circles(
    homography: np.ndarray,
    circle_px: np.ndarray,
    circle_radius_mm: np.ndarray,
    *,
    point_px: np.ndarray | None = None,
    point_mm: np.ndarray | None = None,
    hold_rotation: bool = True,
    loss_scale_mm: float = 1.0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Refine a board-mm -> image-px homography so image points lie on their circles.

    Parameters
    ----------
    homography : (3, 3) ndarray
        Starting estimate.
    circle_px : (n, 2) ndarray
        Image points, each on the circle of radius ``circle_radius_mm[i]`` about the board centre.
    circle_radius_mm : (n,) ndarray
    point_px, point_mm : (m, 2) ndarray, optional
        Image points with a known board position (e.g. pegs).
    hold_rotation : bool
        Keep the rotation about the centre fixed (needed when no points pin it).
    loss_scale_mm : float
        Residuals beyond this count less (soft L1), so a stray point does not pull the fit.

    Returns
    -------
    homography : (3, 3) ndarray
    circle_residual_mm : (n,) ndarray, signed radial error of each circle point
    point_residual_mm : (m,) ndarray, distance error of each known point
    """
    length_mm = float(np.max(circle_radius_mm))
    q_circle = image_to_board(homography, circle_px)
    has_points = point_px is not None and len(point_px) > 0
    q_point = image_to_board(homography, point_px) if has_points else np.zeros((0, 2))
    target_point = np.asarray(point_mm, np.float64).reshape(-1, 2) if has_points else np.zeros((0, 2))

    def residuals(params: np.ndarray) -> np.ndarray:
        m = _local_matrix(params, length_mm)
        on_circle = np.linalg.norm(_apply_inverse(m, q_circle), axis=1) - circle_radius_mm
        parts = [on_circle]
        if has_points:
            parts.append((_apply_inverse(m, q_point) - target_point).ravel())
        if hold_rotation:
            parts.append(np.array([_GAUGE_WEIGHT * (params[1] - params[3])]))
        return np.concatenate(parts)

    result = least_squares(residuals, np.zeros(8), loss="soft_l1", f_scale=loss_scale_mm, method="trf", x_scale=1.0)
    m = _local_matrix(result.x, length_mm)
    refined = normalised(np.asarray(homography, np.float64) @ m)
    circle_residual = np.linalg.norm(_apply_inverse(m, q_circle), axis=1) - circle_radius_mm
    point_residual = (
        np.linalg.norm(_apply_inverse(m, q_point) - target_point, axis=1) if has_points else np.zeros(0)
    )
    return refined, circle_residual, point_residual
