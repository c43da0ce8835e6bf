"""Homography refinement from image points known to lie on board primitives (lines, circles)."""

from __future__ import annotations

import numpy as np
from scipy.optimize import least_squares

from vision.board_primitives import Primitive, PrimitiveDistance
from vision.circle_fit import _apply_inverse, _local_matrix
from vision.homography import image_to_board, normalised


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
    homography : (3, 3) ndarray
    found_px : (n, 2) ndarray
        Image points.
    prims : list of Primitive
    index : (n,) int ndarray
        The primitive of each point.
    length_mm : float
        Board size scale used to condition the parameters (e.g. the half side).
    loss_scale_mm : float
        Soft-L1 scale: residuals beyond it count less.

    Returns
    -------
    homography : (3, 3) ndarray
    residual_mm : (n,) ndarray, signed distance of each point from its primitive
    """
    q = image_to_board(homography, found_px)
    distance = PrimitiveDistance(prims, index)

    def residuals(params: np.ndarray) -> np.ndarray:
        return distance(_apply_inverse(_local_matrix(params, length_mm), q))

    result = least_squares(residuals, np.zeros(8), loss="soft_l1", f_scale=loss_scale_mm, method="trf")
    m = _local_matrix(result.x, length_mm)
    return normalised(np.asarray(homography, np.float64) @ m), residuals(result.x)
