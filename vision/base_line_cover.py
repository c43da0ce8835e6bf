"""Carrom: a striker placed between two base lines, known by the stretch of both lines it hides.

On a board the camera gives few pixels, a pale striker on a pale board may show no rim at all. Placed to shoot, it
lies centred between the two base lines of a pair, and being wider than their gap it hides both over the same
stretch, a chord of about 26 mm (41 mm striker, lines 31.8 mm apart). A coin is no wider than the gap: it hides both
over a striker's chord rarely, and then beside where it is read (tuning still 96238: 20 mm, a white read 11 mm off).
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.geometry import CarromBoard
from vision.carrom_print import base_band_middle_mm
from vision.classify_pieces import Classes
from vision.piece_colours import piece_colours
from vision.piece_detections import PieceDetections, piece_sizes
from vision.rectify_board import BoardView

STRIKER_CHORD_MM = (18.0, 30.0)
"""Length of the stretch both lines must be hidden over. Synthetic 1280x720 carrom stills 96060-96259, 97000-97199
and 98000-98199: over the 215 strikers the reader found between base lines, 10 to 34 mm (169 of them 18 to 30); with
no piece within 20 mm, three stretches, of 15, 17 and 17 mm; 8 more of 18 to 30 mm lay beside coins, all read."""

HIDDEN_CONTRAST_SHARE = 0.4
"""A line is hidden where it stands from the board beside it by less than this share of its median contrast."""

MIN_LINE_CONTRAST = 8.0
"""Least median lightness difference (8-bit Lab) between a base line and the board beside it for the line to be
looked at: a board whose lines hardly show hides them everywhere."""

SIDE_OFFSET_MM = 5.0
"""How far beside a line, away from its pair, the board it is compared with is sampled."""

LINE_WIDTH_MM = 3.0
"""Width across a line within which its darkest (or lightest) lightness is taken: the line and its blur."""

CLEAR_OF_PIECES_MM = 25.0
"""A hidden stretch whose middle lies this near a piece read is that piece's doing."""

SAME_PLACE_MM = 5.0
"""A white read this near a hidden stretch's middle is the striker there, fitted by an inner rim."""

SAMPLE_STEP_MM = 1.0


def hidden_stretches_mm(view: BoardView, *, board: CarromBoard) -> np.ndarray:
    """Middles and lengths of the stretches where both base lines of a pair are hidden.

    Parameters
    ----------
    view : BoardView of a carrom board.
    board : the board model that was rectified.

    Returns
    -------
    (n, 3) float ndarray: x_mm, y_mm of each stretch's middle (between the lines) and its length in mm.

    Examples
    --------
    >>> hidden_stretches_mm(view, board=load_board("carrom"))  # doctest: +SKIP
    """
    if not isinstance(board, CarromBoard):
        raise ValueError(f"base lines are carrom's, not {board.game}'s")
    lightness = cv2.GaussianBlur(view.lab[:, :, 0].astype(np.float32), (0, 0), 1.0)
    middle_mm = base_band_middle_mm(board)
    half_gap_mm = board.base_line_gap_mm / 2
    # Between the base circles, which the lines run into.
    reach_mm = board.base_line_length_mm / 2 - board.base_circle_diameter_mm
    along_mm = np.arange(-reach_mm, reach_mm + SAMPLE_STEP_MM / 2, SAMPLE_STEP_MM)
    stretches = []
    for along_axis in (0, 1):
        for side in (-1, 1):
            # Each line is compared with the board on its side away from its pair.
            hidden = [_line_hidden(lightness, view, along_mm, side * (middle_mm + offset_mm), along_axis=along_axis,
                                   away_mm=side * np.sign(offset_mm) * SIDE_OFFSET_MM)
                      for offset_mm in (-half_gap_mm, half_gap_mm)]
            if any(h is None for h in hidden):
                continue
            for first, last in _runs(hidden[0] & hidden[1]):
                middle = _line_points_mm(np.array([(along_mm[first] + along_mm[last]) / 2]), side * middle_mm,
                                         along_axis)[0]
                stretches.append((*middle, along_mm[last] - along_mm[first] + SAMPLE_STEP_MM))
    return np.array(stretches, np.float64).reshape(-1, 3)


def striker_hiding_base_lines(view: BoardView, found: PieceDetections, classes: Classes, *,
                              board: CarromBoard) -> tuple[PieceDetections, Classes]:
    """The pieces read, with the striker where both base lines of a pair are hidden over a striker's chord.

    Called where no striker was read. A white read at the stretch's middle is the striker (its inner rim fitted); a
    stretch clear of every piece read is a striker that showed no rim, added at the stretch's middle.

    Parameters
    ----------
    view : BoardView of a carrom board.
    found : the pieces read in it, none of them named striker.
    classes : their classes (`classify_pieces`).
    board : the board model that was rectified.

    Returns
    -------
    The detections and their classes, with at most one striker more, named or added.

    Examples
    --------
    >>> found, classes = striker_hiding_base_lines(view, found, classes, board=board)  # doctest: +SKIP
    """
    stretches = hidden_stretches_mm(view, board=board)
    low, high = STRIKER_CHORD_MM
    stretches = stretches[(stretches[:, 2] >= low) & (stretches[:, 2] <= high)]
    for x_mm, y_mm, _ in stretches[np.argsort(-stretches[:, 2], kind="stable")]:
        gaps = np.hypot(found.centres_mm[:, 0] - x_mm, found.centres_mm[:, 1] - y_mm)
        if len(found) and gaps.min() < CLEAR_OF_PIECES_MM:
            nearest = int(np.argmin(gaps))
            if gaps[nearest] < SAME_PLACE_MM and classes.kinds[nearest] == "white":
                kinds = list(classes.kinds)
                kinds[nearest] = "striker"
                return found, Classes(tuple(kinds), classes.margin)
            continue
        sizes = piece_sizes(board)
        centre = np.array([[x_mm, y_mm]])
        colour, surround = piece_colours(view.lab, view, centre, np.array([1]), sizes, board)
        striker = PieceDetections(centre, np.array([sizes[1].radius_mm]), np.array([1]), np.array([0.5]), colour,
                                  surround, np.array([True]))
        return found.join(striker), Classes((*classes.kinds, "striker"), np.append(classes.margin, 0.0))
    return found, classes


def _line_hidden(lightness: np.ndarray, view: BoardView, along_mm: np.ndarray, across_mm: float, *,
                 along_axis: int, away_mm: float) -> np.ndarray | None:
    """Where a straight line of the print (`across_mm` from the board's centre, running along `along_axis`) is hidden,
    at each of `along_mm`; None where it stands too little from the board to tell."""
    def at(offset_mm: float) -> np.ndarray:
        return _sample(lightness, view.to_px(_line_points_mm(along_mm, across_mm + offset_mm, along_axis)))

    line = np.stack([at(w) for w in np.linspace(-LINE_WIDTH_MM / 2, LINE_WIDTH_MM / 2, 5)])
    beside = at(away_mm)
    contrast = beside - line.min(axis=0)
    if np.median(contrast) < 0:
        # Light print on a dark board.
        contrast = beside - line.max(axis=0)
    typical = float(np.median(contrast))
    if abs(typical) < MIN_LINE_CONTRAST:
        return None
    return contrast / typical < HIDDEN_CONTRAST_SHARE


def _line_points_mm(along_mm: np.ndarray, across_mm: float, along_axis: int) -> np.ndarray:
    """Board points (n, 2) at `along_mm` along an axis and `across_mm` across it."""
    across = np.full_like(along_mm, across_mm)
    return np.column_stack([along_mm, across] if along_axis == 0 else [across, along_mm])


def _sample(image: np.ndarray, points_px: np.ndarray) -> np.ndarray:
    """Bilinear samples of a float image at (n, 2) pixel points."""
    xy = points_px.astype(np.float32)
    return cv2.remap(image, xy[:, 0].reshape(1, -1), xy[:, 1].reshape(1, -1), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE).reshape(-1)


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """First and last index of each run of true values."""
    edges = np.diff(np.concatenate([[0], flags.astype(np.int8), [0]]))
    return list(zip(np.nonzero(edges == 1)[0], np.nonzero(edges == -1)[0] - 1))
