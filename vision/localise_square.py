"""Find a square board (carrom, couronne): its printed lines and circles, checked by its pockets.

Steps:

1. starts, fast: convex quadrilaterals among the edges of a small copy (``quad_side_px``)
   of the frame; the frame, the playing surface and the printed line pattern are
   concentric squares, so each quadrilateral is read as each of them in turn
   (a perspective homography from its four corners);
   slow, only when the fast starts lead to no board: the dominant line direction
   (modulo 90 degrees), scales and centres from the projection profiles of the
   printed lines at ``coarse_side_px`` and a sweep about the voted centre, each
   nudged against all of the model's printed lines (similarities);
   with frame markers (`vision.localise_markers`) the markers' homography is the only start;
2. screening, on one view of the region the starts cover (scaled so the board's
   half-diagonal is about ``fine_radius_px``), shrunk to about ``screen_px_per_mm``:
   the starts are ranked by the model's lines under them, and the best few
   (``max_starts``) screened: the four sides found in short segments (perspective),
   a wide search along every primitive's normal and a refit; a start is judged by
   the share of the printed lines found within a few mm of its screened fit, and
   screening stops at a convincing one (``sure_support``);
3. fine, on the view itself: search each primitive (line or circle) along its
   normal, fit the homography to all points (distance to primitive in board mm,
   robust Gauss-Newton), narrow the search, repeat;
4. check: enough of each side's lines and of the straight lines found (circles may
   be faint: painted boards fill them), small residuals, and the corner pockets
   that are in view darker than the surface.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.geometry import CarromBoard, CouronneBoard
from vision.board_location import BoardLocation, Landmarks
from vision.board_primitives import sample_primitives, square_primitives
from vision.homography import project
from vision.line_features import line_response, long_line_count, peaks_along_normals, sample, vote_centre
from vision.masked_median import masked_median
from vision.primitive_fit import refine_on_primitives
from vision.working_copies import region_view, resized, shrunk


@dataclass(frozen=True)
class SquareSettings:
    """Tuning of the square-board locator (working sizes in pixels, tolerances in board mm)."""

    coarse_side_px: int = 640
    fine_radius_px: float = 450.0
    spacing_mm: float = 8.0
    min_side_support: float = 0.4
    max_median_residual_mm: float = 1.5
    max_error_mm: float = 2.5
    max_pocket_brightness: float = 0.6
    min_pockets_near: int = 2
    """A fit with fewer of its pockets' centres in the frame or at most a pocket's width outside it is
    no board (a crokinole frame and the table under it, fitted as a board larger than the photo); a
    photo cropped to the playing surface cuts its pockets in half."""
    fit_sides: bool = True
    max_starts: int = 5
    sure_support: float = 0.8
    screen_px_per_mm: float = 0.35
    quad_side_px: int = 480
    min_quad_area: float = 0.01
    min_circle_support: float = 0.2
    min_circle_radius_px: float = 6.0
    """Circles smaller than this in the frame are not asked for: a base circle's ring lies a few mm
    outside its coloured fill, and at a far camera (5 px radius) ring and fill blur into one spot
    with no line to find."""
    max_start_pocket_brightness: float = 0.85
    """Starts whose pockets in view are brighter than this (`_pocket_darkness`, median) are not
    screened: looser than the final check, as a start may sit a little off the pockets."""
    min_long_lines: int = 4
    """The slow starts are searched only in a frame with at least this many long straight thin lines
    (`long_line_count` at ``coarse_side_px``: boards show ten and more)."""


def _dominant_angle(response: np.ndarray, gray: np.ndarray) -> float:
    """Direction (radians, modulo pi/2, in [-pi/4, pi/4)) that most thin-line edges are aligned with."""
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    is_line = response > max(0.08, float(np.quantile(response, 0.9)))
    angle = np.arctan2(gy[is_line], gx[is_line]) % (math.pi / 2)
    weight = np.hypot(gx[is_line], gy[is_line])
    hist, _ = np.histogram(angle, bins=180, range=(0, math.pi / 2), weights=weight)
    hist = np.convolve(np.concatenate([hist[-3:], hist, hist[:3]]), np.ones(5) / 5, mode="same")[3:-3]
    best = (np.argmax(hist) + 0.5) * (math.pi / 2) / 180
    return (best + math.pi / 4) % (math.pi / 2) - math.pi / 4


def _similarity(centre_px: np.ndarray, px_per_mm: float, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array(
        [[px_per_mm * c, px_per_mm * s, centre_px[0]], [px_per_mm * s, -px_per_mm * c, centre_px[1]], [0, 0, 1.0]]
    )


def _profile_scale(
    response: np.ndarray, angle: float, offsets_mm: np.ndarray, *, count: int = 6
) -> list[tuple[float, float, np.ndarray]]:
    """Candidate scales (px/mm), centres (px) and scores at which parallel lines show at +-offsets on both axes.

    The response is rotated upright about the image centre; its column and row
    means are the profiles across the vertical and horizontal lines. For every
    scale, each axis picks its best symmetric centre; the scales both axes agree
    on best (the weaker axis counts) are the candidates, best first, at least 8 %
    apart in scale.
    """
    h, w = response.shape
    rot = cv2.getRotationMatrix2D((w / 2, h / 2), math.degrees(angle), 1.0)
    upright = cv2.warpAffine(response, rot, (w, h), flags=cv2.INTER_LINEAR)
    scales = np.arange(0.1 * min(h, w), 0.75 * max(h, w), 1.0) / offsets_mm.max()
    signed = np.concatenate([offsets_mm, -offsets_mm])
    best_per_axis = []
    for axis, length in ((0, w), (1, h)):
        profile = upright.mean(axis=axis)
        prominence = profile - cv2.blur(profile.reshape(1, -1), (21, 1)).ravel()
        local = np.maximum.reduce([np.roll(prominence, k) for k in (-1, 0, 1)])
        centres = np.arange(length)
        at = centres[:, None, None] + scales[None, :, None] * signed[None, None, :]
        inside = (at >= 0) & (at < length)
        values = np.where(inside, local[np.clip(np.rint(at).astype(int), 0, length - 1)], -1.0).min(axis=2)
        best_per_axis.append((values.max(axis=0), values.argmax(axis=0)))
    combined = np.minimum(best_per_axis[0][0], best_per_axis[1][0])
    inverse = cv2.invertAffineTransform(rot)
    candidates: list[tuple[float, float, np.ndarray]] = []
    for k in np.argsort(-combined):
        if len(candidates) == count:
            break
        if any(abs(scales[k] / c[0] - 1) < 0.08 for c in candidates):
            continue
        centre = inverse @ np.array([best_per_axis[0][1][k], best_per_axis[1][1][k], 1.0])
        candidates.append((float(scales[k]), float(combined[k]), centre))
    return candidates


def _sweep(
    response: np.ndarray, centre: np.ndarray, angle: float, points_mm: np.ndarray, outer_mm: float
) -> list[tuple[float, np.ndarray, float]]:
    """Model scores over a grid of centres (+-15 % of the image about `centre`) and scales, best first."""
    h, w = response.shape
    side = min(h, w)
    scales = np.geomspace(0.1 * side, 0.75 * max(h, w), 24) / outer_mm
    offsets = np.arange(-3, 4) * 0.05 * side
    centres = np.array([centre + (dx, dy) for dx in offsets for dy in offsets])
    base = _similarity(np.zeros(2), 1.0, angle)[:2, :2]
    shape_mm = points_mm @ base.T  # (n, 2) at unit scale
    grid = centres[:, None, None, :] + scales[None, :, None, None] * shape_mm[None, None, :, :]
    scores = sample(response, grid.astype(np.float32)).mean(axis=2)  # (centres, scales)
    order = np.argsort(-scores, axis=None)
    results = []
    for flat in order:
        i, j = np.unravel_index(flat, scores.shape)
        if any(np.linalg.norm(c - centres[i]) < 0.05 * side and abs(sc / scales[j] - 1) < 0.1 for _, c, sc in results):
            continue
        results.append((float(scores[i, j]), centres[i], float(scales[j])))
        if len(results) == 3:
            break
    return results


def _polish(
    response: np.ndarray, centre: np.ndarray, scale: float, angle: float, points_mm: np.ndarray
) -> tuple[float, tuple[np.ndarray, float, float]]:
    """Nudge a proposed similarity (scale, then centre, then angle, then scale again) to the model's lines.

    Profiles blur under perspective and may be off by a tenth in scale; the model
    score over all printed lines is sharp. Returns the score and (centre, scale, angle).
    """
    best = (_model_score(response, _similarity(centre, scale, angle), points_mm), (centre, scale, angle))
    steps = [
        ("scale", np.linspace(0.88, 1.12, 9)),
        ("centre", [np.array([dx, dy]) for dx in (-3, 0, 3) for dy in (-3, 0, 3)]),
        ("angle", np.radians([-3, -1.5, 0, 1.5, 3])),
        ("scale", np.linspace(0.97, 1.03, 5)),
    ]
    for kind, values in steps:
        c0, s0, a0 = best[1]
        for value in values:
            c, sc, a = c0, s0, a0
            if kind == "scale":
                sc = s0 * value
            elif kind == "centre":
                c = c0 + value
            else:
                a = a0 + value
            score = _model_score(response, _similarity(c, sc, a), points_mm)
            if score > best[0]:
                best = (score, (c, sc, a))
    return best


def _model_score(response: np.ndarray, homography: np.ndarray, points_mm: np.ndarray) -> float:
    """Mean line response where the model's printed lines would be (response already widened)."""
    return float(sample(response, project(homography, points_mm).astype(np.float32)).mean())


def _fine_fit(response, homography, prims, points_mm, normals_mm, index, *, board, gap_mm, steps=(0, 1, 2, 3)):
    """Search each primitive along its normal, refit, narrow the search; None with too few points.

    `steps` picks which of the narrowing searches to run (a first, wide one screens starts).
    Returns (homography, found_px, ok, residual_mm of the ok points).
    """
    residual = np.zeros(0)
    widths = (0.4 * gap_mm, 0.25 * gap_mm, 5.0, 2.5)
    for half_width_mm in (widths[k] for k in steps):
        found_px, ok = _search(response, homography, points_mm, normals_mm, half_width_mm=half_width_mm, gap_mm=gap_mm)
        if ok.sum() < 24:
            return None
        homography, residual = refine_on_primitives(homography, found_px[ok], prims, index[ok], length_mm=board.half_side_mm)
        bad = np.abs(residual) > max(2.0, 4 * np.median(np.abs(residual)))
        ok[np.flatnonzero(ok)[bad]] = False
        if ok.sum() >= 24 and bad.any():
            homography, residual = refine_on_primitives(
                homography, found_px[ok], prims, index[ok], length_mm=board.half_side_mm
            )
    return homography, found_px, ok, residual


def _narrow_support(response, homography, points_mm, normals_mm, *, gap_mm: float, half_width_mm: float = 2.5) -> float:
    """Share of the printed lines' points whose line shows within `half_width_mm` of where the fit puts it.

    A wrong start screened by the wide search still finds points (texture, other lines
    nearby); a right one finds almost every point of the long lines close to the model.
    """
    _, ok = _search(response, homography, points_mm, normals_mm, half_width_mm=half_width_mm, gap_mm=gap_mm)
    return float(ok.mean())


def _search(response, homography, points_mm, normals_mm, *, half_width_mm: float, gap_mm: float):
    """Each primitive point's line peak within `half_width_mm` along its normal: (found_px, ok)."""
    px_per_mm = float(np.sqrt(abs(np.linalg.det(homography[:2, :2]))))
    on = project(homography, points_mm)
    normal = project(homography, points_mm + normals_mm) - on
    normal /= np.linalg.norm(normal, axis=1, keepdims=True)
    return peaks_along_normals(
        response, on, normal, half_width_px=max(2.0, half_width_mm * px_per_mm), min_response=0.04,
        context_px=0.4 * gap_mm * px_per_mm,
    )


def _distinct(proposals: list, count: int, side_px: float) -> list:
    """The first `count` proposals (in the given order) that differ from each other in centre or scale."""
    kept: list = []
    for p in proposals:
        if len(kept) == count:
            break
        centre, scale = p[3][:2, 2], p[4]
        if any(np.linalg.norm(centre - k[3][:2, 2]) < 0.03 * side_px and abs(scale / k[4] - 1) < 0.06 for k in kept):
            continue
        kept.append(p)
    return kept


def side_offsets_mm(board: CarromBoard | CouronneBoard, prims) -> tuple[float, list[float]]:
    """Distance from the centre of a side's main line, and the offsets (towards the centre) of its companions."""
    offsets = sorted({abs(p.a_mm[1]) for p in prims if p.name.startswith("south") and not p.is_circle}, reverse=True)
    return offsets[0], [offsets[0] - o for o in offsets[1:]]


def _fit_sides(response: np.ndarray, homography: np.ndarray, board: CarromBoard | CouronneBoard, prims) -> np.ndarray:
    """Homography from the four sides' main lines, each found in short segments along the side.

    Each segment searches +-25 % of the half side across the predicted line for the
    pattern of the side's parallel lines (carrom: the thick outer base line and the
    thin inner one a gap further in), so a start that is off by tens of millimetres
    at the sides (perspective) still lands on the right line. A robust line through
    the segments' hits gives each side; the sides' intersections give the corners.
    Returns the input unchanged when a side is not found.
    """
    main_mm, companions_mm = side_offsets_mm(board, prims)
    half_len = max(abs(p.a_mm[0]) for p in prims if p.name.startswith("south") and not p.is_circle)
    reach_mm = 0.25 * board.half_side_mm
    step_mm = 1.0
    offsets = np.arange(-reach_mm, reach_mm + step_mm / 2, step_mm)
    along = np.linspace(-0.85 * half_len, 0.85 * half_len, 11)
    # board points across each side (k quarter turns from south) at each position along it,
    # from outside (away from the centre) inwards: (4, positions, offsets, 2)
    south = np.stack(np.broadcast_arrays(along[:, None], -(main_mm + offsets)[None, :]), -1)
    turns = [np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]]) for a in np.arange(4) * math.pi / 2]
    across = np.stack([south @ rot.T for rot in turns])
    across_px = project(homography, across.reshape(-1, 2)).reshape(across.shape)
    values = sample(response, across_px.astype(np.float32))
    score = values
    for companion in companions_mm:
        shift = int(round(companion / step_mm))
        # offsets grow outwards: the companion line `companion` mm further in is at index - shift
        partner = np.zeros_like(values)
        if 0 < shift < values.shape[-1]:
            partner[..., shift:] = values[..., : values.shape[-1] - shift]
        padded = np.pad(partner, ((0, 0), (0, 0), (2, 2)))
        widened = np.maximum.reduce([padded[..., d : d + partner.shape[-1]] for d in range(5)])
        score = np.minimum(score, widened)
    best = np.argmax(score, axis=2)
    best_score = np.take_along_axis(score, best[..., None], axis=2)[..., 0]
    hit = (best_score > 0.05) & (best > 0) & (best < len(offsets) - 1)
    hits_px = np.take_along_axis(across_px, best[..., None, None].repeat(2, axis=3), axis=2)[:, :, 0]
    lines = []
    for k in range(4):
        if hit[k].sum() < 5:
            return homography
        line = _robust_line(hits_px[k][hit[k]])
        if line is None:
            return homography
        lines.append(line)
    corners_px = []
    for k in range(4):
        corner = np.cross(lines[k], lines[(k + 1) % 4])
        if abs(corner[2]) < 1e-9:
            return homography
        corners_px.append(corner[:2] / corner[2])
    # side k's main line meets side k+1's at the corner between them (south-east, north-east, ...)
    m = main_mm
    corners_mm = np.array([[m, -m], [m, m], [-m, m], [-m, -m]], np.float32)
    fitted = cv2.getPerspectiveTransform(corners_mm, np.array(corners_px, np.float32))
    return fitted / fitted[2, 2]


def _robust_line(points: np.ndarray) -> np.ndarray | None:
    """Homogeneous line (a, b, c) through most of the points: the best pair's inliers, refitted."""
    i, j = np.triu_indices(len(points), 1)
    d = points[j] - points[i]
    norm = np.linalg.norm(d, axis=1)
    keep = norm > 1e-6
    if not keep.any():
        return None
    i, d, norm = i[keep], d[keep], norm[keep]
    normals = np.stack([-d[:, 1], d[:, 0]], 1) / norm[:, None]
    # distance of every point from every pair's line: (pairs, points)
    distance = np.abs(np.einsum("pk,pnk->pn", normals, points[None, :, :] - points[i][:, None, :]))
    inliers = distance < 2.0
    best_inliers = inliers[int(np.argmax(inliers.sum(axis=1)))]
    if best_inliers.sum() < 4:
        return None
    pts = points[best_inliers]
    centre = pts.mean(axis=0)
    _, _, vt = np.linalg.svd(pts - centre)
    normal = vt[1]
    return np.array([normal[0], normal[1], -normal @ centre])


def _pocket_darkness(gray: np.ndarray, homography: np.ndarray, board: CarromBoard | CouronneBoard) -> list[float]:
    """Mean brightness inside each visible pocket relative to the surface near it (1 = as bright)."""
    r = board.pocket_diameter_mm / 2
    centres_mm = np.array(board.pocket_centres_mm())
    toward_centre_mm = centres_mm * (1 - 2.6 * r / np.linalg.norm(centres_mm, axis=1, keepdims=True))
    # one row per pocket and place (inside, then the surface beside it), every point projected at once
    spots_mm = np.concatenate([centres_mm, toward_centre_mm])[:, None, :] + 0.6 * r * _disc_offsets()[None]
    pts = project(homography, spots_mm.reshape(-1, 2)).reshape(spots_mm.shape)
    h, w = gray.shape
    ok = (pts[..., 0] >= 0) & (pts[..., 1] >= 0) & (pts[..., 0] < w - 1) & (pts[..., 1] < h - 1)
    values = np.zeros(ok.shape)
    values[ok] = gray[pts[ok][:, 1].astype(int), pts[ok][:, 0].astype(int)]
    seen = ok.sum(axis=1) >= 3
    medians = masked_median(values, ok)
    inner, outer = medians[: len(centres_mm)], medians[len(centres_mm):]
    both = seen[: len(centres_mm)] & seen[len(centres_mm):]
    return [float(a) / max(float(b), 1.0) for a, b in zip(inner[both], outer[both])]


def _pockets_near_frame(gray: np.ndarray, homography: np.ndarray, board: CarromBoard | CouronneBoard) -> int:
    """How many pocket centres lie in the frame or at most a pocket's width outside it."""
    centres_mm = np.array(board.pocket_centres_mm())
    centres_px = project(homography, centres_mm)
    # a pocket's width in pixels, from the distance of a point a width further along the diagonal
    widths_px = np.linalg.norm(project(homography, centres_mm * (1 + board.pocket_diameter_mm / np.linalg.norm(centres_mm, axis=1, keepdims=True))) - centres_px, axis=1)
    h, w = gray.shape[:2]
    inside = (centres_px >= -widths_px[:, None]) & (centres_px <= np.array([w, h]) + widths_px[:, None])
    return int(inside.all(axis=1).sum())


def _disc_offsets() -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, 12, endpoint=False)
    ring = np.stack([np.cos(t), np.sin(t)], 1)
    return np.concatenate([[[0.0, 0.0]], 0.5 * ring, ring])


def locate_square_board(
    image: np.ndarray, *, board: CarromBoard | CouronneBoard, settings: SquareSettings = SquareSettings(),
    start: np.ndarray | None = None, quads: tuple[np.ndarray, ...] | None = None, screen: bool = True,
) -> BoardLocation:
    """Find a carrom or couronne board in a BGR frame.

    Parameters
    ----------
    image : (H, W, 3) uint8 ndarray, or its (H, W) grey version
    board : CarromBoard or CouronneBoard
    settings : SquareSettings
    start : (3, 3) ndarray, optional
        A board mm -> image px homography known to be close (e.g. from frame markers):
        no search, the printed lines only refine it.
    screen : bool
        Whether `start` is screened (its sides found in short segments first, as frame markers
        leave the perspective loose); off when it is already a fit, e.g. of another board model.
    quads : tuple of (4, 2) ndarrays, optional
        `board_quads` of this frame, already found (e.g. for another model).

    Returns
    -------
    BoardLocation
        Homography in the pixels of `image`.
    """
    prims = square_primitives(board)
    # fast: quadrilaterals the frame, surface and line pattern outline, each read as several of the
    # board's squares; slow (when that finds nothing): profiles and sweeps of the printed lines
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if start is not None:
        known = _Start(np.asarray(start, np.float64), "", float(np.sqrt(abs(np.linalg.det(start[:2, :2])))))
        return _fit_from_starts(gray, board, prims, [known], settings, prescreen=True, screen=screen)
    quads = board_quads(gray, settings=settings) if quads is None else quads
    quick = _fit_from_starts(gray, board, prims, _quad_starts(quads, board=board), settings, prescreen=True)
    if quick is not None and quick.found:
        return quick
    starts = _profile_starts(gray, board, prims, settings)
    if not starts:
        return quick or BoardLocation.not_found(board.game, board.model, "no square pattern of printed lines")
    return _fit_from_starts(gray, board, prims, starts, settings, prescreen=False)


@dataclass(frozen=True)
class _Start:
    """A proposed board mm -> image px homography, the polarity of the lines it was proposed on
    ("" when either), and its scale in image px per mm."""

    homography: np.ndarray
    polarity: str
    px_per_mm: float


def _model_halves_mm(board: CarromBoard | CouronneBoard, prims) -> list[float]:
    """Half sizes of the squares a quadrilateral in the image may outline: the frame's outer edge,
    the playing surface, and the squares of the printed lines parallel to the sides."""
    main_mm, companions_mm = side_offsets_mm(board, prims)
    return [board.half_side_mm + board.frame_width_mm, board.half_side_mm, main_mm] + [main_mm - c for c in companions_mm]


def board_quads(gray: np.ndarray, *, settings: SquareSettings = SquareSettings()) -> tuple[np.ndarray, ...]:
    """Convex quadrilaterals among the edges of a small copy of a grey frame, as (4, 2) corners in
    frame pixels in the board's corner order; they depend on no board model, so several models
    tried on one frame share them.

    The frame, the playing surface and the printed line pattern are concentric squares with
    strong edges; under perspective each is a convex quadrilateral.
    """
    small = cv2.GaussianBlur(shrunk(gray, max_side_px=settings.quad_side_px), (5, 5), 0)
    scale = small.shape[1] / gray.shape[1]
    min_area = settings.min_quad_area * small.size
    quads: list[np.ndarray] = []
    for low, high in ((20, 60), (40, 120)):
        edges = cv2.dilate(cv2.Canny(small, low, high), np.ones((3, 3), np.uint8))
        contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for contour in contours:
            if cv2.contourArea(contour) < min_area:
                continue
            hull = cv2.convexHull(contour)
            corners = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float64)
            if len(corners) != 4 or cv2.contourArea(corners.astype(np.float32)) < min_area:
                continue
            sides = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)
            if sides.min() < 0.35 * sides.max():
                continue
            if any(np.abs(_ordered(corners) - _ordered(q)).max() < 0.02 * max(small.shape) for q in quads):
                continue
            quads.append(corners)
    return tuple(_ordered(corners) / scale for corners in quads)


def _quad_starts(quads: tuple[np.ndarray, ...], *, board: CarromBoard | CouronneBoard) -> list[_Start]:
    """Starts from the frame's quadrilaterals (`board_quads`), each read as each of the board's
    squares in turn (which one it is, is for the lines to tell)."""
    prims = square_primitives(board)
    starts = []
    for image_corners in quads:
        unit = _square_to_quad(image_corners)
        if unit is None:
            continue
        for half in _model_halves_mm(board, prims):
            homography = unit @ np.diag([1 / half, 1 / half, 1.0])
            starts.append(_Start(homography, "", float(np.sqrt(abs(np.linalg.det(homography[:2, :2]))))))
    return starts


def _ordered(corners: np.ndarray) -> np.ndarray:
    """Quadrilateral corners in the image order of the board's counter-clockwise corners (image y is down)."""
    centre = corners.mean(axis=0)
    angle = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    return corners[np.argsort(-angle)]


def _square_to_quad(corners_px: np.ndarray) -> np.ndarray | None:
    """The homography taking the square of half size 1 onto the corners, turned so the board's
    x axis runs closest to the image's (south at the bottom, as the other starts); a square of
    half size h: this times ``diag(1/h, 1/h, 1)``."""
    square = np.array([[1, -1], [1, 1], [-1, 1], [-1, -1]], np.float32)
    best, best_angle = None, math.inf
    for shift in range(4):
        homography = cv2.getPerspectiveTransform(square, np.roll(corners_px, shift, axis=0).astype(np.float32))
        if not np.all(np.isfinite(homography)) or abs(homography[2, 2]) < 1e-12:
            continue
        homography = homography / homography[2, 2]
        centre, east = project(homography, np.array([[0.0, 0.0], [0.2, 0.0]]))
        angle = abs(math.atan2(east[1] - centre[1], east[0] - centre[0]))
        if angle < best_angle:
            best, best_angle = homography, angle
    return best


def _profile_starts(gray: np.ndarray, board: CarromBoard | CouronneBoard, prims, settings: SquareSettings) -> list[_Start]:
    """Similarity starts from the printed lines' projection profiles and a sweep about the voted centre."""
    offsets_mm = np.array(sorted({abs(p.a_mm[1]) for p in prims if p.name.startswith("south") and not p.is_circle}))
    coarse_gray = shrunk(gray, max_side_px=settings.coarse_side_px)
    coarse_scale = coarse_gray.shape[1] / gray.shape[1]

    # lines are dark ink on wood, or light paint on painted boards; the profiles of each polarity
    # propose a few scales
    model_points_mm, _, _ = sample_primitives(prims, spacing_mm=6.0)
    responses = {polarity: line_response(coarse_gray, width_px=7, polarity=polarity) for polarity in ("dark", "bright")}
    # the profiles and sweeps below cost a few hundred milliseconds: a frame without long straight
    # thin lines (texture, a chess board, whose squares meet in edges) has no printed pattern to propose
    if max(long_line_count(r) for r in responses.values()) < settings.min_long_lines:
        return []
    widened = {polarity: cv2.dilate(r, np.ones((3, 3), np.uint8)) for polarity, r in responses.items()}
    proposals = []
    for response in responses.values():
        angle = _dominant_angle(response, coarse_gray)
        for scale, score, centre in _profile_scale(response, angle, offsets_mm):
            # a geometry one polarity's profiles propose may be the other's lines (perspective blurs profiles)
            for polarity, lines in widened.items():
                model, (centre_fit, scale_fit, angle_fit) = _polish(lines, centre, scale, angle, model_points_mm)
                similarity = _similarity(centre_fit / coarse_scale, scale_fit / coarse_scale, angle_fit)
                proposals.append((model, score, polarity, similarity, scale_fit / coarse_scale))
        # and a sweep of centres and scales about the voted centre, for boards whose profiles
        # perspective blurred away (the vote itself is loose for straight lines)
        side = min(coarse_gray.shape)
        voted = vote_centre(response, coarse_gray, min_radius_px=0.08 * side, max_radius_px=0.6 * max(coarse_gray.shape))
        for polarity, lines in widened.items():
            for _, centre_sweep, scale_sweep in _sweep(lines, voted, angle, model_points_mm, offsets_mm.max())[:2]:
                model, (centre_fit, scale_fit, angle_fit) = _polish(lines, centre_sweep, scale_sweep, angle, model_points_mm)
                similarity = _similarity(centre_fit / coarse_scale, scale_fit / coarse_scale, angle_fit)
                proposals.append((model, math.inf, polarity, similarity, scale_fit / coarse_scale))
    proposals = [p for p in proposals if p[1] >= 0.002]
    if not proposals:
        return []
    # the best few distinct proposals under the whole model's lines, and the best by the profiles
    # alone (the sweep's proposals have no profile score: infinite here)
    by_profile = max(proposals, key=lambda p: p[1] if math.isfinite(p[1]) else -1.0)
    chosen = _distinct(sorted(proposals, key=lambda p: -p[0]), settings.max_starts, min(coarse_gray.shape) / coarse_scale)
    if all(by_profile is not p for p in chosen):
        chosen.append(by_profile)
    return [_Start(p[3], p[2], p[4]) for p in chosen]


def _fit_from_starts(
    gray: np.ndarray, board: CarromBoard | CouronneBoard, prims, starts: list[_Start], settings: SquareSettings,
    *, prescreen: bool, screen: bool = True,
) -> BoardLocation | None:
    """Screen the starts on one view of the region they cover, refine the best, check it; None without starts.

    The view is scaled so the board's half-diagonal is about ``fine_radius_px``. With `prescreen`,
    the starts are first ranked by the model's lines under them and only the best few screened.
    Screening: the four sides found in short segments (perspective), a wide search along each
    primitive's normal and a refit; the start whose screened fit has most of the printed lines
    close to it is refined to the end. Without `screen`, the best prescreened start is refined
    to the end as it is.
    """
    if not starts:
        return None
    not_found = lambda reason: BoardLocation.not_found(board.game, board.model, reason)  # noqa: E731
    points_mm, normals_mm, index = sample_primitives(prims, spacing_mm=settings.spacing_mm)
    thick_mm = max(p.width_mm for p in prims)
    gap_mm = board.base_line_gap_mm if isinstance(board, CarromBoard) else 30.0
    extent_mm = 1.5 * (board.half_side_mm + board.frame_width_mm)
    centres = np.array([s.homography[:2, 2] / s.homography[2, 2] for s in starts])
    radii = np.array([extent_mm * s.px_per_mm for s in starts])
    low, high = (centres - radii[:, None]).min(axis=0), (centres + radii[:, None]).max(axis=0)
    view_radius = 0.5 * float(max(high - low))
    work_gray, to_view = region_view(
        gray, centre_px=tuple(0.5 * (low + high)), radius_px=view_radius,
        target_radius_px=settings.fine_radius_px * view_radius / float(np.median(radii)),
    )
    # starts are screened on a smaller copy (at most half size, the lines still resolved);
    # only the best is refined on the view itself
    px_per_mm_work = float(np.median([s.px_per_mm for s in starts])) * to_view[0, 0]
    shrink = float(np.clip(settings.screen_px_per_mm / max(px_per_mm_work, 1e-6), 0.5, 1.0))
    size = (max(16, round(work_gray.shape[1] * shrink)), max(16, round(work_gray.shape[0] * shrink)))
    screen_gray, to_screen = resized(work_gray, size) if shrink < 1.0 else (work_gray, np.eye(3))
    responses: dict[tuple[str, bool], np.ndarray] = {}

    def response_of(polarity: str, *, screen: bool) -> np.ndarray:
        if (polarity, screen) not in responses:
            scale = to_screen[0, 0] if screen else 1.0
            width_px = max(5 if screen else 7, int(round(3 * thick_mm * px_per_mm_work * scale)) | 1)
            responses[polarity, screen] = line_response(
                screen_gray if screen else work_gray, width_px=width_px, polarity=polarity, square=screen
            )
        return responses[polarity, screen]

    candidates = [(to_screen @ to_view @ s.homography, s.polarity) for s in starts]
    if prescreen:
        widened = {p: cv2.dilate(response_of(p, screen=True), np.ones((3, 3), np.uint8)) for p in ("dark", "bright")}
        scored = []
        for homography, _ in candidates:
            for polarity, lines in widened.items():
                scored.append((_model_score(lines, homography, points_mm), homography, polarity))
        scored.sort(key=lambda c: -c[0])
        candidates = []
        for _, homography, polarity in scored:
            corners = project(homography, np.array([[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0]]) * board.half_side_mm)
            if any(np.abs(corners - c).max() < 0.02 * max(screen_gray.shape) for c, _, _ in candidates):
                continue
            # a start whose pockets in view are plainly not dark is no board (cheap, before screening)
            pockets = _pocket_darkness(screen_gray, homography, board)
            if pockets and float(np.median(pockets)) > settings.max_start_pocket_brightness:
                continue
            candidates.append((corners, homography, polarity))
            if len(candidates) == settings.max_starts:
                break
        candidates = [(homography, polarity) for _, homography, polarity in candidates]

    best, best_quality = None, -math.inf
    if not screen and candidates:
        homography, polarity = candidates[0]
        best = (np.linalg.inv(to_screen) @ homography, polarity)
    for homography, polarity in candidates if screen else []:
        response = response_of(polarity, screen=True)
        # perspective: a similarity start can be tens of mm off at the sides; find each side's lines
        # in short segments (wide search, the model's line pattern across it), then fit the four sides.
        # Something long and straight over a side (a rail, an arm) can mislead that, so both starts
        # are screened and the one the printed lines support best is kept.
        tries = [homography]
        if settings.fit_sides:
            sides = _fit_sides(response, homography, board, prims)
            if sides is not homography:
                tries.insert(0, sides)
        for start in tries:
            fit = _fine_fit(response, start, prims, points_mm, normals_mm, index, board=board, gap_mm=gap_mm, steps=(0,))
            if fit is None:
                continue
            quality = _narrow_support(response, fit[0], points_mm, normals_mm, gap_mm=gap_mm)
            if quality > best_quality:
                best, best_quality = (np.linalg.inv(to_screen) @ fit[0], polarity), quality
        if best_quality >= settings.sure_support:
            break
    if best is None:
        return not_found("too few points on the printed lines")
    screened, polarity = best
    response = response_of(polarity, screen=False)
    # a convincing screen is already within a few mm; otherwise one more, wider search first
    steps = (2, 3) if best_quality >= settings.sure_support else (1, 2, 3)
    fit = _fine_fit(response, screened, prims, points_mm, normals_mm, index, board=board, gap_mm=gap_mm, steps=steps)
    if fit is None:
        return not_found("too few points on the printed lines")
    homography, found_px, ok, residual = fit
    to_image = np.linalg.inv(to_view)
    # the pockets are judged on the whole frame: the view may crop the corners of the board
    reason = _check(homography, ok, residual, gray, to_image, board, prims, index, settings)
    if reason:
        return not_found(reason)

    kept = np.flatnonzero(ok)
    names = tuple(prims[index[i]].name for i in kept)
    error_mm = float(np.mean(np.abs(residual)))
    side_support = _side_support(ok, prims, index)
    confidence = float(np.clip(min(side_support) * math.exp(-error_mm / 1.5), 0.0, 1.0))
    return BoardLocation(
        found=True,
        game=board.game,
        model=board.model,
        homography=to_image @ homography,
        confidence=confidence,
        error_mm=error_mm,
        landmarks=Landmarks(names, points_mm[kept], project(to_image, found_px[kept])),
    )


def _side_support(ok: np.ndarray, prims, index: np.ndarray) -> list[float]:
    """Share of each side's points found (south, east, north, west)."""
    side_of_point = np.array([[p.name.startswith(side) for side in ("south", "east", "north", "west")] for p in prims])[index]
    return [float(ok[side_of_point[:, k]].mean()) for k in range(4)]


def _radius_px(homography: np.ndarray, circles) -> float:
    """Smallest radius in image px of `circles` (primitives) under the board mm -> image px `homography`."""
    radii = []
    for c in circles:
        centre = np.array(c.a_mm)
        rim = project(homography, centre + c.radius_mm * np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]]))
        radii.append(float(np.linalg.norm(rim - project(homography, centre[None]), axis=1).mean()))
    return min(radii)


def _check(homography, ok, residual, gray, to_image, board, prims, index, settings: SquareSettings) -> str:
    """Why the fit is not a board ("" when it is): sides or features unsupported, residuals, light pockets.

    `homography` maps to the view the fit was made on, `to_image` the view to `gray`, the frame.

    Straight lines must be found along most of their length; circles may be faint (painted
    boards fill them with colour) and need less, and too small to resolve, none.
    """
    side_support = _side_support(ok, prims, index)
    if sorted(side_support)[1] < settings.min_side_support:
        return f"printed lines only partly found (sides {', '.join(f'{s:.0%}' for s in side_support)})"
    circle_support = []
    group_of_point = np.array([p.group for p in prims])[index]
    for group in sorted({p.group for p in prims}):
        members = [p for p in prims if p.group == group]
        is_circle = members[0].is_circle
        if is_circle and _radius_px(to_image @ homography, members) < settings.min_circle_radius_px:
            continue
        support = float(ok[group_of_point == group].mean())
        circle_support += [support] if is_circle else []
        if support < (0.5 * settings.min_circle_support if is_circle else settings.min_side_support):
            return f"{group.replace('_', ' ')}s not found ({support:.0%} of their length)"
    if circle_support and float(np.mean(circle_support)) < settings.min_circle_support:
        return f"printed circles not found ({float(np.mean(circle_support)):.0%} of their length)"
    median_residual = float(np.median(np.abs(residual)))
    if median_residual > settings.max_median_residual_mm:
        return f"printed lines do not match the board model (median residual {median_residual:.1f} mm)"
    error_mm = float(np.mean(np.abs(residual)))
    if error_mm > settings.max_error_mm:
        return f"poor fit (mean error {error_mm:.1f} mm)"
    pockets = _pocket_darkness(gray, to_image @ homography, board)
    near = _pockets_near_frame(gray, to_image @ homography, board)
    if near < settings.min_pockets_near:
        return f"only {near} of the pockets at most a pocket's width outside the frame"
    if pockets and float(np.median(pockets)) > settings.max_pocket_brightness:
        return "no dark pockets at the corners of the square"
    return ""
