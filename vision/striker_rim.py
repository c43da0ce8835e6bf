"""Which carrom piece is the striker when the sizes fitted to rims did not say: its rim against a coin's, and its
colour against the coins'.

A striker carries a ring about a coin's size inside its rim (engraved or printed; the simulator's at 0.8 of its
radius). Blurred, a light striker on a pale board shows that ring about as strongly as its own rim, and the circle
fitted at a coin's size lands on the ring (16.3 to 17 mm where a white coin fits 14.6 to 16.9): the striker is read
as a white coin. Its rim is still there at a striker's size, as strong as the ring, and its face is not the white
coins' colour. A black coin, on the other hand, grows by its own dark shadow to a striker's size; a striker is never
the black coins' colour.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.detect_discs import EdgeField, verify_rims
from vision.pieces import BoardReading

STRIKER_RIM_MIN_SUPPORT = 0.8
"""Least share of the striker-sized rim seen around a coin-sized circle for it to be the striker (tuning stills
60000-60119, 71000-71059: such strikers 0.90 and up; hard stills 96060-96259, the bevel blurred into a pale board:
0.81 and up). White coins passing the rim tests stand at most 10 a*b* units apart from the others' hue, as far as the
striker must (`STRIKER_MIN_COLOUR_GAP`), at any support."""

STRIKER_RIM_MIN_RADIUS_SHARE = 0.9
"""Least fitted radius of that rim, as a share of the striker's (such strikers 0.91 and up)."""

STRIKER_RIM_MIN_STRENGTH_RATIO = 0.9
"""Least median edge strength of the striker-sized rim over the coin-sized one (such strikers 0.94 to 1.25; coins
0.59 at the median, though a tenth of them reach 0.9, among coins that touch)."""

STRIKER_MIN_COLOUR_GAP = 10.0
"""Least a*b* distance of the striker's face from the median of the other light coins: hue, for light falls
unevenly on the board and a coin by the frame is lit apart (strikers read as coins 12 to 26; of the coins that pass
the rim tests above, 7.2 at most)."""

LIGHT_COIN_MIN_LIGHTNESS = 128.0
"""8-bit Lab L from which a coin counts among the light ones the striker's colour is measured against."""

LIGHT_COIN_MAX_CHROMA = 40.0
"""Lab chroma above which a light coin is the red queen, not one of the white coins."""

MIN_LIGHT_COINS = 1
"""Other light coins needed to say what the white coins' colour is."""

STRIKER_COLOUR_READINGS = 15
"""Readings of a video whose striker colours are kept to say what the striker looks like (their median): most
readings name it rightly, so the median holds where one names a white coin lit apart."""

STRIKER_COLOUR_MIN_READINGS = 3
"""Readings with one striker needed before its colour is known."""

DARK_COIN_MATCH = 20.0
"""Lab distance (lightness counting half) from the median of the dark coins under which a striker-sized piece is a
black coin grown by its shadow (such coins 2.2 to 9.2 off; strikers 40 and more)."""

MIN_DARK_COINS = 1
"""Dark coins needed to say what the black coins' colour is."""

GROWN_COIN_MIN_SUPPORT = 0.85
"""Least share of a coin-sized rim seen inside a striker-sized piece for it to be a coin grown by its shadow (such
coins 0.97 and up; a black striker on a real frame, its face plain, 0)."""

QUEEN_MIN_REDNESS = 18.0
"""Lab a* above neutral from which a striker-sized piece is the red queen grown by its shadow (as
`vision.classify_pieces.QUEEN_MIN_REDNESS`)."""

QUEEN_MIN_LIGHTNESS = 55.0
"""8-bit Lab L below which a face is too dark to judge its hue (as `vision.classify_pieces.QUEEN_MIN_LIGHTNESS`)."""

_LAB_WEIGHTS = np.array([0.5, 1.0, 1.0])


def _lab_gap(colour_lab: np.ndarray, reference_lab: np.ndarray) -> np.ndarray:
    return np.linalg.norm((np.asarray(colour_lab, np.float64) - reference_lab) * _LAB_WEIGHTS, axis=-1)


def coins_grown(colour_lab: np.ndarray, size: np.ndarray, coin_rim_support: np.ndarray) -> np.ndarray:
    """True for striker-sized pieces (size 1) that are a coin grown by its shadow: with a coin's rim inside
    (`GROWN_COIN_MIN_SUPPORT`), and of the colour of the dark coin-sized pieces (size 0; at least `MIN_DARK_COINS`,
    within `DARK_COIN_MATCH`) or red as the queen is.

    Parameters
    ----------
    colour_lab : (n, 3) float ndarray, median 8-bit Lab colour of each face.
    size : (n,) int ndarray, 0 for a coin, 1 for the striker.
    coin_rim_support : (n,) float ndarray, share of a coin-sized rim seen around each centre.

    Returns
    -------
    (n,) bool ndarray
    """
    colour_lab = np.asarray(colour_lab, np.float64).reshape(-1, 3)
    coloured = (colour_lab[:, 1] - 128.0 > QUEEN_MIN_REDNESS) & (colour_lab[:, 0] > QUEEN_MIN_LIGHTNESS)
    dark = (size == 0) & (colour_lab[:, 0] < LIGHT_COIN_MIN_LIGHTNESS)
    if dark.sum() >= MIN_DARK_COINS:
        coloured |= _lab_gap(colour_lab, np.median(colour_lab[dark], axis=0)) < DARK_COIN_MATCH
    return (size == 1) & coloured & (np.asarray(coin_rim_support) >= GROWN_COIN_MIN_SUPPORT)


@dataclass(frozen=True)
class StrikerRim:
    """The coin-sized piece that is the striker's inner ring, and what the white coins look like.

    Attributes
    ----------
    index : int, into the pieces looked at; -1 where none is the striker.
    centre_px : (2,) float ndarray, its rim's centre fitted at the striker's size.
    radius_px : float, that rim's radius.
    white_hue : (2,) float ndarray or None, median a*b* of the light pieces whose rims are a coin's (None: none such).
    """

    index: int
    centre_px: np.ndarray
    radius_px: float
    white_hue: np.ndarray | None

    def looks_white(self, colour_lab: np.ndarray) -> np.ndarray:
        """True for faces (n, 3) within `STRIKER_MIN_COLOUR_GAP` of the white coins' hue (False where unknown)."""
        colour_lab = np.asarray(colour_lab, np.float64).reshape(-1, 3)
        if self.white_hue is None:
            return np.zeros(len(colour_lab), bool)
        return np.linalg.norm(colour_lab[:, 1:] - self.white_hue, axis=1) < STRIKER_MIN_COLOUR_GAP


def learnt_striker_colours(seen: tuple[tuple[float, float, float], ...], reading: BoardReading
                           ) -> tuple[tuple[float, float, float], ...]:
    """The striker colours of the last `STRIKER_COLOUR_READINGS` readings with one striker, `reading`'s added."""
    if reading.counts().get("striker") != 1 or "striker" not in reading.colours_lab:
        return seen
    return (seen + (reading.colours_lab["striker"],))[-STRIKER_COLOUR_READINGS:]


def striker_colour(seen: tuple[tuple[float, float, float], ...]) -> np.ndarray | None:
    """The striker's colour (8-bit Lab) as read so far: the median of `seen` (None: too few readings)."""
    if len(seen) < STRIKER_COLOUR_MIN_READINGS:
        return None
    return np.median(np.asarray(seen, np.float64), axis=0)


def nearer_striker(colour_lab: np.ndarray, others_lab: np.ndarray, striker_lab: np.ndarray) -> bool:
    """Whether a face (3,) is nearer the striker's known colour in hue (a*b*) than every one of `others_lab` (n, 3)."""
    gap = np.linalg.norm(np.asarray(others_lab, np.float64).reshape(-1, 3)[:, 1:] - striker_lab[1:], axis=1)
    return bool(np.linalg.norm(np.asarray(colour_lab, np.float64)[1:] - striker_lab[1:]) < gap.min(initial=np.inf))


def striker_among_coins(edges: EdgeField, centres_px: np.ndarray, colour_lab: np.ndarray, *, coin_radius_px: float,
                        striker_radius_px: float, unseen_px: np.ndarray | None = None) -> StrikerRim:
    """The coin-sized circle that is the striker's inner ring, if one is.

    Among the light coin-sized pieces, those with a striker-sized rim as strong as the coin-sized one
    (`STRIKER_RIM_*`) are the striker's candidates; the others' median hue is the white coins'. The candidate of a
    hue furthest from theirs, at least `STRIKER_MIN_COLOUR_GAP` off, is the striker.

    Parameters
    ----------
    edges : EdgeField of the view.
    centres_px : (n, 2) centres of the coin-sized pieces found (view px).
    colour_lab : (n, 3) their face colours (8-bit Lab).
    coin_radius_px, striker_radius_px : nominal radii in view px.
    unseen_px : (m, 3) circles where no rim can show (pocket mouths, `vision.detect_discs.verify_rims`).

    Returns
    -------
    StrikerRim

    Examples
    --------
    >>> rim = striker_among_coins(edges, centres, colours, coin_radius_px=15.5, striker_radius_px=20.5)  # doctest: +SKIP
    """
    centres_px = np.asarray(centres_px, np.float64).reshape(-1, 2)
    colour_lab = np.asarray(colour_lab, np.float64).reshape(-1, 3)
    chroma = np.hypot(colour_lab[:, 1] - 128.0, colour_lab[:, 2] - 128.0)
    light = np.nonzero((colour_lab[:, 0] >= LIGHT_COIN_MIN_LIGHTNESS) & (chroma < LIGHT_COIN_MAX_CHROMA))[0]
    if len(light) == 0:
        return StrikerRim(-1, np.zeros(2), 0.0, None)
    hue = colour_lab[light, 1:]
    # Only a piece of a hue of its own can be the striker: the rims of the others are not measured.
    own_hue = np.array([np.linalg.norm(hue[i] - np.median(np.delete(hue, i, axis=0), axis=0)) if len(hue) > 1
                        else np.inf for i in range(len(hue))]) >= STRIKER_MIN_COLOUR_GAP / 2
    rim = np.zeros(len(light), bool)
    radii, centres = np.zeros(len(light)), np.zeros((len(light), 2))
    if own_hue.any():
        large = verify_rims(edges, centres_px[light[own_hue]], radius_px=striker_radius_px, unseen_px=unseen_px)
        small = verify_rims(edges, centres_px[light[own_hue]], radius_px=coin_radius_px, unseen_px=unseen_px)
        ratio = large.strength / np.maximum(small.strength, 1e-6)
        rim[own_hue] = ((large.support >= STRIKER_RIM_MIN_SUPPORT)
                        & (np.abs(large.radii_px - striker_radius_px)
                           <= (1 - STRIKER_RIM_MIN_RADIUS_SHARE) * striker_radius_px)
                        & (ratio >= STRIKER_RIM_MIN_STRENGTH_RATIO))
        radii[own_hue], centres[own_hue] = large.radii_px, large.centres_px
    if rim.all():
        return StrikerRim(-1, np.zeros(2), 0.0, None)
    white_hue = np.median(hue[~rim], axis=0)
    apart = np.linalg.norm(hue - white_hue, axis=1)
    ok = rim & (apart >= STRIKER_MIN_COLOUR_GAP)
    if not ok.any():
        return StrikerRim(-1, np.zeros(2), 0.0, white_hue)
    best = int(np.argmax(np.where(ok, apart, -np.inf)))
    return StrikerRim(int(light[best]), centres[best], float(radii[best]), white_hue)
