"""Where carrom's print draws edges of its own in a rectified board view, from the board model.

The base lines, the base circles, the corner arrows with their heads and open arcs,
the centre figure, the frame's edge and the pocket mouths each draw an edge along
their strokes. A coin's rim crosses the strokes at a few points only; a circle the
print draws lies along them. The strokes are laid out as the board model places
them, widened by how far a located board may put them from there.
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from calibration.geometry import CarromBoard
from vision.carrom_print import ARROW_ARC_RADIUS_SHARE, arrow_ends_mm
from vision.rectify_board import BoardView

STROKE_REACH_MM = 2.0
"""How far either side of a printed stroke its edges may be seen: the edge of a stroke's width, its blur, and a board
located a little off (synthetic stills: under a millimetre)."""

BASE_LINE_WIDTH_MM = (3.5, 1.0)
"""Widths of the outer and inner base line of each side (outer towards the frame)."""

ARROW_HEAD_MM = 12.0
"""Length of each stroke of an arrow's head, at the pocket end of its shaft."""

ARROW_HEAD_SPREAD_RAD = 0.35
"""Angle between an arrow's shaft and each stroke of its head."""

ARROW_ARC_OPENING_DEG = 90.0
"""The open arc that ends an arrow leaves this much of its circle out, facing the board's centre."""


def stroke_mask(view: BoardView, *, board: CarromBoard) -> np.ndarray:
    """(S, S) bool, read-only: the view's pixels within `STROKE_REACH_MM` of carrom's printed strokes.

    Parameters
    ----------
    view : BoardView of a carrom board.
    board : the board model that was rectified.

    Returns
    -------
    (S, S) bool ndarray, shared between calls for the same board and view scale: not to be written.

    Examples
    --------
    >>> mask = stroke_mask(view, board=board)  # doctest: +SKIP
    >>> mask[int(v), int(u)]
    True
    """
    return _stroke_mask(board, view.px_per_mm, view.half_extent_mm, view.image.shape[0])


@lru_cache(maxsize=8)
def _stroke_mask(board: CarromBoard, px_per_mm: float, half_extent_mm: float, size_px: int) -> np.ndarray:
    view = BoardView(np.zeros((0, 0, 3), np.uint8), px_per_mm, half_extent_mm)
    mask = np.zeros((size_px, size_px), np.uint8)
    shift = 4
    scale = 1 << shift

    def pts(points_mm) -> np.ndarray:
        return np.rint(view.to_px(np.asarray(points_mm, np.float64)) * scale).astype(np.int32)

    def thickness(width_mm: float) -> int:
        return max(1, int(round((width_mm + 2 * STROKE_REACH_MM) * px_per_mm)))

    def polyline(points_mm, width_mm: float) -> None:
        cv2.polylines(mask, [pts(points_mm)], False, 1, thickness(width_mm), cv2.LINE_8, shift)

    def circle(centre_mm, radius_mm: float, width_mm: float) -> None:
        angles = np.linspace(0, 2 * math.pi, 73)
        polyline(np.column_stack([centre_mm[0] + radius_mm * np.cos(angles), centre_mm[1] + radius_mm * np.sin(angles)]),
                 width_mm)

    def disc(centre_mm, radius_mm: float) -> None:
        (u, v), = view.to_px(np.asarray([centre_mm], np.float64))
        cv2.circle(mask, (int(round(u * scale)), int(round(v * scale))),
                   int(round((radius_mm + STROKE_REACH_MM) * px_per_mm * scale)), 1, -1, cv2.LINE_8, shift)

    h = board.half_side_mm
    base_r = board.base_circle_diameter_mm / 2
    half_length = board.base_line_length_mm / 2 - base_r
    for k in range(4):
        turn = np.array([[math.cos(k * math.pi / 2), -math.sin(k * math.pi / 2)],
                         [math.sin(k * math.pi / 2), math.cos(k * math.pi / 2)]])
        outer = -(h - board.base_line_inset_mm)
        for across, width in zip((outer, outer + board.base_line_gap_mm), BASE_LINE_WIDTH_MM):
            polyline(np.array([[-half_length, across], [half_length, across]]) @ turn.T, width)
        for side in (-1, 1):
            # The filled base circles are the print's whole inside, not a stroke round it.
            disc(turn @ np.array([side * half_length, outer + board.base_line_gap_mm / 2]), base_r)
    tip_from_corner = board.arrow_start_from_corner_mm
    arc_r = ARROW_ARC_RADIUS_SHARE * board.arrow_length_mm
    for end in arrow_ends_mm(board):
        inward = -np.sign(end) / math.sqrt(2)
        start = np.sign(end) * h + inward * tip_from_corner
        polyline([start, start + inward * board.arrow_length_mm], 1.0)
        back = math.atan2(-inward[1], -inward[0])
        for side in (-1, 1):
            a = back + side * ARROW_HEAD_SPREAD_RAD
            polyline([start, start - ARROW_HEAD_MM * np.array([math.cos(a), math.sin(a)])], 1.0)
        centre = start + inward * board.arrow_length_mm * (1 - 0.1 * ARROW_ARC_RADIUS_SHARE)
        facing = math.atan2(inward[1], inward[0])
        half_gap = math.radians(ARROW_ARC_OPENING_DEG / 2)
        angles = np.linspace(facing + half_gap, facing + 2 * math.pi - half_gap, 61)
        polyline(np.column_stack([centre[0] + arc_r * np.cos(angles), centre[1] + arc_r * np.sin(angles)]), 1.0)
    # The centre figure is print all over: its circles, star and centre circle.
    disc((0.0, 0.0), board.outer_circle_diameter_mm / 2)
    polyline(np.array([[-h, -h], [h, -h], [h, h], [-h, h], [-h, -h]]), 0.0)
    for centre in board.pocket_centres_mm():
        circle(centre, board.pocket_diameter_mm / 2, 0.0)
    out = mask.astype(bool)
    out.flags.writeable = False
    return out
