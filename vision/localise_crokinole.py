"""Find a crokinole board: its concentric scoring lines, the 20-hole at their centre, the pegs.

Steps:

1. coarse (at ``coarse_side_px``): thin dark lines vote along their normals for
   the common centre; the median polar profile about that centre must show the
   three scoring lines at the board model's radius ratios (15 : 10 : 5 lines);
2. fine (on the board's region, scaled so its radius is about ``fine_radius_px``):
   search each projected line along its normal, fit the homography to the
   line points (radial error in board mm, robust), narrow the search, repeat;
3. rotation: the pegs (bright spots on the 15 line) and the quadrant lines
   (dark, on the diagonals of the outer ring) fix the rotation modulo 90
   degrees; the one closest to the image axes is kept (south at the bottom).
   The pegs do not join the fit: a peg's head, the bright spot seen, stands
   above the surface and is seen off its foot (parallax, highlights); as
   landmarks they turned the fit up to a degree off the printed quadrant lines
   on every real photo where they were used, and raised the synthetic error.

A fit whose lines are not supported around most of their length, or whose
points stray from the model, is reported as not found.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.geometry import CrokinoleBoard
from vision.board_location import BoardLocation, Landmarks
from vision.circle_fit import refine_on_circles
from vision.homography import project
from vision.line_features import bright_spot_response, line_response, peaks_along_normals, sample, vote_centre
from vision.working_copies import region_view, shrunk

QUADRANT_LINE_ANGLES_DEG = (45.0, 135.0, 225.0, 315.0)
"""Quadrant lines run on the diagonals, midway between the peg pairs (see CrokinoleBoard.peg_centres_mm)."""


@dataclass(frozen=True)
class CrokinoleSettings:
    """Tuning of the crokinole locator (working sizes in pixels, tolerances in board mm)."""

    coarse_side_px: int = 640
    fine_radius_px: float = 550.0
    samples_per_line: int = 180
    min_line_support: float = 0.45
    max_median_residual_mm: float = 1.5
    max_error_mm: float = 2.5
    coarse_centre_slack: float = 0.05
    """How far the voted centre may lie from the innermost line's, as a share of the coarse frame's
    shorter side (the lines' ellipses do not share one centre under perspective)."""
    decisive_coarse_score: float = 0.012
    """Lines of one polarity showing this strongly about their recentred vote are taken without
    trying the other polarity's (the losing polarity scores a few thousandths at most)."""


def _sector_profiles(
    response: np.ndarray, centre_px: np.ndarray, max_radius_px: int, n_angles: int, step_px: float, n_sectors: int
) -> np.ndarray:
    """Prominence of thin lines at radii ``0, step_px, ...`` about a centre, one profile per angular sector.

    Within a sector the median over its rays ignores discs and gaps; each ray is
    widened radially first, as a line wanders a few pixels (centre error). Under
    tilt the circles are ellipses, so each sector keeps its own radii.

    Returns
    -------
    (n_sectors, n_radii) float32 ndarray
    """
    angles = np.linspace(0, 2 * np.pi, n_angles, endpoint=False)
    radii = np.arange(0, max_radius_px, step_px, dtype=np.float32)
    # the rays' x and y as two remap maps (as `sample` does, without gathering (x, y) pairs first)
    ray_x = (centre_px[0] + np.outer(np.cos(angles), radii)).astype(np.float32)
    ray_y = (centre_px[1] + np.outer(np.sin(angles), radii)).astype(np.float32)
    widen = max(3, int(round(7 / step_px)) | 1)
    polar = cv2.blur(cv2.remap(response, ray_x, ray_y, cv2.INTER_LINEAR, borderValue=0), (widen, 1))
    # the median of each sector's rays (a sort of a few rays is several times cheaper than np.median)
    per_sector = n_angles // n_sectors
    rays = np.sort(polar.reshape(n_sectors, per_sector, -1), axis=1)
    profiles = 0.5 * (rays[:, (per_sector - 1) // 2] + rays[:, per_sector // 2])
    baseline = cv2.blur(profiles, (max(5, int(25 / step_px) | 1), 1))
    return profiles - baseline


def _template_fit(
    profiles: np.ndarray, ratios: np.ndarray, min_radius: float, *, max_shift: int = 0
) -> tuple[np.ndarray, float, np.ndarray]:
    """Innermost line radius per sector (in profile samples) for lines at ``radius * ratios``, the score,
    and which sectors agree.

    Each sector scores its weakest line (all lines must show); sectors whose radius
    strays from the median by over 25% are taken as misses. The score is the
    median over sectors, so a disc-covered or shadowed sector does not decide.

    With `max_shift`, each sector's lines may also sit at ``radius * ratios + shift``
    for a shift of up to that many samples: about a centre off by that much, a
    sector sees every line nearer (or further) by the same amount, which breaks the
    ratios but not their spacing. The radius returned is then the innermost line's
    as seen from this centre, ``radius * ratios[0] + shift``; the strays are judged
    on ``radius`` alone, which is the same in every sector.
    """
    length = profiles.shape[1]
    candidates = np.arange(min_radius, (length - 3 - max_shift) / ratios.max(), 0.5)
    if len(candidates) == 0:
        return np.zeros(len(profiles)), -1.0, np.zeros(len(profiles), bool)
    local_max = np.maximum.reduce([np.roll(profiles, k, axis=1) for k in (-1, 0, 1)])
    shifts = np.arange(-max_shift, max_shift + 1)
    seen = candidates[:, None, None] * ratios[None, None, :] + shifts[None, :, None]  # (candidates, shifts, lines)
    at = np.clip(np.rint(seen).astype(int), 0, length - 1)
    scores = local_max[:, at].min(axis=3).reshape(len(profiles), -1)  # (sectors, candidates x shifts)
    # an innermost line shifted inside the smallest radius is no line of this board
    scores[:, (seen[:, :, 0] < min_radius).ravel()] = -np.inf
    best = scores.argmax(axis=1)
    radius = seen[:, :, 0].ravel()[best]
    intrinsic = candidates[best // len(shifts)]
    score = scores[np.arange(len(profiles)), best]
    agree = np.abs(intrinsic - np.median(intrinsic)) <= 0.25 * np.median(intrinsic)
    score = np.where(agree, score, 0.0)
    return radius, float(np.median(score)), agree


def _recentred(
    response: np.ndarray, centre_px: np.ndarray, ratios: np.ndarray, *, max_offset_px: float, n_sectors: int = 24
) -> np.ndarray:
    """A voted centre moved onto the centre of the innermost line's ellipse.

    The vote is off by up to `max_offset_px`: under perspective each line's ellipse
    has its own centre, and the vote falls anywhere among them (or wanders with the
    wood grain). About such a centre every line of a sector is nearer or further by
    one amount, so sector profiles fitted with that shift allowed still find the
    innermost line; the ellipse through those sector radii has a better centre.
    Two such steps, the second allowing half the shift. Narrow sectors keep each
    line sharp in its profile however far off the centre is.
    """
    h, w = response.shape
    max_radius = int(0.75 * max(h, w))
    min_radius = 0.025 * min(h, w)
    centre = np.asarray(centre_px, np.float64)
    theta = (np.arange(n_sectors) + 0.5) * 2 * np.pi / n_sectors
    unit = np.stack([np.cos(theta), np.sin(theta)], 1)
    radius_step = 2.0
    for slack_px in (max_offset_px, max_offset_px / 2):
        profiles = _sector_profiles(response, centre, max_radius, 6 * n_sectors, radius_step, n_sectors)
        radius, _, good = _template_fit(profiles, ratios, min_radius / radius_step, max_shift=int(slack_px / radius_step))
        radius_px = radius * radius_step
        median = np.median(radius_px)
        if good.sum() < n_sectors // 2:
            continue
        (cx, cy), _, _ = cv2.fitEllipse((centre + radius_px[good, None] * unit[good]).astype(np.float32))
        moved = np.array([cx, cy])
        if np.all(np.isfinite(moved)) and np.linalg.norm(moved - centre) <= min(0.5 * median, 2 * max_offset_px):
            centre = moved
    return centre


def _coarse_ellipse(
    response: np.ndarray, centre_px: np.ndarray, ratios: np.ndarray, n_sectors: int = 12
) -> tuple[np.ndarray, np.ndarray, float]:
    """Centre, innermost-line radius per sector (px) and strength best showing the lines at the model's ratios.

    The centre given (`_recentred`) is good to a few pixels. The sector radii found
    about it lie on the innermost line's ellipse, so the centre of the ellipse through
    them is a better centre: a few such steps, coarse then fine profiles, keeping the
    centre whose profiles show the lines most strongly.
    """
    h, w = response.shape
    max_radius = int(0.75 * max(h, w))
    min_radius = 0.025 * min(h, w)
    best = (centre_px, np.zeros(n_sectors), -1.0)
    centre = np.asarray(centre_px, np.float64)
    theta = (np.arange(n_sectors) + 0.5) * 2 * np.pi / n_sectors
    unit = np.stack([np.cos(theta), np.sin(theta)], 1)
    for n_angles, radius_step in ((72, 2.0), (144, 1.0), (144, 1.0)):
        profiles = _sector_profiles(response, centre, max_radius, n_angles, radius_step, n_sectors)
        radius, score, _ = _template_fit(profiles, ratios, min_radius / radius_step)
        radius_px = radius * radius_step
        if score > best[2]:
            best = (centre, radius_px, score)
        median = np.median(radius_px)
        good = np.abs(radius_px - median) <= 0.25 * median
        if good.sum() < 6:
            break
        (cx, cy), (width, height), _ = cv2.fitEllipse((centre + radius_px[good, None] * unit[good]).astype(np.float32))
        moved = np.array([cx, cy])
        if not np.all(np.isfinite(moved)) or np.linalg.norm(moved - centre) > 0.5 * median:
            break
        if n_angles == 144 and np.linalg.norm(moved - centre) < 0.25:
            # settled: the same fine profiles again would show the same lines
            break
        centre = moved
    return best


def _initial_homography(centre_px: np.ndarray, sector_radius_px: np.ndarray, inner_radius_mm: float) -> np.ndarray | None:
    """Affine board -> image map taking the innermost line onto the ellipse through the sector radii."""
    n = len(sector_radius_px)
    theta = (np.arange(n) + 0.5) * 2 * np.pi / n
    good = sector_radius_px > 0
    median = np.median(sector_radius_px[good]) if good.any() else 0
    good &= np.abs(sector_radius_px - median) <= 0.25 * median
    if good.sum() < 5:
        return None
    pts = centre_px + sector_radius_px[good, None] * np.stack([np.cos(theta[good]), np.sin(theta[good])], 1)
    (cx, cy), (width, height), angle_deg = cv2.fitEllipse(pts.astype(np.float32))
    if not (np.isfinite(width) and np.isfinite(height)) or min(width, height) <= 0 or max(width, height) / min(width, height) > 3:
        return None
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    m = rot @ np.diag([width / 2 / inner_radius_mm, height / 2 / inner_radius_mm]) @ rot.T
    # board y points away from the south seat, image y down: flip y
    return np.array([[m[0, 0], -m[0, 1], cx], [m[1, 0], -m[1, 1], cy], [0, 0, 1.0]])


def _circle_normals(homography: np.ndarray, radius_mm: np.ndarray, angles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Image points of board circles and the image direction of increasing radius at each."""
    unit = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    on = project(homography, unit * radius_mm[:, None])
    out = project(homography, unit * (radius_mm[:, None] + 1.0))
    normal = out - on
    normal /= np.linalg.norm(normal, axis=1, keepdims=True)
    return on, normal


def _rotation_phase(
    homography: np.ndarray, gray: np.ndarray, bright: np.ndarray, board: CrokinoleBoard, px_per_mm: float, polarity: str
) -> tuple[float, float]:
    """Board rotation (degrees, modulo 90, in [-45, 45)) from pegs and quadrant lines, and its contrast.

    `bright` is the frame's peg-sized bright spot response (`_peg_response`).
    """
    dark = line_response(gray, width_px=max(5, int(round(4 * px_per_mm)) | 1), polarity=polarity)
    radii = board.line_radii_mm()
    steps = np.deg2rad(np.arange(0.0, 90.0, 0.5))
    peg_angles = np.array([math.atan2(y, x) for x, y in board.peg_centres_mm()])
    # a few radii across the quadrant line's length, a peg sampled at its centre
    peg_pts = np.stack([np.cos(peg_angles[None, :] + steps[:, None]), np.sin(peg_angles[None, :] + steps[:, None])], -1)
    peg_px = project(homography, (peg_pts * radii[15]).reshape(-1, 2)).reshape(len(steps), -1, 2)
    peg_score = sample(bright, peg_px).mean(axis=1)
    # a quadrant line is dark along its whole length; the printed numerals on the axes only
    # in places, so the weakest of several radii counts
    quadrant_angles = np.deg2rad(QUADRANT_LINE_ANGLES_DEG)

    def quadrant_score(offsets: np.ndarray) -> np.ndarray:
        score = np.full(len(offsets), np.inf)
        for fraction in (0.12, 0.25, 0.75, 0.88):
            r = radii[10] + fraction * (radii[5] - radii[10])
            angles = quadrant_angles[None, :] + offsets[:, None]
            pts = np.stack([np.cos(angles), np.sin(angles)], -1) * r
            q_px = project(homography, pts.reshape(-1, 2)).reshape(len(offsets), -1, 2)
            score = np.minimum(score, sample(dark, q_px).mean(axis=1))
        return score

    quad_score = quadrant_score(steps)
    score = peg_score / (peg_score.std() + 1e-6) + quad_score / (quad_score.std() + 1e-6)
    best = int(np.argmax(score))
    contrast = float((score[best] - np.median(score)) / (score.std() + 1e-6))
    # the long, thin quadrant lines pin the angle more finely than the small pegs
    fine = steps[best] + np.deg2rad(np.arange(-4.0, 4.05, 0.1))
    fine_score = quadrant_score(fine)
    if fine_score.max() > np.median(quad_score) + 2 * quad_score.std():
        phase = float(np.rad2deg(fine[int(np.argmax(fine_score))]))
    else:
        phase = float(np.rad2deg(steps[best]))
    return (phase + 45.0) % 90.0 - 45.0, contrast


def _peg_response(gray: np.ndarray, *, board: CrokinoleBoard, px_per_mm: float) -> np.ndarray:
    """Bright spots the size of a peg's head (a little wider, for blur)."""
    return bright_spot_response(gray, width_px=max(3, int(round(board.peg_diameter_mm * 1.6 * px_per_mm)) | 1))


def _closest_to_image_axes(homography: np.ndarray) -> np.ndarray:
    """Of the board's four quarter turns, the one whose x axis runs closest to the image's x axis."""
    best, best_angle = homography, math.inf
    for k in range(4):
        turned = homography @ _rotation(90.0 * k)
        centre, east = project(turned, np.array([[0.0, 0.0], [100.0, 0.0]]))
        angle = abs(math.atan2(east[1] - centre[1], east[0] - centre[0]))
        if angle < best_angle - 1e-9:
            best, best_angle = turned, angle
    return best


def _rotation(angle_deg: float) -> np.ndarray:
    a = math.radians(angle_deg)
    return np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])


@dataclass(frozen=True)
class CoarseStart:
    """The coarse stage's answer: an affine board -> image map (None: no concentric lines) and the line polarity.

    Crokinole models differ little in their line ratios, so one start serves them all.
    """

    homography: np.ndarray | None
    polarity: str = "dark"


@dataclass(frozen=True)
class CoarseLines:
    """The coarse stage's work that does not depend on the board model: the frame's small grey
    copy, its scale, per line polarity the thin-line response, and the centre the lines vote
    for (`voted_centre` fills it when first needed)."""

    gray: np.ndarray
    scale: float
    responses: dict[str, np.ndarray]
    voted_px: dict[str, np.ndarray]

    def voted_centre(self) -> np.ndarray:
        """The centre the lines of either polarity vote for, voted once.

        Lines of both polarities share the centre, so one vote serves both; it only
        needs to land among the lines' ellipses (`_recentred` takes it from there),
        so it votes coarsely.
        """
        if "any" not in self.voted_px:
            side = min(self.gray.shape)
            either = np.maximum(self.responses["dark"], self.responses["bright"])
            self.voted_px["any"] = vote_centre(
                either, self.gray, min_radius_px=0.04 * side, max_radius_px=0.6 * max(self.gray.shape),
                step_px=4.0, cell_px=4, smoothing_cells=1.0,
            )
        return self.voted_px["any"]


def _gray(image: np.ndarray) -> np.ndarray:
    """The frame in grey: a BGR frame converted, a grey one as it is."""
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def coarse_lines(image: np.ndarray, *, settings: CrokinoleSettings = CrokinoleSettings()) -> CoarseLines:
    """Thin lines of both polarities on a small copy of the frame, BGR or grey (lines are dark ink
    on wood, or light paint on painted boards)."""
    coarse_gray = shrunk(_gray(image), max_side_px=settings.coarse_side_px)
    responses = {polarity: line_response(coarse_gray, width_px=5, polarity=polarity) for polarity in ("dark", "bright")}
    return CoarseLines(coarse_gray, coarse_gray.shape[1] / image.shape[1], responses, {})


def coarse_start(
    image: np.ndarray, *, board: CrokinoleBoard, settings: CrokinoleSettings = CrokinoleSettings(),
    lines: CoarseLines | None = None,
) -> CoarseStart:
    """Centre, scale and ellipse of the scoring lines, on a small copy of the frame.

    `lines` (from `coarse_lines` on this frame) spares that work when several models are tried.
    """
    radii = board.line_radii_mm()
    line_radius_mm = np.array([radii[v] for v in (15, 10, 5)])
    ratios = line_radius_mm / line_radius_mm[0]
    lines = lines or coarse_lines(image, settings=settings)
    coarse_gray, coarse_scale = lines.gray, lines.scale
    side = min(coarse_gray.shape)
    # the polarity whose lines show best about the vote, or about the vote recentred (discs and
    # clutter about a small board's centre can mislead that), is searched further
    best = None
    voted = lines.voted_centre()
    for polarity in ("dark", "bright"):
        response = lines.responses[polarity]
        recentred = _recentred(response, voted, ratios, max_offset_px=settings.coarse_centre_slack * side)
        for centre in (recentred, voted):
            profiles = _sector_profiles(response, centre, int(0.75 * max(coarse_gray.shape)), 72, 2.0, 12)
            _, score, _ = _template_fit(profiles, ratios, 0.025 * side / 2.0)
            if best is None or score > best[0]:
                best = (score, polarity, response, centre)
        if best[0] >= settings.decisive_coarse_score:
            break
    _, polarity, response, centre = best
    centre, sector_radius_px, strength = _coarse_ellipse(response, centre, ratios)
    initial = _initial_homography(centre, sector_radius_px, line_radius_mm[0]) if strength >= 0.006 else None
    if initial is None:
        return CoarseStart(None, polarity)
    return CoarseStart(np.diag([1 / coarse_scale, 1 / coarse_scale, 1.0]) @ initial, polarity)


def locate_crokinole(
    image: np.ndarray,
    *,
    board: CrokinoleBoard,
    settings: CrokinoleSettings = CrokinoleSettings(),
    start: CoarseStart | None = None,
) -> BoardLocation:
    """Find a crokinole board in a frame.

    Parameters
    ----------
    image : (H, W, 3) or (H, W) uint8 ndarray
        The frame, BGR or grey (the locator works in grey only).
    board : CrokinoleBoard
        The board model (line radii, pegs).
    settings : CrokinoleSettings
    start : CoarseStart, optional
        A coarse stage already run on this frame (e.g. for another model).

    Returns
    -------
    BoardLocation
        Homography in the pixels of `image`.
    """
    not_found = lambda reason: BoardLocation.not_found(board.game, board.model, reason)  # noqa: E731
    radii = board.line_radii_mm()
    line_values = (15, 10, 5)
    line_radius_mm = np.array([radii[v] for v in line_values])

    # 1. coarse centre and scale
    image = _gray(image)
    start = start or coarse_start(image, board=board, settings=settings)
    if start.homography is None:
        return not_found("no concentric scoring lines")
    initial, polarity = start.homography, start.polarity
    image_px_per_mm = float(np.sqrt(abs(np.linalg.det(initial[:2, :2]))))
    centre_image = initial[:2, 2]
    # the fine stages work on the board's region, at a scale where its radius is about fine_radius_px
    work_gray, to_view = region_view(
        image, centre_px=tuple(centre_image), radius_px=1.15 * board.surface_radius_mm * image_px_per_mm,
        target_radius_px=settings.fine_radius_px,
    )
    homography = to_view @ initial
    px_per_mm = image_px_per_mm * to_view[0, 0]

    # 2. fine: search along normals, refit, narrow
    line_px_width = max(5, int(round(px_per_mm * max(board.line_width_mm, 1.0) * 3)) | 1)
    response = line_response(work_gray, width_px=max(line_px_width, 7), polarity=polarity)
    n = settings.samples_per_line
    angles = (np.arange(n) + 0.5) * 2 * math.pi / n
    all_radius_mm = np.repeat(line_radius_mm, n)
    all_angles = np.tile(angles, len(line_values))
    spacing_px = (line_radius_mm[1] - line_radius_mm[0]) * px_per_mm
    ok = np.zeros(len(all_angles), bool)
    found_px = np.zeros((len(all_angles), 2))
    residual = np.zeros(0)
    for half_width in (0.4 * spacing_px, 0.15 * spacing_px, 6.0, 3.0):
        on, normal = _circle_normals(homography, all_radius_mm, all_angles)
        # the wide searches only seed the narrow ones: a pixel's step is fine enough for them
        found_px, ok = peaks_along_normals(
            response, on, normal, half_width_px=max(half_width, 2.0), min_response=0.04, context_px=0.15 * spacing_px,
            step_px=1.0 if half_width > 10.0 else 0.5,
        )
        if ok.sum() < 24:
            return not_found("too few points on the scoring lines")
        homography, residual, _ = refine_on_circles(homography, found_px[ok], all_radius_mm[ok], loss_scale_mm=1.0)
        # drop points far off their line before the next, narrower search
        bad = np.abs(residual) > max(3.0, 4 * np.median(np.abs(residual)))
        ok_idx = np.flatnonzero(ok)
        ok[ok_idx[bad]] = False
        if ok.sum() >= 24 and bad.sum() > 0.05 * len(bad):
            homography, residual, _ = refine_on_circles(homography, found_px[ok], all_radius_mm[ok], loss_scale_mm=1.0)

    support = [ok[i * n : (i + 1) * n].mean() for i in range(len(line_values))]
    if sorted(support)[1] < settings.min_line_support:
        return not_found(f"scoring lines only partly visible (support {', '.join(f'{s:.0%}' for s in support)})")
    if np.median(np.abs(residual)) > settings.max_median_residual_mm:
        return not_found(f"lines do not match the board model (median residual {np.median(np.abs(residual)):.1f} mm)")

    # 3. rotation from pegs and quadrant lines
    local_px_per_mm = float(np.sqrt(abs(np.linalg.det(homography[:2, :2]))))
    spot = _peg_response(work_gray, board=board, px_per_mm=local_px_per_mm)
    phase_deg, _ = _rotation_phase(homography, work_gray, spot, board, local_px_per_mm, polarity)
    homography = _closest_to_image_axes(homography @ _rotation(phase_deg))

    # the pegs only chose the quarter turn: their heads stand above the surface and are seen off
    # their feet (parallax, highlights), and on real photos pulled the fit a degree off the printed
    # quadrant lines; the circles alone, with the turn held, give the fit and its error
    homography, residual, _ = refine_on_circles(homography, found_px[ok], all_radius_mm[ok], hold_rotation=True)
    error_mm = float(np.mean(np.abs(residual)))
    if error_mm > settings.max_error_mm:
        return not_found(f"poor fit (mean error {error_mm:.1f} mm)")

    to_image = np.linalg.inv(to_view)
    final = to_image @ homography
    kept = np.flatnonzero(ok)
    step = max(1, len(kept) // 48)
    names = [f"line{all_radius_mm[i]:.0f}mm@{math.degrees(all_angles[i]):.0f}deg" for i in kept[::step]]
    board_pts = np.stack([np.cos(all_angles[kept[::step]]), np.sin(all_angles[kept[::step]])], 1) * all_radius_mm[kept[::step], None]
    image_pts = project(to_image, found_px[kept[::step]])
    confidence = float(np.clip(min(support) * math.exp(-error_mm / 1.5), 0.0, 1.0))
    return BoardLocation(
        found=True,
        game=board.game,
        model=board.model,
        homography=final,
        confidence=confidence,
        error_mm=error_mm,
        landmarks=Landmarks(tuple(names), board_pts, image_pts),
    )
