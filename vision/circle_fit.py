"""Homography from points on known concentric circles (and optional known points).

Concentric circles alone fix the homography up to a rotation about their centre;
that rotation is held where it starts (a gauge term) unless point landmarks such
as crokinole pegs pin it.
"""

from __future__ import annotations

import numpy as np

from vision.primitive_fit import robust_refine


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
    circle_px = np.asarray(circle_px, np.float64).reshape(-1, 2)
    has_points = point_px is not None and len(point_px) > 0
    point_px = np.asarray(point_px, np.float64).reshape(-1, 2) if has_points else np.zeros((0, 2))
    target = np.asarray(point_mm, np.float64).reshape(-1, 2) if has_points else np.zeros((0, 2))
    n, m = len(circle_px), len(point_px)
    owner = np.concatenate([np.arange(n), np.arange(n, n + m), np.arange(n, n + m)])
    point_grad = np.concatenate([np.tile([1.0, 0.0], (m, 1)), np.tile([0.0, 1.0], (m, 1))])

    def residual_fn(points_mm: np.ndarray):
        on_circle, at_point = points_mm[:n], points_mm[n:]
        radius = np.maximum(np.linalg.norm(on_circle, axis=1), 1e-9)
        offset = at_point - target
        residual = np.concatenate([radius - circle_radius_mm, offset[:, 0], offset[:, 1]])
        grad = np.concatenate([on_circle / radius[:, None], point_grad])
        return residual, owner, grad

    refined, residual = robust_refine(
        homography, np.concatenate([circle_px, point_px]), residual_fn, length_mm=length_mm,
        loss_scale_mm=loss_scale_mm, hold_rotation=hold_rotation,
    )
    return refined, residual[:n], np.hypot(residual[n : n + m], residual[n + m :])
