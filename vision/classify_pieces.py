"""Name each detected piece: carrom white/black/queen/striker, crokinole light/dark, couronne pink/blue/shooter.

Size decides the striker and the shooter. Colours are judged in 8-bit Lab
(L 0..255, a and b centred on 128). Brightness is taken relative to the board
just around the piece, so a light disc in a shadow band stays light. The two
crokinole teams are found per board by splitting the discs in two by
brightness, or by brightness with a dye discounted (`paleness`), whichever
parts them more clearly; when neither split is clear the discs are one team,
named together by their paleness. A table profile's colour samples, when
given, replace all of this by the nearest sample.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from calibration.geometry import BoardModel, CarromBoard, CouronneBoard, CrokinoleBoard
from vision.team_colours import LIGHTNESS_WEIGHT
from vision.piece_detections import PieceDetections

QUEEN_MIN_REDNESS = 18.0
"""Lab a* above neutral or the board's (8-bit units) from which a carrom coin is the red queen."""

QUEEN_MIN_LIGHTNESS = 55.0
"""8-bit Lab L below which a coin is too dark to judge its hue (a black coin)."""

NATURAL_MAX_SATURATION = 0.3
"""Chroma over (L + 10) up to which a crokinole disc's face may be natural wood: light discs measure at most 0.22
on synthetic stills and 0.25 on the real photos; the simulator's red discs at least 0.42."""

DYE_WEIGHT = 3.0
"""Log-brightness taken off a disc per unit of saturation above `NATURAL_MAX_SATURATION` (a dyed face)."""

DULL_FROM = 0.3
"""Log of the board's chroma over a face's above which the face counts darker by the excess: a dark stain or black
paint dulls the wood (the real photos' dark discs keep at most half the board's chroma), natural light wood keeps
most of it."""

STAIN_MAX_BRIGHTNESS = np.log(1.25)
"""Log-brightness against the board above which a face is not counted dull (`DULL_FROM`): a stain or paint darkens the
wood, and a white face is dull beside any colourful board (simulated clip 5113: two white discs on warm wood,
0.50 and 0.58 above it, chromas 3 and 10 against the board's 30, came out 0.7 apart in paleness)."""

TEAM_MIN_GAP = 0.8
"""Log-brightness between the means of two groups of discs for them to be two teams. Stills 60000-60199,
71000-71099 (1280x720 and 960x540) and 76000-76199, and the real photos: one team parts at most 0.40 by brightness,
0.58 by paleness where the lighter part looks light (red or black discs part by up to 0.68, one leaning into the
hole, but none looks light); two teams part at least 1.12 by paleness."""

ONE_TEAM_LIGHT_FROM = np.log(0.55)
"""Paleness (log, 0: as bright as the board) above which one team alone on a board is the light team: the median
disc of a light team measures -0.50 and above, of a dark, black or red team -0.71 and below (the stills above and
the real photos, each team taken alone)."""


@dataclass(frozen=True)
class Classes:
    """Kinds of the detections, in their order, and how clearly each was decided (0..1)."""

    kinds: tuple[str, ...]
    margin: np.ndarray

    def filter(self, mask: np.ndarray) -> "Classes":
        """The classes of the detections where `mask` (n,) is true, in their order."""
        return Classes(tuple(k for k, keep in zip(self.kinds, mask) if keep), self.margin[mask])


def relative_lightness(found: PieceDetections) -> np.ndarray:
    """Lightness of each piece's face relative to the board around it (1: same as the board)."""
    return (found.colour_lab[:, 0] + 10.0) / (np.maximum(found.surround_lab[:, 0], 1.0) + 10.0)


def paleness(found: PieceDetections) -> np.ndarray:
    """Each face's log brightness against the board, less a dye's and a stain's share: low for dark and dyed discs.

    Natural light wood is pale: its chroma is small for its lightness, but not
    much below the board's. A dyed disc (a red set) can be nearly as bright as
    a dark board, but is far more colourful for its lightness; a stained one
    can be nearly as bright as a pale board, but is dull beside it. The excess
    saturation and dullness are taken off its brightness so it counts dark
    (dullness only where the face is not much brighter than the board).
    """
    lab = np.asarray(found.colour_lab, np.float64)
    chroma = np.hypot(lab[:, 1] - 128, lab[:, 2] - 128)
    saturation = chroma / (lab[:, 0] + 10.0)
    board_chroma = np.hypot(found.surround_lab[:, 1] - 128, found.surround_lab[:, 2] - 128)
    brightness = np.log(relative_lightness(found))
    dullness = np.maximum(np.log((board_chroma + 5.0) / (chroma + 5.0)) - DULL_FROM, 0.0)
    dullness[brightness > STAIN_MAX_BRIGHTNESS] = 0.0
    return brightness - DYE_WEIGHT * np.maximum(saturation - NATURAL_MAX_SATURATION, 0.0) - dullness


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


def _nearest_sample(colour_lab: np.ndarray, samples: dict[str, np.ndarray], *, lightness_weight: float = 1.0) -> Classes:
    names = list(samples)
    ref = np.array([samples[n] for n in names], np.float64)
    d = np.linalg.norm((colour_lab[:, None, :] - ref[None, :, :]) * [lightness_weight, 1.0, 1.0], axis=2)
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
        # A couronne team is a hue: where the light dims or brightens the board, lightness follows it, hue less.
        result = _nearest_sample(found.colour_lab, colour_kinds,
                                 lightness_weight=LIGHTNESS_WEIGHT if isinstance(board, CouronneBoard) else 1.0)
    elif isinstance(board, CrokinoleBoard):
        result = _crokinole_teams(found)
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


def _crokinole_teams(found: PieceDetections, *, min_quality: float = 4.0) -> Classes:
    pale = paleness(found)
    splits = []
    # A red and a black team are both dyed: brightness alone still parts them. Split by paleness, the lighter
    # group must look light on its own: a red disc leaning into the hole is shaded well below its fellows.
    for value, needs_light_group in ((pale, True), (np.log(relative_lightness(found)), False)):
        threshold, quality, gap = split_in_two(value)
        if quality < min_quality or gap < TEAM_MIN_GAP:
            continue
        if not needs_light_group or np.mean(value[value > threshold]) > ONE_TEAM_LIGHT_FROM:
            splits.append((gap, threshold, value))
    if splits:
        _, threshold, value = max(splits, key=lambda split: split[0])
        is_light = value > threshold
        margin = np.clip(np.abs(value - threshold) / (np.std(value) + 1e-6), 0, 1)
        return Classes(tuple("light" if light else "dark" for light in is_light), margin)
    # One team: named together, so a disc leaning into the hole or unevenly dyed goes with its fellows; a disc on
    # the other side of the threshold from them is doubtful.
    is_light = bool(np.median(pale) > ONE_TEAM_LIGHT_FROM)
    side = 1.0 if is_light else -1.0
    margin = np.clip(side * (pale - ONE_TEAM_LIGHT_FROM) / TEAM_MIN_GAP, 0, 1)
    return Classes(("light" if is_light else "dark",) * len(found), margin)


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
