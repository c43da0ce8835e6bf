"""Square boards drawn top-down: carrom (base lines, arrows, star, lettering, powder) and
couronne (corner fields, centre circle, start lines), with frame, cushions and netted pockets."""

from __future__ import annotations

import math

import cv2
import numpy as np

from calibration.geometry import CarromBoard, CouronneBoard
from simulation.looks import Look
from simulation.render_paint import (
    ONE, SHIFT, FlatFrame, Painter, bbox, board_drop_shadow, frame_texture, paste, shade_inside, solid,
)
from simulation.render_texture import smooth_noise, wood_texture


def draw_square_board(p: Painter, board: CarromBoard | CouronneBoard, look: Look, rng, light_dir) -> FlatFrame:
    h = board.half_side_mm
    o = h + board.frame_width_mm
    board_drop_shadow(p, [(-o, -o), (o, -o), (o, o), (-o, o)], light_dir)
    # Frame: four mitred strips, grain along each side.
    tex = frame_texture(p, look, "frame", rng, (0, 90))
    strips = {
        0: [[(-o, -o), (o, -o), (h, -h), (-h, -h)], [(-o, o), (o, o), (h, h), (-h, h)]],
        90: [[(-o, -o), (-o, o), (-h, h), (-h, -h)], [(o, -o), (o, o), (h, h), (h, -h)]],
    }
    for angle, quads in strips.items():
        m = p.mask()
        for q in quads:
            cv2.fillPoly(m, [np.array([p.pt(x, y) for x, y in q], np.int32)], 255, cv2.LINE_AA, SHIFT)
        paste(p.image, tex[angle], m)
    # Mitre joints and the outer edge catch the light differently.
    for sx, sy in ((1, 1), (-1, 1), (-1, -1), (1, -1)):
        p.line((sx * h, sy * h), (sx * o, sy * o), tuple(int(c * 0.7) for c in look.bgr("frame")), 0.8)
    outer_rim = p.mask()
    cv2.rectangle(outer_rim, p.pt(-o, o), p.pt(o, -o), 255, p.thickness(3) * 1, cv2.LINE_AA, SHIFT)
    paste(p.image, solid(p.image, [min(255, int(c * 1.35) + 20) for c in look.bgr("frame")]), (outer_rim * 0.5).astype(np.uint8))
    # Cushion: a darker rubber strip along the inner edge of the frame.
    c = 7.0
    cushion = p.mask()
    cv2.rectangle(cushion, p.pt(-h - c, h + c), p.pt(h + c, -h - c), 255, -1, cv2.LINE_AA, SHIFT)
    paste(p.image, solid(p.image, look.bgr("cushion_rgb")), cushion)
    frame_mask = p.mask()
    cv2.rectangle(frame_mask, p.pt(-o, o), p.pt(o, -o), 255, -1, cv2.LINE_AA, SHIFT)
    cv2.rectangle(frame_mask, p.pt(-h, h), p.pt(h, -h), 0, -1, cv2.LINE_AA, SHIFT)
    frame = FlatFrame(p.image.copy(), frame_mask, look.bgr("cushion_rgb"))
    # Playing surface.
    surface_mask = p.mask()
    cv2.rectangle(surface_mask, p.pt(-h, h), p.pt(h, -h), 255, -1, cv2.LINE_AA, SHIFT)
    surf = look.data["surface"]
    surface = wood_texture(p.image.shape[:2], bgr=look.bgr("surface"), grain=look.grain("surface"), px_per_mm=p.s, rng=rng,
                           vertical=bool(rng.integers(2)), planks_mm=float(surf.get("planks_mm", 0)))
    beyond_surface = p.image.copy()
    paste(p.image, surface, surface_mask)
    if isinstance(board, CarromBoard):
        _draw_carrom_markings(p, board, look)
        _draw_carrom_lettering(p, board, look, rng)
        _dust_with_powder(p, surface_mask, rng)
    else:
        _draw_couronne_markings(p, board, look)
    # Markings are printed on the surface only (corner fields run into the cushions).
    paste(p.image, beyond_surface, 255 - surface_mask)
    # The frame stands above the surface: a soft shadow along the cushions.
    shade_inside(p.image, surface_mask, depth_px=6 * p.s, strength=0.35, light_dir=light_dir)
    for x, y in board.pocket_centres_mm():
        _draw_pocket(p, x, y, board.pocket_diameter_mm / 2, look, rng)
    return frame


def _draw_pocket(p: Painter, x, y, r, look: Look, rng) -> None:
    net = look.bgr("net_rgb")
    ys, xs = p.pt(x, y)[1] / ONE, p.pt(x, y)[0] / ONE
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


def _draw_carrom_markings(p: Painter, board: CarromBoard, look: Look) -> None:
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


def _draw_carrom_lettering(p: Painter, board: CarromBoard, look: Look, rng) -> None:
    """A maker's name between a base line and the cushion, as printed on real boards."""
    if rng.random() < 0.25:
        return
    h = board.half_side_mm
    y = h - board.base_line_inset_mm / 2
    side = int(rng.integers(4))
    x_mm, y_mm = [(0, y), (0, -y), (y, 0), (-y, 0)][side]
    p.text(str(rng.choice(_BRANDS)), x_mm, y_mm, float(rng.uniform(10, 16)), look.bgr("accent_rgb"))


def _dust_with_powder(p: Painter, surface_mask: np.ndarray, rng) -> None:
    """Carrom powder: faint whitish smudges where the coins slide most, and a few specks."""
    box = bbox(surface_mask)
    if box is None:
        return
    h, w = surface_mask[box].shape
    smudge = smooth_noise((h, w), cell_px=90 * p.s, rng=rng)
    amount = np.clip(smudge - 0.2, 0, None) * rng.uniform(0.05, 0.18)
    specks = (rng.random((h, w)) < 0.0015).astype(np.float32) * 0.5
    a = (amount + specks) * (surface_mask[box] > 0)
    region = p.image[box].astype(np.float32)
    p.image[box] = (region + (250.0 - region) * a[:, :, None]).astype(np.uint8)


def _draw_couronne_markings(p: Painter, board: CouronneBoard, look: Look) -> None:
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
