"""Colours measured around circles in a board view: a piece's face, the board around it, the colour step at its rim."""

from __future__ import annotations

import functools
import math

import cv2
import numpy as np

from calibration.geometry import BoardModel, CrokinoleBoard
from vision.masked_median import masked_median
from vision.piece_detections import PieceSize
from vision.rectify_board import BoardView

STEP_MIN_LAB = 8.0
"""Lab distance between the two sides of a rim point for it to count as a colour step."""

BOARD_FACE_MATCH = 12.0
"""Lab distance (lightness counting half) under which a carrom disc's face is the bare board's own colour."""


@functools.lru_cache(maxsize=64)
def _disc_offsets(inner: float, outer: float, step: float = 1.0) -> np.ndarray:
    """Offsets (k, 2) of a grid of `step` within the annulus inner..outer, read-only: kept for the next read, which
    asks for the same sizes."""
    r = math.ceil(outer)
    ys, xs = np.mgrid[-r:r + 1:step, -r:r + 1:step]
    d = np.hypot(xs, ys)
    keep = (d >= inner) & (d <= outer)
    offsets = np.column_stack([xs[keep], ys[keep]])
    offsets.setflags(write=False)
    return offsets


def median_colours(lab: np.ndarray, centres_px: np.ndarray, *, inner_px: float, outer_px: float,
                   towards_px: np.ndarray | None = None, excluded: np.ndarray | None = None) -> np.ndarray:
    """Median Lab over an annulus (inner_px..outer_px) around each centre: (n, 3).

    With `towards_px` (n, 2), each median is taken over the half of the annulus
    facing that direction (a zero vector keeps all of it). With `excluded` ((H, W) bool, e.g. the pieces
    beside), those pixels are left out where at least a quarter of the annulus remains.
    """
    if len(centres_px) == 0:
        return np.zeros((0, 3))
    offsets = _disc_offsets(inner_px, outer_px, step=max(1.0, outer_px / 12))
    pts = np.rint(centres_px[:, None, :] + offsets[None, :, :]).astype(int)
    h, w = lab.shape[:2]
    xs = np.clip(pts[..., 0], 0, w - 1)
    ys = np.clip(pts[..., 1], 0, h - 1)
    values = lab[ys, xs].astype(np.float64)
    if towards_px is None and excluded is None:
        return np.median(values, axis=1)
    kept = np.ones(values.shape[:2], bool) if excluded is None else ~excluded[ys, xs]
    kept |= (kept.mean(axis=1) < 0.25)[:, None]
    if towards_px is not None:
        kept &= (offsets[None, :, :] * np.asarray(towards_px)[:, None, :]).sum(axis=2) >= 0
    # Most pieces overhang no pocket and have none beside: their whole annulus counts, and a plain median is
    # several times quicker.
    whole = kept.all(axis=1)
    colours = np.empty((len(values), 3))
    colours[whole] = np.median(values[whole], axis=1)
    colours[~whole] = masked_median(values[~whole], kept[~whole])
    return colours


def pieces_mask(view: BoardView, centres_mm: np.ndarray, radii_mm: np.ndarray, *, margin_mm: float) -> np.ndarray:
    """(H, W) bool of the view: the pieces at `centres_mm`, each `margin_mm` wider than its radius."""
    drawn = np.zeros(view.image.shape[:2], np.uint8)
    for (u, v), r in zip(view.to_px(np.asarray(centres_mm).reshape(-1, 2)), radii_mm):
        cv2.circle(drawn, (int(round(u)), int(round(v))), int(round((r + margin_mm) * view.px_per_mm)), 1, -1)
    return drawn > 0


def face_spread(lab: np.ndarray, centres_px: np.ndarray, face_lab: np.ndarray, *, radius_px: float,
                inner_px: float = 0.0, excluded: np.ndarray | None = None) -> np.ndarray:
    """Upper-quartile Lab distance from the face colour over the middle of each piece (r < radius_px).

    With `inner_px`, over the annulus inner_px..radius_px instead (the board around a piece). With `excluded`
    ((H, W) bool, e.g. the board's print), those pixels are left out where at least half the others remain.
    """
    if len(centres_px) == 0:
        return np.zeros(0)
    offsets = _disc_offsets(inner_px, radius_px, step=max(1.0, radius_px / 8))
    pts = np.rint(centres_px[:, None, :] + offsets[None, :, :]).astype(int)
    h, w = lab.shape[:2]
    ys, xs = np.clip(pts[..., 1], 0, h - 1), np.clip(pts[..., 0], 0, w - 1)
    values = lab[ys, xs].astype(np.float64)
    gaps = np.linalg.norm(values - face_lab[:, None, :], axis=2)
    if excluded is None:
        return np.percentile(gaps, 75, axis=1)
    left_out = excluded[ys, xs]
    left_out &= (left_out.mean(axis=1) <= 0.5)[:, None]
    # The upper quartile of each row's kept gaps, interpolated as `np.percentile` does (the left out sort last).
    ordered = np.sort(np.where(left_out, np.inf, gaps), axis=1)
    at = 0.75 * ((~left_out).sum(axis=1) - 1)
    below = np.floor(at).astype(int)
    above = np.minimum(below + 1, gaps.shape[1] - 1)
    rows = np.arange(len(gaps))
    low, high = ordered[rows, below], ordered[rows, above]
    return low + (at - below) * np.where(np.isfinite(high), high - low, 0.0)


def step_share(lab: np.ndarray, centres_px: np.ndarray, radii_px: np.ndarray, *, offset_px: float,
               min_step: float = STEP_MIN_LAB) -> np.ndarray:
    """Share of each circle's rim where the colour steps across it (inside vs outside, `offset_px` each way).

    A piece is a filled disc: its face differs from what lies outside it. A thin
    printed line or an outline circle has the same board on both sides, so a
    circle fitted to lines (carrom's base lines are a coin's width apart) shows
    no step.
    """
    if len(centres_px) == 0:
        return np.zeros(0)
    angles = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    unit = np.stack([np.cos(angles), np.sin(angles)], 1)[None]
    h, w = lab.shape[:2]

    def colours(radius: np.ndarray) -> np.ndarray:
        pts = centres_px[:, None, :] + radius[:, None, None] * unit
        xs = np.clip(np.rint(pts[..., 0]).astype(int), 0, w - 1)
        ys = np.clip(np.rint(pts[..., 1]).astype(int), 0, h - 1)
        return lab[ys, xs].astype(np.float64)

    step = np.linalg.norm(colours(radii_px - offset_px) - colours(radii_px + offset_px), axis=2)
    return (step > min_step).mean(axis=1)


def board_face_gap(lab: np.ndarray, view: BoardView, colour_lab: np.ndarray, *, board: BoardModel) -> np.ndarray:
    """Lab distance of each face colour from the playing surface's (its median; lightness counts half).

    Pieces and print cover a small share of the surface, so its median is the
    bare board; light falls unevenly across it, hence the lightness weight.
    """
    inner_mm = board.half_side_mm - board.pocket_diameter_mm
    grid = np.arange(-inner_mm, inner_mm + 1e-9, 10.0)
    xs, ys = np.meshgrid(grid, grid)
    pts = np.rint(view.to_px(np.column_stack([xs.ravel(), ys.ravel()]))).astype(int)
    h, w = lab.shape[:2]
    surface = np.median(lab[np.clip(pts[:, 1], 0, h - 1), np.clip(pts[:, 0], 0, w - 1)].astype(np.float64), axis=0)
    return np.linalg.norm((np.asarray(colour_lab, np.float64).reshape(-1, 3) - surface) * np.array([0.5, 1.0, 1.0]),
                          axis=1)


def _away_from_pockets(centres_mm: np.ndarray, board: BoardModel, sizes: tuple[PieceSize, ...]) -> np.ndarray:
    """Per piece, a view direction pointing away from a pocket it overhangs (zero when it overhangs none)."""
    away = np.zeros((len(centres_mm), 2))
    if isinstance(board, CrokinoleBoard):
        return away
    for px, py in board.pocket_centres_mm():
        d = centres_mm - np.array([px, py])
        near = np.hypot(d[:, 0], d[:, 1]) < board.pocket_diameter_mm / 2 + sizes[-1].radius_mm
        # View rows grow southwards: flip y.
        away[near] = d[near] * np.array([1.0, -1.0])
    return away


def piece_colours(lab: np.ndarray, view: BoardView, centres_mm: np.ndarray, size_arr: np.ndarray,
                  sizes: tuple[PieceSize, ...], board: BoardModel,
                  around_excluded: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Median colour of each piece's face (a ring's band, a disc's middle) and of the board just around it.

    A piece over a pocket's mouth is judged on the half of its face away from the pocket. With `around_excluded`
    ((H, W) bool, e.g. `pieces_mask` of the pieces beside), those pixels are left out of the board around.
    """
    s = view.px_per_mm
    centres_px = view.to_px(centres_mm)
    away = _away_from_pockets(centres_mm, board, sizes)
    colour = np.zeros((len(centres_mm), 3))
    surround = np.zeros((len(centres_mm), 3))
    for k, size in enumerate(sizes):
        at = size_arr == k
        if size.inner_radius_mm:
            band = size.radius_mm - size.inner_radius_mm
            inner, outer = size.inner_radius_mm + 0.25 * band, size.radius_mm - 0.25 * band
        else:
            inner, outer = 0.0, 0.6 * size.radius_mm
        colour[at] = median_colours(lab, centres_px[at], inner_px=inner * s, outer_px=outer * s,
                                    towards_px=away[at])
        surround[at] = median_colours(lab, centres_px[at], inner_px=1.2 * size.radius_mm * s,
                                      outer_px=1.5 * size.radius_mm * s, excluded=around_excluded)
    return colour, surround
