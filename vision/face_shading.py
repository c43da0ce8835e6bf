"""How the light shades a piece's face: pieces stand in the light, the board's print lies flat in it.

A coin, ring or disc is a few millimetres tall with a rounded or bevelled top, so
the lamp above the table lights one side of its face more than the other, the
same way for every piece on the board. Print of the same colour is flat and lit
evenly. The shading is measured as the slope of a plane fitted to the face's
lightness.
"""

from __future__ import annotations

import numpy as np

from vision.rectify_board import BoardView

FACE_COLOUR_GAP = 30.0
"""Lab distance from a face's median colour beyond which a pixel is not part of the face."""

MIN_FACE_SHARE = 0.85
"""Least share of a face's pixels within `FACE_COLOUR_GAP` of its colour for it to have a slope: a coin's face is
one colour (0.90 and up at 0.6 of its radius in video frames), a circle over print of several (the carrom star's
points, 0.74 to 0.82)."""


def face_shading(lab: np.ndarray, centres_px: np.ndarray, *, radius_px: float,
                 max_colour_gap: float = FACE_COLOUR_GAP) -> np.ndarray:
    """Lightness slope across each face: (n, 2), in 8-bit Lab L units from the centre to `radius_px` (x, y).

    Parameters
    ----------
    lab : (H, W, 3) uint8 ndarray
        The view in 8-bit Lab.
    centres_px : (n, 2) ndarray
        Face centres, view pixels.
    radius_px : float
        Radius of the face to fit the plane over.
    max_colour_gap : float
        Pixels further than this (Lab) from the face's median colour are left out of the fit: print or a
        neighbour reaching into a face placed a little off.

    Returns
    -------
    (n, 2) ndarray
        The change of L from the centre to `radius_px` along view x and along view y; zero for a face of
        several colours (under `MIN_FACE_SHARE` of its pixels within `max_colour_gap` of its median).
    """
    centres = np.asarray(centres_px, np.float64).reshape(-1, 2)
    if radius_px <= 1:
        raise ValueError(f"radius_px must exceed 1 pixel, got {radius_px}")
    if len(centres) == 0:
        return np.zeros((0, 2))
    r = int(np.ceil(radius_px))
    ys, xs = np.mgrid[-r:r + 1, -r:r + 1]
    inside = np.hypot(xs, ys) <= radius_px
    offsets = np.column_stack([xs[inside], ys[inside]])
    design = np.column_stack([offsets / radius_px, np.ones(len(offsets))])
    pts = np.rint(centres[:, None, :]).astype(int) + offsets[None, :, :]
    h, w = lab.shape[:2]
    values = lab[np.clip(pts[..., 1], 0, h - 1), np.clip(pts[..., 0], 0, w - 1)].astype(np.float64)
    own = np.linalg.norm(values - np.median(values, axis=1, keepdims=True), axis=2) <= max_colour_gap
    weights = own.astype(np.float64)
    normal = np.einsum("nk,ki,kj->nij", weights, design, design)
    rhs = np.einsum("nk,ki,nk->ni", weights, design, values[..., 0])
    # A face of several colours is not one piece's face: it has no slope to tell.
    solvable = own.mean(axis=1) >= MIN_FACE_SHARE
    slopes = np.zeros((len(centres), 2))
    if solvable.any():
        slopes[solvable] = np.linalg.solve(normal[solvable], rhs[solvable, :, None])[:, :2, 0]
    return slopes


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


def shaded_as_coins(centres_mm: np.ndarray, coins_mm: np.ndarray, lab: np.ndarray, view: BoardView, *,
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
