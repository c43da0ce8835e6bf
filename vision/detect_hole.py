"""Crokinole: a disc lying flat in the 20-hole, seen from above.

The hole is a disc's width and a little more (NCA: 34.9 mm for 31.75 mm
discs). Empty, it shows its bottom, whatever its colour, to the hole's own rim;
holding a disc, it shows a second, smaller circle inside: the disc's edge, with
the dark gap to the hole's wall around it, shifted a little by parallax (the
disc lies below the surface). The hole is viewed on its own at a finer scale
than the board, where the two circles are millimetres apart. Only the top disc
can be seen.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.geometry import CrokinoleBoard
from vision.detect_discs import edge_field, verify_rims
from vision.piece_colours import median_colours
from vision.homography import rectify

HOLE_PX_PER_MM = 4.0
"""Scale of the close view of the hole: the disc's edge and the hole's wall 1.5 mm apart are 6 px apart."""

SEEN_DEPTH_SCALE = 0.92
"""A disc at the bottom of the hole looks this much smaller than one on the surface (it is farther away)."""

MIN_RIM_SUPPORT = 0.85
"""Least share of the inner circle's rim that must show an edge."""

MIN_WALL_SUPPORT = 0.6
"""Least share of the hole's wall that must show its edge for the hole to be judged at all."""

WALL_GAP_MM = 1.6
"""Least gap between the inner circle and the hole's wall: a circle fitted to the wall itself measures within this."""

CHROMA_MARGIN = 10.0
"""Lab chroma by which a face in the hole may exceed the most colourful team's discs (lighting, noise)."""

LIGHT_FACE_SHARE = 0.3
"""A disc in the hole whose face is at least this share of the board's lightness is a light disc; the hole's
walls shade it, so its own team's colour on the surface is no guide."""


@dataclass(frozen=True)
class HoleDisc:
    """A disc found lying in the 20-hole: its team, its centre as seen (board mm) and how clearly its rim showed."""

    kind: str
    x_mm: float
    y_mm: float
    support: float


def disc_in_hole(image: np.ndarray, *, homography: np.ndarray, board: CrokinoleBoard,
                 team_chroma: float | None = None) -> HoleDisc | None:
    """The disc lying in the 20-hole, if one is seen there.

    Parameters
    ----------
    image : (H, W, 3) uint8 BGR frame.
    homography : (3, 3) board mm -> image px.
    board : the crokinole board model.
    team_chroma : the highest Lab chroma of the discs on the surface, when there are any: a face in
        the hole more colourful than every team's disc is the hole's painted bottom, not a disc.

    Returns
    -------
    HoleDisc or None

    Examples
    --------
    >>> disc_in_hole(frame, homography=h, board=load_board("crokinole"))  # doctest: +SKIP
    HoleDisc(kind='light', x_mm=0.4, y_mm=-0.8, support=0.93)
    """
    s = HOLE_PX_PER_MM
    hole_r = board.hole_diameter_mm / 2
    disc_r = board.disc_diameter_mm / 2
    half = hole_r + disc_r
    close = rectify(image, np.asarray(homography, np.float64), px_per_mm=s, half_extent_mm=half)
    if close.max() == 0:
        return None
    centre_px = np.array([half * s - 0.5, half * s - 0.5])
    # The disc lies within the hole: its centre is within the play between them (plus parallax) of the hole's.
    reach_px = (hole_r - disc_r + 1.5) * s
    grid = np.linspace(-reach_px, reach_px, 5)
    starts = centre_px + np.stack(np.meshgrid(grid, grid), -1).reshape(-1, 2)
    edges = edge_field(close)
    # A disc leaning over the hole hides part of its wall: then nothing in the hole can be judged.
    wall = verify_rims(edges, centre_px[None], radius_px=hole_r * s, iterations=0)
    if wall.support[0] < MIN_WALL_SUPPORT:
        return None
    found = verify_rims(edges, starts, radius_px=SEEN_DEPTH_SCALE * disc_r * s)
    offset_mm = np.hypot(*(found.centres_px - centre_px).T) / s
    radius_mm = found.radii_px / s
    # Inside the hole, and smaller than its wall by more than the measurement's blur.
    inside = ((found.support >= MIN_RIM_SUPPORT) & (offset_mm + radius_mm < hole_r + 0.5)
              & (radius_mm < hole_r - WALL_GAP_MM) & (radius_mm > 0.85 * disc_r))
    if not inside.any():
        return None
    best = int(np.argmax(np.where(inside, found.support, -1)))
    lab = cv2.cvtColor(close, cv2.COLOR_BGR2LAB)
    face = median_colours(lab, found.centres_px[best:best + 1], inner_px=0, outer_px=0.6 * disc_r * s)[0]
    board_around = median_colours(lab, centre_px[None], inner_px=(hole_r + 3) * s, outer_px=(half - 1) * s)[0]
    if team_chroma is not None and np.hypot(face[1] - 128, face[2] - 128) > team_chroma + CHROMA_MARGIN:
        return None
    kind = "light" if face[0] >= LIGHT_FACE_SHARE * board_around[0] else "dark"
    x_mm = (found.centres_px[best, 0] + 0.5) / s - half
    y_mm = half - (found.centres_px[best, 1] + 0.5) / s
    return HoleDisc(kind, float(x_mm), float(y_mm), float(found.support[best]))
