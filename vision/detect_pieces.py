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

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.geometry import BoardModel, CarromBoard, CouronneBoard, CrokinoleBoard
from vision.detect_discs import edge_field, find_discs, rim_radius
from vision.rectify_board import BoardView
from vision.zones import hole_mask

PRINT_COLOUR_MATCH = 14.0
"""Lab distance (8-bit Lab units) under which a disc on a printed circle is taken to be the print."""

PARALLAX_MARGIN_MM = 6.0
"""How far past the surface's limits a top face may be seen (the exact test follows the parallax correction)."""

STEP_MIN_LAB = 8.0
"""Lab distance between the two sides of a rim point for it to count as a colour step."""

MIN_STEP_SHARE = 0.5
"""Least share of a piece's rim that must show a colour step (a filled disc, not a printed outline)."""


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
    """

    centres_mm: np.ndarray
    radii_mm: np.ndarray
    size: np.ndarray
    support: np.ndarray
    colour_lab: np.ndarray
    surround_lab: np.ndarray

    def __len__(self) -> int:
        return len(self.radii_mm)

    def filter(self, mask: np.ndarray) -> "PieceDetections":
        return PieceDetections(self.centres_mm[mask], self.radii_mm[mask], self.size[mask], self.support[mask],
                               self.colour_lab[mask], self.surround_lab[mask])

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
    values = np.where(facing[..., None], values, np.nan)
    return np.nanmedian(values, axis=1)


def sector_contrast(lab: np.ndarray, centres_px: np.ndarray, face_lab: np.ndarray, *, radius_px: float) -> np.ndarray:
    """How clearly each piece's face differs from what surrounds it: the second-largest, over 8 sectors of
    a ring just outside the piece, Lab distance between the face and the sector's median colour.

    Per sector, so that touching pieces of the same colour on some sides do not hide
    the board showing between them on others; a circle drawn on the bare board
    (between two lines, inside a printed figure) shows its own colour all round.
    """
    if len(centres_px) == 0:
        return np.zeros(0)
    angles = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    radii = radius_px * np.array([1.2, 1.35, 1.5])
    offsets = (radii[None, :, None] * np.stack([np.cos(angles), np.sin(angles)], 1)[:, None, :])  # (64, 3, 2)
    pts = centres_px[:, None, None, :] + offsets[None]
    h, w = lab.shape[:2]
    xs = np.clip(np.rint(pts[..., 0]).astype(int), 0, w - 1)
    ys = np.clip(np.rint(pts[..., 1]).astype(int), 0, h - 1)
    ring = lab[ys, xs].astype(np.float64).reshape(len(centres_px), 8, -1, 3)
    sector = np.median(ring, axis=2)
    distance = np.linalg.norm(sector - face_lab[:, None, :], axis=2)
    return np.sort(distance, axis=1)[:, -2]


def face_spread(lab: np.ndarray, centres_px: np.ndarray, face_lab: np.ndarray, *, radius_px: float) -> np.ndarray:
    """Upper-quartile Lab distance from the face colour over the middle of each piece (r < radius_px)."""
    if len(centres_px) == 0:
        return np.zeros(0)
    offsets = _disc_offsets(0.0, radius_px, step=max(1.0, radius_px / 8))
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


def on_surface(centres_mm: np.ndarray, board: BoardModel, *, margin_mm: float = 0.0) -> np.ndarray:
    """True for centres on the playing surface: not over a pocket, not in the ditch or beyond.

    A positive `margin_mm` keeps centres that far past the limits (a top face
    seen with parallax lies a few millimetres out from where the piece stands).
    """
    centres_mm = np.asarray(centres_mm, np.float64).reshape(-1, 2)
    x, y = centres_mm[:, 0], centres_mm[:, 1]
    if isinstance(board, CrokinoleBoard):
        return np.hypot(x, y) <= board.surface_radius_mm + margin_mm
    half = board.half_side_mm + margin_mm
    on = (np.abs(x) <= half) & (np.abs(y) <= half)
    for px, py in board.pocket_centres_mm():
        on &= np.hypot(x - px, y - py) > board.pocket_diameter_mm / 2 - margin_mm
    return on


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
    edges = edge_field(view.image)
    lab = cv2.cvtColor(view.image, cv2.COLOR_BGR2LAB)
    s = view.px_per_mm
    centres, radii, size_index, support, score = [], [], [], [], []
    for k, size in enumerate(sizes):
        found = find_discs(edges, radius_px=size.radius_mm * s, min_support=min_support)
        mm = view.to_mm(found.centres_px)
        r_mm = found.radii_px / s
        # The measured radius must be nearer this size than any other.
        nearest = np.argmin(np.abs(r_mm[:, None] - np.array([z.radius_mm for z in sizes])[None, :]), axis=1)
        ok = (nearest == k) & on_surface(mm, board, margin_mm=PARALLAX_MARGIN_MM)
        centres.append(mm[ok])
        radii.append(r_mm[ok])
        size_index.append(np.full(ok.sum(), k))
        support.append(found.support[ok])
        fit = np.clip(1 - np.abs(r_mm[ok] - size.radius_mm) / size.radius_mm, 0, 1)
        # Where a large piece is, smaller circles fit inside its rim too; a clear large rim wins.
        score.append(found.support[ok] * fit - 0.02 * np.minimum(found.residual_px[ok], 10) + 0.1 * k)
    centres_mm = np.vstack(centres) if centres else np.zeros((0, 2))
    radii_mm, size_arr = np.concatenate(radii), np.concatenate(size_index).astype(int)
    support_arr, score_arr = np.concatenate(support), np.concatenate(score)
    if len(radii_mm) == 0:
        return PieceDetections.empty()
    steps = step_share(lab, view.to_px(centres_mm), radii_mm * s, offset_px=0.3 * sizes[0].radius_mm * s)
    filled = steps >= MIN_STEP_SHARE
    centres_mm, radii_mm, size_arr, support_arr, score_arr = (
        centres_mm[filled], radii_mm[filled], size_arr[filled], support_arr[filled], score_arr[filled])
    colour, surround = _colours(lab, view, centres_mm, size_arr, sizes, board)
    found = PieceDetections(centres_mm, radii_mm, size_arr, support_arr, colour, surround)
    printed = _printed_mask(found, lab, view, board=board)
    if isinstance(board, CrokinoleBoard):
        # The 20-hole is a disc-sized circle of its own; it must not crowd out a disc leaning over it.
        printed |= hole_mask(found.centres_mm, board=board)
    found, score_arr = found.filter(~printed), score_arr[~printed]
    keep = _resolve_overlaps(found.centres_mm, found.radii_mm, score_arr, allowed_overlap_mm=0.3 * sizes[0].radius_mm)
    found = found.filter(keep)
    if len(sizes) == 2 and len(found):
        found = _one_large_piece(found, edges, lab, view, sizes, board)
    return found.filter(np.argsort(-found.support, kind="stable"))


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
    """Sizes decided again from each rim's mean edge profile, with at most one large piece (striker, shooter).

    The game has one striker or shooter; its rim is measured against every
    other piece's, so a blurred or shadowed small piece cannot pass for it.
    """
    s = view.px_per_mm
    small, large = sizes[0].radius_mm, sizes[1].radius_mm
    measured = rim_radius(edges, view.to_px(found.centres_mm), min_radius_px=0.85 * small * s,
                          max_radius_px=1.1 * large * s) / s
    size = np.zeros(len(found), int)
    candidates = np.nonzero(measured > (small + large) / 2)[0]
    if len(candidates):
        size[candidates[np.argmax(measured[candidates])]] = 1
    radii = np.where(size == 1, np.maximum(measured, found.radii_mm), found.radii_mm)
    colour, surround = _colours(lab, view, found.centres_mm, size, sizes, board)
    return PieceDetections(found.centres_mm, radii, size, found.support, colour, surround)


def _printed_mask(found: PieceDetections, lab: np.ndarray, view: BoardView, *, board: BoardModel) -> np.ndarray:
    """True for detections that are the board's own filled circles rather than pieces lying on them."""
    prints_mm = printed_discs_mm(board)
    if len(prints_mm) == 0 or len(found) == 0:
        return np.zeros(len(found), bool)
    radius = board.base_circle_diameter_mm / 2
    nearest = np.min(np.hypot(found.centres_mm[:, None, 0] - prints_mm[None, :, 0],
                              found.centres_mm[:, None, 1] - prints_mm[None, :, 1]), axis=1)
    # Boards place their base circles a few millimetres differently from the model.
    on_print = nearest < 0.8 * radius
    if on_print.sum() >= 3:
        # Most printed circles are free at any moment: the median of what is found on them is the print.
        reference = np.median(found.colour_lab[on_print], axis=0)
    else:
        print_colours = median_colours(lab, view.to_px(prints_mm), inner_px=0, outer_px=0.6 * radius * view.px_per_mm)
        reference = np.median(print_colours, axis=0)
    # Light falls unevenly across a board: lightness counts half as much as hue.
    difference = (found.colour_lab - reference) * np.array([0.5, 1.0, 1.0])
    looks_printed = np.linalg.norm(difference, axis=1) < PRINT_COLOUR_MATCH
    # The queen set on the centre circle in the break formation: a piece with coins all round it.
    at_centre = np.hypot(found.centres_mm[:, 0], found.centres_mm[:, 1]) < 0.8 * radius
    gaps = np.hypot(found.centres_mm[:, None, 0] - found.centres_mm[None, :, 0],
                    found.centres_mm[:, None, 1] - found.centres_mm[None, :, 1])
    surrounded = ((gaps > 0) & (gaps < 2 * radius + 4.0)).sum(axis=1) >= 6
    return on_print & looks_printed & ~(at_centre & surrounded)
