"""Name each detected piece: carrom white/black/queen/striker, crokinole light/dark, couronne pink/blue/shooter.

Size decides the striker and the shooter. Colours are judged in 8-bit Lab
(L 0..255, a and b centred on 128). Brightness is taken relative to the board
just around the piece, so a light disc in a shadow band stays light. The two
crokinole teams are found per board by splitting the discs' colours in two;
when the split is not clear (one team on the board, or none) the brightness
decides alone. A table profile's colour samples, when given, replace all of
this by the nearest sample.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.geometry import BoardModel, CarromBoard, CrokinoleBoard
from vision.piece_detections import PieceDetections

QUEEN_MIN_REDNESS = 18.0
"""Lab a* above neutral or the board's (8-bit units) from which a carrom coin is the red queen."""

QUEEN_MIN_LIGHTNESS = 55.0
"""8-bit Lab L below which a coin is too dark to judge its hue (a black coin)."""


@dataclass(frozen=True)
class Classes:
    """Kinds of the detections, in their order, and how clearly each was decided (0..1)."""

    kinds: tuple[str, ...]
    margin: np.ndarray


def relative_lightness(found: PieceDetections) -> np.ndarray:
    """Lightness of each piece's face relative to the board around it (1: same as the board)."""
    return (found.colour_lab[:, 0] + 10.0) / (np.maximum(found.surround_lab[:, 0], 1.0) + 10.0)


def split_in_two(values: np.ndarray) -> tuple[float, float, float]:
    """Best threshold between two groups of 1-D values (least within-group variance), its quality and gap.

    Quality is the gap between the group means over the pooled spread; a large
    quality and a large gap together mean two groups are really there.
    """
    v = np.sort(np.asarray(values, np.float64))
    if len(v) < 2:
        return (float(v[0]) if len(v) else 0.0), 0.0, 0.0
    best = (np.inf, 0.0, 0.0, 0.0)
    for k in range(1, len(v)):
        left, right = v[:k], v[k:]
        cost = left.var() * len(left) + right.var() * len(right)
        if cost < best[0]:
            spread = np.sqrt(cost / len(v)) + 1e-6
            gap = right.mean() - left.mean()
            best = (cost, (left[-1] + right[0]) / 2, gap / spread, gap)
    return best[1], best[2], best[3]


def _nearest_sample(colour_lab: np.ndarray, samples: dict[str, np.ndarray]) -> Classes:
    names = list(samples)
    ref = np.array([samples[n] for n in names], np.float64)
    d = np.linalg.norm(colour_lab[:, None, :] - ref[None, :, :], axis=2)
    order = np.sort(d, axis=1)
    margin = np.clip((order[:, 1] - order[:, 0]) / (order[:, 1] + 1e-6), 0, 1) if len(names) > 1 else np.ones(len(d))
    return Classes(tuple(names[i] for i in np.argmin(d, axis=1)), margin)


def _two_groups(value: np.ndarray, *, names: tuple[str, str], single_threshold: float, min_gap: float,
                min_quality: float = 4.0) -> Classes:
    """Name values low/high by a per-board split, or by a fixed threshold when there is no clear split."""
    threshold, quality, gap = split_in_two(value)
    is_split = quality >= min_quality and gap >= min_gap
    if not is_split:
        threshold = single_threshold
    high = value > threshold
    scale = np.std(value) + 1e-6 if is_split else max(min_gap, 1e-6)
    margin = np.clip(np.abs(value - threshold) / scale, 0, 1)
    return Classes(tuple(names[1] if h else names[0] for h in high), margin)


def classify_pieces(found: PieceDetections, *, board: BoardModel,
                    samples_lab: dict[str, np.ndarray] | None = None) -> Classes:
    """The kind of every detection.

    Parameters
    ----------
    found : PieceDetections of one board.
    board : its board model (the game and the piece sizes).
    samples_lab : optional per-table colour samples, kind -> 8-bit Lab colour
        (from a table profile); sizes still decide striker and shooter.

    Returns
    -------
    Classes

    Examples
    --------
    >>> classify_pieces(found, board=load_board("crokinole")).kinds  # doctest: +SKIP
    ('light', 'dark', 'dark')
    """
    n = len(found)
    if n == 0:
        return Classes((), np.zeros(0))
    big = found.size == 1
    if samples_lab:
        colour_kinds = {k: v for k, v in samples_lab.items() if k not in ("striker", "shooter")}
        result = _nearest_sample(found.colour_lab, colour_kinds)
    elif isinstance(board, CrokinoleBoard):
        result = _two_groups(np.log(relative_lightness(found)), names=("dark", "light"), single_threshold=np.log(0.75),
                             min_gap=0.35)
    elif isinstance(board, CarromBoard):
        result = _carrom_colours(found)
    else:
        # Couronne: pink leans to red (a* up), blue to blue (b* down).
        hue = (found.colour_lab[:, 1] - 128) + (found.colour_lab[:, 2] - 128)
        result = _two_groups(hue, names=("blue", "pink"), single_threshold=0.0, min_gap=15.0)
    kinds = list(result.kinds)
    margin = result.margin.copy()
    large_name = {"carrom": "striker", "couronne": "shooter"}.get(board.game)
    if large_name:
        for i in np.nonzero(big)[0]:
            kinds[i] = large_name
            margin[i] = 1.0
    return Classes(tuple(kinds), margin)


def _carrom_colours(found: PieceDetections) -> Classes:
    # Redness against the board around the coin, so a warm light cast does not make every coin red;
    # a black coin's a* is noise.
    redness = found.colour_lab[:, 1] - np.maximum(found.surround_lab[:, 1], 128)
    is_queen = (redness > QUEEN_MIN_REDNESS) & (found.colour_lab[:, 0] > QUEEN_MIN_LIGHTNESS)
    # Coins cluster tightly (the break), so the board around a coin is often other coins: absolute lightness.
    light = found.colour_lab[:, 0]
    coins = ~is_queen & (found.size == 0)
    kinds = ["queen" if q else "" for q in is_queen]
    margin = np.clip((np.abs(redness - QUEEN_MIN_REDNESS)) / 10, 0, 1)
    if coins.any():
        named = _two_groups(light[coins], names=("black", "white"), single_threshold=128.0, min_gap=40.0)
        for i, kind, m in zip(np.nonzero(coins)[0], named.kinds, named.margin):
            kinds[i] = kind
            margin[i] = min(margin[i], m)
    return Classes(tuple(k or "white" for k in kinds), margin)
