"""Crokinole: the value of each disc from its measured centre against the board's line radii.

`CrokinoleBoard.zone_value` holds the rule (a disc touching a line takes the
lower value, touching the shooting line scores 0); this module adds what a
measurement needs: a disc whose edge is within the measurement tolerance of a
line's edge is flagged for review rather than trusted, and a disc over the
20-hole is told apart from the hole itself.
"""

from __future__ import annotations

import math

import numpy as np

from calibration.geometry import CrokinoleBoard

REVIEW_TOLERANCE_MM = 1.0
"""A disc whose edge is closer than this to a line's edge is flagged: centre and homography errors reach it."""


def is_over_hole(x_mm: float, y_mm: float, *, board: CrokinoleBoard) -> bool:
    """True when a detected circle is centred on the 20-hole: the hole itself, or a disc lying flat in it."""
    return math.hypot(x_mm, y_mm) < 0.35 * board.hole_diameter_mm / 2


def disc_zone(x_mm: float, y_mm: float, *, board: CrokinoleBoard,
              tolerance_mm: float = REVIEW_TOLERANCE_MM) -> tuple[int, float, bool]:
    """Zone value, line clearance and review flag of a disc lying on the surface.

    The nominal disc radius is used: the measured rim includes the disc's
    bevel and blur, while the rules judge the disc itself.

    Parameters
    ----------
    x_mm, y_mm : centre of the disc in board mm.
    board : the crokinole board model.
    tolerance_mm : clearance below which the disc needs review.

    Returns
    -------
    zone : 15, 10, 5 or 0
    clearance_mm : gap between the disc's edge and the nearest line's edge (negative: touching)
    needs_review : bool

    Examples
    --------
    >>> disc_zone(0.0, 60.0, board=load_board("crokinole"))
    (15, 22.775, False)
    """
    r = board.disc_diameter_mm / 2
    zone = board.zone_value(x_mm, y_mm, r)
    clearance = board.line_clearance_mm(x_mm, y_mm, r)
    return zone, round(clearance, 3), bool(abs(clearance) < tolerance_mm)


def hole_mask(centres_mm: np.ndarray, *, board: CrokinoleBoard) -> np.ndarray:
    """Boolean mask of detections centred on the 20-hole."""
    return np.array([is_over_hole(x, y, board=board) for x, y in np.asarray(centres_mm).reshape(-1, 2)], bool)
