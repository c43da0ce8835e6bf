"""Find discs of a known radius in a rectified board image.

A piece seen from above is a filled disc whose rim is an edge all the way round.
Every edge pixel votes for the points one radius away along its gradient, on both
sides (a piece may be lighter or darker than the board); the votes pile up at
disc centres. Each pile is then checked on the rim itself: around the
circumference, how much of it shows a radial edge, and a circle is fitted to
those edge points for a sub-pixel centre and the measured radius.

Printed lines give votes spread along a line, wood grain and glare give
scattered votes; touching pieces keep most of their rim, so clusters survive.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.masked_median import masked_median


PEAK_VOTE_SHARE = 0.05
"""Least votes at a disc's centre, as a share of those of a full rim of edges at the threshold."""


FAINT_SCREEN_MARGIN = 0.15
"""How far below a faint rim's least support the first, unfitted look may find it (its centre is still rough)."""


@dataclass(frozen=True)
class FaintRims:
    """How a faint rim (few votes: a white coin on a pale board, a rim in shadow) is looked for and what it must show.

    Attributes
    ----------
    least_vote_share : float
        Centres with at least this share of a full rim's votes are verified (below `PEAK_VOTE_SHARE`).
    min_support, min_sectors : share of the rim, and of its 8 sectors, that must show a radial edge.
    max_residual_px : RMS distance of the rim's edge points from the fitted circle.
    max_radius_error : largest difference of the fitted radius from the nominal, as a share of it.
    least_screen_support : share of the rim the first, unfitted look must find (default: `min_support` less
        `FAINT_SCREEN_MARGIN`).
    """

    least_vote_share: float = 0.02
    min_support: float = 0.6
    min_sectors: int = 5
    max_residual_px: float = 0.8
    max_radius_error: float = 0.1
    least_screen_support: float | None = None


@dataclass(frozen=True)
class EdgeField:
    """Colour edges of an image: strength and unit direction (sign-free) per pixel."""

    magnitude: np.ndarray
    ux: np.ndarray
    uy: np.ndarray
    threshold: float
    voters: tuple[np.ndarray, np.ndarray]
    """(ys, xs) of the edge pixels that vote: above the threshold and the ridge of their edge."""


@dataclass(frozen=True)
class DiscCandidates:
    """Circles found for one nominal radius (view pixels).

    Attributes
    ----------
    centres_px : (n, 2) float ndarray
    radii_px : (n,) float ndarray, measured
    support : (n,) float ndarray, share of the rim showing a radial edge, 0..1
    residual_px : (n,) float ndarray, RMS distance of rim edge points from the fitted circle
    sectors : (n,) int ndarray, how many of the rim's 8 sectors show an edge over at least half their length
    strength : (n,) float ndarray, median radial edge strength around the rim
    vote_share : (n,) float ndarray, the centre's votes as a share of a full rim's (`find_discs`; 1 elsewhere)
    is_partial : (n,) bool ndarray, kept on part of a rim only (`find_discs`'s `partial`; default: none)
    """

    centres_px: np.ndarray
    radii_px: np.ndarray
    support: np.ndarray
    residual_px: np.ndarray
    sectors: np.ndarray
    strength: np.ndarray
    vote_share: np.ndarray | None = None
    is_partial: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.vote_share is None:
            object.__setattr__(self, "vote_share", np.ones(len(self.radii_px)))
        if self.is_partial is None:
            object.__setattr__(self, "is_partial", np.zeros(len(self.radii_px), bool))

    def __len__(self) -> int:
        return len(self.radii_px)

    def filter(self, mask: np.ndarray) -> "DiscCandidates":
        return DiscCandidates(self.centres_px[mask], self.radii_px[mask], self.support[mask], self.residual_px[mask],
                              self.sectors[mask], self.strength[mask], self.vote_share[mask], self.is_partial[mask])


def edge_field(image: np.ndarray, *, smooth_px: float = 1.2) -> EdgeField:
    """Colour gradient of a BGR image (largest eigenvalue of the Lab structure tensor).

    Colour matters: a red queen on a blue board, or a white coin on a yellow print,
    can have almost no brightness step.
    """
    return lab_edge_field(cv2.cvtColor(image, cv2.COLOR_BGR2LAB), smooth_px=smooth_px)


CHANNEL_WEIGHTS = np.array([1.0, 1.5, 1.5], np.float32) / 8
"""Weight of L, a* and b* in the colour gradient (hue counts more: a coloured piece may match the board's
lightness), with the Sobel kernel's scale."""


def lab_edge_field(lab: np.ndarray, *, smooth_px: float = 1.2) -> EdgeField:
    """`edge_field` of an image already in 8-bit Lab (the view's `BoardView.lab`).

    Examples
    --------
    >>> edges = lab_edge_field(view.lab)  # doctest: +SKIP
    """
    channels = cv2.split(cv2.GaussianBlur(lab.astype(np.float32), (0, 0), smooth_px))
    gx = [cv2.Sobel(c, cv2.CV_32F, 1, 0, ksize=3) * w for c, w in zip(channels, CHANNEL_WEIGHTS)]
    gy = [cv2.Sobel(c, cv2.CV_32F, 0, 1, ksize=3) * w for c, w in zip(channels, CHANNEL_WEIGHTS)]
    gxx = gx[0] * gx[0] + gx[1] * gx[1] + gx[2] * gx[2]
    gyy = gy[0] * gy[0] + gy[1] * gy[1] + gy[2] * gy[2]
    # Started from +0 so that a zero sum keeps its sign whatever the terms' (the angle below depends on it).
    gxy = 0.0 + gx[0] * gy[0] + gx[1] * gy[1] + gx[2] * gy[2]
    root = np.sqrt((gxx - gyy) ** 2 + 4 * gxy * gxy)
    magnitude = np.sqrt(np.maximum(0.5 * (gxx + gyy + root), 0))
    theta = 0.5 * np.arctan2(2 * gxy, gxx - gyy)
    # The rim of a piece stands well above the texture of the board around it.
    threshold = float(max(2.0, 2.5 * np.median(magnitude[::4, ::4])))
    ux, uy = np.cos(theta), np.sin(theta)
    return EdgeField(magnitude, ux, uy, threshold, ridge_pixels(magnitude, ux, uy, threshold))


def ridge_pixels(magnitude: np.ndarray, ux: np.ndarray, uy: np.ndarray, threshold: float):
    """Edge pixels above `threshold` that are the strongest across their edge (one pixel per edge)."""
    h, w = magnitude.shape
    flat = np.flatnonzero(magnitude > threshold)
    # A neighbour's coordinates are clipped to the image: its index in a copy with the border repeated once.
    padded = cv2.copyMakeBorder(magnitude, 1, 1, 1, 1, cv2.BORDER_REPLICATE).ravel()
    at = flat + 2 * (flat // w) + (w + 3)
    step = np.rint(uy.ravel()[flat]).astype(np.intp) * (w + 2) + np.rint(ux.ravel()[flat]).astype(np.intp)
    m = padded[at]
    ridge = (m >= padded[at + step]) & (m >= padded[at - step])
    flat = flat[ridge]
    return flat // w, flat % w


def vote_centres(edges: EdgeField, *, radius_px: float, spread: float = 0.06) -> np.ndarray:
    """Accumulator of centre votes for discs of `radius_px` (same shape as the image).

    Each strong edge pixel votes at a few radii within ``radius_px * (1 +- spread)``
    on both sides of itself, weighted by its strength (capped, so one glint
    cannot outvote a whole rim).
    """
    h, w = edges.magnitude.shape
    ys, xs = edges.voters
    weight = np.minimum(edges.magnitude[ys, xs], 4 * edges.threshold).astype(np.float32)
    ux, uy = edges.ux[ys, xs], edges.uy[ys, xs]
    steps = radius_px * np.concatenate([np.linspace(1 - spread, 1 + spread, 3)] * 2) * np.repeat([1.0, -1.0], 3)
    cx = np.rint(xs[None, :] + steps[:, None] * ux[None, :]).astype(np.int32).ravel()
    cy = np.rint(ys[None, :] + steps[:, None] * uy[None, :]).astype(np.int32).ravel()
    weights = np.tile(weight, len(steps))
    inside = (cx >= 0) & (cx < w) & (cy >= 0) & (cy < h)
    acc = np.bincount(cy[inside] * w + cx[inside], weights=weights[inside], minlength=h * w)
    acc = acc.reshape(h, w).astype(np.float32)
    return cv2.GaussianBlur(acc, (0, 0), max(1.0, 0.08 * radius_px))


def accumulator_peaks(acc: np.ndarray, *, min_distance_px: float, min_value: float) -> np.ndarray:
    """Local maxima (x, y) of the accumulator at least `min_value` high, strongest first."""
    size = max(3, int(min_distance_px) | 1)
    dilated = cv2.dilate(acc, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))
    ys, xs = np.nonzero((acc >= dilated) & (acc >= min_value))
    order = np.argsort(-acc[ys, xs])
    return np.column_stack([xs[order], ys[order]]).astype(np.float64)


def _rim_points(edges: EdgeField, centres: np.ndarray, radius_px: float, *, n_angles: int,
                search_px: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Along rays from each centre, the strongest radial edge near `radius_px`.

    Returns the edge points (n, k, 2), their radial edge strength (n, k) and the
    ray angles (k,).
    """
    angles = np.linspace(0, 2 * np.pi, n_angles, endpoint=False)
    cos, sin = np.cos(angles), np.sin(angles)
    offsets = np.arange(-search_px, search_px + 0.5, 0.5)
    radii = radius_px + offsets
    px = centres[:, 0, None, None] + radii[None, None, :] * cos[None, :, None]
    py = centres[:, 1, None, None] + radii[None, None, :] * sin[None, :, None]
    map_x, map_y = px.astype(np.float32), py.astype(np.float32)
    flat_x, flat_y = map_x.reshape(len(centres), -1), map_y.reshape(len(centres), -1)
    mag = cv2.remap(edges.magnitude, flat_x, flat_y, cv2.INTER_LINEAR, borderValue=0).reshape(px.shape)
    ux = cv2.remap(edges.ux, flat_x, flat_y, cv2.INTER_NEAREST, borderValue=0).reshape(px.shape)
    uy = cv2.remap(edges.uy, flat_x, flat_y, cv2.INTER_NEAREST, borderValue=0).reshape(px.shape)
    radial = mag * np.abs(ux * cos[None, :, None] + uy * sin[None, :, None])
    # Prefer the edge nearest the nominal radius among comparable ones.
    prior = 1.0 - 0.15 * (offsets / max(search_px, 1e-6)) ** 2
    best = np.argmax(radial * prior[None, None, :], axis=2)
    strength = np.take_along_axis(radial, best[..., None], axis=2)[..., 0]
    bx = np.take_along_axis(px, best[..., None], axis=2)[..., 0]
    by = np.take_along_axis(py, best[..., None], axis=2)[..., 0]
    return np.stack([bx, by], axis=2), strength, angles


def _over_unseen(centres: np.ndarray, radius_px: float, n_angles: int, unseen_px: np.ndarray | None) -> np.ndarray:
    """(n, n_angles) True where a circle's nominal rim point lies within one of the unseen circles."""
    hidden = np.zeros((len(centres), n_angles), bool)
    if unseen_px is None or len(unseen_px) == 0:
        return hidden
    angles = np.linspace(0, 2 * np.pi, n_angles, endpoint=False)
    x = centres[:, 0, None] + radius_px * np.cos(angles)[None, :]
    y = centres[:, 1, None] + radius_px * np.sin(angles)[None, :]
    for cx, cy, r in np.asarray(unseen_px, np.float64).reshape(-1, 3):
        hidden |= np.hypot(x - cx, y - cy) < r
    return hidden


def rim_edges(edges: EdgeField, centres_px: np.ndarray, *, radius_px: float,
              n_angles: int = 48) -> tuple[np.ndarray, np.ndarray]:
    """Where each circle's rim shows a radial edge: (n, n_angles) bool, and the ray angles (view pixels, y down).

    Examples
    --------
    >>> seen, angles = rim_edges(edge_field(view.image), centres, radius_px=15.5)  # doctest: +SKIP
    """
    centres = np.asarray(centres_px, np.float64).reshape(-1, 2)
    angles = np.linspace(0, 2 * np.pi, n_angles, endpoint=False)
    if len(centres) == 0:
        return np.zeros((0, n_angles), bool), angles
    _, strength, angles = _rim_points(edges, centres, radius_px, n_angles=n_angles,
                                      search_px=max(1.5, 0.1 * radius_px))
    return strength > edges.threshold, angles


def longest_arc(seen: np.ndarray) -> np.ndarray:
    """Per row of `seen` (n, k: rim angles in order round the circle), the longest run of True, wrapping round, as a
    share of the whole rim."""
    seen = np.asarray(seen, bool)
    n, k = seen.shape
    if k == 0 or n == 0:
        return np.zeros(n)
    run = np.zeros(n, int)
    best = np.zeros(n, int)
    for column in np.concatenate([seen, seen], axis=1).T:
        run = np.where(column, run + 1, 0)
        best = np.maximum(best, run)
    return np.minimum(best, k) / k


def rim_radius(edges: EdgeField, centres_px: np.ndarray, *, min_radius_px: float, max_radius_px: float) -> np.ndarray:
    """Radius (px) at which each circle's mean radial edge strength peaks, searched in [min, max].

    Averaged over the whole rim, it tells a piece's size apart even where a
    per-point search would latch onto a neighbour.
    """
    centres = np.asarray(centres_px, np.float64).reshape(-1, 2)
    if len(centres) == 0:
        return np.zeros(0)
    angles = np.linspace(0, 2 * np.pi, 72, endpoint=False)
    radii = np.arange(min_radius_px, max_radius_px + 0.25, 0.5)
    cos, sin = np.cos(angles), np.sin(angles)
    px = (centres[:, 0, None, None] + radii[None, :, None] * cos[None, None, :]).astype(np.float32)
    py = (centres[:, 1, None, None] + radii[None, :, None] * sin[None, None, :]).astype(np.float32)
    shape = px.shape
    flat_x, flat_y = px.reshape(len(centres), -1), py.reshape(len(centres), -1)
    mag = cv2.remap(edges.magnitude, flat_x, flat_y, cv2.INTER_LINEAR, borderValue=0).reshape(shape)
    ux = cv2.remap(edges.ux, flat_x, flat_y, cv2.INTER_NEAREST, borderValue=0).reshape(shape)
    uy = cv2.remap(edges.uy, flat_x, flat_y, cv2.INTER_NEAREST, borderValue=0).reshape(shape)
    radial = mag * np.abs(ux * cos[None, None, :] + uy * sin[None, None, :])
    profile = np.median(radial, axis=2)
    return radii[np.argmax(profile, axis=1)]


def _fit_circles(points: np.ndarray, weights: np.ndarray, origins: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Algebraic (Kasa) circle fits, one per row: points (n, k, 2) weighted 0/1 by `weights` (n, k).

    Each row is fitted about its `origins` (n, 2) (a point near the circle's centre keeps the normal
    equations well conditioned). Returns centres (n, 2) and radii (n,).
    """
    x = points[..., 0] - origins[:, 0, None]
    y = points[..., 1] - origins[:, 1, None]
    rows = np.stack([x, y, np.ones_like(x)], axis=2) * weights[..., None]
    normal = np.einsum("nki,nkj->nij", rows, rows)
    rhs = np.einsum("nki,nk->ni", rows, x * x + y * y)
    # Collinear or too few points leave the system singular: such a row keeps its origin and radius 0.
    solvable = np.abs(np.linalg.det(normal)) > 1e-9 * np.einsum("nii->n", normal) ** 3
    solution = np.zeros((len(points), 3))
    if solvable.any():
        solution[solvable] = np.linalg.solve(normal[solvable], rhs[solvable, :, None])[..., 0]
    centres = solution[:, :2] / 2
    radii = np.sqrt(np.maximum(solution[:, 2] + (centres ** 2).sum(axis=1), 0.0))
    return centres + origins, radii


def verify_rims(edges: EdgeField, centres_px: np.ndarray, *, radius_px: float, n_angles: int = 72,
                iterations: int = 2, unseen_px: np.ndarray | None = None) -> DiscCandidates:
    """Measure each candidate's rim: support, refined centre, radius and fit residual.

    Parameters
    ----------
    edges : EdgeField of the view.
    centres_px : (n, 2) candidate centres.
    radius_px : nominal radius of the piece in view pixels.
    unseen_px : (m, 3) circles (x, y, radius) where no rim can show (a pocket's dark mouth): the part of a rim
        over one is left out of its support, and a sector mostly over one counts as seen.

    Returns
    -------
    DiscCandidates, one per input centre, in the same order.
    """
    centres = np.asarray(centres_px, np.float64).reshape(-1, 2).copy()
    n = len(centres)
    radii = np.full(n, float(radius_px))
    support = np.zeros(n)
    residual = np.full(n, np.inf)
    sectors = np.zeros(n, int)
    rim_strength = np.zeros(n)
    if n == 0:
        return DiscCandidates(centres, radii, support, residual, sectors, rim_strength)
    search = max(2.0, 0.18 * radius_px)
    for iteration in range(iterations + 1):
        points, strength, _ = _rim_points(edges, centres, radius_px, n_angles=n_angles, search_px=search)
        good = strength > edges.threshold
        hidden = _over_unseen(centres, radius_px, n_angles, unseen_px)
        seen = ~hidden
        support = (good & seen).sum(axis=1) / np.maximum(seen.sum(axis=1), 1)
        # Half the rim at least must be in view for its support to say anything.
        support = np.where(seen.mean(axis=1) >= 0.5, support, 0.0)
        per_sector_seen = seen.reshape(n, 8, -1).sum(axis=2)
        per_sector_good = (good & seen).reshape(n, 8, -1).sum(axis=2)
        sectors = ((per_sector_good >= 0.5 * per_sector_seen) | (per_sector_seen < 0.5 * (n_angles // 8))).sum(axis=1)
        rim_strength = np.median(strength, axis=1)
        if iteration == iterations:
            break
        centre, r = _fit_circles(points, good, centres)
        # A wild fit (other edges captured) keeps the previous centre.
        fitted = ((good.sum(axis=1) >= 0.3 * n_angles) & (np.hypot(*(centre - centres).T) < 0.35 * radius_px)
                  & (np.abs(r - radius_px) < 0.25 * radius_px))
        off = np.abs(np.hypot(points[..., 0] - centre[:, 0, None], points[..., 1] - centre[:, 1, None]) - r[:, None])
        keep = good & (off < np.maximum(1.0, 2.5 * masked_median(off, good))[:, None])
        refit = fitted & (keep.sum(axis=1) >= 0.25 * n_angles)
        used = np.where(refit[:, None], keep, good)
        if refit.any():
            centre[refit], r[refit] = _fit_circles(points[refit], keep[refit], centre[refit])
            off[refit] = np.abs(np.hypot(points[refit, :, 0] - centre[refit, 0, None],
                                         points[refit, :, 1] - centre[refit, 1, None]) - r[refit, None])
        centres[fitted], radii[fitted] = centre[fitted], r[fitted]
        residual[fitted] = np.sqrt((off[fitted] ** 2 * used[fitted]).sum(axis=1) / used[fitted].sum(axis=1))
        search = max(1.5, 0.1 * radius_px)
    return DiscCandidates(centres, radii, support, residual, sectors, rim_strength)


def _on_mask(mask: np.ndarray, points_px: np.ndarray) -> np.ndarray:
    """Per point (..., 2) of view pixels, the `mask` at its nearest pixel (false outside the image)."""
    u = np.rint(points_px[..., 0]).astype(np.intp)
    v = np.rint(points_px[..., 1]).astype(np.intp)
    inside = (u >= 0) & (v >= 0) & (u < mask.shape[1]) & (v < mask.shape[0])
    out = np.zeros(u.shape, bool)
    out[inside] = mask[v[inside], u[inside]]
    return out


def _screen_support(faint: FaintRims) -> float:
    """Share of a faint rim the first, unfitted look must find."""
    if faint.least_screen_support is not None:
        return faint.least_screen_support
    return faint.min_support - FAINT_SCREEN_MARGIN


def _shows_rim(found: DiscCandidates, faint: FaintRims, radius_px: float) -> np.ndarray:
    """True for candidates whose rim is as clear and round as `faint` asks."""
    return ((found.support >= faint.min_support) & (found.sectors >= faint.min_sectors)
            & (found.residual_px <= faint.max_residual_px)
            & (np.abs(found.radii_px - radius_px) <= faint.max_radius_error * radius_px))


def find_discs(edges: EdgeField, *, radius_px: float, min_support: float = 0.5, min_sectors: int = 6,
               max_candidates: int = 600, faint: FaintRims | None = None,
               faint_region: Callable[[np.ndarray], np.ndarray] | None = None,
               unseen_px: np.ndarray | None = None, faint_elsewhere: FaintRims | None = None,
               elsewhere_region: Callable[[np.ndarray], np.ndarray] | None = None,
               partial: FaintRims | None = None,
               partial_region: Callable[[np.ndarray], np.ndarray] | None = None,
               printed_px: np.ndarray | None = None) -> DiscCandidates:
    """Discs of about `radius_px` in a view: voting, peak picking and rim verification.

    Parameters
    ----------
    edges : EdgeField of the view (`edge_field`).
    radius_px : nominal radius of the piece in view pixels.
    min_support : least share of the rim that must show a radial edge.
    min_sectors : least number of the rim's 8 sectors that must each be half seen; two parallel
        lines a piece's width apart (carrom base lines) support a circle on two sides only.
    max_candidates : peaks verified at most (strongest first).
    faint : also look at centres with fewer votes (`FaintRims`), kept only where the rim itself is clear.
    faint_region : where such centres may lie: centres (n, 2) px -> (n,) bool (default: anywhere).
    unseen_px : (m, 3) circles (x, y, radius) where no rim can show (`verify_rims`).
    faint_elsewhere : what a faint rim outside `faint_region` must show instead (default: such rims are dropped).
    elsewhere_region : where outside `faint_region` such rims may lie (default: anywhere).
    partial : what a rim seen in part only must show to be kept within `faint_region` (marked `is_partial`, for the
        caller to judge by more than its rim), whatever its votes (default: such rims are dropped).
    partial_region : where outside `faint_region` such rims may lie too: centres (n, 2) px -> (n,) bool (default:
        nowhere).
    printed_px : (H, W) bool, where the board draws edges of its own (its print): the first look at a rim kept in part
        only outside `faint_region` counts no edge there, for a circle the print draws lies along it (default: none).

    Returns
    -------
    DiscCandidates, strongest support first; overlapping ones are not yet resolved.

    Examples
    --------
    >>> discs = find_discs(edge_field(view.image), radius_px=23.8)  # doctest: +SKIP
    """
    if radius_px < 3:
        raise ValueError(f"radius_px must be at least 3, got {radius_px}")
    acc = vote_centres(edges, radius_px=radius_px)
    # A full rim of strong edges gives about 2 pi r * threshold * 2 (thickness) * 3 radii of votes.
    full_rim = 2 * np.pi * radius_px * edges.threshold * 3
    least_share = faint.least_vote_share if faint else PEAK_VOTE_SHARE
    peaks = accumulator_peaks(acc, min_distance_px=0.6 * radius_px, min_value=least_share * full_rim)
    share = acc[peaks[:, 1].astype(int), peaks[:, 0].astype(int)] / full_rim
    in_region = np.ones(len(peaks), bool)
    partial_in = np.zeros(len(peaks), bool)
    whole_elsewhere = np.zeros(len(peaks), bool)
    if faint_region is not None and len(peaks):
        in_region = faint_region(peaks)
        if partial is not None and partial_region is not None:
            # Outside `faint_region`, as many votes as a whole rim there needs: the print's edges raise many weak peaks.
            partial_in = ~in_region & (share >= max(partial.least_vote_share,
                                                    faint_elsewhere.least_vote_share if faint_elsewhere else 0.0))
            if partial_in.any():
                partial_in[partial_in] = partial_region(peaks[partial_in])
        allowed = (share >= PEAK_VOTE_SHARE) | in_region
        if faint_elsewhere is not None:
            elsewhere = ~allowed & (share >= faint_elsewhere.least_vote_share)
            if elsewhere_region is not None and elsewhere.any():
                elsewhere[elsewhere] = elsewhere_region(peaks[elsewhere])
            whole_elsewhere |= elsewhere
            allowed |= elsewhere
        allowed |= partial_in
        peaks, share, in_region, partial_in, whole_elsewhere = (peaks[allowed], share[allowed], in_region[allowed],
                                                                partial_in[allowed], whole_elsewhere[allowed])
    peaks, share, in_region, partial_in, whole_elsewhere = (
        peaks[:max_candidates], share[:max_candidates], in_region[:max_candidates], partial_in[:max_candidates],
        whole_elsewhere[:max_candidates])
    partial_only = np.zeros(len(peaks), bool)
    if faint and (share < PEAK_VOTE_SHARE).any():
        # Most faint peaks are the board's texture: one look at the rim, without fitting, sets them aside.
        weak = np.nonzero(share < PEAK_VOTE_SHARE)[0]
        points, strength, _ = _rim_points(edges, peaks[weak], radius_px, n_angles=36,
                                          search_px=max(2.0, 0.18 * radius_px))
        whole_least = _screen_support(faint_elsewhere) if faint_elsewhere else np.inf
        least = np.where(in_region[weak] | partial_in[weak], _screen_support(partial or faint), whole_least)
        seen = strength > edges.threshold
        screen = seen.mean(axis=1)
        hopeless = screen < least
        if printed_px is not None and partial_in[weak].any():
            # Off the print, a partial rim must show as much of itself; there, a whole rim as much as it must anyway.
            rows = np.nonzero(partial_in[weak])[0]
            off_print = seen[rows] & ~_on_mask(printed_px, points[rows])
            whole = np.where(whole_elsewhere[weak][rows], whole_least, np.inf)
            hopeless[rows] = (off_print.mean(axis=1) < least[rows]) & (screen[rows] < whole)
        # Those looked at only for a partial rim are judged as partial rims alone.
        partial_only[weak] = screen < np.where(in_region[weak], _screen_support(faint), -np.inf)
        # Where a rim must be whole, a centre with too few votes for that, or too little rim, is a partial one only.
        partial_only[weak] |= partial_in[weak] & (~whole_elsewhere[weak] | (screen < whole_least))
        allowed = np.ones(len(peaks), bool)
        allowed[weak[hopeless]] = False
        peaks, share, in_region, partial_in, partial_only = (peaks[allowed], share[allowed], in_region[allowed],
                                                             partial_in[allowed], partial_only[allowed])
    found = verify_rims(edges, peaks, radius_px=radius_px, unseen_px=unseen_px)
    found = DiscCandidates(found.centres_px, found.radii_px, found.support, found.residual_px, found.sectors,
                           found.strength, share)
    keep = (found.support >= min_support) & (found.sectors >= min_sectors) & (np.abs(found.radii_px - radius_px) < 0.2 * radius_px)
    if faint:
        # A rim whose edge is barely above the board's texture scatters its votes: its centre must show a clear,
        # round rim of the nominal size instead.
        clear = _shows_rim(found, faint, radius_px)
        if faint_elsewhere is not None:
            clear = np.where(in_region, clear, _shows_rim(found, faint_elsewhere, radius_px))
        keep = np.where(share >= PEAK_VOTE_SHARE, keep, clear & ~partial_only)
    if partial:
        is_partial = ~keep & (in_region | partial_in) & _shows_rim(found, partial, radius_px)
        found = DiscCandidates(found.centres_px, found.radii_px, found.support, found.residual_px, found.sectors,
                               found.strength, found.vote_share, is_partial)
        keep |= is_partial
    found = found.filter(keep)
    order = np.argsort(-found.support, kind="stable")
    return found.filter(order)
