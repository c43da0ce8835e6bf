"""Carrom: coin-sized circles the reader did not take for coins, for a video to weigh against what it saw move.

A pale white coin on a pale board (washed out by a bright light) shows most of its rim but hardly steps in colour
from the board, like the print's circles the reader must leave out. In a still nothing tells the two apart; in a
video, a circle come where the picture changed at a stroke, away from where any piece lay, is a coin come to rest
(`events.EventInferer`).
"""

from __future__ import annotations

from calibration.geometry import CarromBoard
from vision.coin_circles import coin_circles
from vision.piece_detections import PieceDetections, piece_sizes
from vision.print_symmetry import symmetry_gap
from vision.rectify_board import BoardView

UNSURE_MIN_SUPPORT = 0.65
"""Share of its rim an unsure coin must show. Simulated clip 5211 (1080p, a board washed out by a bright light):
four whites struck far and not read where they stopped showed 0.72 to 0.96 of their rims, their faces stepping
from the board on 0.35 to 0.75 of them. Over tuning clips 5202-5211 (frames every 4 s), of the circles clear of the
pieces read and of the printed discs, with 0.65 to 0.7 of their rims seen, 5 of 6 on coins unread and none of 91
drawn by the print passed `MIN_SYMMETRY_GAP`; below 0.65, 1 of 66 drawn by the print and no coin."""

MIN_SYMMETRY_GAP = 7.0
"""Least `symmetry_gap` of an unsure coin: the print looks alike at one of the board's symmetric places, a coin at one
place only. Over the same frames, 206 of 211 circles drawn by the print elsewhere came within 7 of a symmetric place
(the rest on the centre figure), the 25 whites unread 7.3 and further."""


def unsure_coins(view: BoardView, found: PieceDetections, *, board: CarromBoard,
                 min_support: float = UNSURE_MIN_SUPPORT) -> PieceDetections:
    """Coin-sized circles on the playing surface clear of the pieces found and unlike the print, best rim first.

    Parameters
    ----------
    view : BoardView of the board.
    found : the pieces read in it (`detect_pieces`); an unsure coin overlaps none of them.
    board : the carrom board that was rectified.
    min_support : least share of a circle's rim that must show an edge.

    Returns
    -------
    PieceDetections, with face and surround colours, all of the coin's size.

    Examples
    --------
    >>> unsure = unsure_coins(view, detect_pieces(view, board=board), board=board)  # doctest: +SKIP
    """
    if not isinstance(board, CarromBoard):
        raise ValueError(f"unsure coins are looked for on carrom boards only, not {board.game}")
    circles = coin_circles(view.edges, view, found, board=board, min_support=min_support)
    radius_px = piece_sizes(board)[0].radius_mm * view.px_per_mm
    gap = symmetry_gap(view.lab, view.to_px(circles.centres_mm), radius_px=radius_px,
                       occupied_px=view.to_px(found.centres_mm))
    return circles.filter(gap >= MIN_SYMMETRY_GAP)
