"""Pieces of one game in a rectified board view: discs of the game's sizes, minus what the board itself shows.

The board model says which sizes to look for (carrom coin and striker, couronne
ring and shooter, crokinole disc) and where the board has things of that size
that are not pieces: pockets (a piece whose centre is over a pocket is in it),
carrom's filled base circles and centre circle (told from a piece lying on them
by their print colour, sampled from all of them at once), the ditch around a
crokinole surface. Overlapping circles are resolved greedily, best rim first:
pieces lying flat touch at most.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from calibration.geometry import BoardModel, CarromBoard, CouronneBoard, CrokinoleBoard
from vision.detect_discs import (PEAK_VOTE_SHARE, EdgeField, FaintRims, find_discs, lab_edge_field, longest_arc,
                                 rim_edges, rim_radius, verify_rims)
from vision.face_shading import face_shading
from vision.masked_median import masked_median
from vision.print_symmetry import symmetry_gap
from vision.rectify_board import BoardView
from vision.striker_rim import coins_grown, striker_among_coins
from vision.zones import hole_mask

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

ENGRAVING_SPREAD = 4.0
"""Lab spread over a face, beyond that of the free base circles in the same view, from which a disc on the
centre circle is a coin (the queen, engraved and shaded) rather than the print of the same colour."""

SHADING_MATCH = 0.5
"""Share of the coins' common face shading that a disc on the centre circle shows along the same way, from which
it is a coin standing in the light (the queen put back) rather than the flat print of the same colour (tuning clips
5000-5003, settled frames: the queen alone there 0.53 to 1.11, the bare print up to 0.46)."""

MIN_COIN_SHADING = 6.0
"""Least L change (8-bit Lab) across the coins' faces, centre to rim, for their shading to tell coins from print:
under an even, diffuse light it does not."""

SHADED_FACE_SHARE = 0.6
"""Share of a coin's radius over which its face's shading is measured: the middle, clear of the print round it
where a rim is placed a little off."""

SHADING_MIN_COINS = 2
"""Least clearly seen coins away from the centre whose faces show the light's way."""

MAX_PRINT_FIGURE_SPREAD = 35.0
"""Upper-quartile Lab spread of a face over which a disc inside the centre figure is the figure's print
(star points of several colours), not a piece: a coin's face is one colour and its engraving."""

BASE_LINE_END_SUPPORT = 0.6
"""Least rim support, over the parts of the rim not facing the lines, of a disc sitting between two base
lines: the lines alone draw two sides of a coin-sized circle."""

POCKET_MOUTH_SLACK_MM = 4.0
"""How far over a pocket's mouth a measured centre may lie and the piece still count as on the board. A light coin
half over the dark mouth is fitted up to 5 mm towards the pocket (stills 60000-60119: centres 23 to 27 mm from the
pocket's, measured 20 to 23); a pocketed piece lies at the pocket's centre, well inside."""

PARALLAX_MARGIN_MM = 6.0
"""How far past the surface's limits a top face may be seen (the exact test follows the parallax correction)."""

STEP_MIN_LAB = 8.0
"""Lab distance between the two sides of a rim point for it to count as a colour step."""

MIN_STEP_SHARE = 0.5
"""Least share of a piece's rim that must show a colour step (a filled disc, not a printed outline)."""

BOARD_FACE_MATCH = 12.0
"""Lab distance (lightness counting half) under which a carrom disc's face is the bare board's own colour."""

BOARD_FACE_MIN_SUPPORT = 0.92
"""Least rim support of a lone carrom disc, on a printed figure, whose face is the board's colour: a coin
as light as a birch board shows its whole rim (its edge and shadow), a circle made of printed arcs (the
arrows' open arcs, the centre circles) around bare board only part of it (arcs seen at 0.74 to 0.90,
lone light coins on birch at 0.94 and up: a narrow margin)."""

MIN_STEP_SHARE_CARROM = 0.62
"""The same on a carrom board, whose arrows end in open arcs a coin's size that outline half a circle."""

PRINT_SYMMETRY_MATCH = 10.0
"""Median Lab distance (`vision.print_symmetry.symmetry_gap`) under which a circle of the board's colour by the arrows'
arcs or in the centre figure looks like the same place under one of the board's symmetries: the print (tuning clips
5000-5003, settled frames every 4 s: circles drawn by the print 1.9 to 10, most under 4; light coins on the centre
figure 9.4 and up, most 12 and up)."""

FULL_RIM_SUPPORT = 0.95
"""Rim support from which a clear rim is a whole circle: no printed arc (open, at most 0.90) draws one."""

FULL_RIM_MIN_STEP_SHARE = 0.45
"""Least colour-step share of such a whole rim (white coins on birch: 0.58 to 0.60)."""

FAINT_RIMS = FaintRims()
"""What a rim with few votes must show to be a piece (`vision.detect_discs.FaintRims`)."""

FAINT_RINGS = FaintRims(least_screen_support=0.7)
"""The same for couronne rings, whose faint rims show whole at the first, unfitted look (stills 60000-60119: those
kept 0.94 and up): a stricter screen spares verifying most of the wood's texture."""

FAINT_MIN_STEP_SHARE = 0.75
"""Least share of a faint rim that must show a colour step: its face must stand apart from the board all round."""

FAINT_MAX_SURROUND_SPREAD = 35.0
"""Most upper-quartile Lab spread of the board just around a faint rim (synthetic coins up to 31, the webcam
robot's rods and rails 39 and up)."""

ARROW_ARC_RADIUS_SHARE = 0.12
"""Radius of the open arc that ends each corner arrow, as a share of the arrow's length (the simulator draws it
so; the webcam board's arcs measure alike)."""

ARC_LOCATION_SLACK_MM = 12.0
"""Added to a faint rim's clearance from an arrow's arc: a real board located a little off puts its arcs some
millimetres from the model's places (webcam frames: faint rims traced along an arc 51 to 59 mm from its centre)."""

CROKINOLE_FAINT_MIN_FACE_GAP = 20.0
"""Least Lab distance between a crokinole faint rim's face and the board around it (`_faint_pieces`): faint
discs on synthetic stills 22 to 45 (one light disc on pale maple 9.6, left out); arcs of the wood's grain on the
real photos enclose the board's own colour, at most 17.6."""

CROKINOLE_FAINT_MAX_FACE_SPREAD = 15.0
"""Most upper-quartile Lab spread over a crokinole faint rim's face from its median: a disc's face is even
(synthetic faint discs 7 to 14), grain is not (real photos 10 to 25)."""

PRINTED_FAINT_RIMS = FaintRims(least_vote_share=0.03, min_support=0.85, min_sectors=7, least_screen_support=0.85)
"""What a faint carrom rim over the board's lines and arcs must show (`printed_faint_region`): a printed line
through a coin or beside it takes votes from its rim, and lines and arcs draw parts of coin-sized circles, never a
whole one (stills 60000-60119: coins on print 0.85 to 1.0 of their rims seen at the first look and after fitting,
print mostly under). A line's own votes pile into a ridge of weak peaks along it (about 370 per view from 0.02 of a
full rim's votes, 80 from 0.03); the coins on it gather 0.03 and up."""

PRINTED_FAINT_STRIKER_RIMS = dataclasses.replace(PRINTED_FAINT_RIMS, least_vote_share=0.02)
"""The same for the striker's rim: a player sets it on the base lines, whose two lines take the votes of its rim
where they cross it (tuning and check stills: pale strikers there gather 0.026 to 0.028 of a full rim's votes).
Striker-sized circles are fewer along the lines than coin-sized ones."""

FIGURE_FAINT_MIN_OFFSET_MM = 6.0
"""Least distance of a faint rim on the centre figure from the board's centre: nearer, its symmetric places are
itself."""

PRINTED_FAINT_MIN_STEP_SHARE = 0.9
"""Least colour-step share of such a rim (coins on print 0.9 to 1.0)."""

PRINTED_FAINT_MAX_FACE_SPREAD = 30.0
"""Most upper-quartile Lab spread over the face of a faint rim on print: a coin's face is one colour and its
engraving (coins on print up to 22), lettering between the base lines and the star's points are not (36 and up)."""

HALF_RIMS = FaintRims(least_vote_share=0.02, min_support=0.4, min_sectors=3, max_residual_px=0.55,
                      max_radius_error=0.12, least_screen_support=0.4)
"""What a carrom coin's rim seen in part only must show, clear of the print (a white coin on a pale board shows its
shadow side alone; tuning stills 60000-60119: such coins 0.42 to 0.74 of their rims seen, residuals up to 0.51 px,
radii 14.6 to 17.3 mm, the shadow widening them). Such a rim must also show a coin's face (`HALF_RIM_*`)."""

HALF_RIM_MAX_SURROUND_SPREAD = 15.0
"""Most upper-quartile Lab spread of the board just around a half rim (such coins up to 14.6; texture and print that
draw half rims, 30 at the 90th percentile)."""

HALF_RIM_MAX_FACE_SPREAD = 25.0
"""Most upper-quartile Lab spread over a half rim's face (such coins 8 to 23)."""

HALF_RIM_MIN_ARC = 0.375
"""Least share of a half rim seen in one unbroken arc: a coin's shadow side is one (such coins 0.38 to 0.62), the
edges of printed lettering are broken (0.31 to 0.35)."""

PRINT_CLEARANCE_MM = 3.0
"""Least gap between a faint rim and any printed figure (`clear_of_print`): the print's line width and blur."""

TOUCHING_ROUNDS = 3
"""Rounds of looking for pieces wedged between found ones (each found one opens new places)."""

TOUCHING_GAP_MM = 0.5
"""Gap assumed between touching pieces when placing a wedged piece between two found ones."""

TOUCHING_PLACE_SPACING_MM = 0.25
"""Places named by several pairs of found pieces closer than this are looked at once."""

TOUCHING_RIMS = FaintRims(min_support=0.65, min_sectors=6, max_residual_px=1.2, max_radius_error=0.15)
"""What the rim of a wedged piece must show (`vision.detect_discs.FaintRims`; carrom stills 60000-60119: wedged
coins 0.68 and up of their rims seen, residuals up to 1.1 px)."""

TOUCHING_MIN_STEP_SHARE = 0.75
"""Least colour-step share of a wedged piece's rim (wedged coins 0.79 and up; half of the places between coins
that hold none, 0.69 and under)."""

TOUCHING_MAX_FACE_SPREAD = 22.0
"""Most upper-quartile Lab spread over a wedged piece's face (coins up to 21; print figures far more)."""

TOUCHING_MIN_SURROUND_GAP = 20.0
"""Least Lab distance between a wedged piece's face and the board just around it (coins 21 and up)."""

TOUCHING_MIN_SHADING = 10.0
"""Least face spread of a wedged piece of the board's own colour: a white coin on a pale board shows its rim's
shading and engraving (11.6 and up), a gap of bare board between coins only the image's noise (8 at most)."""


SHOOTER_MIN_COLOUR_GAP = 20.0
"""Least a*b* distance from the nearer team's colour (`_off_team_colour`) of a couronne shooter told by colour
(stills 60000-60039: shooters 14 to 45, rings at most 14)."""

SHOOTER_SPREAD_FACTOR = 4.0
"""The shooter's colour must also stand this many times the pieces' median distance from their team's."""

MIN_TEAM_CHROMA = 15.0
"""Median Lab chroma of the pieces under which the teams' colours are too faint to single out a shooter by colour."""


@dataclass(frozen=True)
class PieceSize:
    """A size of piece to look for: name, outer radius, and the radius of its hole (rings)."""

    name: str
    radius_mm: float
    inner_radius_mm: float = 0.0


@dataclass(frozen=True)
class PieceDetections:
    """Pieces found in one view, before classification.

    Attributes
    ----------
    centres_mm : (n, 2) float ndarray, board mm
    radii_mm : (n,) float ndarray, measured
    size : (n,) int ndarray, index into the sizes searched
    support : (n,) float ndarray, share of the rim seen, 0..1
    colour_lab : (n, 3) float ndarray, median 8-bit Lab colour of the piece's face
    surround_lab : (n, 3) float ndarray, median Lab just outside the piece
    is_faint : (n,) bool ndarray, found from a rim with few votes, lone or wedged between others (default: none)
    """

    centres_mm: np.ndarray
    radii_mm: np.ndarray
    size: np.ndarray
    support: np.ndarray
    colour_lab: np.ndarray
    surround_lab: np.ndarray
    is_faint: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.is_faint is None:
            object.__setattr__(self, "is_faint", np.zeros(len(self.radii_mm), bool))

    def __len__(self) -> int:
        return len(self.radii_mm)

    def filter(self, mask: np.ndarray) -> "PieceDetections":
        return PieceDetections(self.centres_mm[mask], self.radii_mm[mask], self.size[mask], self.support[mask],
                               self.colour_lab[mask], self.surround_lab[mask], self.is_faint[mask])

    def join(self, other: "PieceDetections") -> "PieceDetections":
        """These detections followed by `other`'s."""
        return PieceDetections(np.vstack([self.centres_mm, other.centres_mm]),
                               np.concatenate([self.radii_mm, other.radii_mm]),
                               np.concatenate([self.size, other.size]),
                               np.concatenate([self.support, other.support]),
                               np.vstack([self.colour_lab, other.colour_lab]),
                               np.vstack([self.surround_lab, other.surround_lab]),
                               np.concatenate([self.is_faint, other.is_faint]))

    @classmethod
    def empty(cls) -> "PieceDetections":
        return cls(np.zeros((0, 2)), np.zeros(0), np.zeros(0, int), np.zeros(0), np.zeros((0, 3)), np.zeros((0, 3)))


def piece_sizes(board: BoardModel) -> tuple[PieceSize, ...]:
    """The sizes of piece a board's game uses, smallest first."""
    if isinstance(board, CarromBoard):
        return (PieceSize("coin", board.coin_diameter_mm / 2), PieceSize("striker", board.striker_diameter_mm / 2))
    if isinstance(board, CouronneBoard):
        return (PieceSize("ring", board.ring_outer_diameter_mm / 2, board.ring_inner_diameter_mm / 2),
                PieceSize("shooter", board.shooter_ring_outer_diameter_mm / 2,
                          board.shooter_ring_inner_diameter_mm / 2))
    return (PieceSize("disc", board.disc_diameter_mm / 2),)


def printed_discs_mm(board: BoardModel) -> np.ndarray:
    """Centres (n, 2) of filled printed circles of about a piece's size (carrom base and centre circles)."""
    if not isinstance(board, CarromBoard):
        return np.zeros((0, 2))
    along = board.base_line_length_mm / 2 - board.base_circle_diameter_mm / 2
    across = board.half_side_mm - board.base_line_inset_mm - board.base_line_gap_mm / 2
    points = [(0.0, 0.0)]
    for sx in (-1, 1):
        for sy in (-1, 1):
            points += [(sx * along, sy * across), (sx * across, sy * along)]
    return np.array(points)


def _disc_offsets(inner: float, outer: float, step: float = 1.0) -> np.ndarray:
    r = math.ceil(outer)
    ys, xs = np.mgrid[-r:r + 1:step, -r:r + 1:step]
    d = np.hypot(xs, ys)
    keep = (d >= inner) & (d <= outer)
    return np.column_stack([xs[keep], ys[keep]])


def median_colours(lab: np.ndarray, centres_px: np.ndarray, *, inner_px: float, outer_px: float,
                   towards_px: np.ndarray | None = None) -> np.ndarray:
    """Median Lab over an annulus (inner_px..outer_px) around each centre: (n, 3).

    With `towards_px` (n, 2), each median is taken over the half of the annulus
    facing that direction (a zero vector keeps all of it).
    """
    if len(centres_px) == 0:
        return np.zeros((0, 3))
    offsets = _disc_offsets(inner_px, outer_px, step=max(1.0, outer_px / 12))
    pts = np.rint(centres_px[:, None, :] + offsets[None, :, :]).astype(int)
    h, w = lab.shape[:2]
    xs = np.clip(pts[..., 0], 0, w - 1)
    ys = np.clip(pts[..., 1], 0, h - 1)
    values = lab[ys, xs].astype(np.float64)
    if towards_px is None:
        return np.median(values, axis=1)
    facing = (offsets[None, :, :] * np.asarray(towards_px)[:, None, :]).sum(axis=2) >= 0
    # Most pieces overhang no pocket: their whole annulus counts, and a plain median is several times quicker.
    whole = facing.all(axis=1)
    colours = np.empty((len(values), 3))
    colours[whole] = np.median(values[whole], axis=1)
    colours[~whole] = masked_median(values[~whole], facing[~whole])
    return colours


def face_spread(lab: np.ndarray, centres_px: np.ndarray, face_lab: np.ndarray, *, radius_px: float,
                inner_px: float = 0.0) -> np.ndarray:
    """Upper-quartile Lab distance from the face colour over the middle of each piece (r < radius_px).

    With `inner_px`, over the annulus inner_px..radius_px instead (the board around a piece).
    """
    if len(centres_px) == 0:
        return np.zeros(0)
    offsets = _disc_offsets(inner_px, radius_px, step=max(1.0, radius_px / 8))
    pts = np.rint(centres_px[:, None, :] + offsets[None, :, :]).astype(int)
    h, w = lab.shape[:2]
    values = lab[np.clip(pts[..., 1], 0, h - 1), np.clip(pts[..., 0], 0, w - 1)].astype(np.float64)
    return np.percentile(np.linalg.norm(values - face_lab[:, None, :], axis=2), 75, axis=1)


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


def on_surface(centres_mm: np.ndarray, board: BoardModel, *, margin_mm: float = 0.0,
               pocket_slack_mm: float = 0.0) -> np.ndarray:
    """True for centres on the playing surface: not over a pocket, not in the ditch or beyond.

    A positive `margin_mm` keeps centres that far past the limits (a top face
    seen with parallax lies a few millimetres out from where the piece stands);
    `pocket_slack_mm` keeps centres that much further over a pocket's mouth.
    """
    centres_mm = np.asarray(centres_mm, np.float64).reshape(-1, 2)
    x, y = centres_mm[:, 0], centres_mm[:, 1]
    if isinstance(board, CrokinoleBoard):
        return np.hypot(x, y) <= board.surface_radius_mm + margin_mm
    half = board.half_side_mm + margin_mm
    on = (np.abs(x) <= half) & (np.abs(y) <= half)
    for px, py in board.pocket_centres_mm():
        on &= np.hypot(x - px, y - py) > board.pocket_diameter_mm / 2 - margin_mm - pocket_slack_mm
    return on


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


def arrow_ends_mm(board: CarromBoard) -> np.ndarray:
    """Centres (4, 2) of the open arcs that end the four corner arrows (on the diagonals)."""
    inset = board.half_side_mm - (board.arrow_start_from_corner_mm + board.arrow_length_mm) / math.sqrt(2)
    return np.array([(sx * inset, sy * inset) for sx in (-1, 1) for sy in (-1, 1)])


def _segment_distance(points: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Distance of each point (n, 2) from the segment start-end."""
    d = end - start
    t = np.clip(((points - start) @ d) / float(d @ d), 0.0, 1.0)
    return np.hypot(*(points - (start + t[:, None] * d)).T)


def clear_of_print(centres_mm: np.ndarray, board: BoardModel, *, radius_mm: float) -> np.ndarray:
    """True for circles of `radius_mm` that touch none of the board's printed figures, its frame or its pockets
    (carrom; others: all true).

    Carrom prints base lines, base circles, the centre figure and the corner arrows
    with their open arcs: each draws part of a coin-sized rim, which a faint rim
    elsewhere on the board cannot borrow.
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
    half_length = board.base_line_length_mm / 2
    for offset in (-board.base_line_gap_mm / 2, board.base_line_gap_mm / 2):
        across = board.half_side_mm - board.base_line_inset_mm - board.base_line_gap_mm / 2 + offset
        for side in (-1, 1):
            for start, end in (((-half_length, side * across), (half_length, side * across)),
                               ((side * across, -half_length), (side * across, half_length))):
                clear &= _segment_distance(c, np.array(start), np.array(end)) > reach
    bases = printed_discs_mm(board)[1:]
    clear &= np.hypot(c[:, None, 0] - bases[None, :, 0], c[:, None, 1] - bases[None, :, 1]).min(axis=1) > (
        board.base_circle_diameter_mm / 2 + reach)
    clear &= np.hypot(c[:, 0], c[:, 1]) > board.outer_circle_diameter_mm / 2 + reach
    corner = board.half_side_mm - board.arrow_start_from_corner_mm / math.sqrt(2)
    tip = board.half_side_mm - (board.arrow_start_from_corner_mm + board.arrow_length_mm) / math.sqrt(2)
    for sx in (-1, 1):
        for sy in (-1, 1):
            clear &= _segment_distance(c, np.array([sx * corner, sy * corner]), np.array([sx * tip, sy * tip])) > reach
    ends = arrow_ends_mm(board)
    clear &= np.hypot(c[:, None, 0] - ends[None, :, 0], c[:, None, 1] - ends[None, :, 1]).min(axis=1) > (
        ARROW_ARC_RADIUS_SHARE * board.arrow_length_mm + reach + ARC_LOCATION_SLACK_MM)
    return clear


def faint_region(centres_mm: np.ndarray, board: BoardModel, *, radius_mm: float) -> np.ndarray:
    """True for circles of `radius_mm` where a faint rim may be a piece.

    Carrom: anywhere clear of the print (`clear_of_print`). Crokinole: leaning over the 20-hole
    (a tilted disc scatters its rim's votes), or clear of the hole, the pegs and the surface's
    edge into the ditch, which draw disc-sized arcs of their own. Couronne: anywhere.
    """
    c = np.asarray(centres_mm, np.float64).reshape(-1, 2)
    if isinstance(board, CarromBoard):
        return clear_of_print(c, board, radius_mm=radius_mm)
    if isinstance(board, CrokinoleBoard):
        from_centre = np.hypot(c[:, 0], c[:, 1])
        leaning = (from_centre > board.hole_diameter_mm / 4) & (from_centre < board.hole_diameter_mm / 2 + radius_mm / 2)
        reach = radius_mm + PRINT_CLEARANCE_MM
        pegs = np.asarray(board.peg_centres_mm(), np.float64)
        clear = (from_centre > board.hole_diameter_mm / 2 + reach) & (from_centre < board.surface_radius_mm - reach)
        clear &= np.hypot(c[:, None, 0] - pegs[None, :, 0], c[:, None, 1] - pegs[None, :, 1]).min(axis=1) > (
            board.peg_diameter_mm / 2 + reach)
        return leaning | clear
    return np.ones(len(c), bool)


def printed_faint_region(centres_mm: np.ndarray, board: BoardModel, *, radius_mm: float) -> np.ndarray:
    """True for circles of `radius_mm` over carrom's printed lines, arcs, centre figure, frame edge or pocket mouths,
    clear of the base circles and the figure's very middle (others: all false).

    There a faint rim may be a piece if it is whole (`PRINTED_FAINT_RIMS`). The base circles are left out: their
    filled circles raise several faint, whole-looking rims per view for every coin lying on them, too many to verify
    within a read's time. On the centre figure, a faint rim must also look like none of the board's symmetric places
    (`_faint_pieces`), except at its very middle, which is its own image.
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


def _printed_outline(found: PieceDetections, lab: np.ndarray, view: BoardView, *, board: CarromBoard,
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
    in_figure = np.hypot(c[:, 0], c[:, 1]) < board.outer_circle_diameter_mm / 2 + coin_mm / 2
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
    by_print = bare & ~drawn & ~clear_of_print(c, board, radius_mm=coin_mm / 2) & ~beside_lines & by_other_print
    looked = np.nonzero(drawn | by_print)[0]
    gaps = symmetry_gap(lab, view.to_px(c[looked]), radius_px=coin_mm / 2 * view.px_per_mm,
                        occupied_px=view.to_px(c))
    compared, alike = np.zeros(len(found), bool), np.zeros(len(found), bool)
    compared[looked], alike[looked] = np.isfinite(gaps), gaps < PRINT_SYMMETRY_MATCH
    outline = np.where(compared & drawn, alike, outline)
    judged = alike & by_print
    if judged.any():
        coins = _clear_coins(found.filter(~outline & ~judged))
        outline[judged] = ~_shaded_as_coins(c[judged], coins, lab, view, radius_mm=coin_mm / 2)
    return outline


def _resolve_overlaps(centres_mm: np.ndarray, radii_mm: np.ndarray, score: np.ndarray,
                      *, allowed_overlap_mm: float) -> np.ndarray:
    """Greedy, best score first: keep a circle unless it overlaps a kept one by more than allowed."""
    keep: list[int] = []
    for i in np.argsort(-score, kind="stable"):
        if all(np.hypot(*(centres_mm[i] - centres_mm[j])) >= radii_mm[i] + radii_mm[j] - allowed_overlap_mm
               for j in keep):
            keep.append(int(i))
    mask = np.zeros(len(score), bool)
    mask[keep] = True
    return mask


def detect_pieces(view: BoardView, *, board: BoardModel, min_support: float = 0.5) -> PieceDetections:
    """Every piece-sized disc on the playing surface of a rectified view.

    Parameters
    ----------
    view : BoardView of the board.
    board : the board model that was rectified.
    min_support : least share of a rim that must be seen.

    Returns
    -------
    PieceDetections, best rim first.

    Examples
    --------
    >>> found = detect_pieces(board_view(frame, homography=h, board=board), board=board)  # doctest: +SKIP
    """
    sizes = piece_sizes(board)
    lab = view.lab
    edges = lab_edge_field(lab)
    s = view.px_per_mm
    centres, radii, size_index, support, score, faint, on_print, partial = [], [], [], [], [], [], [], []
    mouths_px = None
    if isinstance(board, CarromBoard):
        # A dark pocket mouth hides the part of a coin's rim over it (a black coin over it shows little else).
        pockets_px = view.to_px(np.asarray(board.pocket_centres_mm(), np.float64))
        mouths_px = np.column_stack([pockets_px, np.full(len(pockets_px), board.pocket_diameter_mm / 2 * s)])
    elif isinstance(board, CrokinoleBoard):
        # A disc leaning over the 20-hole shows no rim against the hole's dark inside.
        mouths_px = np.array([[*view.to_px(np.zeros((1, 2)))[0], board.hole_diameter_mm / 2 * s]])
    for k, size in enumerate(sizes):
        # Faint rims are looked for where the board model says nothing else could draw them (`faint_region`); on
        # couronne among the rings only (the one shooter, told by its colour, is worth no second search).
        faint_rims = FAINT_RINGS if isinstance(board, CouronneBoard) else FAINT_RIMS
        is_faint_searched = not isinstance(board, CouronneBoard) or k == 0
        faint_on_print = PRINTED_FAINT_STRIKER_RIMS if k == 1 else PRINTED_FAINT_RIMS
        found = find_discs(edges, radius_px=size.radius_mm * s, min_support=min_support,
                           faint=faint_rims if is_faint_searched else None,
                           faint_region=lambda px, r=size.radius_mm: faint_region(view.to_mm(px), board, radius_mm=r),
                           unseen_px=mouths_px,
                           faint_elsewhere=faint_on_print if isinstance(board, CarromBoard) else None,
                           elsewhere_region=lambda px, r=size.radius_mm: printed_faint_region(view.to_mm(px), board,
                                                                                              radius_mm=r),
                           partial=HALF_RIMS if isinstance(board, CarromBoard) and k == 0 else None)
        mm = view.to_mm(found.centres_px)
        r_mm = found.radii_px / s
        # The measured radius must be nearer this size than any other.
        nearest = np.argmin(np.abs(r_mm[:, None] - np.array([z.radius_mm for z in sizes])[None, :]), axis=1)
        ok = (nearest == k) & on_surface(mm, board, margin_mm=PARALLAX_MARGIN_MM)
        weak = (found.vote_share < PEAK_VOTE_SHARE) | found.is_partial
        printed_faint = weak & ~faint_region(mm, board, radius_mm=size.radius_mm)
        ok &= ~printed_faint | (printed_faint_region(mm, board, radius_mm=size.radius_mm)
                                & (found.support >= faint_on_print.min_support))
        centres.append(mm[ok])
        radii.append(r_mm[ok])
        size_index.append(np.full(ok.sum(), k))
        support.append(found.support[ok])
        fit = np.clip(1 - np.abs(r_mm[ok] - size.radius_mm) / size.radius_mm, 0, 1)
        # Where a large piece is, smaller circles fit inside its rim too; a clear large rim wins.
        score.append(found.support[ok] * fit - 0.02 * np.minimum(found.residual_px[ok], 10) + 0.1 * k)
        faint.append(weak[ok])
        on_print.append(printed_faint[ok])
        partial.append(found.is_partial[ok])
    centres_mm = np.vstack(centres) if centres else np.zeros((0, 2))
    radii_mm, size_arr = np.concatenate(radii), np.concatenate(size_index).astype(int)
    support_arr, score_arr, faint_arr = np.concatenate(support), np.concatenate(score), np.concatenate(faint)
    on_print_arr, partial_arr = np.concatenate(on_print), np.concatenate(partial)
    if len(radii_mm) == 0:
        return PieceDetections.empty()
    steps = step_share(lab, view.to_px(centres_mm), radii_mm * s, offset_px=0.3 * sizes[0].radius_mm * s)
    filled = steps >= np.where(faint_arr, np.where(on_print_arr, PRINTED_FAINT_MIN_STEP_SHARE, FAINT_MIN_STEP_SHARE),
                               MIN_STEP_SHARE_CARROM if isinstance(board, CarromBoard) else MIN_STEP_SHARE)
    candidates = PieceDetections(centres_mm, radii_mm, size_arr, support_arr, np.zeros((len(size_arr), 3)),
                                 np.zeros((len(size_arr), 3)))
    # A light coin on a light board steps little in colour, but shows its whole rim: an open arc cannot. Nor need
    # it, where the light shades its face as it shades the clear coins'.
    if isinstance(board, CarromBoard):
        filled |= ~faint_arr & (support_arr >= FULL_RIM_SUPPORT) & (steps >= FULL_RIM_MIN_STEP_SHARE)
        filled[~faint_arr] |= _lit_like_coins(candidates.filter(~faint_arr), filled[~faint_arr], lab, view,
                                              board=board)
    clear = filled & ~faint_arr
    found = _clear_pieces(candidates.filter(clear), score_arr[clear], edges, lab, view, sizes, board)
    # A faint rim only fills a gap the clear ones left: it never displaces one.
    weak = filled & faint_arr
    found = found.join(_faint_pieces(candidates.filter(weak), score_arr[weak], found, lab, view, sizes, board,
                                     on_print=on_print_arr[weak], partial=partial_arr[weak], edges=edges,
                                     unseen_px=mouths_px))
    if isinstance(board, CouronneBoard):
        found = _shooter_among_all(found)
    # Measured on carrom coins (a couronne ring's face is its band; crokinole's 20-hole is a disc's size).
    looked_at = 0
    for _ in range(TOUCHING_ROUNDS if isinstance(board, CarromBoard) else 0):
        more = _touching_pieces(found, edges, lab, view, sizes, board, unseen_px=mouths_px, new_from=looked_at)
        if len(more) == 0:
            break
        found, looked_at = found.join(more), len(found)
    if isinstance(board, CarromBoard):
        found = _striker_decided(found, edges, lab, view, sizes, board, unseen_px=mouths_px)
    return found.filter(np.argsort(-found.support, kind="stable"))


def _lit_like_coins(candidates: PieceDetections, clear: np.ndarray, lab: np.ndarray, view: BoardView, *,
                    board: CarromBoard) -> np.ndarray:
    """True for coin-sized circles, not yet `clear`, whose faces the light shades as the clear coins' (carrom).

    Only circles a coin's width from every clear one are looked at: next to one, a circle drawn across two coins
    is shaded by them. The printed base and centre circles are left out of the coins the light's way is taken from.
    """
    c = candidates.centres_mm
    prints = printed_discs_mm(board)
    off_prints = np.hypot(c[:, None, 0] - prints[None, :, 0], c[:, None, 1] - prints[None, :, 1]).min(axis=1) > (
        board.base_circle_diameter_mm)
    looked = ~clear & (candidates.size == 0)
    if clear.any():
        looked &= np.hypot(c[:, None, 0] - c[None, clear, 0], c[:, None, 1] - c[None, clear, 1]).min(axis=1) > (
            board.coin_diameter_mm)
    lit = np.zeros(len(c), bool)
    lit[looked] = _shaded_as_coins(c[looked], _clear_coins(candidates.filter(clear & off_prints)), lab, view,
                                   radius_mm=board.coin_diameter_mm / 2)
    return lit


def _striker_decided(found: PieceDetections, edges: EdgeField, lab: np.ndarray, view: BoardView,
                     sizes: tuple[PieceSize, ...], board: BoardModel, *, unseen_px: np.ndarray | None) -> PieceDetections:
    """Carrom's striker decided again over all the pieces found (`vision.striker_rim`).

    A black coin or the queen grown by its shadow to a striker's size is a coin, where its own rim is. A coin-sized
    circle that is a striker's inner ring becomes the striker, measured on its own rim, where no striker is left, or
    where the one left was a faint rim or looks like a white coin (which then is one).
    """
    s = view.px_per_mm
    coin, striker = sizes[0].radius_mm, sizes[1].radius_mm
    size, radii, centres = found.size.copy(), found.radii_mm.copy(), found.centres_mm.copy()
    inner_support, inner_centres, inner_radii = _coin_rims_inside(found, edges, view, coin_radius_mm=coin,
                                                                  unseen_px=unseen_px)
    to_coins = coins_grown(found.colour_lab, size, inner_support)
    coins = np.nonzero((size == 0) & ~to_coins)[0]
    rim = striker_among_coins(edges, view.to_px(centres[coins]), found.colour_lab[coins], coin_radius_px=coin * s,
                              striker_radius_px=striker * s, unseen_px=unseen_px)
    if rim.index >= 0:
        large = (size == 1) & ~to_coins
        if not large.any() or (found.is_faint[large] | rim.looks_white(found.colour_lab[large])).all():
            to_coins |= large
            i = coins[rim.index]
            size[i], radii[i], centres[i] = 1, rim.radius_px / s, view.to_mm(rim.centre_px[None])[0]
    if to_coins.any():
        size[to_coins] = 0
        radii[to_coins] = np.clip(inner_radii[to_coins] / s, coin * (1 - FAINT_RIMS.max_radius_error),
                                  coin * (1 + FAINT_RIMS.max_radius_error))
        centres[to_coins] = view.to_mm(inner_centres[to_coins])
    if np.array_equal(size, found.size):
        return found
    colour, surround = _colours(lab, view, centres, size, sizes, board)
    return PieceDetections(centres, radii, size, found.support, colour, surround, found.is_faint)


def _coin_rims_inside(found: PieceDetections, edges: EdgeField, view: BoardView, *, coin_radius_mm: float,
                      unseen_px: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The coin-sized rim inside each striker-sized piece (none inside the others): its support (n,), centre (n, 2)
    and radius (n,) in view px, where the others keep their own centre and a coin's radius.

    The rim is fitted until it settles on the coin's own: a circle grown by a shadow is centred up to a third of a
    coin's radius off it.
    """
    s = view.px_per_mm
    large = found.size == 1
    support, radii_px, centres_px = np.zeros(len(found)), np.full(len(found), coin_radius_mm * s), view.to_px(
        found.centres_mm)
    if large.any():
        inner = verify_rims(edges, centres_px[large], radius_px=coin_radius_mm * s, unseen_px=unseen_px, iterations=4)
        support[large], radii_px[large], centres_px[large] = inner.support, inner.radii_px, inner.centres_px
    return support, centres_px, radii_px


def _touching_places(found: PieceDetections, radius_mm: float, *, new_from: int = 0) -> np.ndarray:
    """Centres (m, 2) of circles of `radius_mm` that would touch two found pieces at once, one of them at least
    from index `new_from` on."""
    c, r = found.centres_mm, found.radii_mm + radius_mm + TOUCHING_GAP_MM
    i, j = np.triu_indices(len(c), 1)
    i, j = i[j >= new_from], j[j >= new_from]
    d = np.hypot(*(c[j] - c[i]).T)
    ok = (d < r[i] + r[j]) & (d > np.abs(r[i] - r[j])) & (d > 0)
    i, j, d = i[ok], j[ok], d[ok]
    along = (d * d + r[i] ** 2 - r[j] ** 2) / (2 * d)
    across = np.sqrt(np.maximum(r[i] ** 2 - along ** 2, 0.0))
    unit = (c[j] - c[i]) / d[:, None]
    normal = np.column_stack([-unit[:, 1], unit[:, 0]])
    base = c[i] + along[:, None] * unit
    return np.vstack([base + across[:, None] * normal, base - across[:, None] * normal])


def _touching_pieces(found: PieceDetections, edges: EdgeField, lab: np.ndarray, view: BoardView,
                     sizes: tuple[PieceSize, ...], board: BoardModel, *, unseen_px: np.ndarray | None,
                     new_from: int = 0) -> PieceDetections:
    """Small pieces wedged between found ones (a break cluster, coins in a row).

    Their centres gather few votes, for much of their rims are shared with their
    neighbours', but they lie where a piece would touch two found ones: each such
    place is looked at. What counts there is a whole, round rim around a face of
    one colour standing apart from what surrounds it; a face of the board's own
    colour must show a coin's shading besides (bare board between coins shows
    none), and the piece must lie whole on the surface, clear of the pockets.
    """
    size = sizes[0]
    s = view.px_per_mm
    if len(found) < 2:
        return PieceDetections.empty()
    allowed_mm = 0.3 * size.radius_mm
    # Places between pieces found before were looked at in an earlier round.
    places = _touching_places(found, size.radius_mm, new_from=new_from)
    places = places[_clear_of(places, found, size.radius_mm - allowed_mm) & _whole_on_surface(places, board,
                                                                                                 size.radius_mm)]
    if len(places) == 0:
        return PieceDetections.empty()
    # Several pairs name nearly the same place; each start may settle on the rim differently, the best is kept.
    places = places[_resolve_overlaps(places, np.full(len(places), TOUCHING_PLACE_SPACING_MM / 2),
                                      np.zeros(len(places)), allowed_overlap_mm=0.0)]
    rims = verify_rims(edges, view.to_px(places), radius_px=size.radius_mm * s, unseen_px=unseen_px)
    centres, radii = view.to_mm(rims.centres_px), rims.radii_px / s
    keep = ((rims.support >= TOUCHING_RIMS.min_support) & (rims.sectors >= TOUCHING_RIMS.min_sectors)
            & (rims.residual_px <= TOUCHING_RIMS.max_residual_px)
            & (np.abs(radii - size.radius_mm) <= TOUCHING_RIMS.max_radius_error * size.radius_mm)
            & _clear_of(centres, found, radii - allowed_mm) & _whole_on_surface(centres, board, size.radius_mm))
    if keep.any():
        keep[keep] = step_share(lab, view.to_px(centres[keep]), radii[keep] * s,
                                offset_px=0.3 * size.radius_mm * s) >= TOUCHING_MIN_STEP_SHARE
    if not keep.any():
        return PieceDetections.empty()
    centres, radii, support = centres[keep], radii[keep], rims.support[keep]
    size_arr = np.zeros(len(centres), int)
    colour, surround = _colours(lab, view, centres, size_arr, sizes, board)
    spread = face_spread(lab, view.to_px(centres), colour, radius_px=0.6 * size.radius_mm * s)
    keep = ((spread <= TOUCHING_MAX_FACE_SPREAD)
            & (np.linalg.norm(colour - surround, axis=1) >= TOUCHING_MIN_SURROUND_GAP))
    if isinstance(board, CarromBoard):
        keep &= (board_face_gap(lab, view, colour, board=board) >= BOARD_FACE_MATCH) | (spread >= TOUCHING_MIN_SHADING)
    more = PieceDetections(centres, radii, size_arr, support, colour, surround,
                           np.ones(len(centres), bool)).filter(keep)
    more = more.filter(_resolve_overlaps(more.centres_mm, more.radii_mm, more.support, allowed_overlap_mm=allowed_mm))
    printed = _printed_mask(found.join(more), lab, view, board=board, edges=edges, sizes=sizes)[len(found):]
    return more.filter(~printed)


def _clear_of(centres_mm: np.ndarray, found: PieceDetections, radius_mm) -> np.ndarray:
    """True for circles of `radius_mm` (scalar or per circle) overlapping none of the found pieces."""
    if len(found) == 0 or len(centres_mm) == 0:
        return np.ones(len(centres_mm), bool)
    gaps = np.hypot(centres_mm[:, None, 0] - found.centres_mm[None, :, 0],
                    centres_mm[:, None, 1] - found.centres_mm[None, :, 1])
    return (gaps >= found.radii_mm[None, :] + np.reshape(radius_mm, (-1, 1))).all(axis=1)


def _whole_on_surface(centres_mm: np.ndarray, board: BoardModel, radius_mm: float) -> np.ndarray:
    """True for circles of `radius_mm` lying whole on the playing surface, clear of the pockets' mouths."""
    if isinstance(board, CrokinoleBoard):
        return np.hypot(centres_mm[:, 0], centres_mm[:, 1]) <= board.surface_radius_mm - radius_mm
    return on_surface(centres_mm, board, margin_mm=-radius_mm)


def _clear_pieces(candidates: PieceDetections, score_arr: np.ndarray, edges: EdgeField, lab: np.ndarray,
                  view: BoardView, sizes: tuple[PieceSize, ...], board: BoardModel) -> PieceDetections:
    """The pieces among clear rims: the board's print taken out, overlaps settled, one large piece at most."""
    if len(candidates) == 0:
        return PieceDetections.empty()
    colour, surround = _colours(lab, view, candidates.centres_mm, candidates.size, sizes, board)
    found = PieceDetections(candidates.centres_mm, candidates.radii_mm, candidates.size, candidates.support, colour,
                            surround)
    printed = _printed_mask(found, lab, view, board=board, edges=edges, sizes=sizes)
    if isinstance(board, CrokinoleBoard):
        # The 20-hole is a disc-sized circle of its own; it must not crowd out a disc leaning over it.
        printed |= hole_mask(found.centres_mm, board=board)
    found, score_arr = found.filter(~printed), score_arr[~printed]
    allowed_mm = 0.3 * sizes[0].radius_mm
    keep = _resolve_overlaps(found.centres_mm, found.radii_mm, score_arr, allowed_overlap_mm=allowed_mm)
    while isinstance(board, CarromBoard) and keep.any():
        # Told among the circles kept, where a neighbour is another piece rather than another fit of the same;
        # a print's other fits, crowded out by the first, come up in turn.
        outline = np.zeros(len(found), bool)
        outline[np.nonzero(keep)[0]] = _printed_outline(found.filter(keep), lab, view, board=board, by_other_print=True)
        if not outline.any():
            break
        found, score_arr = found.filter(~outline), score_arr[~outline]
        keep = _resolve_overlaps(found.centres_mm, found.radii_mm, score_arr, allowed_overlap_mm=allowed_mm)
    if len(sizes) == 2 and keep.any():
        sized = _one_large_piece(found.filter(keep), edges, lab, view, sizes, board)
        demoted = np.zeros(len(found), bool)
        demoted[np.nonzero(keep)[0]] = (found.size[keep] == 1) & (sized.size == 0)
        # Kept to carrom: on couronne stills (seeds 60000-60039) it lost a ring for each it found.
        if demoted.any() and isinstance(board, CarromBoard):
            # A large circle that is not the one large piece was drawn round small pieces it crowded out
            # (two touching coins, a coin and its shadow): the small circles it overlaps come first.
            score_arr = np.where(demoted, score_arr - 10.0, score_arr)
            keep = _resolve_overlaps(found.centres_mm, found.radii_mm, score_arr, allowed_overlap_mm=allowed_mm)
            sized = _one_large_piece(found.filter(keep), edges, lab, view, sizes, board)
        return sized
    return found.filter(keep)


def _faint_pieces(candidates: PieceDetections, score_arr: np.ndarray, found: PieceDetections, lab: np.ndarray,
                  view: BoardView, sizes: tuple[PieceSize, ...], board: BoardModel, *, on_print: np.ndarray,
                  partial: np.ndarray, edges: EdgeField, unseen_px: np.ndarray | None) -> PieceDetections:
    """Pieces among faint rims: on even board, clear of the pieces found, and a large one only where none was found.

    `on_print` marks carrom rims over the board's print (`PRINTED_FAINT_RIMS`): judged by their face and as the
    print itself is, not by the board around them, which the print makes busy. `partial` marks carrom rims seen in
    part only (`HALF_RIMS`): the board around them must be evener, and their face a coin's.
    """
    s = view.px_per_mm
    allowed_mm = 0.3 * sizes[0].radius_mm
    if len(found):
        free = _clear_of(candidates.centres_mm, found, candidates.radii_mm - allowed_mm)
        if _large_piece_among(found, edges, view, sizes, board, unseen_px=unseen_px):
            free &= candidates.size == 0
        candidates, score_arr, on_print, partial = (candidates.filter(free), score_arr[free], on_print[free],
                                                    partial[free])
    if len(candidates) == 0:
        return PieceDetections.empty()
    colour, surround = _colours(lab, view, candidates.centres_mm, candidates.size, sizes, board)
    centres_px = view.to_px(candidates.centres_mm)
    if isinstance(board, CrokinoleBoard):
        # The wood's grain draws faint disc-sized arcs around the board's own colour; a disc's face is its team's
        # colour all over. (The board around a disc by the 20-hole is not even: the hole is in it.)
        even = (np.linalg.norm(colour - surround, axis=1) >= CROKINOLE_FAINT_MIN_FACE_GAP) & (
            face_spread(lab, centres_px, colour, radius_px=0.6 * sizes[0].radius_mm * s)
            <= CROKINOLE_FAINT_MAX_FACE_SPREAD)
    else:
        # Rails, rods and their shadows over the board draw faint piece-sized arcs too, with a busy surround.
        around = face_spread(lab, centres_px, surround, inner_px=1.15 * sizes[0].radius_mm * s,
                             radius_px=1.6 * sizes[0].radius_mm * s)
        even = around <= np.where(partial, HALF_RIM_MAX_SURROUND_SPREAD, FAINT_MAX_SURROUND_SPREAD)
        if partial.any():
            even &= ~partial | (face_spread(lab, centres_px, colour, radius_px=0.6 * sizes[0].radius_mm * s)
                                <= HALF_RIM_MAX_FACE_SPREAD)
            looked = np.nonzero(partial & even)[0]
            seen, _ = rim_edges(edges, centres_px[looked], radius_px=sizes[0].radius_mm * s)
            even[looked] = longest_arc(seen) >= HALF_RIM_MIN_ARC
    if on_print.any():
        even = np.where(on_print, _coin_on_print(candidates, colour, surround, found, lab, view, sizes, board,
                                                 edges=edges), even)
        # On the centre figure, whose star points draw faint coin-sized rims of their own.
        in_figure = np.nonzero(on_print & even & (np.hypot(*candidates.centres_mm.T)
                                                  < board.outer_circle_diameter_mm / 2 + sizes[0].radius_mm))[0]
        gaps = symmetry_gap(lab, centres_px[in_figure], radius_px=sizes[0].radius_mm * s,
                            occupied_px=view.to_px(np.vstack([found.centres_mm, candidates.centres_mm])))
        even[in_figure] = np.isfinite(gaps) & (gaps >= PRINT_SYMMETRY_MATCH)
        # A coin there stands in the light as the coins found elsewhere do; the star's points lie flat in it.
        looked = in_figure[even[in_figure]]
        even[looked] = _shaded_as_coins(candidates.centres_mm[looked], _clear_coins(found), lab, view,
                                        radius_mm=sizes[0].radius_mm)
    if isinstance(board, CouronneBoard):
        # A ring's band is its team's colour; bare board between pieces and the print's lines draw faint rims too.
        even &= board_face_gap(lab, view, colour, board=board) >= BOARD_FACE_MATCH
    faint = PieceDetections(candidates.centres_mm, candidates.radii_mm, candidates.size, candidates.support,
                            colour, surround, np.ones(len(candidates), bool)).filter(even)
    score_arr = score_arr[even]
    keep = _resolve_overlaps(faint.centres_mm, faint.radii_mm, score_arr, allowed_overlap_mm=allowed_mm)
    large = np.nonzero(keep & (faint.size == 1))[0]
    if len(large) > 1:
        # One large piece, the best: the others were drawn round small ones, which come up in their place.
        score_arr = score_arr.copy()
        score_arr[large[np.argsort(-score_arr[large])][1:]] = -np.inf
        keep = _resolve_overlaps(faint.centres_mm, faint.radii_mm, score_arr, allowed_overlap_mm=allowed_mm)
        keep &= np.isfinite(score_arr)
    return faint.filter(keep)


def _large_piece_among(found: PieceDetections, edges: EdgeField, view: BoardView, sizes: tuple[PieceSize, ...],
                       board: BoardModel, *, unseen_px: np.ndarray | None) -> bool:
    """Whether the one large piece of the game (striker, shooter) was found, which leaves no room for another: on
    carrom, not a black coin or the queen grown by its shadow (`coins_grown`), which `_striker_decided` shrinks."""
    large = found.size == 1
    if not large.any() or not isinstance(board, CarromBoard):
        return bool(large.any())
    support, _, _ = _coin_rims_inside(found, edges, view, coin_radius_mm=sizes[0].radius_mm, unseen_px=unseen_px)
    return bool((large & ~coins_grown(found.colour_lab, found.size, support)).any())


def _coin_on_print(candidates: PieceDetections, colour: np.ndarray, surround: np.ndarray, found: PieceDetections,
                   lab: np.ndarray, view: BoardView, sizes: tuple[PieceSize, ...], board: BoardModel, *,
                   edges: EdgeField) -> np.ndarray:
    """True for faint carrom rims over the print that are coins: a face of one colour, not the print itself
    (`_printed_mask`, `_printed_outline`)."""
    s = view.px_per_mm
    c = candidates.centres_mm
    looked = PieceDetections(c, candidates.radii_mm, candidates.size, candidates.support, colour, surround)
    face_even = face_spread(lab, view.to_px(c), colour, radius_px=0.6 * sizes[0].radius_mm * s) <= (
        PRINTED_FAINT_MAX_FACE_SPREAD)
    joined = found.join(looked)
    printed = _printed_mask(joined, lab, view, board=board, edges=edges, sizes=sizes)[len(found):]
    outline = _printed_outline(joined, lab, view, board=board)[len(found):]
    return face_even & ~printed & ~outline


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


def _colours(lab: np.ndarray, view: BoardView, centres_mm: np.ndarray, size_arr: np.ndarray,
             sizes: tuple[PieceSize, ...], board: BoardModel) -> tuple[np.ndarray, np.ndarray]:
    """Median colour of each piece's face (a ring's band, a disc's middle) and of the board just around it.

    A piece over a pocket's mouth is judged on the half of its face away from the pocket.
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
                                      outer_px=1.5 * size.radius_mm * s)
    return colour, surround


def _one_large_piece(found: PieceDetections, edges, lab: np.ndarray, view: BoardView,
                     sizes: tuple[PieceSize, ...], board: BoardModel) -> PieceDetections:
    """Sizes decided again, with at most one large piece (striker, shooter).

    The game has one striker or shooter. A couronne shooter is of its own
    colour, neither team's (`_off_team_colour`): where the teams' colours are
    clear, that alone decides it, for blur and shadow leave the two sizes a
    millimetre or two apart. Otherwise each rim's mean edge profile is measured
    against every other piece's, so a blurred or shadowed small piece cannot
    pass for the large one.
    """
    s = view.px_per_mm
    small, large = sizes[0].radius_mm, sizes[1].radius_mm
    measured = rim_radius(edges, view.to_px(found.centres_mm), min_radius_px=0.85 * small * s,
                          max_radius_px=1.1 * large * s) / s
    size = np.zeros(len(found), int)
    off_team = _off_team_colour(found.colour_lab) if isinstance(board, CouronneBoard) else None
    if off_team is not None:
        apart = off_team >= max(SHOOTER_MIN_COLOUR_GAP, SHOOTER_SPREAD_FACTOR * float(np.median(off_team)))
        if apart.any():
            size[np.argmax(off_team)] = 1
    else:
        # The rim's profile can peak on print or a shadow beyond a small piece; the rim fitted at its own size cannot.
        judged = np.minimum(measured, found.radii_mm)
        by_size = (judged - (small + large) / 2) / (large - small)
        if (by_size > 0).any():
            size[np.argmax(by_size)] = 1
    radii = np.where(size == 1, np.maximum(measured, found.radii_mm), found.radii_mm)
    colour, surround = _colours(lab, view, found.centres_mm, size, sizes, board)
    return PieceDetections(found.centres_mm, radii, size, found.support, colour, surround)


def _shooter_among_all(found: PieceDetections) -> PieceDetections:
    """The couronne shooter told by colour again, among the clear and faint pieces together.

    A team whose other rings all showed faint rims has one clear ring only, and a
    group of one is no team (`_off_team_colour`): that ring then stands apart from
    the clear pieces' colours like a shooter. With the faint rings it has its team.
    """
    off_team = _off_team_colour(found.colour_lab)
    if off_team is None or not found.is_faint.any():
        return found
    apart = off_team >= max(SHOOTER_MIN_COLOUR_GAP, SHOOTER_SPREAD_FACTOR * float(np.median(off_team)))
    size = np.zeros(len(found), int)
    if apart.any():
        size[np.argmax(off_team)] = 1
    return dataclasses.replace(found, size=size)


def _off_team_colour(colour_lab: np.ndarray) -> np.ndarray | None:
    """Per piece, the a*b* distance of its colour from the nearer team's median colour (8-bit Lab units).

    The teams are the two groups of hue (a* + b*) that leave the least spread
    within each; a group of one is no team. None where the colours are too faint
    to tell teams apart, or no team of two is on the board.
    """
    ab = np.asarray(colour_lab, np.float64)[:, 1:] - 128.0
    if len(ab) < 3 or float(np.median(np.hypot(ab[:, 0], ab[:, 1]))) < MIN_TEAM_CHROMA:
        return None
    hue = ab.sum(axis=1)
    order = np.argsort(hue, kind="stable")
    costs = [hue[order[:k]].var() * k + hue[order[k:]].var() * (len(hue) - k) for k in range(1, len(hue))]
    split = 1 + int(np.argmin(costs))
    gap = np.full(len(ab), np.inf)
    for members in (order[:split], order[split:]):
        if len(members) >= 2:
            gap = np.minimum(gap, np.linalg.norm(ab - np.median(ab[members], axis=0), axis=1))
    return gap if np.isfinite(gap).all() else None


def _shaded_as_coins(centres_mm: np.ndarray, coins_mm: np.ndarray, lab: np.ndarray, view: BoardView, *,
                     radius_mm: float) -> np.ndarray:
    """True for circles whose face the light shades as it shades the faces of the coins at `coins_mm`."""
    c = np.asarray(centres_mm, np.float64).reshape(-1, 2)
    radius_px = SHADED_FACE_SHARE * radius_mm * view.px_per_mm
    if len(coins_mm) < SHADING_MIN_COINS or len(c) == 0:
        return np.zeros(len(c), bool)
    common = np.median(face_shading(lab, view.to_px(coins_mm), radius_px=radius_px), axis=0)
    strength = float(np.hypot(*common))
    if strength < MIN_COIN_SHADING:
        return np.zeros(len(c), bool)
    return face_shading(lab, view.to_px(c), radius_px=radius_px) @ common / strength ** 2 >= SHADING_MATCH


def _clear_coins(found: PieceDetections) -> np.ndarray:
    """Centres (n, 2) of the coin-sized detections whose rims are whole."""
    return found.centres_mm[(found.size == 0) & (found.support >= FULL_RIM_SUPPORT)]


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
    across = board.half_side_mm - board.base_line_inset_mm - board.base_line_gap_mm / 2
    along = board.base_line_length_mm / 2 - board.base_circle_diameter_mm / 2
    axis = np.full(len(c), -1)
    for lines_along in (0, 1):
        between = (np.abs(np.abs(c[:, 1 - lines_along]) - across) < 0.15 * board.base_line_gap_mm) & (
            np.abs(c[:, lines_along]) < along)
        axis[between] = lines_along
    return axis


def _printed_mask(found: PieceDetections, lab: np.ndarray, view: BoardView, *, board: BoardModel,
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
    base_print = on_base & ((colour_gap < colour_match) | (ratio_gap < ratio_match))
    # A board located a little off puts its prints up to a print's width from the model's places: one seen there
    # is the print only if it matches it closely in both ways.
    near_base = gaps.min(axis=0) < DISPLACED_PRINT_REACH * radius
    base_print |= near_base & (colour_gap < PRINT_COLOUR_MATCH) & (ratio_gap < DISPLACED_PRINT_RATIO_MATCH)
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
    centre_print = at_centre & looks_printed & ~surrounded & ~engraved
    in_figure = np.hypot(found.centres_mm[:, 0], found.centres_mm[:, 1]) < board.outer_circle_diameter_mm / 2
    figure_print = in_figure & (spread > MAX_PRINT_FIGURE_SPREAD)
    band = base_line_bands(found.centres_mm, board)
    line_print = np.zeros(len(found), bool)
    coins_between = np.nonzero((band >= 0) & (found.size == 0))[0]
    if len(coins_between):
        seen, angles = rim_edges(edges, centres_px[coins_between], radius_px=sizes[0].radius_mm * s)
        beyond_mm = board.base_line_gap_mm / 2 + 6.0
        for row, i in enumerate(coins_between):
            # Lines along board x run along view columns; the rim facing them is where the ray is across them.
            along_ray = np.abs(np.cos(angles)) if band[i] == 0 else np.abs(np.sin(angles))
            ends = along_ray > np.cos(np.radians(50))
            across = np.eye(2)[1 - band[i]] * beyond_mm
            outside = median_colours(lab, view.to_px(found.centres_mm[i] + np.array([across, -across])),
                                     inner_px=0, outer_px=4.0 * s)
            # Neighbours may draw the ends of the rim too; a face that is the bare board beyond the lines is no coin.
            bare = np.min(np.linalg.norm(outside - found.colour_lab[i], axis=1)) < BARE_BOARD_MATCH
            line_print[i] = seen[row][ends].mean() < BASE_LINE_END_SUPPORT or (bare and not engraved[i])
    if centre_print.any():
        # The queen put back on the centre circle: the light shades it as it shades the coins lying elsewhere.
        coins = _clear_coins(found.filter(~(at_centre | base_print | figure_print | line_print)))
        centre_print[centre_print] = ~_shaded_as_coins(found.centres_mm[centre_print], coins, lab, view,
                                                        radius_mm=sizes[0].radius_mm)
    return base_print | centre_print | figure_print | line_print
