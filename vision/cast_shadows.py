"""Where a piece casts its shadow: a pale piece on a pale board may show little else.

A white coin or striker on a cream or white board steps little in colour across
its rim; what the camera sees of it is the shadow it casts, a dark crescent just
outside the rim on the side away from the lamp. The lamp is the same for every
piece, so the crescent lies the same way round each pale piece. Print drawn as
half a circle (a line's end, an arc, a letter) darkens whichever side it lies on.
"""

from __future__ import annotations

import cv2
import numpy as np

SHADOW_BAND = (1.0, 1.3)
"""Where the shadow is looked for, as shares of the rim's radius: just outside it (the deepest shade across counts)."""

BOARD_BAND = (1.6, 2.0)
"""Where the board around is sampled, as shares of the rim's radius (its median is the board's lightness)."""

SAMPLES = 48
"""Points round each ring."""

BAND_RINGS = 4
"""Rings sampled across the shadow band."""

SHADOW_MAX_HUE_GAP = 8.0
"""Most Lab chroma distance (a, b) from the board around for a darker spot to be its shade: a shadow darkens the
board's own colour."""


def shadow_vectors(lab: np.ndarray, centres_px: np.ndarray, radii_px: np.ndarray) -> np.ndarray:
    """The way and depth of the shade just outside each rim: (n, 2), in 8-bit Lab L units (x, y in view pixels).

    The first harmonic round the rim of how much darker than the board around the
    band just outside it is: it points to the side the shade lies on, and its length
    is half the difference between that side and the other. Only the board's own
    colour darkened counts as shade: print of another hue (a maker's red name) does not.

    Parameters
    ----------
    lab : (H, W, 3) uint8 ndarray
        The view in 8-bit Lab.
    centres_px : (n, 2) ndarray
        Circle centres, view pixels.
    radii_px : (n,) ndarray
        Their radii, view pixels.
    """
    centres = np.asarray(centres_px, np.float64).reshape(-1, 2)
    radii = np.broadcast_to(np.asarray(radii_px, np.float64), len(centres))
    if len(centres) == 0:
        return np.zeros((0, 2))
    angles = np.linspace(0, 2 * np.pi, SAMPLES, endpoint=False)
    lab32 = np.ascontiguousarray(lab, np.float32)
    band = _rings(lab32, centres, radii, np.linspace(*SHADOW_BAND, BAND_RINGS), angles)
    board = np.median(_rings(lab32, centres, radii, np.linspace(*BOARD_BAND, 3), angles).reshape(len(centres), -1, 3),
                      axis=1)[:, None, None, :]
    darker = board[..., 0] - band[..., 0]
    same_hue = np.linalg.norm(band[..., 1:] - board[..., 1:], axis=-1) <= SHADOW_MAX_HUE_GAP
    shade = np.clip(np.where(same_hue, darker, 0.0), 0, None).max(axis=1)
    return 2 / SAMPLES * np.column_stack([shade @ np.cos(angles), shade @ np.sin(angles)])


def face_lightness_gap(lab: np.ndarray, centres_px: np.ndarray, radii_px: np.ndarray) -> np.ndarray:
    """How much lighter each circle's face is than the board around it (medians, 8-bit L; negative: darker)."""
    centres = np.asarray(centres_px, np.float64).reshape(-1, 2)
    radii = np.broadcast_to(np.asarray(radii_px, np.float64), len(centres))
    if len(centres) == 0:
        return np.zeros(0)
    angles = np.linspace(0, 2 * np.pi, SAMPLES, endpoint=False)
    lab32 = np.ascontiguousarray(lab, np.float32)
    face = _rings(lab32, centres, radii, (0.3, 0.5, 0.7), angles)[..., 0].reshape(len(centres), -1)
    board = _rings(lab32, centres, radii, np.linspace(*BOARD_BAND, 3), angles)[..., 0].reshape(len(centres), -1)
    return np.median(face, axis=1) - np.median(board, axis=1)


def _rings(lab: np.ndarray, centres: np.ndarray, radii: np.ndarray, shares, angles: np.ndarray) -> np.ndarray:
    """Colours on rings round each circle: (n, rings, samples, channels), bilinear, the view's edge repeated."""
    shares = np.asarray(shares, np.float64)
    reach = radii[:, None, None] * shares[None, :, None]
    xs = centres[:, 0, None, None] + reach * np.cos(angles)[None, None, :]
    ys = centres[:, 1, None, None] + reach * np.sin(angles)[None, None, :]
    flat = (len(centres) * len(shares), len(angles))
    sampled = cv2.remap(lab, xs.reshape(flat).astype(np.float32), ys.reshape(flat).astype(np.float32),
                        cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return sampled.reshape(len(centres), len(shares), len(angles), lab.shape[2])


PALE_FACE_GAP = 8.0
"""Most lightness gap (8-bit L, either way) between a face and the board around it for the piece to be pale on it
(white coins and the striker on the white board of 1080p clip 5209: median 2, 5 % below -8.6)."""

MIN_SHADOW = 20.0
"""Least depth (`shadow_vectors` length) of the common shade for it to tell pieces from print. Under a high or
diffuse lamp a piece casts little: 1080p clips 5202-5211 every 4 s, the common shade of the pale half rims clear of
the print was 24 to 44 on the white board of 5209, 19 or less on the others."""

SHADOW_MATCH = 0.5
"""Least share of the common shade a circle's shade shows along the same way, and most it shows across it, to be
cast as the pale pieces' is (the same frames: of the half rims clear of the print, 41 of 60 pieces and none of 160
other circles)."""

MIN_PALE_PIECES = 2
"""Least pale circles whose shade sets the light's way."""


def shadowed_as_pale_pieces(lab: np.ndarray, centres_px: np.ndarray, radii_px: np.ndarray, *,
                            pieces_px: np.ndarray, piece_radii_px: np.ndarray) -> np.ndarray:
    """True for pale circles shaded outside their rim as the pale ones among `pieces_px` are (their median shade).

    Parameters
    ----------
    lab : (H, W, 3) uint8 ndarray
        The view in 8-bit Lab.
    centres_px, radii_px : (n, 2), (n,) ndarrays
        The circles asked about, view pixels.
    pieces_px, piece_radii_px : (m, 2), (m,) ndarrays
        Circles taken for pieces: those of them pale on the board (`PALE_FACE_GAP`) show the light's way.
    """
    centres = np.asarray(centres_px, np.float64).reshape(-1, 2)
    pieces = np.asarray(pieces_px, np.float64).reshape(-1, 2)
    answer = np.zeros(len(centres), bool)
    if len(centres) == 0 or len(pieces) < MIN_PALE_PIECES:
        return answer
    lab = np.ascontiguousarray(lab, np.float32)  # once, for the four samplings below
    pale = np.abs(face_lightness_gap(lab, pieces, piece_radii_px)) <= PALE_FACE_GAP
    if pale.sum() < MIN_PALE_PIECES:
        return answer
    common = np.median(shadow_vectors(lab, pieces[pale], np.broadcast_to(piece_radii_px, len(pieces))[pale]), axis=0)
    depth2 = float(common @ common)
    if depth2 < MIN_SHADOW ** 2:
        return answer
    shade = shadow_vectors(lab, centres, radii_px)
    along = shade @ common / depth2
    across = np.abs(shade[:, 0] * common[1] - shade[:, 1] * common[0]) / depth2
    return (along >= SHADOW_MATCH) & (across <= SHADOW_MATCH) & (
        np.abs(face_lightness_gap(lab, centres, radii_px)) <= PALE_FACE_GAP)
