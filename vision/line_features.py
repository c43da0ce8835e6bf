"""Low-level image features for board localisation: thin printed lines and small blobs.

Printed lines are thin and darker than the surface around them; shadows and sun
bands change the surface brightness by a factor of two or more, so the response
is the line's darkness relative to the local background, not its absolute depth.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.working_copies import shrunk


def _kernel(width_px: int, square: bool) -> np.ndarray:
    """A disc of diameter `width_px`, or (several times cheaper to apply) a square of that side."""
    return np.ones((width_px, width_px), np.uint8) if square else cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width_px, width_px))


def dark_line_response(gray: np.ndarray, *, width_px: int = 9, square: bool = False) -> np.ndarray:
    """Relative darkness of thin structures narrower than `width_px`.

    Returns a float32 image in [0, 1): (local background - pixel) / local background,
    where the background is a grey closing with a disc of diameter `width_px`
    (a square with `square`: coarser about diagonal lines, for screening).
    """
    kernel = _kernel(width_px, square)
    background = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, kernel)
    return _relative(cv2.subtract(background, gray), background)


def _relative(difference: np.ndarray, background: np.ndarray) -> np.ndarray:
    """difference / (background + 8) as float32 (OpenCV's arithmetic: several times numpy's speed)."""
    denominator = cv2.add(background, 8, dtype=cv2.CV_32F)
    return cv2.divide(difference, denominator, dtype=cv2.CV_32F)


def line_response(gray: np.ndarray, *, width_px: int, polarity: str, square: bool = False) -> np.ndarray:
    """Thin-line response for printed lines darker (``"dark"``) or lighter (``"bright"``) than the surface."""
    if polarity == "dark":
        return dark_line_response(gray, width_px=width_px, square=square)
    if polarity == "bright":
        return bright_spot_response(gray, width_px=width_px, square=square)
    raise ValueError(f"polarity must be 'dark' or 'bright', got {polarity!r}")


def bright_spot_response(gray: np.ndarray, *, width_px: int = 9, square: bool = False) -> np.ndarray:
    """Relative brightness of small spots narrower than `width_px` (white top-hat over the background)."""
    kernel = _kernel(width_px, square)
    background = cv2.morphologyEx(gray, cv2.MORPH_OPEN, kernel)
    return _relative(cv2.subtract(gray, background), background)


def line_share(gray: np.ndarray, *, min_contrast: float = 0.2, side_px: int = 320) -> float:
    """The share of a small copy's pixels on thin lines of either polarity with at least
    `min_contrast` relative contrast: next to none on a blank wall, a dark frame or plain wood,
    a percent or more wherever a board's printed lines are in view."""
    small = shrunk(gray, max_side_px=side_px)
    contrast = np.maximum(dark_line_response(small, width_px=5), bright_spot_response(small, width_px=5))
    return float(np.count_nonzero(contrast > min_contrast)) / contrast.size


def long_line_count(response: np.ndarray, *, min_response: float = 0.12, min_length_share: float = 0.15) -> int:
    """How many straight runs of a thin-line response (`line_response`) are at least `min_length_share`
    of the image's shorter side long: a dozen and more on a board's printed lines, none on texture,
    wood grain or a chess board (whose squares meet in edges, not lines).
    """
    mask = (response > min_response).astype(np.uint8)
    # the frame's border is no line (the morphology leaves a rim there)
    margin = 4
    mask[:margin] = mask[-margin:] = 0
    mask[:, :margin] = mask[:, -margin:] = 0
    segments = cv2.HoughLinesP(
        mask, 1, math.pi / 180, threshold=40, minLineLength=int(min_length_share * min(mask.shape)), maxLineGap=3
    )
    return 0 if segments is None else len(segments)


def sample(image: np.ndarray, points_px: np.ndarray) -> np.ndarray:
    """Bilinear samples of a single-channel float32 image at (..., 2) points; 0 outside."""
    shape = points_px.shape[:-1]
    flat = points_px.reshape(-1, 2).astype(np.float32)
    # remap maps must stay under 32767 on a side: lay the points out in rows of 1024
    count = len(flat)
    rows = max(1, -(-count // 1024))
    padded = np.zeros((rows * 1024, 2), np.float32)
    padded[:count] = flat
    values = cv2.remap(
        image, padded[:, 0].reshape(rows, 1024), padded[:, 1].reshape(rows, 1024), cv2.INTER_LINEAR, borderValue=0
    )
    return values.ravel()[:count].reshape(shape)


def peaks_along_normals(
    response: np.ndarray,
    points_px: np.ndarray,
    normals: np.ndarray,
    *,
    half_width_px: float,
    step_px: float = 0.5,
    min_response: float = 0.05,
    min_contrast: float = 2.0,
    context_px: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """For each point, the strongest response along its normal within +-half_width_px.

    Parameters
    ----------
    response : (H, W) float32
    points_px, normals : (n, 2) float arrays (normals of unit length)

    Returns
    -------
    found_px : (n, 2) float64, sub-pixel position of each peak
    ok : (n,) bool, False where the peak is weaker than `min_response` or than
        `min_contrast` times the window's median (texture and noise have peaks
        everywhere, a printed line stands out), lies at the end of the search
        window, or falls outside the image
    """
    reach = max(half_width_px, context_px)
    offsets = np.arange(-reach, reach + step_px / 2, step_px)
    grid_x = (points_px[:, 0, None] + offsets[None, :] * normals[:, 0, None]).astype(np.float32)
    grid_y = (points_px[:, 1, None] + offsets[None, :] * normals[:, 1, None]).astype(np.float32)
    if 0 < len(points_px) < 32767:
        # the samples' x and y as two remap maps, one row per point: several times cheaper than
        # gathering (x, y) pairs for `sample` (whose rows of 1024 any number of points fit)
        values = cv2.remap(response, grid_x, grid_y, cv2.INTER_LINEAR, borderValue=0)
    else:
        values = sample(response, np.stack([grid_x, grid_y], -1))
    in_window = np.abs(offsets) <= half_width_px + 1e-9
    best = np.argmax(np.where(in_window[None, :], values, -np.inf), axis=1)
    rows = np.arange(len(points_px))
    peak = values[rows, best]
    window_idx = np.flatnonzero(in_window)
    inside = (best > window_idx[0]) & (best < window_idx[-1])
    left = values[rows, np.clip(best - 1, 0, len(offsets) - 1)]
    right = values[rows, np.clip(best + 1, 0, len(offsets) - 1)]
    denom = left - 2 * peak + right
    shift = np.where(inside & (denom < -1e-6), 0.5 * (left - right) / np.where(denom < -1e-6, denom, -1), 0.0)
    t = offsets[best] + shift * step_px
    found = points_px + t[:, None] * normals
    h, w = response.shape
    in_image = (found[:, 0] >= 1) & (found[:, 1] >= 1) & (found[:, 0] < w - 2) & (found[:, 1] < h - 2)
    stands_out = peak >= min_contrast * np.maximum(np.median(values, axis=1), 0.01)
    return found, inside & (peak >= min_response) & stands_out & in_image


def vote_centre(
    response: np.ndarray, gray: np.ndarray, *, min_radius_px: float, max_radius_px: float,
    step_px: float = 2.5, cell_px: int = 2, smoothing_cells: float = 1.5,
) -> np.ndarray:
    """The point most line pixels' normals pass through (the centre of the concentric lines).

    Each of (at most 2500) line pixels votes every `step_px` along its normal, both
    ways, into cells of `cell_px`; the votes are smoothed over `smoothing_cells`.
    Coarser steps and cells are cheaper and place the centre more loosely.
    """
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    threshold = _floored_quantile(response, 0.93, floor=0.08)
    is_line = response > threshold
    # the image border is no line; its pixels would all vote along the border itself
    margin = 4
    is_line[:margin] = is_line[-margin:] = False
    is_line[:, :margin] = is_line[:, -margin:] = False
    ys, xs = np.nonzero(is_line)
    if len(xs) > 2500:
        pick = np.random.default_rng(0).choice(len(xs), 2500, replace=False)
        ys, xs = ys[pick], xs[pick]
    mag = np.hypot(gx[ys, xs], gy[ys, xs])
    keep = mag > 1e-3
    ys, xs, mag = ys[keep], xs[keep], mag[keep]
    dx, dy = gx[ys, xs] / mag, gy[ys, xs] / mag
    h, w = gray.shape
    cell = cell_px
    gw, gh = w // cell + 1, h // cell + 1
    distances = np.arange(min_radius_px, max_radius_px, step_px, dtype=np.float32)
    # both directions along each normal at once, in cell units and single precision; truncating
    # v + 1 floors every v >= -1 and leaves the rest out of the grid, as flooring would
    steps = np.concatenate([distances, -distances]) / cell
    vx = _grid_index(xs, dx, steps, cell)
    vy = _grid_index(ys, dy, steps, cell)
    # votes off the grid go to one extra bin, dropped (cheaper than selecting the rest);
    # the unsigned view sends negative indices far past the end
    outside = (vx.view(np.uint32) >= gw) | (vy.view(np.uint32) >= gh)
    flat = vy
    flat *= gw
    flat += vx
    flat[outside] = gw * gh
    votes = np.bincount(flat.ravel(), minlength=gw * gh + 1)[: gw * gh].astype(np.float32)
    votes = cv2.GaussianBlur(votes.reshape(gh, gw), (0, 0), smoothing_cells)
    y, x = np.unravel_index(int(np.argmax(votes)), votes.shape)
    return np.array([x * cell + cell / 2, y * cell + cell / 2], np.float64)


def _grid_index(coords: np.ndarray, direction: np.ndarray, steps: np.ndarray, cell: int) -> np.ndarray:
    """Grid cells (n, len(steps)) int32 along each point's direction, in place where numpy allows."""
    along = direction[:, None] * steps
    along += coords.astype(np.float32)[:, None] / cell + 1
    index = along.astype(np.int32)
    index -= 1
    return index


def _floored_quantile(values: np.ndarray, q: float, *, floor: float) -> float:
    """``max(floor, np.quantile(values, q))``, the same number, ordering only the values above
    `floor` when the quantile lies among them (thin lines are a small share of a frame)."""
    flat = values.ravel()
    above = flat[flat > floor]
    position = q * (flat.size - 1)
    lower = math.floor(position)
    below_count = flat.size - above.size
    if lower < below_count:
        # the quantile's lower neighbour is at most `floor`; its upper one may not be
        return max(floor, float(np.quantile(flat, q))) if lower + 1 >= below_count and position > lower else floor
    upper = min(lower + 1, flat.size - 1) - below_count
    neighbours = np.partition(above, (lower - below_count, upper))[[lower - below_count, upper]]
    # numpy's own interpolation between the two neighbours, at the same fraction
    return max(floor, float(np.quantile(neighbours, position - lower)))
