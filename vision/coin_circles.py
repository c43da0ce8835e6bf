"""Carrom: circles of a coin's size found in a field of a view, where no piece read and no printed disc explains them.

The reader's second looks for coins (`unsure_coins` in the colour edges, `ring_coins` in the dark lines) start from
these and judge them each in their own way.
"""

from __future__ import annotations

import numpy as np

from calibration.geometry import CarromBoard
from vision.carrom_print import printed_discs_mm
from vision.detect_discs import EdgeField, find_discs
from vision.detect_pieces import centred_about, clear_of, on_surface, resolve_overlaps
from vision.piece_colours import piece_colours
from vision.piece_detections import PieceDetections, piece_sizes
from vision.rectify_board import BoardView

MAX_RADIUS_ERROR = 0.1
"""Largest difference of a circle's fitted radius from a coin's, as a share of it."""

PRINTED_DISC_REACH_MM = 12.0
"""A circle centred this near a printed disc of a coin's size (the centre's hub, a base circle) is drawn by it: by its
fill, or inside its ring. Tuning clips 5202-5211, 1080p, frames every 4 s: 522 such circles in the colour edges 0 to
10 mm off, whites unread 15 mm off and further. Stills 96060-96259, in the dark lines, of the rings `ring_coins` names
white and passes otherwise: 35 on unread whites and 2 elsewhere with it, 35 and 28 without."""


def coin_circles(field: EdgeField, view: BoardView, found: PieceDetections, *, board: CarromBoard,
                 min_support: float, margin_mm: float = 0.0) -> PieceDetections:
    """Coin-sized circles of `field`, on the playing surface, clear of the pieces found and of the printed discs.

    Parameters
    ----------
    field : the view's edges or lines to find rims in (`find_discs`).
    view : BoardView of the board.
    found : the pieces read in it; a circle overlaps none of them.
    board : the carrom board that was rectified.
    min_support : least share of a circle's rim that must show in `field`.
    margin_mm : how far inside the surface's edge a circle's centre must lie (negative: a coin's radius keeps the
        whole coin on the surface).

    Returns
    -------
    PieceDetections of the coin's size, with face and surround colours, best rim first; overlapping ones resolved.
    """
    sizes = piece_sizes(board)
    coin = sizes[0]
    s = view.px_per_mm
    candidates = find_discs(field, radius_px=coin.radius_mm * s, min_support=min_support)
    centres_mm = view.to_mm(candidates.centres_px)
    radii_mm = candidates.radii_px / s
    keep = (np.abs(radii_mm - coin.radius_mm) <= MAX_RADIUS_ERROR * coin.radius_mm) & on_surface(
        centres_mm, board, margin_mm=margin_mm)
    keep &= ~centred_about(centres_mm, printed_discs_mm(board), reach_mm=PRINTED_DISC_REACH_MM)
    keep &= clear_of(centres_mm, found, radii_mm)
    centres_mm, radii_mm, support = centres_mm[keep], radii_mm[keep], candidates.support[keep]
    keep = resolve_overlaps(centres_mm, radii_mm, support, allowed_overlap_mm=0.0)
    centres_mm, radii_mm, support = centres_mm[keep], radii_mm[keep], support[keep]
    size = np.zeros(len(radii_mm), int)
    colour, surround = piece_colours(view.lab, view, centres_mm, size, sizes, board)
    order = np.argsort(-support, kind="stable")
    return PieceDetections(centres_mm[order], radii_mm[order], size[order], support[order], colour[order],
                           surround[order])
