"""Drawing helpers for the top-down canvas: board-mm shapes with sub-pixel anti-aliased
strokes, masked pastes and shading, the frame's wood and its drop shadow."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from simulation.looks import Look
from simulation.render_texture import wood_texture

SHIFT = 4
ONE = 1 << SHIFT


class Painter:
    """Draws board-mm shapes on a canvas image with sub-pixel, anti-aliased strokes."""

    def __init__(self, image: np.ndarray, px_per_mm: float, half_extent_mm: float):
        self.image = image
        self.s = px_per_mm
        self.e = half_extent_mm

    def pt(self, x_mm: float, y_mm: float) -> tuple[int, int]:
        return (int(round((x_mm + self.e) * self.s * ONE)), int(round((self.e - y_mm) * self.s * ONE)))

    def thickness(self, width_mm: float) -> int:
        return max(1, int(round(width_mm * self.s)))

    def circle(self, x_mm, y_mm, r_mm, bgr, width_mm: float | None = None):
        t = -1 if width_mm is None else self.thickness(width_mm)
        cv2.circle(self.image, self.pt(x_mm, y_mm), int(round(r_mm * self.s * ONE)), bgr, t, cv2.LINE_AA, SHIFT)

    def line(self, p_mm, q_mm, bgr, width_mm):
        cv2.line(self.image, self.pt(*p_mm), self.pt(*q_mm), bgr, self.thickness(width_mm), cv2.LINE_AA, SHIFT)

    def polygon(self, points_mm, bgr):
        pts = np.array([self.pt(x, y) for x, y in points_mm], np.int32)
        cv2.fillPoly(self.image, [pts], bgr, cv2.LINE_AA, SHIFT)

    def arc(self, x_mm, y_mm, r_mm, start_deg, end_deg, bgr, width_mm):
        # cv2.ellipse measures angles clockwise in image coordinates, i.e. -angle in board terms.
        r = int(round(r_mm * self.s * ONE))
        cv2.ellipse(self.image, self.pt(x_mm, y_mm), (r, r), 0, -end_deg, -start_deg, bgr, self.thickness(width_mm), cv2.LINE_AA, SHIFT)

    def text(self, label, x_mm, y_mm, height_mm, bgr):
        font = cv2.FONT_HERSHEY_SIMPLEX
        scale = height_mm * self.s / 22.0
        thick = max(1, int(round(scale * 1.6)))
        (w, h), _ = cv2.getTextSize(label, font, scale, thick)
        u, v = (x_mm + self.e) * self.s - w / 2, (self.e - y_mm) * self.s + h / 2
        cv2.putText(self.image, label, (int(round(u)), int(round(v))), font, scale, bgr, thick, cv2.LINE_AA)

    def mask(self) -> np.ndarray:
        return np.zeros(self.image.shape[:2], np.uint8)


def bbox(mask_u8: np.ndarray, pad: int = 0) -> tuple[slice, slice] | None:
    x, y, w, h = cv2.boundingRect(mask_u8)
    if w == 0 or h == 0:
        return None
    hh, ww = mask_u8.shape[:2]
    return slice(max(0, y - pad), min(hh, y + h + pad)), slice(max(0, x - pad), min(ww, x + w + pad))


def paste(dst: np.ndarray, src: np.ndarray, mask_u8: np.ndarray) -> None:
    """dst = src where mask (soft, 0-255), in place, touching only the mask's bounding box."""
    box = bbox(mask_u8)
    if box is None:
        return
    a = mask_u8[box].astype(np.float32)[:, :, None] * (1.0 / 255.0)
    d = dst[box].astype(np.float32)
    dst[box] = (d + (src[box].astype(np.float32) - d) * a).astype(np.uint8)


def shade_inside(image: np.ndarray, region_mask: np.ndarray, *, depth_px: float, strength: float,
                  light_dir: tuple[float, float]) -> None:
    """Darken `image` inside `region_mask` near its edge, more on the side away from the light (in place)."""
    box = bbox(region_mask, pad=2)
    if box is None:
        return
    inside = (region_mask[box] > 127).astype(np.uint8)
    dist = cv2.distanceTransform(inside, cv2.DIST_L2, 3)
    shift = (int(round(light_dir[1] * depth_px * 0.6)), int(round(light_dir[0] * depth_px * 0.6)))
    dist_shifted = cv2.distanceTransform(np.roll(inside, shift, (0, 1)) * inside, cv2.DIST_L2, 3)
    d = np.minimum(dist, dist_shifted * 0.7 + dist * 0.3)
    factor = 1.0 - strength * np.exp(-d / max(depth_px, 1e-3)) * inside
    image[box] = np.clip(image[box] * factor[:, :, None], 0, 255).astype(np.uint8)


def solid(image: np.ndarray, bgr) -> np.ndarray:
    """A read-only image of one colour, the shape of `image`, without allocating it."""
    return np.broadcast_to(np.array(bgr, np.uint8), image.shape)


def darken(image: np.ndarray, amount_u8: np.ndarray, strength: float) -> None:
    """image *= 1 - strength * amount (amount 0-255), in place, within amount's bounding box."""
    box = bbox(amount_u8)
    if box is None:
        return
    f = 1.0 - strength * amount_u8[box].astype(np.float32) / 255.0
    image[box] = (image[box] * f[:, :, None]).astype(np.uint8)


@dataclass(frozen=True)
class FlatFrame:
    """The frame as drawn flat: its pixels, where it is (uint8 mask) and the colour of its walls."""

    image: np.ndarray
    mask: np.ndarray
    wall_bgr: tuple[int, int, int]


def board_drop_shadow(p: Painter, outline_mm: list[tuple[float, float]], light_dir) -> None:
    m = p.mask()
    pts = np.array([p.pt(x, y) for x, y in outline_mm], np.int32)
    cv2.fillPoly(m, [pts], 255, cv2.LINE_AA, SHIFT)
    off = (int(round(-light_dir[0] * 14 * p.s)), int(round(-light_dir[1] * 14 * p.s)))
    m = np.roll(m, (off[1], off[0]), (0, 1))
    box = bbox(m, pad=int(30 * p.s))
    m[box] = cv2.GaussianBlur(m[box], (0, 0), 10 * p.s)
    darken(p.image, m, 0.45)


def frame_texture(p: Painter, look: Look, key: str, rng, angles_deg) -> dict[float, np.ndarray]:
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
