"""Crokinole discs of the board's own colour, told by the shading of their bevel (`vision.rim_shading`).

A light disc on pale maple steps little or not at all in colour round its rim, and
at video resolution shows part of that rim only: its shaded side and its shadow.
Such a rim is believed where its bevel swings from lit to shaded round it and lies
in shade on the whole, its face is even and the board beyond its shadow is flat.
The board's print is left out of the bevel: a scoring line or a quadrant line
tangent to a disc-sized circle darkens one side of it. The other way round, a
clear rim round a face of the board's own colour whose bevel does not swing is the
board itself: where two lines meet, they draw most of a disc-sized rim.
"""

from __future__ import annotations

import numpy as np

from calibration.geometry import CrokinoleBoard
from vision.detect_discs import FaintRims
from vision.localise_crokinole import QUADRANT_LINE_ANGLES_DEG
from vision.piece_colours import face_spread
from vision.rectify_board import BoardView
from vision.rim_shading import BevelShading, bevel_swing

SHADED_RIMS = FaintRims(least_vote_share=0.02, min_support=0.5, min_sectors=4, max_residual_px=0.6,
                        max_radius_error=0.12, least_screen_support=0.45)
"""What such a disc must show of its rim, seen in part only (`vision.detect_discs.FaintRims`; light discs on pale
maple in video frames at 960x540: 0.51 to 0.67 of their rims seen in 4 to 6 sectors, residuals up to 0.52 px)."""

MIN_BEVEL_SWING = 15.0
"""Least swing of lightness round the bevel (`vision.rim_shading.BevelShading.swing`; such discs in video frames at
960x540 and stills: 18 to 60; disc-sized circles on grain 23 at most, on the lines' junctions more)."""

MIN_BEVEL_SHADE = 8.0
"""Least darkening of the bevel below the board around it (such discs 8 to 37; circles on grain 7 at most)."""

MAX_SURROUND_SPREAD = 12.0
"""Most upper-quartile Lab spread of the board around the disc, from 1.15 to `SURROUND_REACH` of its radius: the
board is flat beyond a disc's shadow (such discs 4 to 12), where a dark figure of the grain that a disc-sized arc
bounds runs on past it (15 and up)."""

SURROUND_REACH = 1.6
"""Outer radius of that board, in the disc's radii."""

MAX_FACE_SPREAD = 15.0
"""Most upper-quartile Lab spread over the middle of the disc's face (such discs 4 to 11)."""

BOARD_COLOUR_GAP = 6.0
"""Lab distance between a clear rim's face and the board around it under which the face is the board's own colour
(`flat_in_the_light`)."""

MIN_CLEAR_SWING = 8.0
"""Least bevel swing of such a clear rim (stills 60000-60099 at 960x540: light discs 10 and up; the junctions of the
lines and the shooting line's edge, 6 at most)."""

PRINT_REACH_MM = 5.0
"""How far from a printed line's centre a bevel's point is left out: the line's width and its blur at video
resolution (a light line on dark wood swung a disc-sized circle across it by 33 at 3 mm)."""


def shaded_discs(lab: np.ndarray, view: BoardView, centres_mm: np.ndarray, radii_mm: np.ndarray, *,
                 board: CrokinoleBoard, face_lab: np.ndarray, surround_lab: np.ndarray,
                 is_clear: np.ndarray) -> np.ndarray:
    """True for the circles that are discs by their bevel's shading.

    Parameters
    ----------
    lab : (H, W, 3) uint8 ndarray
        The view in 8-bit Lab.
    view : BoardView of the board.
    centres_mm, radii_mm : (n, 2) and (n,) ndarrays
        The circles' fitted centres and radii, board mm.
    board : the crokinole board.
    face_lab, surround_lab : (n, 3) ndarrays
        Each circle's face colour and the board's around it (`vision.piece_colours.piece_colours`).
    is_clear : (n,) bool ndarray
        Where such a disc may lie: clear of what draws disc-sized arcs of its own (the 20-hole, the pegs, the
        surface's edge).

    Returns
    -------
    (n,) bool ndarray

    Examples
    --------
    >>> shaded = shaded_discs(view.lab, view, centres_mm, radii_mm, board=board, face_lab=colour,
    ...                       surround_lab=surround, is_clear=clear)  # doctest: +SKIP
    """
    centres_px = view.to_px(np.asarray(centres_mm, np.float64).reshape(-1, 2))
    radius_px = board.disc_diameter_mm / 2 * view.px_per_mm
    shading = _shading(lab, view, centres_mm, radii_mm, board)
    face = face_spread(lab, centres_px, face_lab, radius_px=0.6 * radius_px)
    around = face_spread(lab, centres_px, surround_lab, inner_px=1.15 * radius_px, radius_px=SURROUND_REACH * radius_px)
    return (is_clear & (face <= MAX_FACE_SPREAD) & (around <= MAX_SURROUND_SPREAD)
            & (shading.swing >= MIN_BEVEL_SWING) & (shading.shade >= MIN_BEVEL_SHADE))


def flat_in_the_light(lab: np.ndarray, view: BoardView, centres_mm: np.ndarray, radii_mm: np.ndarray, *,
                      board: CrokinoleBoard, face_lab: np.ndarray, surround_lab: np.ndarray) -> np.ndarray:
    """True for clear rims whose face is the board's own colour and whose bevel does not swing: the board itself.

    Where a scoring line meets a quadrant line, the lines draw most of a disc-sized rim around bare board; a disc of
    the board's colour there would show its bevel's shading.

    Parameters
    ----------
    lab, view, centres_mm, radii_mm, board, face_lab, surround_lab : as for `shaded_discs`.

    Returns
    -------
    (n,) bool ndarray

    Examples
    --------
    >>> board_itself = flat_in_the_light(view.lab, view, centres_mm, radii_mm, board=board, face_lab=colour,
    ...                                  surround_lab=surround)  # doctest: +SKIP
    """
    board_coloured = np.linalg.norm(np.asarray(face_lab) - np.asarray(surround_lab), axis=1) < BOARD_COLOUR_GAP
    flat = np.zeros(len(board_coloured), bool)
    if board_coloured.any():
        flat[board_coloured] = _shading(lab, view, np.asarray(centres_mm)[board_coloured],
                                        np.asarray(radii_mm)[board_coloured], board).swing < MIN_CLEAR_SWING
    return flat


def _shading(lab: np.ndarray, view: BoardView, centres_mm: np.ndarray, radii_mm: np.ndarray,
             board: CrokinoleBoard) -> BevelShading:
    """`bevel_swing` of circles in board mm, the lines left out."""
    s = view.px_per_mm
    return bevel_swing(lab, view.to_px(np.asarray(centres_mm, np.float64).reshape(-1, 2)), np.asarray(radii_mm) * s,
                       on_print=lambda px: on_lines(view.to_mm(px.reshape(-1, 2)), board).reshape(px.shape[:-1]))


def on_lines(points_mm: np.ndarray, board: CrokinoleBoard) -> np.ndarray:
    """True for points (n, 2), board mm, within `PRINT_REACH_MM` of a scoring line or a quadrant line.

    Examples
    --------
    >>> on_lines(np.array([[0.0, 101.6], [0.0, 60.0]]), load_board("crokinole"))  # doctest: +SKIP
    array([ True, False])
    """
    from_centre = np.hypot(points_mm[:, 0], points_mm[:, 1])
    near = np.zeros(len(points_mm), bool)
    for radius_mm in board.line_radii_mm().values():
        near |= np.abs(from_centre - radius_mm) <= PRINT_REACH_MM
    # The quadrant lines run on the diagonals across the outer ring (`vision.localise_crokinole`).
    in_ring = (from_centre >= board.ten_line_diameter_mm / 2) & (from_centre <= board.shooting_line_diameter_mm / 2)
    for angle in np.deg2rad(QUADRANT_LINE_ANGLES_DEG):
        across = np.abs(points_mm[:, 0] * np.sin(angle) - points_mm[:, 1] * np.cos(angle))
        along = points_mm[:, 0] * np.cos(angle) + points_mm[:, 1] * np.sin(angle)
        near |= in_ring & (along > 0) & (across <= PRINT_REACH_MM)
    return near
