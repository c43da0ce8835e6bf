"""What covers the playing surface in a rectified view: hands, arms, a robot's gantry, anything not board or piece.

A board is one colour (its wood or paint) with print on it, and pieces of
known size lie on it. Pixels far from the board's colour (hue counted fully,
lightness a quarter, so shadow bands pass) are candidates; the detected pieces,
the board's known coin-sized prints and lines thinner than a finger are taken
out, and what remains in patches larger than a few pieces is something above
the board. Pieces cannot be read under it: the reading says where it is rather
than guessing, and circles whose surroundings are mostly the cover (bolts,
pulleys, knuckles) are not taken for pieces.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.geometry import BoardModel, CarromBoard, CrokinoleBoard
from vision.piece_colours import pieces_mask
from vision.rectify_board import BoardView

OFF_BOARD_COLOUR = 15.0
"""Lab distance from the board's colour (a*b* plus a quarter of L) from which a pixel is not the board."""

THINNEST_COVER_MM = 13.0
"""Width under which a strip of other colour is print (lines, arrows, lettering), not a cover."""

LEAST_COVER_PIECES = 2.5
"""Least area of a cover, in piece areas: smaller patches are pieces, prints or dirt."""

LEAST_BOARD_SHARE = 0.2
"""Least share of the surface a colour must cover to be one of the board's own (sun and shade, two woods)."""

RIM_MARGIN_MM = 12.0
"""Band along the surface's edge left out: cushions, the frame's shadow and the ditch's lip."""

COVERED_SURROUND = 0.35
"""Share of the ring around a detection inside a cover from which the detection is part of the cover."""

BOXED_SURROUND = 0.2
"""The same for a detection whose centre lies within a patch's bounding box (webcam a2: a rail bracket at 0.31)."""

BEYOND_FRAME_SURROUND = 0.1
"""Share of the ring around a detection outside the frame from which it is left unseen."""

COARSE_PX_PER_MM = 0.5
"""Scale covers are looked for at: a finger is still several pixels wide."""


@dataclass(frozen=True)
class Cover:
    """One patch of the surface that something above it hides: bounding box in board mm and share of the surface.

    Attributes
    ----------
    x_min_mm, x_max_mm, y_min_mm, y_max_mm : float
    share : float
        Its area over the playing surface's.
    """

    x_min_mm: float
    x_max_mm: float
    y_min_mm: float
    y_max_mm: float
    share: float

    def to_json(self) -> dict:
        return {"x_min_mm": round(self.x_min_mm, 1), "x_max_mm": round(self.x_max_mm, 1),
                "y_min_mm": round(self.y_min_mm, 1), "y_max_mm": round(self.y_max_mm, 1),
                "share": round(self.share, 3)}


@dataclass(frozen=True)
class Covers:
    """The covers of one view: the patches, and their mask in the coarse view they were found in."""

    patches: tuple[Cover, ...]
    mask: np.ndarray
    view: BoardView

    @property
    def share(self) -> float:
        return float(sum(c.share for c in self.patches))


def surface_mask(view: BoardView, board: BoardModel, *, inset_mm: float = 0.0) -> np.ndarray:
    """View pixels on the playing surface, `inset_mm` in from its edge (pockets left out)."""
    n = view.image.shape[0]
    s = view.px_per_mm
    mask = np.zeros((n, n), np.uint8)
    (cu, cv), = view.to_px(np.zeros((1, 2)))
    if isinstance(board, CrokinoleBoard):
        cv2.circle(mask, (int(round(cu)), int(round(cv))), int((board.surface_radius_mm - inset_mm) * s), 1, -1)
        return mask.astype(bool)
    half = (board.half_side_mm - inset_mm) * s
    cv2.rectangle(mask, (int(round(cu - half)), int(round(cv - half))), (int(round(cu + half)), int(round(cv + half))),
                  1, -1)
    for pocket in board.pocket_centres_mm():
        (u, v), = view.to_px(np.array([pocket]))
        cv2.circle(mask, (int(round(u)), int(round(v))), int((board.pocket_diameter_mm / 2 + inset_mm) * s), 0, -1)
    return mask.astype(bool)


def board_colours(samples_lab: np.ndarray) -> np.ndarray:
    """The board's own colours (m, 3) among Lab samples of its surface: sunlit and shaded wood, paint.

    Three clusters; those holding at least `LEAST_BOARD_SHARE` of the surface are the board,
    smaller ones are what lies or hangs over it.
    """
    samples = np.asarray(samples_lab, np.float32).reshape(-1, 3)
    if len(samples) < 3:
        return np.median(samples, axis=0, keepdims=True) if len(samples) else np.zeros((1, 3), np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    # Lightness counts a quarter, as in the distance the clusters serve.
    scaled = samples * np.array([0.25, 1.0, 1.0], np.float32)
    cv2.setRNGSeed(0)
    _, labels, centres = cv2.kmeans(scaled, 3, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    share = np.bincount(labels.ravel(), minlength=3) / len(samples)
    return centres[share >= LEAST_BOARD_SHARE] / np.array([0.25, 1.0, 1.0], np.float32)


def _known_print(view: BoardView, board: BoardModel, printed_mm: np.ndarray, print_radius_mm: float) -> np.ndarray:
    """Pixels of the board's filled prints of a piece's size and of the carrom centre figure."""
    n = view.image.shape[0]
    s = view.px_per_mm
    mask = np.zeros((n, n), np.uint8)
    for (u, v) in view.to_px(printed_mm):
        cv2.circle(mask, (int(round(u)), int(round(v))), int((print_radius_mm + 5.0) * s), 1, -1)
    if isinstance(board, CarromBoard):
        (u, v), = view.to_px(np.zeros((1, 2)))
        cv2.circle(mask, (int(round(u)), int(round(v))), int((board.outer_circle_diameter_mm / 2 + 4.0) * s), 1, -1)
    return mask.astype(bool)


def find_covers(view: BoardView, *, board: BoardModel, pieces_mm: np.ndarray, pieces_radius_mm: np.ndarray,
                printed_mm: np.ndarray, print_radius_mm: float, piece_radius_mm: float) -> Covers:
    """Patches of the surface hidden by something that is neither board, print nor a found piece.

    Parameters
    ----------
    view : BoardView of the board.
    board : its board model.
    pieces_mm, pieces_radius_mm : centres (n, 2) and radii (n,) of the pieces found.
    printed_mm, print_radius_mm : centres of the board's filled prints of a piece's size, and their radius.
    piece_radius_mm : radius of the game's (smallest) piece: sets the least area of a cover.

    Returns
    -------
    Covers

    Examples
    --------
    >>> covers = find_covers(view, board=board, pieces_mm=found.centres_mm, pieces_radius_mm=found.radii_mm,
    ...                      printed_mm=printed_discs_mm(board), print_radius_mm=15.9, piece_radius_mm=15.5)  # doctest: +SKIP
    """
    # Covers are many pieces wide: a coarse view finds them at a quarter of the cost.
    size = int(round(view.image.shape[0] * COARSE_PX_PER_MM / view.px_per_mm))
    view = BoardView(cv2.resize(view.image, (size, size), interpolation=cv2.INTER_AREA),
                     size / (2 * view.half_extent_mm), view.half_extent_mm)
    s = view.px_per_mm
    surface = surface_mask(view, board)
    # Outside the frame the view is black: that part is unseen already, not covered.
    black = cv2.cvtColor(view.image, cv2.COLOR_BGR2GRAY) == 0
    beyond_frame = cv2.dilate(black.astype(np.uint8), np.ones((5, 5), np.uint8))
    inner = surface_mask(view, board, inset_mm=RIM_MARGIN_MM) & (beyond_frame == 0)
    lab = cv2.cvtColor(view.image, cv2.COLOR_BGR2LAB).astype(np.float32)
    distance = np.full(lab.shape[:2], np.inf, np.float32)
    samples = lab[surface]
    for board_lab in board_colours(samples[::max(1, len(samples) // 4000)]):
        distance = np.minimum(distance, np.hypot(lab[..., 1] - board_lab[1], lab[..., 2] - board_lab[2])
                              + 0.25 * np.abs(lab[..., 0] - board_lab[0]))
    other = (distance > OFF_BOARD_COLOUR) & inner & ~_known_print(view, board, printed_mm, print_radius_mm)
    other &= ~pieces_mask(view, pieces_mm, pieces_radius_mm, margin_mm=3.0)
    width = max(3, int(round(THINNEST_COVER_MM * s)) | 1)
    other = cv2.morphologyEx(other.astype(np.uint8), cv2.MORPH_OPEN,
                             cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(other, connectivity=8)
    least = LEAST_COVER_PIECES * np.pi * (piece_radius_mm * s) ** 2
    surface_px = max(int(surface.sum()), 1)
    mask = np.zeros(other.shape, bool)
    patches = []
    for i in range(1, count):
        area = stats[i, cv2.CC_STAT_AREA]
        if area < least:
            continue
        mask |= labels == i
        x, y, w, h = (stats[i, k] for k in (cv2.CC_STAT_LEFT, cv2.CC_STAT_TOP, cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT))
        (x0, y1), (x1, y0) = view.to_mm(np.array([[x - 0.5, y - 0.5], [x + w - 0.5, y + h - 0.5]]))
        patches.append(Cover(float(x0), float(x1), float(y0), float(y1), float(area) / surface_px))
    return Covers(tuple(patches), mask, view)


def _surround_share(mask: np.ndarray, view: BoardView, centres_mm: np.ndarray, radii_mm: np.ndarray) -> np.ndarray:
    """Per circle, the share of the ring just around it (1.2 to 1.6 radii) that `mask` holds."""
    angles = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    unit = np.stack([np.cos(angles), np.sin(angles)], 1)
    radii = np.asarray(radii_mm)[:, None, None] * np.array([1.2, 1.4, 1.6])[None, :, None] * view.px_per_mm
    pts = view.to_px(centres_mm)[:, None, None, :] + radii[..., None] * unit[None, None, :, :]
    n = mask.shape[0]
    xs = np.clip(np.rint(pts[..., 0]).astype(int), 0, n - 1)
    ys = np.clip(np.rint(pts[..., 1]).astype(int), 0, n - 1)
    return mask[ys, xs].reshape(len(centres_mm), -1).mean(axis=1)


def covered(covers: Covers, centres_mm: np.ndarray, radii_mm: np.ndarray) -> np.ndarray:
    """True for detections whose surroundings lie mostly inside a cover, or partly beyond the frame.

    A circle at the frame's edge cannot be told from whatever the frame cuts
    there (a machine's wheel, a cushion): it is left unseen, as the area beyond
    the frame is.
    """
    if len(centres_mm) == 0:
        return np.zeros(0, bool)
    beyond = cv2.cvtColor(covers.view.image, cv2.COLOR_BGR2GRAY) == 0
    cut = _surround_share(beyond, covers.view, centres_mm, radii_mm) > BEYOND_FRAME_SURROUND
    if not covers.patches:
        return cut
    share = _surround_share(covers.mask, covers.view, centres_mm, radii_mm)
    # Within a patch's box, what stands between its parts (a machine's bars and brackets) is part of it too.
    boxed = in_cover_box(covers, centres_mm)
    return cut | (share > COVERED_SURROUND) | (boxed & (share > BOXED_SURROUND))


def in_cover_box(covers: Covers, centres_mm: np.ndarray, *, margin_mm: float = 0.0) -> np.ndarray:
    """True for centres within the bounding box of one of the covers, grown by `margin_mm` on every side."""
    c = np.asarray(centres_mm, np.float64).reshape(-1, 2)
    boxed = np.zeros(len(c), bool)
    m = margin_mm
    for p in covers.patches:
        boxed |= ((c[:, 0] >= p.x_min_mm - m) & (c[:, 0] <= p.x_max_mm + m) & (c[:, 1] >= p.y_min_mm - m)
                  & (c[:, 1] <= p.y_max_mm + m))
    return boxed
