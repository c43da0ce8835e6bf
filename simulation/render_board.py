"""The static board layer: the board model drawn top-down on its table at a high scale.

The canvas is a square of the table seen straight from above, ``2 * half_extent_mm``
on a side, at ``px_per_mm``; board millimetres map to canvas pixels by
``u = (x_mm + E) * s``, ``v = (E - y_mm) * s`` (pixel centres at integers, the first
player's seat "south" at the bottom).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.geometry import BoardModel, CarromBoard, CouronneBoard, CrokinoleBoard
from simulation.looks import Look
from simulation.render_texture import smooth_noise, wood_texture

_SHIFT = 4
_ONE = 1 << _SHIFT
FRAME_HEIGHT_MM = {"carrom": 22.0, "crokinole": 28.0, "couronne": 20.0}  # frame top above the playing surface
TABLE_MARGIN = 1.6  # canvas half extent over the board's outer half size
LIGHT_DIR = (-0.6, -0.8)  # upright-canvas direction towards the light (top-left)


@dataclass(frozen=True)
class Canvas:
    """A top-down image of the table and board (BGR uint8, square)."""

    image: np.ndarray
    px_per_mm: float
    half_extent_mm: float
    rotation_rad: float = 0.0
    pad_px: int = 0

    def board_to_canvas(self) -> np.ndarray:
        """3x3 matrix mapping board mm to canvas px."""
        s, e = self.px_per_mm, self.half_extent_mm
        upright = np.array([[s, 0.0, e * s], [0.0, -s, e * s], [0.0, 0.0, 1.0]])
        return self._turn() @ upright

    def _turn(self) -> np.ndarray:
        """From the upright canvas to this one: a turn about the board centre, then the padding."""
        pivot = self.half_extent_mm * self.px_per_mm
        cos, sin = math.cos(self.rotation_rad), math.sin(self.rotation_rad)
        rot = np.array([[cos, -sin], [sin, cos]])
        shift = np.array([pivot + self.pad_px, pivot + self.pad_px]) - rot @ np.array([pivot, pivot])
        return np.array([[cos, -sin, shift[0]], [sin, cos, shift[1]], [0.0, 0.0, 1.0]])

    def to_px(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        m = self.board_to_canvas()
        return (m[0, 0] * x_mm + m[0, 1] * y_mm + m[0, 2], m[1, 0] * x_mm + m[1, 1] * y_mm + m[1, 2])

    def light_dir(self) -> np.ndarray:
        """Canvas direction towards the light that lit the board (unit 2-vector)."""
        return self._turn()[:2, :2] @ np.array(LIGHT_DIR)

    def turned(self, rotation_rad: float, *, border_bgr: tuple[int, int, int] = (0, 0, 0)) -> Canvas:
        """This upright canvas turned by `rotation_rad` about the board centre, grown to keep its corners.

        Turning the canvas to the camera's rotation makes the per-frame warp read it
        along rows, which is several times faster than reading it diagonally. The
        corners turned in from outside are `border_bgr` (what lies beyond the table).
        """
        if self.rotation_rad or self.pad_px:
            raise ValueError("only an upright canvas can be turned")
        size = self.image.shape[0]
        grown = size * (abs(math.cos(rotation_rad)) + abs(math.sin(rotation_rad)))
        pad = int(math.ceil((grown - size) / 2)) + 1
        turned = Canvas(self.image, self.px_per_mm, self.half_extent_mm, rotation_rad, pad)
        image = cv2.warpAffine(self.image, turned._turn()[:2], (size + 2 * pad, size + 2 * pad), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=tuple(float(c) for c in border_bgr))
        return Canvas(image, self.px_per_mm, self.half_extent_mm, rotation_rad, pad)


def outer_half_size_mm(board: BoardModel) -> float:
    """Half the width of the board including its frame (the apothem for an octagon)."""
    if isinstance(board, CrokinoleBoard):
        return board.surface_radius_mm + board.ditch_width_mm + board.frame_width_mm
    return board.half_side_mm + board.frame_width_mm


class _Painter:
    """Draws board-mm shapes on a canvas image with sub-pixel, anti-aliased strokes."""

    def __init__(self, image: np.ndarray, px_per_mm: float, half_extent_mm: float):
        self.image = image
        self.s = px_per_mm
        self.e = half_extent_mm

    def pt(self, x_mm: float, y_mm: float) -> tuple[int, int]:
        return (int(round((x_mm + self.e) * self.s * _ONE)), int(round((self.e - y_mm) * self.s * _ONE)))

    def thickness(self, width_mm: float) -> int:
        return max(1, int(round(width_mm * self.s)))

    def circle(self, x_mm, y_mm, r_mm, bgr, width_mm: float | None = None):
        t = -1 if width_mm is None else self.thickness(width_mm)
        cv2.circle(self.image, self.pt(x_mm, y_mm), int(round(r_mm * self.s * _ONE)), bgr, t, cv2.LINE_AA, _SHIFT)

    def line(self, p_mm, q_mm, bgr, width_mm):
        cv2.line(self.image, self.pt(*p_mm), self.pt(*q_mm), bgr, self.thickness(width_mm), cv2.LINE_AA, _SHIFT)

    def polygon(self, points_mm, bgr):
        pts = np.array([self.pt(x, y) for x, y in points_mm], np.int32)
        cv2.fillPoly(self.image, [pts], bgr, cv2.LINE_AA, _SHIFT)

    def arc(self, x_mm, y_mm, r_mm, start_deg, end_deg, bgr, width_mm):
        # cv2.ellipse measures angles clockwise in image coordinates, i.e. -angle in board terms.
        r = int(round(r_mm * self.s * _ONE))
        cv2.ellipse(self.image, self.pt(x_mm, y_mm), (r, r), 0, -end_deg, -start_deg, bgr, self.thickness(width_mm), cv2.LINE_AA, _SHIFT)

    def text(self, label, x_mm, y_mm, height_mm, bgr):
        font = cv2.FONT_HERSHEY_SIMPLEX
        scale = height_mm * self.s / 22.0
        thick = max(1, int(round(scale * 1.6)))
        (w, h), _ = cv2.getTextSize(label, font, scale, thick)
        u, v = (x_mm + self.e) * self.s - w / 2, (self.e - y_mm) * self.s + h / 2
        cv2.putText(self.image, label, (int(round(u)), int(round(v))), font, scale, bgr, thick, cv2.LINE_AA)

    def mask(self) -> np.ndarray:
        return np.zeros(self.image.shape[:2], np.uint8)


def _bbox(mask_u8: np.ndarray, pad: int = 0) -> tuple[slice, slice] | None:
    x, y, w, h = cv2.boundingRect(mask_u8)
    if w == 0 or h == 0:
        return None
    hh, ww = mask_u8.shape[:2]
    return slice(max(0, y - pad), min(hh, y + h + pad)), slice(max(0, x - pad), min(ww, x + w + pad))


def _paste(dst: np.ndarray, src: np.ndarray, mask_u8: np.ndarray) -> None:
    """dst = src where mask (soft, 0-255), in place, touching only the mask's bounding box."""
    box = _bbox(mask_u8)
    if box is None:
        return
    a = mask_u8[box].astype(np.float32)[:, :, None] * (1.0 / 255.0)
    d = dst[box].astype(np.float32)
    dst[box] = (d + (src[box].astype(np.float32) - d) * a).astype(np.uint8)


def _shade_inside(image: np.ndarray, region_mask: np.ndarray, *, depth_px: float, strength: float,
                  light_dir: tuple[float, float]) -> None:
    """Darken `image` inside `region_mask` near its edge, more on the side away from the light (in place)."""
    box = _bbox(region_mask, pad=2)
    if box is None:
        return
    inside = (region_mask[box] > 127).astype(np.uint8)
    dist = cv2.distanceTransform(inside, cv2.DIST_L2, 3)
    shift = (int(round(light_dir[1] * depth_px * 0.6)), int(round(light_dir[0] * depth_px * 0.6)))
    dist_shifted = cv2.distanceTransform(np.roll(inside, shift, (0, 1)) * inside, cv2.DIST_L2, 3)
    d = np.minimum(dist, dist_shifted * 0.7 + dist * 0.3)
    factor = 1.0 - strength * np.exp(-d / max(depth_px, 1e-3)) * inside
    image[box] = np.clip(image[box] * factor[:, :, None], 0, 255).astype(np.uint8)


def _solid(image: np.ndarray, bgr) -> np.ndarray:
    """A read-only image of one colour, the shape of `image`, without allocating it."""
    return np.broadcast_to(np.array(bgr, np.uint8), image.shape)


def _darken(image: np.ndarray, amount_u8: np.ndarray, strength: float) -> None:
    """image *= 1 - strength * amount (amount 0-255), in place, within amount's bounding box."""
    box = _bbox(amount_u8)
    if box is None:
        return
    f = 1.0 - strength * amount_u8[box].astype(np.float32) / 255.0
    image[box] = (image[box] * f[:, :, None]).astype(np.uint8)


def render_board(board: BoardModel, *, look: Look, px_per_mm: float, rng: np.random.Generator,
                 camera_centre_mm: np.ndarray | None = None) -> Canvas:
    """Draw `board` in `look` on its table, top-down, at `px_per_mm`.

    Everything is drawn where it projects onto the playing surface's plane. With
    `camera_centre_mm` (x, y, height above the surface) the frame, which stands
    ``FRAME_HEIGHT_MM`` above the surface, is drawn where that camera sees it:
    larger, and with its inner walls showing.

    Parameters
    ----------
    board : a board model from ``calibration.geometry.load_board``.
    look : the board's look (colours and grain).
    px_per_mm : canvas scale; about 1.7 times the scale it will be filmed at.
    rng : seeded generator for the textures.
    camera_centre_mm : where the camera is, for the raised frame; None draws it flat.

    Returns
    -------
    Canvas with the static layer (no pieces).
    """
    if px_per_mm <= 0:
        raise ValueError(f"px_per_mm must be positive, got {px_per_mm}")
    half_extent = outer_half_size_mm(board) * TABLE_MARGIN
    size = int(math.ceil(2 * half_extent * px_per_mm))
    table = wood_texture((size, size), bgr=look.bgr("table"), grain=look.grain("table"), px_per_mm=px_per_mm, rng=rng)
    image = table.copy()
    p = _Painter(image, px_per_mm, half_extent)
    light_dir = LIGHT_DIR
    if isinstance(board, CrokinoleBoard):
        frame = _draw_crokinole(p, board, look, rng, light_dir)
    else:
        frame = _draw_square_board(p, board, look, rng, light_dir)
    if camera_centre_mm is not None:
        _raise_frame(p, frame, camera_centre_mm=np.asarray(camera_centre_mm, float), height_mm=FRAME_HEIGHT_MM[board.game])
    return Canvas(image=image, px_per_mm=px_per_mm, half_extent_mm=half_extent)


@dataclass(frozen=True)
class _Frame:
    """The frame as drawn flat: its pixels, where it is (uint8 mask) and the colour of its walls."""

    image: np.ndarray
    mask: np.ndarray
    wall_bgr: tuple[int, int, int]


def _raise_frame(p: _Painter, frame: _Frame, *, camera_centre_mm: np.ndarray, height_mm: float) -> None:
    """Redraw the frame as seen by a camera at `camera_centre_mm`: its top scaled about the
    camera's nadir by ``Cz / (Cz - z)``, its inner walls in between (in place)."""
    cz = float(camera_centre_mm[2])
    if cz <= height_mm * 2:
        raise ValueError(f"camera height {cz:.0f} mm is too low for the frame")
    nx, ny = (np.array(p.pt(camera_centre_mm[0], camera_centre_mm[1]), float) / _ONE)
    size = frame.mask.shape[1], frame.mask.shape[0]

    def scaled(z_mm: float) -> np.ndarray:
        k = cz / (cz - z_mm)
        return np.float32([[k, 0, nx * (1 - k)], [0, k, ny * (1 - k)]])

    box = _bbox(frame.mask)
    if box is None:
        return
    reach_px = max(abs(box[1].start - nx), abs(box[1].stop - nx), abs(box[0].start - ny), abs(box[0].stop - ny))
    shift_px = reach_px * height_mm / (cz - height_mm)
    steps = int(np.clip(math.ceil(shift_px / 2), 1, 6))
    wall = np.array(frame.wall_bgr, np.float32)
    for j in range(steps):
        z = height_mm * (j + 0.5) / steps
        slice_mask = cv2.warpAffine(frame.mask, scaled(z), size, flags=cv2.INTER_NEAREST) > 127
        p.image[slice_mask] = np.clip(wall * (0.5 + 0.35 * (j + 1) / steps), 0, 255).astype(np.uint8)
    top = scaled(height_mm)
    _paste(p.image, cv2.warpAffine(frame.image, top, size, flags=cv2.INTER_LINEAR), cv2.warpAffine(frame.mask, top, size, flags=cv2.INTER_LINEAR))


def _board_drop_shadow(p: _Painter, outline_mm: list[tuple[float, float]], light_dir) -> None:
    m = p.mask()
    pts = np.array([p.pt(x, y) for x, y in outline_mm], np.int32)
    cv2.fillPoly(m, [pts], 255, cv2.LINE_AA, _SHIFT)
    off = (int(round(-light_dir[0] * 14 * p.s)), int(round(-light_dir[1] * 14 * p.s)))
    m = np.roll(m, (off[1], off[0]), (0, 1))
    box = _bbox(m, pad=int(30 * p.s))
    m[box] = cv2.GaussianBlur(m[box], (0, 0), 10 * p.s)
    _darken(p.image, m, 0.45)


def _frame_texture(p: _Painter, look: Look, key: str, rng, angles_deg) -> dict[float, np.ndarray]:
    """The frame's wood with its grain along each of `angles_deg` (mitred strips)."""
    size = p.image.shape[0]
    base = wood_texture((size, size), bgr=look.bgr(key), grain=look.grain(key), px_per_mm=p.s, rng=rng)
    out = {}
    for a in angles_deg:
        if a % 180 == 0:
            out[a] = base
        elif a % 180 == 90:
            out[a] = np.ascontiguousarray(np.rot90(base))
        else:
            rot = cv2.getRotationMatrix2D((size / 2, size / 2), a, 1.0)
            out[a] = cv2.warpAffine(base, rot, (size, size), borderMode=cv2.BORDER_REFLECT)
    return out


def _draw_square_board(p: _Painter, board: CarromBoard | CouronneBoard, look: Look, rng, light_dir) -> _Frame:
    h = board.half_side_mm
    o = h + board.frame_width_mm
    _board_drop_shadow(p, [(-o, -o), (o, -o), (o, o), (-o, o)], light_dir)
    # Frame: four mitred strips, grain along each side.
    tex = _frame_texture(p, look, "frame", rng, (0, 90))
    strips = {
        0: [[(-o, -o), (o, -o), (h, -h), (-h, -h)], [(-o, o), (o, o), (h, h), (-h, h)]],
        90: [[(-o, -o), (-o, o), (-h, h), (-h, -h)], [(o, -o), (o, o), (h, h), (h, -h)]],
    }
    for angle, quads in strips.items():
        m = p.mask()
        for q in quads:
            cv2.fillPoly(m, [np.array([p.pt(x, y) for x, y in q], np.int32)], 255, cv2.LINE_AA, _SHIFT)
        _paste(p.image, tex[angle], m)
    # Mitre joints and the outer edge catch the light differently.
    for sx, sy in ((1, 1), (-1, 1), (-1, -1), (1, -1)):
        p.line((sx * h, sy * h), (sx * o, sy * o), tuple(int(c * 0.7) for c in look.bgr("frame")), 0.8)
    outer_rim = p.mask()
    cv2.rectangle(outer_rim, p.pt(-o, o), p.pt(o, -o), 255, p.thickness(3) * 1, cv2.LINE_AA, _SHIFT)
    _paste(p.image, _solid(p.image, [min(255, int(c * 1.35) + 20) for c in look.bgr("frame")]), (outer_rim * 0.5).astype(np.uint8))
    # Cushion: a darker rubber strip along the inner edge of the frame.
    c = 7.0
    cushion = p.mask()
    cv2.rectangle(cushion, p.pt(-h - c, h + c), p.pt(h + c, -h - c), 255, -1, cv2.LINE_AA, _SHIFT)
    _paste(p.image, _solid(p.image, look.bgr("cushion_rgb")), cushion)
    frame_mask = p.mask()
    cv2.rectangle(frame_mask, p.pt(-o, o), p.pt(o, -o), 255, -1, cv2.LINE_AA, _SHIFT)
    cv2.rectangle(frame_mask, p.pt(-h, h), p.pt(h, -h), 0, -1, cv2.LINE_AA, _SHIFT)
    frame = _Frame(p.image.copy(), frame_mask, look.bgr("cushion_rgb"))
    # Playing surface.
    surface_mask = p.mask()
    cv2.rectangle(surface_mask, p.pt(-h, h), p.pt(h, -h), 255, -1, cv2.LINE_AA, _SHIFT)
    surf = look.data["surface"]
    surface = wood_texture(p.image.shape[:2], bgr=look.bgr("surface"), grain=look.grain("surface"), px_per_mm=p.s, rng=rng,
                           vertical=bool(rng.integers(2)), planks_mm=float(surf.get("planks_mm", 0)))
    beyond_surface = p.image.copy()
    _paste(p.image, surface, surface_mask)
    if isinstance(board, CarromBoard):
        _draw_carrom_markings(p, board, look)
        _draw_carrom_lettering(p, board, look, rng)
        _dust_with_powder(p, surface_mask, rng)
    else:
        _draw_couronne_markings(p, board, look)
    # Markings are printed on the surface only (corner fields run into the cushions).
    _paste(p.image, beyond_surface, 255 - surface_mask)
    # The frame stands above the surface: a soft shadow along the cushions.
    _shade_inside(p.image, surface_mask, depth_px=6 * p.s, strength=0.35, light_dir=light_dir)
    for x, y in board.pocket_centres_mm():
        _draw_pocket(p, x, y, board.pocket_diameter_mm / 2, look, rng)
    return frame


def _draw_pocket(p: _Painter, x, y, r, look: Look, rng) -> None:
    net = look.bgr("net_rgb")
    ys, xs = p.pt(x, y)[1] / _ONE, p.pt(x, y)[0] / _ONE
    rp = r * p.s
    x0, x1 = int(xs - rp - 3), int(xs + rp + 4)
    y0, y1 = int(ys - rp - 3), int(ys + rp + 4)
    roi = p.image[y0:y1, x0:x1]
    gy, gx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    d = np.hypot(gx - xs, gy - ys) / rp
    # Net mesh seen in the dark, brighter towards the bottom of the hole.
    mesh = (np.sin(gx / (2.2 * p.s) * np.pi) * np.sin(gy / (2.2 * p.s) * np.pi)) ** 2
    depth = np.clip(1.0 - d, 0, 1)
    fill = np.array(net, np.float32)[None, None, :] * (0.25 + 0.9 * mesh[:, :, None] * depth[:, :, None]) + 6
    inside = np.clip((1.0 - d) * rp + 0.5, 0, 1)[:, :, None]
    roi[:] = (roi * (1 - inside) + fill * inside).astype(np.uint8)
    p.circle(x, y, r, (20, 20, 20), width_mm=0.8)


def _draw_carrom_markings(p: _Painter, board: CarromBoard, look: Look) -> None:
    line = look.bgr("lines_rgb")
    accent = look.bgr("accent_rgb")
    arrow = look.bgr("arrow_rgb")
    h = board.half_side_mm
    gap = board.base_line_gap_mm
    r_c = board.base_circle_diameter_mm / 2
    half_len = board.base_line_length_mm / 2 - r_c
    for k in range(4):
        ang = k * math.pi / 2
        ca, sa = math.cos(ang), math.sin(ang)

        def rot(x, y):
            return (x * ca - y * sa, x * sa + y * ca)

        y_out = -(h - board.base_line_inset_mm)
        y_in = y_out + gap
        p.line(rot(-half_len, y_out), rot(half_len, y_out), line, 3.5)
        p.line(rot(-half_len, y_in), rot(half_len, y_in), line, 1.0)
        for sx in (-1, 1):
            cx, cy = rot(sx * half_len, y_out + gap / 2)
            p.circle(cx, cy, r_c, line, width_mm=1.0)
            p.circle(cx, cy, r_c * 0.72, accent)
    # Arrows from each pocket towards the centre, with their arcs.
    for sx, sy in ((1, 1), (-1, 1), (-1, -1), (1, -1)):
        d = (-sx / math.sqrt(2), -sy / math.sqrt(2))
        start = (sx * h + d[0] * board.arrow_start_from_corner_mm, sy * h + d[1] * board.arrow_start_from_corner_mm)
        end = (start[0] + d[0] * board.arrow_length_mm, start[1] + d[1] * board.arrow_length_mm)
        p.line(start, end, arrow, 0.9)
        head = 12.0
        for side in (-1, 1):
            a = math.atan2(-d[1], -d[0]) + side * 0.35
            p.line(start, (start[0] - head * math.cos(a), start[1] - head * math.sin(a)), arrow, 0.9)
        r_arc = board.arrow_length_mm * 0.12
        centre = (end[0] - d[0] * r_arc * 0.1, end[1] - d[1] * r_arc * 0.1)
        base = math.degrees(math.atan2(d[1], d[0]))
        p.arc(centre[0], centre[1], r_arc, base + 45, base + 315, arrow, 0.9)
    # Centre circles and the star between them.
    r_in = board.centre_circle_diameter_mm / 2
    r_out = board.outer_circle_diameter_mm / 2
    p.circle(0, 0, r_out, line, width_mm=1.0)
    p.circle(0, 0, r_out - 4, line, width_mm=0.6)
    for k in range(8):
        a = k * math.pi / 4
        tip = ((r_out - 4) * math.cos(a), (r_out - 4) * math.sin(a))
        w = r_in * 0.55
        left = (w * math.cos(a + math.pi / 2), w * math.sin(a + math.pi / 2))
        right = (-left[0], -left[1])
        p.polygon([tip, left, (0, 0)], accent if k % 2 == 0 else line)
        p.polygon([tip, right, (0, 0)], tuple(int(c * 0.75) for c in (accent if k % 2 == 0 else line)))
    p.circle(0, 0, r_in, accent)
    p.circle(0, 0, r_in, line, width_mm=0.8)


_BRANDS = ("Surco", "Carrom", "Precise", "Champion", "Syndicate", "Jaspo")


def _draw_carrom_lettering(p: _Painter, board: CarromBoard, look: Look, rng) -> None:
    """A maker's name between a base line and the cushion, as printed on real boards."""
    if rng.random() < 0.25:
        return
    h = board.half_side_mm
    y = h - board.base_line_inset_mm / 2
    side = int(rng.integers(4))
    x_mm, y_mm = [(0, y), (0, -y), (y, 0), (-y, 0)][side]
    p.text(str(rng.choice(_BRANDS)), x_mm, y_mm, float(rng.uniform(10, 16)), look.bgr("accent_rgb"))


def _dust_with_powder(p: _Painter, surface_mask: np.ndarray, rng) -> None:
    """Carrom powder: faint whitish smudges where the coins slide most, and a few specks."""
    box = _bbox(surface_mask)
    if box is None:
        return
    h, w = surface_mask[box].shape
    smudge = smooth_noise((h, w), cell_px=90 * p.s, rng=rng)
    amount = np.clip(smudge - 0.2, 0, None) * rng.uniform(0.05, 0.18)
    specks = (rng.random((h, w)) < 0.0015).astype(np.float32) * 0.5
    a = (amount + specks) * (surface_mask[box] > 0)
    region = p.image[box].astype(np.float32)
    p.image[box] = (region + (250.0 - region) * a[:, :, None]).astype(np.uint8)


def _draw_couronne_markings(p: _Painter, board: CouronneBoard, look: Look) -> None:
    line = look.bgr("lines_rgb")
    field = look.bgr("field_rgb")
    h = board.half_side_mm
    for x, y in board.pocket_centres_mm():
        p.circle(x, y, board.corner_field_diameter_mm / 2, field, width_mm=2.5)
    p.circle(0, 0, board.centre_circle_diameter_mm / 2, line, width_mm=2.0)
    p.circle(0, 0, 6.0, field)
    half_len = board.start_line_length_mm / 2
    for k in range(4):
        ang = k * math.pi / 2
        ca, sa = math.cos(ang), math.sin(ang)
        y = -(h - board.start_line_inset_mm)
        a = (-half_len * ca - y * sa, -half_len * sa + y * ca)
        b = (half_len * ca - y * sa, half_len * sa + y * ca)
        p.line(a, b, line, 2.0)
        for end in (a, b):
            p.circle(end[0], end[1], 7.0, line, width_mm=1.5)


def _octagon(apothem_mm: float) -> list[tuple[float, float]]:
    r = apothem_mm / math.cos(math.pi / 8)
    return [(r * math.cos(math.pi / 8 + k * math.pi / 4), r * math.sin(math.pi / 8 + k * math.pi / 4)) for k in range(8)]


def _draw_crokinole(p: _Painter, board: CrokinoleBoard, look: Look, rng, light_dir) -> _Frame:
    rs = board.surface_radius_mm
    r_ditch = rs + board.ditch_width_mm
    r_out = r_ditch + board.frame_width_mm
    octagon = board.frame_shape == "octagon"
    outline = _octagon(r_out) if octagon else [(r_out * math.cos(a), r_out * math.sin(a)) for a in np.linspace(0, 2 * math.pi, 180, endpoint=False)]
    _board_drop_shadow(p, outline, light_dir)
    # Outer rail and ditch floor: mitred panels for the octagon, one ring for the round board.
    frame_tex = _frame_texture(p, look, "frame", rng, (0, 45, 90, 135))
    ditch_tex = _frame_texture(p, look, "ditch", rng, (0, 45, 90, 135))
    inner = _octagon(r_ditch) if octagon else [(r_ditch * math.cos(a), r_ditch * math.sin(a)) for a in np.linspace(0, 2 * math.pi, 180, endpoint=False)]
    for tex, poly_out, poly_in in ((frame_tex, outline, inner), (ditch_tex, inner, None)):
        if octagon:
            for k in range(8):
                a0 = poly_out[k]
                a1 = poly_out[(k + 1) % 8]
                quad = [a0, a1, (0.0, 0.0)] if poly_in is None else [a0, a1, poly_in[(k + 1) % 8], poly_in[k]]
                m = p.mask()
                cv2.fillPoly(m, [np.array([p.pt(x, y) for x, y in quad], np.int32)], 255, cv2.LINE_AA, _SHIFT)
                side_angle = (math.degrees(math.pi / 8 + (k + 0.5) * math.pi / 4) + 90) % 180
                grain_angle = min((0, 45, 90, 135), key=lambda g: min(abs(g - side_angle), 180 - abs(g - side_angle)))
                _paste(p.image, tex[grain_angle], m)
        else:
            m = p.mask()
            cv2.fillPoly(m, [np.array([p.pt(x, y) for x, y in poly_out], np.int32)], 255, cv2.LINE_AA, _SHIFT)
            _paste(p.image, tex[0], m)
    if octagon:
        for k in range(8):
            p.line(inner[k], outline[k], tuple(int(c * 0.65) for c in look.bgr("frame")), 0.8)
            p.line(inner[k], (inner[k][0] * rs / r_ditch, inner[k][1] * rs / r_ditch), tuple(int(c * 0.7) for c in look.bgr("ditch")), 0.6)
    frame_mask = p.mask()
    cv2.fillPoly(frame_mask, [np.array([p.pt(x, y) for x, y in outline], np.int32)], 255, cv2.LINE_AA, _SHIFT)
    cv2.fillPoly(frame_mask, [np.array([p.pt(x, y) for x, y in inner], np.int32)], 0, cv2.LINE_AA, _SHIFT)
    rail = np.zeros_like(p.image)
    np.copyto(rail, p.image, where=(frame_mask > 0)[:, :, None])
    frame = _Frame(rail, frame_mask, tuple(int(c * 0.8) for c in look.bgr("frame")))
    ditch_mask = p.mask()
    cv2.fillPoly(ditch_mask, [np.array([p.pt(x, y) for x, y in inner], np.int32)], 255, cv2.LINE_AA, _SHIFT)
    # The rail casts a shadow into the ditch; the surface sits above the ditch floor.
    _shade_inside(p.image, ditch_mask, depth_px=12 * p.s, strength=0.45, light_dir=light_dir)
    surface_mask = p.mask()
    cv2.circle(surface_mask, p.pt(0, 0), int(round(rs * p.s * _ONE)), 255, -1, cv2.LINE_AA, _SHIFT)
    lifted = np.roll(surface_mask, (int(4 * p.s), int(3 * p.s)), (0, 1))
    box = _bbox(lifted, pad=int(20 * p.s))
    lifted[box] = cv2.GaussianBlur(lifted[box], (0, 0), 5 * p.s)
    lifted[surface_mask >= 128] = 0
    _darken(p.image, lifted, 0.5)
    surf = look.data["surface"]
    surface = wood_texture(p.image.shape[:2], bgr=look.bgr("surface"), grain=look.grain("surface"), px_per_mm=p.s, rng=rng,
                           vertical=bool(rng.integers(2)), planks_mm=float(surf.get("planks_mm", 0)))
    _paste(p.image, surface, surface_mask)
    p.circle(0, 0, rs, tuple(int(c * 0.8) for c in look.bgr("surface")), width_mm=1.2)
    line = look.bgr("lines_rgb")
    w = board.line_width_mm * 0.8
    for r in board.line_radii_mm().values():
        p.circle(0, 0, r, line, width_mm=w)
    r10 = board.ten_line_diameter_mm / 2
    r5 = board.shooting_line_diameter_mm / 2
    for k in range(4):
        a = math.pi / 4 + k * math.pi / 2
        p.line((r10 * math.cos(a), r10 * math.sin(a)), (r5 * math.cos(a), r5 * math.sin(a)), line, w)
    if look.data.get("numbers"):
        r15 = board.fifteen_line_diameter_mm / 2
        for value, radius in ((5, (r5 + r10) / 2), (10, (r10 + r15) / 2), (15, r15 * 0.8), (20, r15 * 0.4)):
            for k in range(4):
                a = k * math.pi / 2
                p.text(str(value), radius * math.cos(a), radius * math.sin(a), 8.0, line)
    # 20-hole: felt-lined, in shadow towards the lit side.
    rh = board.hole_diameter_mm / 2
    p.circle(0, 0, rh, look.bgr("hole_rgb"))
    hole_mask = p.mask()
    cv2.circle(hole_mask, p.pt(0, 0), int(round(rh * p.s * _ONE)), 255, -1, cv2.LINE_AA, _SHIFT)
    _shade_inside(p.image, hole_mask, depth_px=5 * p.s, strength=0.6, light_dir=(-light_dir[0], -light_dir[1]))
    p.circle(0, 0, rh, tuple(int(c * 0.6) for c in look.bgr("surface")), width_mm=0.8)
    # Pegs: small posts with a shadow and a highlight.
    rp = board.peg_diameter_mm / 2
    peg = look.bgr("peg_rgb")
    for x, y in board.peg_centres_mm():
        p.circle(x - light_dir[0] * 2.0, y + light_dir[1] * 2.0, rp * 1.2, tuple(int(c * 0.55) for c in look.bgr("surface")))
        p.circle(x, y, rp, tuple(int(c * 0.7) for c in peg))
        p.circle(x + light_dir[0] * rp * 0.3, y - light_dir[1] * rp * 0.3, rp * 0.55, tuple(min(255, int(c * 1.15) + 20) for c in peg))
    return frame
