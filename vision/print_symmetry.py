"""How a place on a carrom board looks against the same place under the board's symmetries.

A carrom board's print (base lines and circles, corner arrows, the centre figure)
repeats under the eight symmetries of the square: a circle drawn by the print at
one place is drawn alike at the places a quarter turn or a mirror away, most of
which are free. A piece lies at one place only; what it covers looks like none of
the others.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

PATCH_SHARE = 1.1
"""Radius of the neighbourhood compared, as a share of the piece's: its face and rim, little of its neighbours'."""

COMPARE_SCALE = 0.5
"""The view is compared at this share of its scale: the print's lines and a piece's face are wider than its pixels."""


SQUARE_SYMMETRIES = ((True, True, False), (False, True, True), (True, False, True), (False, True, False),
                     (True, False, False), (False, False, True), (True, True, True))
"""The seven symmetries of the square other than none, each (swap, mirror_u, mirror_v): the place seen at view pixel
(u, v) is (u, v), or (v, u) when swapped, then each coordinate mirrored (c -> size - 1 - c) where told: three quarter
turns and four mirrors."""


def _source_px(u: int, v: int, size: int, symmetry: tuple[bool, bool, bool]) -> tuple[int, int]:
    """The pixel of the view that a symmetric view (`symmetric_views`) shows at (u, v)."""
    swap, mirror_u, mirror_v = symmetry
    a, b = (v, u) if swap else (u, v)
    return (size - 1 - a if mirror_u else a), (size - 1 - b if mirror_v else b)


def symmetric_views(image: np.ndarray) -> list[np.ndarray]:
    """The seven other images of a square view centred on the board, in the order of `SQUARE_SYMMETRIES`."""
    views = []
    for swap, mirror_u, mirror_v in SQUARE_SYMMETRIES:
        # Rows follow v and columns u; swapped, rows follow the source's u and columns its v.
        rows, columns = (mirror_u, mirror_v) if swap else (mirror_v, mirror_u)
        base = image.swapaxes(0, 1) if swap else image
        views.append(base[::-1 if rows else 1, ::-1 if columns else 1])
    return views


def symmetry_gap(lab: np.ndarray, centres_px: np.ndarray, *, radius_px: float, shift_px: float = 2.0,
                 occupied_px: np.ndarray | None = None) -> np.ndarray:
    """Least difference between each circle's neighbourhood and the same place under the board's symmetries.

    Parameters
    ----------
    lab : (S, S, 3) uint8 ndarray
        Rectified view in Lab, square, with the board's centre at its middle (`vision.rectify_board.BoardView`).
    centres_px : (n, 2) float ndarray
        Circle centres in view pixels.
    radius_px : float
        Radius of the circles.
    shift_px : float
        Largest shift, each way, tried between the two places: a board located a little off puts its print that
        far from where the symmetry says.
    occupied_px : (m, 2) float ndarray, optional
        Centres of pieces found: a symmetric place within a piece's diameter of one is not compared (coins set out
        alike, as in the break, would look alike there).

    Returns
    -------
    (n,) float ndarray
        Median Lab distance over the neighbourhood (each side's mean colour taken out, for light that differs over
        the board), at the best symmetry and shift; infinite where a neighbourhood is not wholly in the view or
        every symmetric place is occupied.
    """
    lab = np.asarray(lab)
    if lab.ndim != 3 or lab.shape[0] != lab.shape[1]:
        raise ValueError(f"lab must be a square (S, S, 3) view, got shape {lab.shape}")
    if radius_px <= 0 or shift_px < 0:
        raise ValueError(f"radius_px must be positive and shift_px not negative, got {radius_px}, {shift_px}")
    gaps = np.full(len(np.asarray(centres_px).reshape(-1, 2)), np.inf)
    if len(gaps) == 0:
        return gaps
    # Scaled about the view's middle, which stays the middle: the symmetries stay exact.
    size = max(1, int(round(lab.shape[0] * COMPARE_SCALE)))
    scale = size / lab.shape[0]
    smooth = cv2.resize(lab, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32)
    centres = np.rint((np.asarray(centres_px, np.float64).reshape(-1, 2) + 0.5) * scale - 0.5).astype(int)
    radius, shift = radius_px * scale, int(np.ceil(shift_px * scale))
    others = symmetric_views(smooth)
    occupied = (np.zeros((0, 2)) if occupied_px is None
                else (np.asarray(occupied_px, np.float64).reshape(-1, 2) + 0.5) * scale - 0.5)
    reach = int(np.ceil(PATCH_SHARE * radius))
    ys, xs = np.mgrid[-reach:reach + 1, -reach:reach + 1]
    inside = np.hypot(xs, ys) <= PATCH_SHARE * radius
    margin = reach + shift
    for i, (u, v) in enumerate(centres):
        if min(u, v) < margin or max(u, v) >= size - margin:
            continue
        here = smooth[v - reach:v + reach + 1, u - reach:u + reach + 1][inside]
        here = here - here.mean(axis=0)
        for other, symmetry in zip(others, SQUARE_SYMMETRIES):
            source = np.array(_source_px(u, v, size, symmetry), np.float64)
            # On or by a mirror's axis the place is its own image.
            if np.hypot(*(source - (u, v))) < 2 * radius or (np.hypot(*(occupied - source).T) < 2 * radius).any():
                continue
            window = other[v - margin:v + margin + 1, u - margin:u + margin + 1]
            # Every shifted neighbourhood at once: (shifts, shifts, 3, side, side) -> (shifts², pixels, 3).
            shifted = sliding_window_view(window, (2 * reach + 1, 2 * reach + 1), axis=(0, 1))
            there = shifted.transpose(0, 1, 3, 4, 2)[:, :, inside].reshape(-1, int(inside.sum()), 3)
            there = there - there.mean(axis=1, keepdims=True)
            gaps[i] = min(gaps[i], float(np.median(np.linalg.norm(there - here[None], axis=2), axis=1).min()))
    return gaps
