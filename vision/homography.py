"""Plane-to-image homographies: projection, robust fitting, quality in mm, rectification.

Every homography here maps board millimetres (origin at the centre, x right,
y away from the south seat) to image pixels, as in design.md.
"""

from __future__ import annotations

import cv2
import numpy as np


def project(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a 3x3 homography to (n, 2) points; returns (n, 2) float64."""
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    h = np.asarray(homography, dtype=np.float64)
    xyw = points @ h[:, :2].T + h[:, 2]
    return xyw[:, :2] / xyw[:, 2:3]


def image_to_board(homography: np.ndarray, points_px: np.ndarray) -> np.ndarray:
    """Map (n, 2) image pixels back to board millimetres."""
    return project(np.linalg.inv(homography), points_px)


def normalised(homography: np.ndarray) -> np.ndarray:
    """The homography scaled so that its bottom-right entry is 1."""
    h = np.asarray(homography, dtype=np.float64)
    return h / h[2, 2]


def fit_homography(
    board_mm: np.ndarray,
    image_px: np.ndarray,
    *,
    ransac_threshold_px: float = 3.0,
    weights: np.ndarray | None = None,
) -> tuple[np.ndarray | None, np.ndarray]:
    """Robust homography from redundant correspondences.

    RANSAC rejects outliers, then a Levenberg-Marquardt refinement minimises the
    reprojection error of the inliers.

    Parameters
    ----------
    board_mm, image_px : (n, 2) ndarray
        Corresponding points, n >= 4.
    ransac_threshold_px : float
        Inlier distance in pixels.

    Returns
    -------
    homography : (3, 3) ndarray or None
        None when no consistent homography exists.
    inlier_mask : (n,) bool ndarray
    """
    src = np.asarray(board_mm, np.float64).reshape(-1, 2)
    dst = np.asarray(image_px, np.float64).reshape(-1, 2)
    if len(src) < 4:
        return None, np.zeros(len(src), bool)
    if len(src) == 4:
        h = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
        return normalised(h), np.ones(4, bool)
    h, mask = cv2.findHomography(src, dst, cv2.RANSAC, ransac_threshold_px, maxIters=2000, confidence=0.999)
    if h is None:
        return None, np.zeros(len(src), bool)
    inliers = mask.ravel().astype(bool)
    if inliers.sum() >= 5:
        # method 0 = least squares over all given points, then LM refinement
        refined, _ = cv2.findHomography(src[inliers], dst[inliers], 0)
        if refined is not None:
            h = refined
    return normalised(h), inliers


def reprojection_error_mm(homography: np.ndarray, board_mm: np.ndarray, image_px: np.ndarray) -> np.ndarray:
    """Distance, in board mm, between each landmark and where its image point maps back to."""
    back = image_to_board(homography, image_px)
    return np.linalg.norm(back - np.asarray(board_mm, np.float64).reshape(-1, 2), axis=1)


def px_per_mm_at(homography: np.ndarray, point_mm: tuple[float, float] = (0.0, 0.0)) -> float:
    """Local image scale (pixels per board millimetre) around a board point."""
    x, y = point_mm
    p = project(homography, np.array([[x, y], [x + 1, y], [x, y + 1]]))
    (ax, ay), (bx, by) = p[1] - p[0], p[2] - p[0]
    return float(np.sqrt(abs(ax * by - ay * bx)))


def rectify(
    image: np.ndarray,
    homography: np.ndarray,
    *,
    px_per_mm: float,
    half_extent_mm: float = 400.0,
) -> np.ndarray:
    """Top-down view of the board at a fixed scale.

    Parameters
    ----------
    image : (H, W, C) ndarray
    homography : (3, 3) ndarray
        Board mm -> image px.
    px_per_mm : float
        Scale of the output.
    half_extent_mm : float
        The output covers board x and y in [-half_extent_mm, half_extent_mm];
        north (+y) is at the top of the output, as seen from the south seat.
        The default covers every shipped board's playing surface.

    Returns
    -------
    board_image : (S, S, C) ndarray with S = round(2 * half_extent_mm * px_per_mm)
        Output pixel (u, v) shows board point
        ``x_mm = (u + 0.5) / px_per_mm - half_extent_mm``,
        ``y_mm = half_extent_mm - (v + 0.5) / px_per_mm``.
    """
    if px_per_mm <= 0 or half_extent_mm <= 0:
        raise ValueError("px_per_mm and half_extent_mm must be positive")
    size = int(round(2 * half_extent_mm * px_per_mm))
    # output px -> board mm (y flipped so north is up), then board mm -> image px
    out_to_board = np.array(
        [
            [1 / px_per_mm, 0, 0.5 / px_per_mm - half_extent_mm],
            [0, -1 / px_per_mm, half_extent_mm - 0.5 / px_per_mm],
            [0, 0, 1],
        ]
    )
    out_to_image = np.asarray(homography, np.float64) @ out_to_board
    return cv2.warpPerspective(
        image, out_to_image, (size, size), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_CONSTANT
    )
