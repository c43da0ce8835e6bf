"""Carrom's printed strokes laid out from the board model, and the half rims over the print screened against them.

Over the print, the lines, arcs and mouths draw parts of coin-sized circles of their own. A pale coin's half rim is
looked for there by the edges it shows off the strokes: the print's own circles are then not even verified.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from calibration.geometry import load_board
from simulation.film import film_still
from simulation.scene import SceneFrame
from vision.carrom_print import arrow_ends_mm, clear_of_print, half_rim_region, printed_faint_region
from vision.carrom_strokes import ARROW_HEAD_MM, stroke_mask
from vision.detect_discs import find_discs, lab_edge_field
from vision.detect_pieces import (FAINT_RIMS, HALF_RIM_SURROUND_REACH, HALF_RIMS, PRINTED_FAINT_RIMS,
                                  faint_region)
from vision.rectify_board import board_view

RESOLUTION = (1280, 720)


def _empty_view(board, *, seed: int, look: str | None = None):
    image, homography = film_still(SceneFrame(0.0, ()), board=board, seed=seed, difficulty="hard",
                                   resolution=RESOLUTION, look=look)
    return board_view(image, homography=homography, board=board)


def _masked(view, mask, points_mm) -> np.ndarray:
    u, v = np.rint(view.to_px(np.asarray(points_mm, np.float64))).astype(int).T
    return mask[v, u]


def test_the_strokes_lie_on_the_models_print_and_nowhere_clear_of_it():
    board = load_board("carrom")
    view = _empty_view(board, seed=1)
    mask = stroke_mask(view, board=board)
    h = board.half_side_mm
    outer = h - board.base_line_inset_mm
    end = arrow_ends_mm(board)[0]
    arc_r = 0.12 * board.arrow_length_mm
    on_print = [(0.0, -outer), (0.0, -outer + board.base_line_gap_mm), (outer, 100.0), (0.0, 0.0),
                (board.outer_circle_diameter_mm / 2, 0.0), (-200.0, -200.0), (h, 0.0), (0.0, -h),
                # The arc round the south-west arrow's end, on its far side from the board's centre.
                (end[0] - arc_r / math.sqrt(2), end[1] - arc_r / math.sqrt(2))]
    assert _masked(view, mask, on_print).all()
    grid = np.arange(-h + 1.0, h, 7.0)
    points = np.column_stack([a.ravel() for a in np.meshgrid(grid, grid)])
    # Every stroke pixel is print by the faint search's own measure of it (a millimetre's circle touching it), but
    # for the arrows' heads, which that measure leaves out.
    starts = np.sign(arrow_ends_mm(board)) * (h - board.arrow_start_from_corner_mm / math.sqrt(2))
    by_heads = np.hypot(points[:, None, 0] - starts[None, :, 0], points[:, None, 1] - starts[None, :, 1]).min(
        axis=1) < ARROW_HEAD_MM + 4.0
    assert not (_masked(view, mask, points) & clear_of_print(points, board, radius_mm=1.0) & ~by_heads).any()
    assert _masked(view, mask, points).mean() < 0.25


@pytest.mark.parametrize("seed, look", [(1, "plywood_brown_frame"), (2, "birch_black_frame"), (2, None)])
def test_half_rims_over_the_print_are_not_the_prints_own_circles(seed, look):
    # An empty board, hard light: whatever half rim is kept over the print is the print's.
    board = load_board("carrom")
    view = _empty_view(board, seed=seed, look=look)
    edges = lab_edge_field(view.lab)
    r = board.coin_diameter_mm / 2
    s = view.px_per_mm

    def partial_over_print(printed_px) -> int:
        found = find_discs(edges, radius_px=r * s, faint=FAINT_RIMS,
                           faint_region=lambda px: faint_region(view.to_mm(px), board, radius_mm=r),
                           faint_elsewhere=PRINTED_FAINT_RIMS,
                           elsewhere_region=lambda px: printed_faint_region(view.to_mm(px), board, radius_mm=r),
                           partial=HALF_RIMS,
                           partial_region=lambda px: half_rim_region(view.to_mm(px), board, radius_mm=r,
                                                                     clear_mm=HALF_RIM_SURROUND_REACH * r),
                           printed_px=printed_px)
        over = printed_faint_region(view.to_mm(found.centres_px), board, radius_mm=r)
        return int((found.is_partial & over).sum())

    # The print draws half rims there (a look at every edge keeps them) ...
    assert partial_over_print(None) >= 3
    # ... which its strokes account for.
    assert partial_over_print(stroke_mask(view, board=board)) == 0
