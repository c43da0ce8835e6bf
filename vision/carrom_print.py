"""Carrom's print: where the board draws coin-sized figures, and how a circle found there is told from a coin.

The board prints filled base circles, base lines a coin's width apart, the centre
figure, and corner arrows ending in open arcs. Each can raise a coin-sized rim of
its own. A circle over the print is the print where it looks like the print does
elsewhere on the same board: the eight base circles measured at once, the board's
symmetric places, the flat face under a light that shades the coins.
"""

from __future__ import annotations

import math

import numpy as np

from calibration.geometry import BoardModel, CarromBoard
from vision.detect_discs import EdgeField, rim_edges
from vision.face_shading import shaded_as_coins
from vision.piece_colours import BOARD_FACE_MATCH, board_face_gap, face_spread, median_colours
from vision.piece_detections import PieceDetections, PieceSize
from vision.print_symmetry import symmetry_gap
from vision.rectify_board import BoardView

PRINT_COLOUR_MATCH = 14.0
"""Lab distance (8-bit Lab units) under which a disc on the printed centre circle is taken to be the print."""

BASE_COLOUR_MATCH = 20.0
"""The same for a disc on a base circle, against the median of all eight (coins centred on one measured 23 and up);
the most it is allowed, where the prints themselves differ (`PRINT_SPREAD_FACTOR`)."""

PRINT_RATIO_MATCH = 0.7
"""Distance between log colour ratios (face over the board around it, per BGR channel) under which a disc
on a base circle is taken to be the print: a shadow or vignette scales both alike and leaves the ratio."""

PRINT_SPREAD_FACTOR = 4.0
"""For a striker-sized circle on a base circle, the matches shrink to this many times the eight prints' median
distance from their own median, between the floors below and the matches above: prints that look alike in a view
leave less room."""

MIN_BASE_COLOUR_MATCH = 15.0
"""Floor of the striker-sized base-circle colour match (Lab)."""

MIN_PRINT_RATIO_MATCH = 0.5
"""Floor of the striker-sized base-circle ratio match."""

MAX_BASE_COLOUR_MATCH = 25.0
"""Most the coin-sized base-circle colour match widens to where the prints differ among themselves (uneven
light on a webcam frame: the prints' median distance 7, one print 20.6 off)."""

MAX_PRINT_RATIO_MATCH = 0.9
"""Most the coin-sized base-circle ratio match widens to."""

DISPLACED_PRINT_REACH = 1.9
"""How far from a model base circle, in its radii, a print displaced by a board located a few millimetres off
may be seen (webcam frames: 26 to 29 mm); short of a coin touching the print (two radii)."""

DISPLACED_PRINT_RATIO_MATCH = 0.3
"""Ratio match of a print seen away from the model's place (with the colour within `PRINT_COLOUR_MATCH`)."""

BARE_BOARD_MATCH = 12.0
"""Lab distance under which a face between the base lines is the bare board seen beyond them."""

END_DRAWER_REACH_MM = (20.0, 42.0)
"""Centre distances at which a circle beside one between the base lines (another fit, a base circle) draws its
ends: the lines draw its two sides. On tuning stills 60000-60059 and 81000-81059 each such circle around bare board
had a piece or a base circle 25 to 36 mm from it; a white coin alone between the lines (clip 5211 at 68 s, 10 Lab
units from the board beyond them) has none."""

FLAT_CENTRE_COLOUR_MATCH = 28.0
"""Lab distance from the base circles' colour under which a disc on the centre circle, its face as flat as theirs, is
the print: the bare centre circle measured up to 16 units off them on tuning stills (81019), a white coin 60 and up."""

ENGRAVING_SPREAD = 4.0
"""Lab spread over a face, beyond that of the free base circles in the same view, from which a disc on the
centre circle is a coin (the queen, engraved and shaded) rather than the print of the same colour."""

FLAT_PRINT_SPREAD = 6.0
"""Upper-quartile Lab spread of a face under which a disc on the centre circle is the flat print even with coins
all round it (the break formation with the queen gone, still 60092: 0.0); the queen's engraving and shading spread
its face 13 and up there (break formations rendered with the lights of stills 60001-60020, easy and hard)."""

MAX_PRINT_FIGURE_SPREAD = 35.0
"""Upper-quartile Lab spread of a face over which a disc inside the centre figure is the figure's print
(star points of several colours), not a piece: a coin's face is one colour and its engraving."""

BASE_LINE_END_SUPPORT = 0.6
"""Least rim support, over the parts of the rim not facing the lines, of a disc sitting between two base
lines: the lines alone draw two sides of a coin-sized circle."""

BOARD_FACE_MIN_SUPPORT = 0.92
"""Least rim support of a lone carrom disc, on a printed figure, whose face is the board's colour: a coin
as light as a birch board shows its whole rim (its edge and shadow), a circle made of printed arcs (the
arrows' open arcs, the centre circles) around bare board only part of it (arcs seen at 0.74 to 0.90,
lone light coins on birch at 0.94 and up: a narrow margin)."""

PRINT_SYMMETRY_MATCH = 10.0
"""Median Lab distance (`vision.print_symmetry.symmetry_gap`) under which a circle of the board's colour by the arrows'
arcs or in the centre figure looks like the same place under one of the board's symmetries: the print (tuning clips
5000-5003, settled frames every 4 s: circles drawn by the print 1.9 to 10, most under 4; light coins on the centre
figure 9.4 and up, most 12 and up)."""

FULL_RIM_SUPPORT = 0.95
"""Rim support from which a clear rim is a whole circle: no printed arc (open, at most 0.90) draws one."""

ARROW_ARC_RADIUS_SHARE = 0.12
"""Radius of the open arc that ends each corner arrow, as a share of the arrow's length (the simulator draws it
so; the webcam board's arcs measure alike)."""

ARC_LOCATION_SLACK_MM = 12.0
"""Added to a faint rim's clearance from an arrow's arc: a real board located a little off puts its arcs some
millimetres from the model's places (webcam frames: faint rims traced along an arc 51 to 59 mm from its centre)."""

FIGURE_FAINT_MIN_OFFSET_MM = 6.0
"""Least distance of a faint rim on the centre figure from the board's centre: nearer, its symmetric places are
itself."""

PRINTED_FAINT_MAX_FACE_SPREAD = 30.0
"""Most upper-quartile Lab spread over the face of a faint rim on print: a coin's face is one colour and its
engraving (coins on print up to 22), lettering between the base lines and the star's points are not (36 and up)."""

POCKET_CORNER_REACH_MM = 45.0
"""How far from a pocket's mouth a coin's half rim may be seen over the print (`by_pockets`): tuning stills
60000-60099, pale white coins on the arrows showing their shadow side alone 37 mm from a mouth."""

PRINT_CLEARANCE_MM = 3.0
"""Least gap between a faint rim and any printed figure (`clear_of_print`): the print's line width and blur."""

LETTERING_SHARE = (0.15, 0.75)
"""How far from the board's colour towards the print's a face lies where a faint rim encloses printed lettering (a
maker's name, in the base circles' colour): letters and the board between them (simulated clips 5142 and 5146,
grey and pale boards: 0.24 and 0.31). Faint coins lie near the board's colour or beyond the print's (tuning stills
81000-81059: -1.06 to 0.10, or 0.88 and more)."""

LETTERING_MAX_OFF_LINE = 0.1
"""How far off the line from the board's colour to the print's such a face lies, as a share of that line's
length (the lettering: 0.01 and 0.04)."""

HALF_COVERED_SHARE = (0.4, 0.8)
"""How far from the board's colour towards the print's the face of a base circle half under a pale coin lies
(simulated clips 5143 at 47 s and 5200 at 6.1 s, a white on a white and on a pale board: 0.66 and 0.67)."""

HALF_COVERED_MAX_OFF_LINE = 0.3
"""How far off that line its face may lie, as a share of the line's length (the same: 0.15 and 0.21)."""


def base_band_middle_mm(board: CarromBoard) -> float:
    """How far from the board's centre the middle between each pair of base lines lies (where a striker is placed)."""
    return board.half_side_mm - board.base_line_inset_mm - board.base_line_gap_mm / 2


def printed_discs_mm(board: BoardModel) -> np.ndarray:
    """Centres (n, 2) of filled printed circles of about a piece's size (carrom base and centre circles)."""
    if not isinstance(board, CarromBoard):
        return np.zeros((0, 2))
    along = board.base_line_length_mm / 2 - board.base_circle_diameter_mm / 2
    across = base_band_middle_mm(board)
    points = [(0.0, 0.0)]
    for sx in (-1, 1):
        for sy in (-1, 1):
            points += [(sx * along, sy * across), (sx * across, sy * along)]
    return np.array(points)


def arrow_ends_mm(board: CarromBoard) -> np.ndarray:
    """Centres (4, 2) of the open arcs that end the four corner arrows (on the diagonals)."""
    inset = board.half_side_mm - (board.arrow_start_from_corner_mm + board.arrow_length_mm) / math.sqrt(2)
    return np.array([(sx * inset, sy * inset) for sx in (-1, 1) for sy in (-1, 1)])


def _line_segments_mm(board: CarromBoard) -> tuple[np.ndarray, np.ndarray]:
    """Starts and ends (m, 2) of the board's straight print: its eight base lines and its four arrows' shafts."""
    half_length = board.base_line_length_mm / 2
    starts, ends = [], []
    for offset in (-board.base_line_gap_mm / 2, board.base_line_gap_mm / 2):
        across = base_band_middle_mm(board) + offset
        for side in (-1, 1):
            starts += [(-half_length, side * across), (side * across, -half_length)]
            ends += [(half_length, side * across), (side * across, half_length)]
    corner = board.half_side_mm - board.arrow_start_from_corner_mm / math.sqrt(2)
    tip = board.half_side_mm - (board.arrow_start_from_corner_mm + board.arrow_length_mm) / math.sqrt(2)
    for sx in (-1, 1):
        for sy in (-1, 1):
            starts.append((sx * corner, sy * corner))
            ends.append((sx * tip, sy * tip))
    return np.array(starts), np.array(ends)


def _segment_distances(points: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Distance (n, m) of each point (n, 2) from each segment starts[j]-ends[j]."""
    d = ends - starts
    offsets = points[:, None, :] - starts[None, :, :]
    t = np.clip(np.einsum("nmk,mk->nm", offsets, d) / np.einsum("mk,mk->m", d, d), 0.0, 1.0)
    apart = offsets - t[:, :, None] * d[None, :, :]
    return np.hypot(apart[:, :, 0], apart[:, :, 1])


def on_centre_figure(centres_mm: np.ndarray, board: CarromBoard) -> np.ndarray:
    """True for coin-sized circles centred (n, 2 board mm) where they overlap the centre figure's outer circle or lie
    inside it."""
    reach_mm = board.outer_circle_diameter_mm / 2 + board.coin_diameter_mm / 2
    return np.hypot(*np.reshape(centres_mm, (-1, 2)).T) < reach_mm


def clear_of_print(centres_mm: np.ndarray, board: BoardModel, *, radius_mm: float) -> np.ndarray:
    """True for circles of `radius_mm` that touch none of the board's printed figures, its frame or its pockets
    (carrom; others: all true).

    Carrom prints base lines, base circles, the centre figure and the corner arrows
    with their open arcs: each draws part of a coin-sized rim, which a faint rim
    elsewhere on the board cannot borrow.
    """
    c = np.asarray(centres_mm, np.float64).reshape(-1, 2)
    clear = clear_of_curved_print(c, board, radius_mm=radius_mm)
    if not isinstance(board, CarromBoard):
        return clear
    # The straight print is measured only where nothing else ruled a circle out: the faint search asks of many.
    still = np.nonzero(clear)[0]
    clear[still] = _segment_distances(c[still], *_line_segments_mm(board)).min(axis=1) > radius_mm + PRINT_CLEARANCE_MM
    return clear


def clear_of_curved_print(centres_mm: np.ndarray, board: BoardModel, *, radius_mm: float) -> np.ndarray:
    """True for circles of `radius_mm` that touch none of the board's curved print, its frame or its pockets
    (carrom; others: all true): they may lie over the base lines and the arrows' shafts.

    A straight line draws at most the short stretch of a rim it is tangent to (the two base lines, a coin's
    width apart, two opposite stretches); a whole rim there is a piece's.
    """
    c = np.asarray(centres_mm, np.float64).reshape(-1, 2)
    clear = np.ones(len(c), bool)
    if not isinstance(board, CarromBoard) or len(c) == 0:
        return clear
    reach = radius_mm + PRINT_CLEARANCE_MM
    # The frame's edge and the pocket mouths draw arcs too.
    clear &= np.abs(c).max(axis=1) < board.half_side_mm - reach
    pockets = np.asarray(board.pocket_centres_mm(), np.float64)
    clear &= np.hypot(c[:, None, 0] - pockets[None, :, 0], c[:, None, 1] - pockets[None, :, 1]).min(axis=1) > (
        board.pocket_diameter_mm / 2 + reach)
    bases = printed_discs_mm(board)[1:]
    clear &= np.hypot(c[:, None, 0] - bases[None, :, 0], c[:, None, 1] - bases[None, :, 1]).min(axis=1) > (
        board.base_circle_diameter_mm / 2 + reach)
    clear &= np.hypot(c[:, 0], c[:, 1]) > board.outer_circle_diameter_mm / 2 + reach
    ends = arrow_ends_mm(board)
    clear &= np.hypot(c[:, None, 0] - ends[None, :, 0], c[:, None, 1] - ends[None, :, 1]).min(axis=1) > (
        ARROW_ARC_RADIUS_SHARE * board.arrow_length_mm + reach + ARC_LOCATION_SLACK_MM)
    return clear


def printed_faint_region(centres_mm: np.ndarray, board: BoardModel, *, radius_mm: float) -> np.ndarray:
    """True for circles of `radius_mm` over carrom's printed lines, arcs, centre figure, frame edge or pocket mouths,
    clear of the base circles and the figure's very middle (others: all false).

    There a faint rim may be a piece if it is whole (`PRINTED_FAINT_RIMS`). The base circles are left out: their
    filled circles raise several faint, whole-looking rims per view for every coin lying on them, too many to verify
    within a read's time. On the centre figure, a faint rim must also look like none of the board's symmetric places
    (`vision.detect_pieces`), except at its very middle, which is its own image.
    """
    c = np.asarray(centres_mm, np.float64).reshape(-1, 2)
    if not isinstance(board, CarromBoard):
        return np.zeros(len(c), bool)
    # Kept a coin's reach from them whatever the size looked for: a striker set on the base line beside a base
    # circle lies within its own.
    reach = board.coin_diameter_mm / 2 + PRINT_CLEARANCE_MM
    bases = printed_discs_mm(board)[1:]
    clear = np.hypot(c[:, None, 0] - bases[None, :, 0], c[:, None, 1] - bases[None, :, 1]).min(axis=1) > (
        board.base_circle_diameter_mm / 2 + reach)
    clear &= np.hypot(c[:, 0], c[:, 1]) > FIGURE_FAINT_MIN_OFFSET_MM
    return clear & ~clear_of_print(c, board, radius_mm=radius_mm)


def by_pockets(centres_mm: np.ndarray, board: BoardModel, *, clear_mm: float) -> np.ndarray:
    """True for centres within `POCKET_CORNER_REACH_MM` of a carrom pocket's mouth, and at least `clear_mm` from
    the mouth and from the frame (others: all false).

    There the print is the arrows' first stretch, a straight line, which draws no coin's half rim; the mouth and the
    frame do, with a neighbour's edge, which `clear_mm` keeps out of reach.
    """
    c = np.asarray(centres_mm, np.float64).reshape(-1, 2)
    if not isinstance(board, CarromBoard):
        return np.zeros(len(c), bool)
    pockets = np.asarray(board.pocket_centres_mm(), np.float64)
    to_mouth = np.hypot(c[:, None, 0] - pockets[None, :, 0],
                        c[:, None, 1] - pockets[None, :, 1]).min(axis=1) - board.pocket_diameter_mm / 2
    return (to_mouth > clear_mm) & (to_mouth < POCKET_CORNER_REACH_MM) & (
        np.abs(c).max(axis=1) < board.half_side_mm - clear_mm)


def half_rim_region(centres_mm: np.ndarray, board: BoardModel, *, radius_mm: float, clear_mm: float) -> np.ndarray:
    """True for centres outside the clear board where a carrom coin's half rim may be looked for: by a pocket
    (`by_pockets`, `clear_mm` from the mouth and the frame) or anywhere else over the print (`printed_faint_region`).

    Over the print, a half rim must not look like the print at the board's symmetric places (`printed_half_rim`).
    """
    return by_pockets(centres_mm, board, clear_mm=clear_mm) | printed_faint_region(centres_mm, board,
                                                                                    radius_mm=radius_mm)


def printed_half_rim(lab: np.ndarray, view: BoardView, centres_mm: np.ndarray, *, board: CarromBoard,
                     occupied_mm: np.ndarray) -> np.ndarray:
    """True for half rims over the print that look alike at one of the board's free symmetric places: the print
    itself, or bare board between neighbours, which draw half rims where an arc or a line meets a neighbour's edge.

    A coin lies at one place only. Where no symmetric place is free, nothing is decided (false).
    """
    c = np.asarray(centres_mm, np.float64).reshape(-1, 2)
    if len(c) == 0:
        return np.zeros(0, bool)
    gaps = symmetry_gap(lab, view.to_px(c), radius_px=board.coin_diameter_mm / 2 * view.px_per_mm,
                        occupied_px=view.to_px(occupied_mm))
    return np.isfinite(gaps) & (gaps < PRINT_SYMMETRY_MATCH)


def printed_outline(found: PieceDetections, lab: np.ndarray, view: BoardView, *, board: CarromBoard,
                    by_other_print: bool = False) -> np.ndarray:
    """True for circles drawn by printed outlines around bare board: the arrows' arcs, the centre circles.

    Such a circle's face is the board's own colour. The print looks alike at the
    board's symmetric places, a coin at one place only (`symmetry_gap`). Where no
    symmetric place is free to compare with, only part of the print circle's rim
    is drawn: a light coin on a light board matches the board too, but it shows
    its whole rim, or lies among coins whose rims draw part of its own; so the
    test is then kept to lone circles where the print has arcs of a coin's size.

    With `by_other_print`, clear circles of the board's colour by the base circles and the arrows' lines are judged
    by the symmetric places too.
    """
    if len(found) == 0:
        return np.zeros(0, bool)
    c = found.centres_mm
    coin_mm = board.coin_diameter_mm
    ends = arrow_ends_mm(board)
    to_arrow = np.hypot(c[:, None, 0] - ends[None, :, 0], c[:, None, 1] - ends[None, :, 1]).min(axis=1)
    # Touching the arc: its radius from its centre, plus a coin's and the line's width.
    near_arrow = to_arrow < ARROW_ARC_RADIUS_SHARE * board.arrow_length_mm + coin_mm / 2 + PRINT_CLEARANCE_MM
    in_figure = on_centre_figure(c, board)
    between = np.hypot(c[:, None, 0] - c[None, :, 0], c[:, None, 1] - c[None, :, 1])
    touching = (between > 0) & (between < found.radii_mm[:, None] + found.radii_mm[None, :] + 4.0)
    lone = touching.sum(axis=1) < 2
    bare = board_face_gap(lab, view, found.colour_lab, board=board) < BOARD_FACE_MATCH
    drawn = bare & (near_arrow | in_figure)
    outline = drawn & lone & (found.support < BOARD_FACE_MIN_SUPPORT)
    # Where the board's symmetric places are free to compare with, they decide: the print looks alike at them, a coin
    # lies at one place only. So too by the base circles and the arrows' lines, where a face the light shades as it
    # shades the coins' is a coin's whatever the print around it; not over the base lines nor by the frame, where
    # coins under dim light look much like the bare places.
    beside_lines = (base_line_bands(c, board) >= 0) | (np.abs(c).max(axis=1) > board.half_side_mm - coin_mm)
    # No print there draws a striker's whole rim (the base circles are a coin's size, the arrows' arcs twice a
    # striker's): a pale striker lying across an arrow's line is judged by its rim (simulated clip 5221 at 57.7 s,
    # 1080p: a white striker on a cream board, 0.97 of its rim seen, was taken for the bare board).
    whole_striker = (found.size == 1) & (found.support >= BOARD_FACE_MIN_SUPPORT)
    by_print = (bare & ~drawn & ~clear_of_print(c, board, radius_mm=coin_mm / 2) & ~beside_lines & ~whole_striker
                & by_other_print)
    looked = np.nonzero(drawn | by_print)[0]
    gaps = symmetry_gap(lab, view.to_px(c[looked]), radius_px=coin_mm / 2 * view.px_per_mm,
                        occupied_px=view.to_px(c))
    compared, alike = np.zeros(len(found), bool), np.zeros(len(found), bool)
    compared[looked], alike[looked] = np.isfinite(gaps), gaps < PRINT_SYMMETRY_MATCH
    outline = np.where(compared & drawn, alike, outline)
    judged = alike & by_print
    if judged.any():
        coins = clear_coins(found.filter(~outline & ~judged))
        outline[judged] = ~shaded_as_coins(c[judged], coins, lab, view, radius_mm=coin_mm / 2)
    return outline


def coin_on_print(candidates: PieceDetections, colour: np.ndarray, surround: np.ndarray, found: PieceDetections,
                  lab: np.ndarray, view: BoardView, sizes: tuple[PieceSize, ...], board: BoardModel, *,
                  edges: EdgeField) -> np.ndarray:
    """True for faint carrom rims over the print that are coins: a face of one colour, not the print itself
    (`printed_mask`, `printed_outline`)."""
    s = view.px_per_mm
    c = candidates.centres_mm
    looked = PieceDetections(c, candidates.radii_mm, candidates.size, candidates.support, colour, surround)
    face_even = face_spread(lab, view.to_px(c), colour, radius_px=0.6 * sizes[0].radius_mm * s) <= (
        PRINTED_FAINT_MAX_FACE_SPREAD)
    joined = found.join(looked)
    printed = printed_mask(joined, lab, view, board=board, edges=edges, sizes=sizes)[len(found):]
    outline = printed_outline(joined, lab, view, board=board)[len(found):]
    return face_even & ~printed & ~outline


def base_print_lab(lab: np.ndarray, view: BoardView, *, board: CarromBoard) -> np.ndarray:
    """8-bit Lab colour of the board's filled base circles: the median of the eight's (pieces lie on a few)."""
    s = view.px_per_mm
    colours = median_colours(lab, view.to_px(printed_discs_mm(board)[1:]), inner_px=0.0,
                             outer_px=0.5 * board.base_circle_diameter_mm / 2 * s)
    return np.median(colours, axis=0)


def printed_lettering(colour_lab: np.ndarray, surround_lab: np.ndarray, print_lab: np.ndarray) -> np.ndarray:
    """True for faces that are the board's colour thinned towards its print's: letters seen through a faint rim.

    Parameters
    ----------
    colour_lab, surround_lab : (n, 3) 8-bit Lab of each rim's face and of the board just around it.
    print_lab : (3,) 8-bit Lab of the board's print (`base_print_lab`).
    """
    return _between_board_and_print(colour_lab, surround_lab, print_lab, share=LETTERING_SHARE,
                                    max_off_line=LETTERING_MAX_OFF_LINE)


def _between_board_and_print(colour_lab: np.ndarray, surround_lab: np.ndarray, print_lab: np.ndarray, *,
                             share: tuple[float, float], max_off_line: float) -> np.ndarray:
    """True for faces lying on the line from the board's colour around them to the print's, within `share` of
    the way along it and at most `max_off_line` of its length off it."""
    towards = np.asarray(print_lab, np.float64)[None, :] - surround_lab
    seen = colour_lab - surround_lab
    length2 = np.maximum((towards ** 2).sum(axis=1), 1e-9)
    along = (seen * towards).sum(axis=1) / length2
    off_line = np.linalg.norm(seen - along[:, None] * towards, axis=1) / np.sqrt(length2)
    low, high = share
    return (along >= low) & (along <= high) & (off_line <= max_off_line)


def clear_coins(found: PieceDetections) -> np.ndarray:
    """Centres (n, 2) of the coin-sized detections whose rims are whole."""
    return found.centres_mm[(found.size == 0) & (found.support >= FULL_RIM_SUPPORT)]


def second_queens_on_figure(found: PieceDetections, kinds: tuple[str, ...], board: BoardModel) -> np.ndarray:
    """True for the pieces named queen, beside a better one, that lie on the centre figure: its red star points and
    centre circle, seen through a gap among coins or beside a coin, draw coin-sized red circles (tuning stills 96001,
    96099, 96155 at 1280x720: the queen's rim whole or nearly, 0.97 to 1.0 of it seen, the print's 0.85 to 0.94).

    A board holds one queen. The best is the one with a clear rim before a faint one, then the most of its rim seen;
    a second one off the figure is left as it is, for it is no print.
    """
    queens = np.nonzero(np.asarray(kinds) == "queen")[0] if len(kinds) else np.zeros(0, int)
    second = np.zeros(len(found), bool)
    if not isinstance(board, CarromBoard) or len(queens) < 2:
        return second
    best = queens[np.lexsort((-found.support[queens], found.is_faint[queens]))[0]]
    second[queens] = on_centre_figure(found.centres_mm, board)[queens]
    second[best] = False
    return second


def _log_ratios(image_bgr: np.ndarray, centres_px: np.ndarray, *, radius_px: float) -> np.ndarray:
    """Per circle, log of the face's median BGR over the board's just around it (n, 3)."""
    # Offset so that black stays finite.
    face = median_colours(image_bgr, centres_px, inner_px=0.0, outer_px=0.6 * radius_px) + 4.0
    around = median_colours(image_bgr, centres_px, inner_px=1.3 * radius_px, outer_px=1.6 * radius_px) + 4.0
    return np.log(face / around)


def _lab_gap(colour_lab: np.ndarray, reference_lab: np.ndarray) -> np.ndarray:
    """Lab distance of each colour (n, 3) from a reference, lightness counting half (light falls unevenly)."""
    return np.linalg.norm((colour_lab - reference_lab) * np.array([0.5, 1.0, 1.0]), axis=1)


def base_line_bands(centres_mm: np.ndarray, board: CarromBoard) -> np.ndarray:
    """Per centre, the axis (0: x, 1: y) of the pair of base lines it sits between, or -1.

    Only the stretch between the two base circles counts: a coin-sized circle
    there touches both lines.
    """
    c = np.asarray(centres_mm, np.float64).reshape(-1, 2)
    across = base_band_middle_mm(board)
    along = board.base_line_length_mm / 2 - board.base_circle_diameter_mm / 2
    axis = np.full(len(c), -1)
    for lines_along in (0, 1):
        between = (np.abs(np.abs(c[:, 1 - lines_along]) - across) < 0.15 * board.base_line_gap_mm) & (
            np.abs(c[:, lines_along]) < along)
        axis[between] = lines_along
    return axis


def printed_mask(found: PieceDetections, lab: np.ndarray, view: BoardView, *, board: BoardModel,
                 edges: EdgeField, sizes: tuple[PieceSize, ...]) -> np.ndarray:
    """True for detections that are the board's own print rather than pieces lying on it.

    Carrom prints coin-sized figures at known places: filled base circles (told
    from a coin on them by their colour against the board around, measured on all
    eight at once, most of which are free), the centre circle and the figure
    around it (several colours inside one circle), and base lines a coin's width
    apart (a circle between them has its rim drawn by the lines only on two sides).
    """
    if not isinstance(board, CarromBoard) or len(found) == 0:
        return np.zeros(len(found), bool)
    s = view.px_per_mm
    radius = board.base_circle_diameter_mm / 2
    prints_mm = printed_discs_mm(board)
    bases_mm = prints_mm[1:]
    gaps = np.hypot(bases_mm[:, None, 0] - found.centres_mm[None, :, 0],
                    bases_mm[:, None, 1] - found.centres_mm[None, :, 1])
    # Boards place their base circles a few millimetres differently from the model: a detection on one says where.
    nearest = np.argmin(gaps, axis=1)
    seen_at = np.where((gaps[np.arange(len(bases_mm)), nearest] < 0.8 * radius)[:, None],
                       found.centres_mm[nearest], bases_mm)
    seen_px = view.to_px(seen_at)
    print_ratios = _log_ratios(view.image, seen_px, radius_px=radius * s)
    reference_ratio = np.median(print_ratios, axis=0)
    print_lab = median_colours(lab, seen_px, inner_px=0, outer_px=0.6 * radius * s)
    reference_lab = np.median(print_lab, axis=0)
    # How alike the eight prints look in this view sets how near a disc on one must be to count as the print.
    # A striker-sized circle there is the print's outer ring, its face the print alone, or the striker: alike
    # prints narrow its matches (a pale striker on a yellow base circle stands 15 to 19 Lab units off, where the
    # prints lie within 2 of each other). A coin-sized circle's surround takes in its neighbours: its matches only
    # widen, where uneven light makes the prints themselves differ.
    large = found.size == 1
    colour_spread = PRINT_SPREAD_FACTOR * np.median(_lab_gap(print_lab, reference_lab))
    ratio_spread = PRINT_SPREAD_FACTOR * np.median(np.linalg.norm(print_ratios - reference_ratio, axis=1))
    colour_match = np.where(large, np.clip(colour_spread, MIN_BASE_COLOUR_MATCH, BASE_COLOUR_MATCH),
                            np.clip(colour_spread, BASE_COLOUR_MATCH, MAX_BASE_COLOUR_MATCH))
    ratio_match = np.where(large, np.clip(ratio_spread, MIN_PRINT_RATIO_MATCH, PRINT_RATIO_MATCH),
                           np.clip(ratio_spread, PRINT_RATIO_MATCH, MAX_PRINT_RATIO_MATCH))
    # A flat print's face varies only by the image's noise; an engraved, shaded coin's face more.
    print_spread = float(np.median(face_spread(lab, seen_px, print_lab, radius_px=0.6 * radius * s)))
    centres_px = view.to_px(found.centres_mm)
    spread = face_spread(lab, centres_px, found.colour_lab, radius_px=0.6 * sizes[0].radius_mm * s)
    ratios = _log_ratios(view.image, centres_px, radius_px=radius * s)
    colour_gap = _lab_gap(found.colour_lab, reference_lab)
    looks_printed = colour_gap < PRINT_COLOUR_MATCH
    on_base = gaps.min(axis=0) < 0.8 * radius
    ratio_gap = np.linalg.norm(ratios - reference_ratio, axis=1)
    # A striker-sized circle there must match in both ways: a striker of the print's colour (yellow on a yellow
    # base circle) half over it differs from it in how its face stands from the board.
    matched = np.where(large, (colour_gap < colour_match) & (ratio_gap < ratio_match),
                       (colour_gap < colour_match) | (ratio_gap < ratio_match))
    base_print = on_base & matched
    # A board located a little off puts its prints up to a print's width from the model's places: one seen there
    # is the print only if it matches it closely in both ways.
    near_base = gaps.min(axis=0) < DISPLACED_PRINT_REACH * radius
    base_print |= near_base & (colour_gap < PRINT_COLOUR_MATCH) & (ratio_gap < DISPLACED_PRINT_RATIO_MATCH)
    # A base circle half under a pale coin: the print's rim and the coin's draw one circle round the print, its face
    # the print thinned towards the board's colour; a queen on it shows the print's colour all through.
    base_print |= on_base & _between_board_and_print(found.colour_lab, found.surround_lab, reference_lab,
                                                     share=HALF_COVERED_SHARE, max_off_line=HALF_COVERED_MAX_OFF_LINE)
    # A lamp's light falls off across the board and shades the eight prints apart, but leaves them alike in
    # pattern: a circle there that looks like its symmetric places, each one's own colour taken out, is the print.
    unsure = np.nonzero(on_base & ~base_print)[0]
    if len(unsure):
        symmetric = symmetry_gap(lab, centres_px[unsure], radius_px=radius * s,
                                 occupied_px=centres_px[~base_print]) < PRINT_SYMMETRY_MATCH
        base_print[unsure] = symmetric
    at_centre = np.hypot(found.centres_mm[:, 0], found.centres_mm[:, 1]) < 0.8 * radius
    # The queen set on the centre circle in the break formation: a piece with coins all round it.
    between = np.hypot(found.centres_mm[:, None, 0] - found.centres_mm[None, :, 0],
                       found.centres_mm[:, None, 1] - found.centres_mm[None, :, 1])
    surrounded = ((between > 0) & (between < 2 * radius + 4.0)).sum(axis=1) >= 6
    engraved = spread > print_spread + ENGRAVING_SPREAD
    # Ringed by coins, a face as even as flat paint is still the print: the queen taken from the break formation.
    flat = spread < FLAT_PRINT_SPREAD
    # A face flatter than the base prints' own is paint, though the centre circle's red may stand further from
    # theirs than a queen's does (tuning stills: bare centres 0 to 7 Lab units of spread, queens on it 12 and up).
    flat_as_print = (spread <= print_spread) & (colour_gap < FLAT_CENTRE_COLOUR_MATCH)
    centre_print = at_centre & (looks_printed | flat_as_print) & (~surrounded | flat) & ~engraved
    in_figure = np.hypot(found.centres_mm[:, 0], found.centres_mm[:, 1]) < board.outer_circle_diameter_mm / 2
    figure_print = in_figure & (spread > MAX_PRINT_FIGURE_SPREAD)
    band = base_line_bands(found.centres_mm, board)
    line_print = np.zeros(len(found), bool)
    coins_between = np.nonzero((band >= 0) & (found.size == 0))[0]
    if len(coins_between):
        drawers_mm = np.vstack([found.centres_mm, bases_mm])
        drawer_gaps = np.hypot(*(found.centres_mm[coins_between, None] - drawers_mm[None]).transpose(2, 0, 1))
        beside = ((drawer_gaps > END_DRAWER_REACH_MM[0]) & (drawer_gaps < END_DRAWER_REACH_MM[1])).any(axis=1)
        seen, angles = rim_edges(edges, centres_px[coins_between], radius_px=sizes[0].radius_mm * s)
        beyond_mm = board.base_line_gap_mm / 2 + 6.0
        for row, i in enumerate(coins_between):
            # Lines along board x run along view columns; the rim facing them is where the ray is across them.
            along_ray = np.abs(np.cos(angles)) if band[i] == 0 else np.abs(np.sin(angles))
            ends = along_ray > np.cos(np.radians(50))
            across = np.eye(2)[1 - band[i]] * beyond_mm
            outside = median_colours(lab, view.to_px(found.centres_mm[i] + np.array([across, -across])),
                                     inner_px=0, outer_px=4.0 * s)
            # Neighbours may draw the ends of the rim too: where one does, a face that is the bare board beyond the
            # lines is no coin (alone between the lines, a white coin on a white board is as pale as the board).
            bare = np.min(np.linalg.norm(outside - found.colour_lab[i], axis=1)) < BARE_BOARD_MATCH
            line_print[i] = seen[row][ends].mean() < BASE_LINE_END_SUPPORT or (bare and beside[row] and not engraved[i])
    if centre_print.any():
        # The queen put back on the centre circle: the light shades it as it shades the coins lying elsewhere.
        coins = clear_coins(found.filter(~(at_centre | base_print | figure_print | line_print)))
        centre_print[centre_print] = ~shaded_as_coins(found.centres_mm[centre_print], coins, lab, view,
                                                        radius_mm=sizes[0].radius_mm)
    return base_print | centre_print | figure_print | line_print
