"""Carrom's one striker, decided over all the pieces a read found (`vision.striker_rim` measures the rims)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from calibration.geometry import BoardModel, CarromBoard
from vision.detect_discs import EdgeField, FaintRims, verify_rims
from vision.piece_colours import piece_colours
from vision.piece_detections import PieceDetections, PieceSize
from vision.rectify_board import BoardView
from vision.striker_rim import coins_grown, nearer_striker, striker_among_coins

SHRUNK_RADIUS_ERROR = FaintRims().max_radius_error
"""How far the radius of a coin shrunk back from a striker-sized circle may stray from a coin's: as far as a faint
rim's may."""


class CoinRims(NamedTuple):
    """The coin-sized rim inside each piece (`coin_rims_inside`): support (n,), centre (n, 2) and radius (n,), view
    px."""

    support: np.ndarray
    centres_px: np.ndarray
    radii_px: np.ndarray


def striker_decided(found: PieceDetections, edges: EdgeField, lab: np.ndarray, view: BoardView,
                    sizes: tuple[PieceSize, ...], board: BoardModel, *, unseen_px: np.ndarray | None,
                    measured: CoinRims | None = None, striker_lab: np.ndarray | None = None) -> PieceDetections:
    """Carrom's striker decided again over all the pieces found (`vision.striker_rim`).

    A black coin or the queen grown by its shadow to a striker's size is a coin, where its own rim is. A coin-sized
    circle that is a striker's inner ring becomes the striker, measured on its own rim, where no striker is left, or
    where the one left was a faint rim or looks like a white coin (which then is one), unless the striker's colour as
    read so far in a video (`striker_lab`, 8-bit Lab) is nearer the one left's. `measured` holds the coin rims inside
    the first pieces, where they were fitted before (`coin_rims_inside`).
    """
    s = view.px_per_mm
    coin, striker = sizes[0].radius_mm, sizes[1].radius_mm
    size, radii, centres = found.size.copy(), found.radii_mm.copy(), found.centres_mm.copy()
    inner_support, inner_centres, inner_radii = coin_rims_inside(found, edges, view, coin_radius_mm=coin,
                                                                 unseen_px=unseen_px, measured=measured)
    to_coins = coins_grown(found.colour_lab, size, inner_support)
    coins = np.nonzero((size == 0) & ~to_coins)[0]
    rim = striker_among_coins(edges, view.to_px(centres[coins]), found.colour_lab[coins], coin_radius_px=coin * s,
                              striker_radius_px=striker * s, unseen_px=unseen_px)
    if rim.index >= 0:
        large = (size == 1) & ~to_coins
        i = coins[rim.index]
        takes_over = not large.any() or (found.is_faint[large] | rim.looks_white(found.colour_lab[large])).all()
        if takes_over and large.any() and striker_lab is not None:
            # A white coin lit apart from the others (by a corner of the board) stands apart in hue as a striker does;
            # the striker's own colour, seen before, tells them.
            takes_over = nearer_striker(found.colour_lab[i], found.colour_lab[large], striker_lab)
        if takes_over:
            to_coins |= large
            size[i], radii[i], centres[i] = 1, rim.radius_px / s, view.to_mm(rim.centre_px[None])[0]
    if to_coins.any():
        size[to_coins] = 0
        radii[to_coins] = np.clip(inner_radii[to_coins] / s, coin * (1 - SHRUNK_RADIUS_ERROR),
                                  coin * (1 + SHRUNK_RADIUS_ERROR))
        centres[to_coins] = view.to_mm(inner_centres[to_coins])
    if np.array_equal(size, found.size):
        return found
    colour, surround = piece_colours(lab, view, centres, size, sizes, board)
    return PieceDetections(centres, radii, size, found.support, colour, surround, found.is_faint)


def coin_rims_inside(found: PieceDetections, edges: EdgeField, view: BoardView, *, coin_radius_mm: float,
                     unseen_px: np.ndarray | None, measured: CoinRims | None = None) -> CoinRims:
    """The coin-sized rim inside each striker-sized piece (none inside the others), where the others keep their own
    centre and a coin's radius. Those of the first pieces are taken from `measured` where given, not fitted again.

    The rim is fitted until it settles on the coin's own: a circle grown by a shadow is centred up to a third of a
    coin's radius off it.
    """
    s = view.px_per_mm
    large = found.size == 1
    support, radii_px, centres_px = np.zeros(len(found)), np.full(len(found), coin_radius_mm * s), view.to_px(
        found.centres_mm)
    if measured is not None:
        known = len(measured.support)
        support[:known], centres_px[:known], radii_px[:known] = measured
        large[:known] = False
    if large.any():
        inner = verify_rims(edges, centres_px[large], radius_px=coin_radius_mm * s, unseen_px=unseen_px, iterations=4)
        support[large], radii_px[large], centres_px[large] = inner.support, inner.radii_px, inner.centres_px
    return CoinRims(support, centres_px, radii_px)


def large_piece_among(found: PieceDetections, board: BoardModel, *, inner: CoinRims | None) -> bool:
    """Whether the one large piece of the game (striker, shooter) was found, which leaves no room for another: on
    carrom, not a black coin or the queen grown by its shadow (`coins_grown`, judged on the coin rims `inner`), which
    `striker_decided` shrinks."""
    large = found.size == 1
    if not large.any() or not isinstance(board, CarromBoard):
        return bool(large.any())
    return bool((large & ~coins_grown(found.colour_lab, found.size, inner.support)).any())
