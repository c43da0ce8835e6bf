"""Homography refinement from image points known to lie on board primitives (lines, circles, points).

The fit is robust Gauss-Newton with an analytic Jacobian: a correction ``N``
(a homography near the identity, on the board side) moves each point's board
position ``q`` (the image point mapped back through the current homography) onto
its primitive; residuals are distances in board millimetres, soft-L1 weighted
(iteratively reweighted), so a stray point does not pull the fit. A few hundred
points take well under a millisecond per iteration.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.board_primitives import Primitive, PrimitiveDistance
from vision.homography import image_to_board, normalised

def _point_jacobian(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Derivatives of the corrected points ``N x`` (at N = identity) with respect to N's 8 parameters.

    Returns dx/dparams and dy/dparams, each (n, 8), for parameters
    ``N = [[1+a, b, c], [d, 1+e, f], [g, h, 1]]``.
    """
    n = len(x)
    zeros, ones = np.zeros(n), np.ones(n)
    px, py = x[:, 0], x[:, 1]
    dx = np.stack([px, py, ones, zeros, zeros, zeros, -px * px, -px * py], 1)
    dy = np.stack([zeros, zeros, zeros, px, py, ones, -py * px, -py * py], 1)
    return dx, dy


def _correction(params: np.ndarray) -> np.ndarray:
    a, b, c, d, e, f, g, h = params
    return np.array([[1 + a, b, c], [d, 1 + e, f], [g, h, 1.0]])


def _apply(m: np.ndarray, points: np.ndarray) -> np.ndarray:
    xyw = points @ m[:, :2].T + m[:, 2]
    return xyw[:, :2] / xyw[:, 2:3]


def robust_refine(
    homography: np.ndarray,
    found_px: np.ndarray,
    residual_fn: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]],
    *,
    length_mm: float,
    loss_scale_mm: float = 1.0,
    hold_rotation: bool = False,
    iterations: int = 8,
) -> tuple[np.ndarray, np.ndarray]:
    """Refine a board-mm -> image-px homography by robust Gauss-Newton.

    Parameters
    ----------
    homography : (3, 3) ndarray
    found_px : (n, 2) ndarray
        Image points.
    residual_fn : callable
        ``residual_fn(points_mm) -> (residual_mm, owner, grad)``: for the board
        positions (n, 2) of the points, m residuals in mm, the point each residual
        depends on (m,) and its derivatives with respect to that point's x and y (m, 2).
    length_mm : float
        Board size scale used to condition the parameters (e.g. the half side).
    loss_scale_mm : float
        Soft-L1 scale: residuals beyond it count less.
    hold_rotation : bool
        Keep the rotation about the board centre where it starts (concentric circles
        alone do not fix it).

    Returns
    -------
    homography : (3, 3) ndarray
    residual_mm : (m,) ndarray, the final residuals
    """
    scale = np.diag([1 / length_mm, 1 / length_mm, 1.0])
    q = image_to_board(homography, found_px) / length_mm
    total = np.eye(3)
    residual, owner, grad = residual_fn(q * length_mm)
    for _ in range(iterations):
        weights = 1.0 / np.sqrt(1.0 + (residual / loss_scale_mm) ** 2)
        dx, dy = _point_jacobian(q)
        jac = length_mm * (grad[:, 0:1] * dx[owner] + grad[:, 1:2] * dy[owner])
        normal = jac.T @ (weights[:, None] * jac)
        rhs = -jac.T @ (weights * residual)
        if hold_rotation:
            gauge = np.zeros(8)
            gauge[1], gauge[3] = 1.0, -1.0
            normal += 1e4 * np.outer(gauge, gauge)
        normal += 1e-9 * np.trace(normal) * np.eye(8)
        step = np.linalg.solve(normal, rhs)
        cost = _robust_cost(residual, loss_scale_mm)
        for _ in range(6):
            trial_q = _apply(_correction(step), q)
            trial = residual_fn(trial_q * length_mm)
            if _robust_cost(trial[0], loss_scale_mm) <= cost:
                break
            step = step / 2
        else:
            break
        q = trial_q
        residual, owner, grad = trial
        total = _correction(step) @ total
        if np.abs(step).max() < 1e-5:
            break
    correction = np.linalg.inv(scale) @ total @ scale
    return normalised(np.asarray(homography, np.float64) @ np.linalg.inv(correction)), residual


def _robust_cost(residual: np.ndarray, loss_scale_mm: float) -> float:
    z = (residual / loss_scale_mm) ** 2
    return float(np.sum(np.sqrt(1.0 + z) - 1.0))


def refine_on_primitives(
    homography: np.ndarray,
    found_px: np.ndarray,
    prims: list[Primitive],
    index: np.ndarray,
    *,
    length_mm: float,
    loss_scale_mm: float = 1.0,
) -> tuple[np.ndarray, np.ndarray]:
    """Refine a board-mm -> image-px homography so each image point lies on its primitive.

    Parameters
    ----------
    homography, found_px, length_mm, loss_scale_mm
        As for `robust_refine`.
    prims : list of Primitive
    index : (n,) int ndarray
        The primitive each image point lies on.

    Returns
    -------
    homography : (3, 3) ndarray
    residual_mm : (n,) ndarray, signed distance of each point from its primitive
    """
    distance = PrimitiveDistance(prims, index)
    owner = np.arange(len(found_px))

    def residual_fn(points_mm: np.ndarray):
        residual, grad = distance.with_gradient(points_mm)
        return residual, owner, grad

    return robust_refine(homography, found_px, residual_fn, length_mm=length_mm, loss_scale_mm=loss_scale_mm)
