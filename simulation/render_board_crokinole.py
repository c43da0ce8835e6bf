"""Crokinole boards drawn top-down: octagonal or round rail, ditch, raised surface with the
three lines and quadrant lines, pegs, numbers and the 20-hole."""

from __future__ import annotations

import math

import cv2
import numpy as np

from calibration.geometry import CrokinoleBoard
from simulation.looks import Look
from simulation.render_paint import (
    ONE, SHIFT, FlatFrame, Painter, bbox, board_drop_shadow, darken, frame_texture, paste, shade_inside,
)
from simulation.render_texture import wood_texture


def _octagon(apothem_mm: float) -> list[tuple[float, float]]:
    r = apothem_mm / math.cos(math.pi / 8)
    return [(r * math.cos(math.pi / 8 + k * math.pi / 4), r * math.sin(math.pi / 8 + k * math.pi / 4)) for k in range(8)]


def draw_crokinole(p: Painter, board: CrokinoleBoard, look: Look, rng, light_dir) -> FlatFrame:
    rs = board.surface_radius_mm
    r_ditch = rs + board.ditch_width_mm
    r_out = r_ditch + board.frame_width_mm
    octagon = board.frame_shape == "octagon"
    outline = _octagon(r_out) if octagon else [(r_out * math.cos(a), r_out * math.sin(a)) for a in np.linspace(0, 2 * math.pi, 180, endpoint=False)]
    board_drop_shadow(p, outline, light_dir)
    # Outer rail and ditch floor: mitred panels for the octagon, one ring for the round board.
    frame_tex = frame_texture(p, look, "frame", rng, (0, 45, 90, 135))
    ditch_tex = frame_texture(p, look, "ditch", rng, (0, 45, 90, 135))
    inner = _octagon(r_ditch) if octagon else [(r_ditch * math.cos(a), r_ditch * math.sin(a)) for a in np.linspace(0, 2 * math.pi, 180, endpoint=False)]
    for tex, poly_out, poly_in in ((frame_tex, outline, inner), (ditch_tex, inner, None)):
        if octagon:
            for k in range(8):
                a0 = poly_out[k]
                a1 = poly_out[(k + 1) % 8]
                quad = [a0, a1, (0.0, 0.0)] if poly_in is None else [a0, a1, poly_in[(k + 1) % 8], poly_in[k]]
                m = p.mask()
                cv2.fillPoly(m, [np.array([p.pt(x, y) for x, y in quad], np.int32)], 255, cv2.LINE_AA, SHIFT)
                side_angle = (math.degrees(math.pi / 8 + (k + 0.5) * math.pi / 4) + 90) % 180
                grain_angle = min((0, 45, 90, 135), key=lambda g: min(abs(g - side_angle), 180 - abs(g - side_angle)))
                paste(p.image, tex[grain_angle], m)
        else:
            m = p.mask()
            cv2.fillPoly(m, [np.array([p.pt(x, y) for x, y in poly_out], np.int32)], 255, cv2.LINE_AA, SHIFT)
            paste(p.image, tex[0], m)
    if octagon:
        for k in range(8):
            p.line(inner[k], outline[k], tuple(int(c * 0.65) for c in look.bgr("frame")), 0.8)
            p.line(inner[k], (inner[k][0] * rs / r_ditch, inner[k][1] * rs / r_ditch), tuple(int(c * 0.7) for c in look.bgr("ditch")), 0.6)
    frame_mask = p.mask()
    cv2.fillPoly(frame_mask, [np.array([p.pt(x, y) for x, y in outline], np.int32)], 255, cv2.LINE_AA, SHIFT)
    cv2.fillPoly(frame_mask, [np.array([p.pt(x, y) for x, y in inner], np.int32)], 0, cv2.LINE_AA, SHIFT)
    rail = np.zeros_like(p.image)
    np.copyto(rail, p.image, where=(frame_mask > 0)[:, :, None])
    frame = FlatFrame(rail, frame_mask, tuple(int(c * 0.8) for c in look.bgr("frame")))
    ditch_mask = p.mask()
    cv2.fillPoly(ditch_mask, [np.array([p.pt(x, y) for x, y in inner], np.int32)], 255, cv2.LINE_AA, SHIFT)
    # The rail casts a shadow into the ditch; the surface sits above the ditch floor.
    shade_inside(p.image, ditch_mask, depth_px=12 * p.s, strength=0.45, light_dir=light_dir)
    surface_mask = p.mask()
    cv2.circle(surface_mask, p.pt(0, 0), int(round(rs * p.s * ONE)), 255, -1, cv2.LINE_AA, SHIFT)
    lifted = np.roll(surface_mask, (int(4 * p.s), int(3 * p.s)), (0, 1))
    box = bbox(lifted, pad=int(20 * p.s))
    lifted[box] = cv2.GaussianBlur(lifted[box], (0, 0), 5 * p.s)
    lifted[surface_mask >= 128] = 0
    darken(p.image, lifted, 0.5)
    surf = look.data["surface"]
    surface = wood_texture(p.image.shape[:2], bgr=look.bgr("surface"), grain=look.grain("surface"), px_per_mm=p.s, rng=rng,
                           vertical=bool(rng.integers(2)), planks_mm=float(surf.get("planks_mm", 0)))
    paste(p.image, surface, surface_mask)
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
    cv2.circle(hole_mask, p.pt(0, 0), int(round(rh * p.s * ONE)), 255, -1, cv2.LINE_AA, SHIFT)
    shade_inside(p.image, hole_mask, depth_px=5 * p.s, strength=0.6, light_dir=(-light_dir[0], -light_dir[1]))
    p.circle(0, 0, rh, tuple(int(c * 0.6) for c in look.bgr("surface")), width_mm=0.8)
    # Pegs: small posts with a shadow and a highlight.
    rp = board.peg_diameter_mm / 2
    peg = look.bgr("peg_rgb")
    for x, y in board.peg_centres_mm():
        p.circle(x - light_dir[0] * 2.0, y + light_dir[1] * 2.0, rp * 1.2, tuple(int(c * 0.55) for c in look.bgr("surface")))
        p.circle(x, y, rp, tuple(int(c * 0.7) for c in peg))
        p.circle(x + light_dir[0] * rp * 0.3, y - light_dir[1] * rp * 0.3, rp * 0.55, tuple(min(255, int(c * 1.15) + 20) for c in peg))
    return frame
