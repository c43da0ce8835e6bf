"""How the light shades the bevel of a disc's rim: a disc of the board's own colour shows little else.

A crokinole disc is a short cylinder with a rounded edge. Its face can match the
board's colour (a light disc on pale maple), so no colour steps across its rim;
but the lamp lights the bevel on one side and leaves the other in shade, and the
disc casts a shadow there. Just inside the rim, the lightness then swings round
the circle once: dark on the side away from the lamp, light on the side towards
it. Print, grain and the bare board are flat in the light: a circle drawn on them
shows no such swing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.masked_median import masked_median

BEVEL_RADIUS_SHARE = 0.85
"""Where the bevel is sampled, as a share of the rim's fitted radius (the shade lies just inside the rim's edge)."""

BOARD_RADIUS_SHARES = (1.4, 1.6, 1.8)
"""Where the board around the disc is sampled, as shares of the rim's radius."""

SAMPLES = 36
"""Points round each ring."""


@dataclass(frozen=True)
class BevelShading:
    """How the light shades the bevels of circles, in 8-bit L units, (n,) each.

    Attributes
    ----------
    swing : amplitude of the first harmonic of lightness round the bevel: half the difference between its lit and
        its shaded side (0 where fewer than half the bevel's points are left).
    shade : how much darker the bevel is than the board around it (medians; negative: lighter).
    """

    swing: np.ndarray
    shade: np.ndarray


def bevel_swing(lab: np.ndarray, centres_px: np.ndarray, radii_px: np.ndarray, *,
                on_print: Callable[[np.ndarray], np.ndarray] | None = None) -> BevelShading:
    """How the lightness just inside each rim swings round it, against the board around it.

    Parameters
    ----------
    lab : (H, W, 3) uint8 ndarray
        The view in 8-bit Lab.
    centres_px : (n, 2) ndarray
        Circle centres, view pixels.
    radii_px : (n,) ndarray
        Their fitted radii, view pixels.
    on_print : points (..., 2) in view pixels -> (...) bool, optional
        Where the board's print lies: the points there are left out (a line tangent to a circle darkens one side
        of it).

    Returns
    -------
    BevelShading, one entry per circle.

    Examples
    --------
    >>> shading = bevel_swing(view.lab, centres_px, radii_px)  # doctest: +SKIP
    """
    centres = np.asarray(centres_px, np.float64).reshape(-1, 2)
    radii = np.asarray(radii_px, np.float64).reshape(-1)
    if len(centres) == 0:
        return BevelShading(np.zeros(0), np.zeros(0))
    lightness = lab[..., 0]
    angles = np.linspace(0, 2 * np.pi, SAMPLES, endpoint=False)

    def ring(share: float) -> tuple[np.ndarray, np.ndarray]:
        x = (centres[:, 0, None] + share * radii[:, None] * np.cos(angles)[None]).astype(np.float32)
        y = (centres[:, 1, None] + share * radii[:, None] * np.sin(angles)[None]).astype(np.float32)
        values = cv2.remap(lightness, x, y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float64)
        kept = np.ones(values.shape, bool) if on_print is None else ~on_print(np.stack([x, y], axis=-1))
        return values, kept

    bevel, on_bevel = ring(BEVEL_RADIUS_SHARE)
    rings = [ring(share) for share in BOARD_RADIUS_SHARES]
    board = masked_median(np.concatenate([v for v, _ in rings], axis=1), np.concatenate([k for _, k in rings], axis=1))
    # The swing is the first harmonic fitted to the points left: a + b cos + c sin, least squares per circle.
    basis = np.stack([np.ones_like(angles), np.cos(angles), np.sin(angles)], axis=1)
    swing = np.zeros(len(centres))
    for i in range(len(centres)):
        kept = on_bevel[i]
        if kept.sum() >= SAMPLES // 2:
            coef, *_ = np.linalg.lstsq(basis[kept], bevel[i, kept], rcond=None)
            swing[i] = np.hypot(coef[1], coef[2])
    return BevelShading(swing, board - masked_median(bevel, on_bevel))
