"""A carrom coin on the centre circle whose rim the votes missed.

The centre figure's star points run under a coin lying on the centre circle and break its rim into arcs: a black coin
on a star of black points, or the queen on a red one, gathers too few votes to be looked at (tuning stills 96045,
96103, 96027 at 1280x720: 0.023 to 0.047 of a full rim's, where 0.05 is asked), and a faint rim there is never
looked for, since the figure's middle is its own symmetric place. The centre is one place: its rim is measured there
directly, and a coin-sized circle that steps from the board all round is judged as a clear one on the centre circle
is (`vision.carrom_print.printed_mask`: the print's colour, its flat face, the coins' shading).
"""

from __future__ import annotations

import numpy as np

from calibration.geometry import BoardModel, CarromBoard
from vision.carrom_print import printed_mask
from vision.detect_discs import EdgeField, FaintRims, verify_rims
from vision.piece_colours import face_spread, piece_colours, step_share
from vision.piece_detections import PieceDetections, PieceSize
from vision.rectify_board import BoardView

CENTRE_RIMS = FaintRims(min_support=0.7, max_residual_px=1.0, max_radius_error=0.1)
"""What a coin's rim on the centre circle must show (coins there on tuning stills 96060-96259: 0.75 to 1.0 of their
rims seen, residuals up to 0.98 px; the bare centre circle shows its whole rim too, and is told by its face)."""

CENTRE_MAX_OFFSET_SHARE = 0.3
"""Farthest the fitted rim may lie from the board's centre, in coin radii."""

CENTRE_MAX_FACE_SPREAD = 25.0
"""Most upper-quartile Lab spread over the face (coins there 15 to 19): a coin's face is one colour and its engraving.
A white coin lying half over the centre circle (still 96171, 9 mm off the centre) draws a circle round the print and
part of itself, 29."""

CENTRE_MIN_STEP_SHARE = 0.9
"""Least share of the rim where the colour steps across it (coins there 0.94 to 0.98): a filled disc, as a coin on the
print must be (`vision.detect_pieces.PRINTED_FAINT_MIN_STEP_SHARE`)."""


def coin_on_centre(found: PieceDetections, edges: EdgeField, lab: np.ndarray, view: BoardView,
                   sizes: tuple[PieceSize, ...], board: BoardModel) -> PieceDetections:
    """The coin lying on the centre circle where nothing was found over it (empty: none, or not a carrom board).

    Parameters
    ----------
    found : the pieces found so far.
    edges : EdgeField of the view.
    lab : the view in 8-bit Lab.
    view : BoardView of the board.
    sizes : the game's piece sizes, smallest first.
    board : the board model that was rectified.

    Returns
    -------
    PieceDetections, one faint coin or none.
    """
    radius_mm = sizes[0].radius_mm
    if not isinstance(board, CarromBoard):
        return PieceDetections.empty()
    if len(found) and np.hypot(*found.centres_mm.T).min() < 2 * radius_mm:
        return PieceDetections.empty()
    s = view.px_per_mm
    rim = verify_rims(edges, view.to_px(np.zeros((1, 2))), radius_px=radius_mm * s)
    centre_mm = view.to_mm(rim.centres_px)
    radius_fit_mm = rim.radii_px / s
    if not (rim.support[0] >= CENTRE_RIMS.min_support and rim.residual_px[0] <= CENTRE_RIMS.max_residual_px
            and abs(radius_fit_mm[0] - radius_mm) <= CENTRE_RIMS.max_radius_error * radius_mm
            and np.hypot(*centre_mm[0]) <= CENTRE_MAX_OFFSET_SHARE * radius_mm):
        return PieceDetections.empty()
    steps = step_share(lab, rim.centres_px, rim.radii_px, offset_px=0.3 * radius_mm * s)
    if steps[0] < CENTRE_MIN_STEP_SHARE:
        return PieceDetections.empty()
    size = np.zeros(1, int)
    colour, surround = piece_colours(lab, view, centre_mm, size, sizes, board)
    if face_spread(lab, rim.centres_px, colour, radius_px=0.6 * radius_mm * s)[0] > CENTRE_MAX_FACE_SPREAD:
        return PieceDetections.empty()
    coin = PieceDetections(centre_mm, radius_fit_mm, size, rim.support, colour, surround, np.ones(1, bool))
    if printed_mask(found.join(coin), lab, view, board=board, edges=edges, sizes=sizes)[-1]:
        return PieceDetections.empty()
    return coin
