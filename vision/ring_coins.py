"""Carrom: white coins seen only as a dark ring round a pale face, in a view rectified from a coarse image.

Where the camera gives the board fewer pixels than the view (a small or far board: 0.26 to 0.56 source pixels per mm,
a coin 8 to 17 pixels across), a white coin's rim is no step from its face to the board any more. Its bevel and its
shadow blur into a dark line round a face hardly paler than the board: two weak edges a few millimetres inside and
outside the rim, neither at the coin's radius (synthetic still 96227 at (298, -112) mm: the edges peak 3.5 mm
inside the rim, at the rim nothing). A dark line is a ridge of the lightness, and it is at the rim: looked for as a
ridge field, it draws a circle of the coin's size as a clear edge draws one (`find_discs`).
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from calibration.geometry import CarromBoard
from vision.carrom_strokes import stroke_mask
from vision.classify_pieces import classify_pieces
from vision.coin_circles import coin_circles
from vision.detect_discs import EdgeField, ridge_pixels, rim_edges
from vision.piece_detections import PieceDetections, piece_sizes
from vision.print_symmetry import symmetry_gap
from vision.rectify_board import BoardView

COARSE_SOURCE_PX_PER_MM = 0.6
"""Source scale (`px_per_mm_at` the board's centre) below which ring coins are looked for. Over the 1280x720 carrom
stills 96060-96259 and 97000-97199, every unread white a ring found lay on a board at 0.26 to 0.56 source px/mm; where
the image is finer, the reader's rims are what was measured."""

RIDGE_SMOOTH_PX = 2.0
"""Scale of the ridge filter, view pixels (the view is 1 px/mm): a blurred rim line is 3 to 6 mm wide."""

RING_MIN_SUPPORT = 0.7
"""Share of a ring's rim the ridge must show for `find_discs` to keep it (the share off the print decides:
`MIN_OFF_PRINT_SUPPORT`)."""

FACE_SHARE = 0.65
"""Part of the radius looked at for lines across a ring coin's face: clear of its rim's blur."""

MAX_FACE_LINES = 0.2
"""Largest share of a ring coin's face on a dark line. A coin's face is plain; a ring the print draws round a gap
in its lettering or across a base line is not. Stills 96060-96259, rings named white and passing every other test:
35 on unread whites and 2 elsewhere with it, 42 and 8 without."""

MIN_OFF_PRINT_SUPPORT = 0.7
"""Share of a ring coin's rim away from the print (`stroke_mask`) where the ring must show: the print draws the rest
of a circle between two base lines, or between two of the centre star's arms and its hub. Same stills: 35 and 2 with
it, 39 and 10 without."""

MIN_SYMMETRY_GAP = 7.0
"""Least `symmetry_gap` of a ring coin: the print draws its rings alike at the board's symmetric places, a coin lies at
one. Same stills: 35 and 2 with it, 38 and 93 without."""


def ridge_field(lab: np.ndarray, *, smooth_px: float = RIDGE_SMOOTH_PX) -> EdgeField:
    """Dark lines of an 8-bit Lab image as an `EdgeField`: strength and the direction across each line.

    Parameters
    ----------
    lab : (H, W, 3) uint8 ndarray
        The image in Lab; only lightness is used.
    smooth_px : float
        Gaussian scale of the second derivatives, pixels.

    Returns
    -------
    EdgeField whose magnitude is how much more the lightness curves up across a valley than along it,
    scale-normalised, and whose direction is across it.

    Examples
    --------
    >>> candidates = find_discs(ridge_field(view.lab), radius_px=15.5)  # doctest: +SKIP
    """
    if lab.ndim != 3 or lab.shape[2] != 3:
        raise ValueError(f"lab must be an (H, W, 3) image, got shape {lab.shape}")
    lightness = cv2.GaussianBlur(lab[:, :, 0].astype(np.float32), (0, 0), smooth_px)
    lxx = cv2.Sobel(lightness, cv2.CV_32F, 2, 0, ksize=3)
    lyy = cv2.Sobel(lightness, cv2.CV_32F, 0, 2, ksize=3)
    lxy = cv2.Sobel(lightness, cv2.CV_32F, 1, 1, ksize=3)
    root = np.sqrt((lxx - lyy) ** 2 + 4 * lxy * lxy)
    across, along = 0.5 * (lxx + lyy + root), 0.5 * (lxx + lyy - root)
    # A valley curves up across itself far more than along: not the flank of a line (curving down across it), nor
    # a dark spot (curving up both ways).
    magnitude = (np.maximum(across - np.abs(along), 0) * smooth_px ** 2).astype(np.float32)
    # The direction across: half the angle whose cosine is (lxx - lyy) / root and sine 2 lxy / root.
    cos_twice = np.divide(lxx - lyy, root, out=np.ones_like(root), where=root > 0)
    ux = np.sqrt(np.clip(0.5 * (1 + cos_twice), 0, 1))
    uy = np.copysign(np.sqrt(np.clip(0.5 * (1 - cos_twice), 0, 1)), lxy)
    threshold = float(max(1.0, 2.5 * np.median(magnitude[::4, ::4])))
    return EdgeField(magnitude, ux, uy, threshold, ridge_pixels(magnitude, ux, uy, threshold))


def ring_coins(view: BoardView, found: PieceDetections, *, board: CarromBoard,
               samples_lab: dict[str, np.ndarray] | None = None) -> PieceDetections:
    """White coins drawn as dark rings, clear of the pieces found and unlike the print, best ring first.

    Parameters
    ----------
    view : BoardView of the board, rectified from a coarse image (`COARSE_SOURCE_PX_PER_MM`).
    found : the pieces read in it (`detect_pieces`); a ring coin overlaps none of them.
    board : the carrom board that was rectified.
    samples_lab : the table's colour samples, if any, to name the rings as the reader names pieces.

    Returns
    -------
    PieceDetections of the coin's size, marked faint, with face and surround colours; only rings named white among
    the pieces found.

    Examples
    --------
    >>> more = ring_coins(view, detect_pieces(view, board=board), board=board)  # doctest: +SKIP
    """
    if not isinstance(board, CarromBoard):
        raise ValueError(f"ring coins are looked for on carrom boards only, not {board.game}")
    coin_radius_mm = piece_sizes(board)[0].radius_mm
    radius_px = coin_radius_mm * view.px_per_mm
    ridges = ridge_field(view.lab)
    rings = coin_circles(ridges, view, found, board=board, min_support=RING_MIN_SUPPORT, margin_mm=-coin_radius_mm)
    centres_px = view.to_px(rings.centres_mm)
    keep = _off_print_support(ridges, centres_px, radius_px=radius_px,
                              printed_px=stroke_mask(view, board=board)) >= MIN_OFF_PRINT_SUPPORT
    keep[keep] = _face_lines(ridges, centres_px[keep], radius_px=FACE_SHARE * radius_px) <= MAX_FACE_LINES
    # Where every symmetric place is taken by a piece the gap is unknown (infinite): no sign of a coin.
    gap = symmetry_gap(view.lab, centres_px[keep], radius_px=radius_px, occupied_px=view.to_px(found.centres_mm))
    keep[keep] = np.isfinite(gap) & (gap >= MIN_SYMMETRY_GAP)
    rings = rings.filter(keep)
    rings = dataclasses.replace(rings, is_faint=np.ones(len(rings), bool))
    # A ring round a dark face is the print's (a coin's shadow on a black coin's face is no ring to see).
    kinds = np.array(classify_pieces(found.join(rings), board=board, samples_lab=samples_lab).kinds[len(found):])
    return rings.filter(kinds == "white") if len(rings) else rings


def _off_print_support(field: EdgeField, centres_px: np.ndarray, *, radius_px: float,
                       printed_px: np.ndarray) -> np.ndarray:
    """Share of each circle's rim away from the print (`printed_px`) where `field` shows a radial line or edge; 0
    where the print covers the whole rim."""
    seen, angles = rim_edges(field, centres_px, radius_px=radius_px)
    x = np.rint(centres_px[:, :1] + radius_px * np.cos(angles)).astype(int)
    y = np.rint(centres_px[:, 1:] + radius_px * np.sin(angles)).astype(int)
    h, w = printed_px.shape
    off = ~printed_px[np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)]
    return (seen & off).sum(axis=1) / np.maximum(off.sum(axis=1), 1)


def _face_lines(field: EdgeField, centres_px: np.ndarray, *, radius_px: float) -> np.ndarray:
    """Share of each disc of `radius_px` (a coin's face) where `field` stands above its threshold."""
    reach = int(np.ceil(radius_px))
    dy, dx = np.mgrid[-reach:reach + 1, -reach:reach + 1]
    inside = np.hypot(dx, dy) <= radius_px
    dx, dy = dx[inside], dy[inside]
    h, w = field.magnitude.shape
    x = np.clip(np.rint(centres_px[:, :1]).astype(int) + dx, 0, w - 1)
    y = np.clip(np.rint(centres_px[:, 1:]).astype(int) + dy, 0, h - 1)
    return (field.magnitude[y, x] > field.threshold).mean(axis=1)
