"""Smaller working copies of a grey frame for the locators' stages, made cheaply.

Shrinking by an arbitrary factor with area averaging costs OpenCV several times
more than an exact halving, which it special-cases: a 1080p frame takes about
5 ms one way and a tenth of a millisecond the other. So a copy is made by exact
halvings (area averages) while it stays at least twice its target size, then one
step by the remaining factor, under 2: area averaging again for the small copies
whose statistics count (`shrunk`: the share of line pixels of a dark, noisy frame
rises when its noise is not averaged), bilinear for a board's view
(`region_view`), where the fine stage finds each line's peak along its normal
as precisely either way, at a tenth of the cost.

Pixel positions map between a frame and its copy with pixel centres kept
(OpenCV's convention: ``x_copy = (x + 0.5) * scale - 0.5``).
"""

from __future__ import annotations

import cv2
import numpy as np


def shrunk(gray: np.ndarray, *, max_side_px: int) -> np.ndarray:
    """A copy of a grey (or any) image shrunk so its longer side is at most `max_side_px`.

    The same size as `vision.frames.downscale` gives (the image itself when it
    is small enough), several times cheaper for large shrinks.
    """
    scale = max_side_px / max(gray.shape[:2])
    if scale >= 1:
        return gray
    size = (max(1, round(gray.shape[1] * scale)), max(1, round(gray.shape[0] * scale)))
    copy, _ = resized(gray, size, averaged=True)
    return copy


def region_view(
    gray: np.ndarray, *, centre_px: tuple[float, float], radius_px: float, target_radius_px: float
) -> tuple[np.ndarray, np.ndarray]:
    """The part of `gray` within `radius_px` of a centre, shrunk so that radius is about `target_radius_px`.

    Returns
    -------
    view : (h, w) ndarray, the crop (a view of `gray` when not shrunk)
    to_view : (3, 3) ndarray mapping `gray` pixels to `view` pixels (pixel centres kept)
    """
    h, w = gray.shape[:2]
    cx, cy = centre_px
    x0, x1 = int(max(0, np.floor(cx - radius_px))), int(min(w, np.ceil(cx + radius_px)))
    y0, y1 = int(max(0, np.floor(cy - radius_px))), int(min(h, np.ceil(cy + radius_px)))
    if x1 - x0 < 16 or y1 - y0 < 16:
        x0, y0, x1, y1 = 0, 0, w, h
    crop = gray[y0:y1, x0:x1]
    shift = np.array([[1.0, 0, -x0], [0, 1.0, -y0], [0, 0, 1]])
    scale = min(1.0, target_radius_px / max(radius_px, 1.0))
    if scale >= 1.0:
        return crop, shift
    size = (max(16, round(crop.shape[1] * scale)), max(16, round(crop.shape[0] * scale)))
    view, to_copy = resized(crop, size)
    return view, to_copy @ shift


def resized(image: np.ndarray, size: tuple[int, int], *, averaged: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """`image` shrunk to `size` (width, height), and the map of its pixels to the copy's (3, 3).

    The last step, by a factor under 2, averages areas with `averaged`, else interpolates bilinearly.
    """
    factor_x, factor_y = image.shape[1] / size[0], image.shape[0] / size[1]
    if factor_x == factor_y and factor_x.is_integer() and averaged:
        # a whole factor is OpenCV's fast case too
        return cv2.resize(image, size, interpolation=cv2.INTER_AREA), _pixel_scale(1 / factor_x, 1 / factor_y)
    to_copy = np.eye(3)
    while image.shape[1] >= 2 * size[0] and image.shape[0] >= 2 * size[1]:
        # an exact halving: an odd last row or column is left out (it shifts no pixel)
        even_h, even_w = image.shape[0] // 2 * 2, image.shape[1] // 2 * 2
        image = cv2.resize(image[:even_h, :even_w], (even_w // 2, even_h // 2), interpolation=cv2.INTER_AREA)
        to_copy = _pixel_scale(0.5, 0.5) @ to_copy
    if (image.shape[1], image.shape[0]) != tuple(size):
        scale_x, scale_y = size[0] / image.shape[1], size[1] / image.shape[0]
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA if averaged else cv2.INTER_LINEAR)
        to_copy = _pixel_scale(scale_x, scale_y) @ to_copy
    return image, to_copy


def _pixel_scale(scale_x: float, scale_y: float) -> np.ndarray:
    """The pixel map of a resize by these factors, pixel centres kept."""
    return np.array([[scale_x, 0, 0.5 * scale_x - 0.5], [0, scale_y, 0.5 * scale_y - 0.5], [0, 0, 1.0]])
