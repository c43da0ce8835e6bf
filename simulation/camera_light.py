"""What light and the sensor do to the picture: vignetting, uneven light, shadow bands,
colour temperature, defocus, sensor noise and JPEG compression.

Everything is drawn from a seeded generator and scaled by the difficulty settings.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

_GAIN_ONE = 128.0  # gain maps are uint8 with 128 meaning x1


@dataclass(frozen=True)
class Lighting:
    """A per-pixel, per-channel gain (uint8, 128 = x1), a glare added on top (uint8 or None:
    a lamp or window reflected by the varnish) and the defocus blur in px."""

    gain: np.ndarray
    blur_sigma_px: float
    glare: np.ndarray | None = None

    def apply(self, image: np.ndarray) -> np.ndarray:
        """The image as lit (a new array)."""
        out = cv2.multiply(image, self.gain, scale=1.0 / _GAIN_ONE)
        if self.glare is not None:
            out = cv2.add(out, self.glare)
        if self.blur_sigma_px > 0.25:
            out = cv2.GaussianBlur(out, (0, 0), self.blur_sigma_px)
        return out


def sample_lighting(
    resolution: tuple[int, int],
    *,
    settings: dict,
    rng: np.random.Generator,
    board_centre_px: tuple[float, float] | None = None,
) -> Lighting:
    """Draw a lighting field for one camera view.

    Parameters
    ----------
    resolution : (width, height) of the image.
    settings : difficulty settings (``looks/difficulty.json``).
    rng : seeded generator.
    board_centre_px : where the board is in the image; the lamp's bright spot falls near it.
    """
    w, h = resolution
    sw, sh = max(8, w // 8), max(8, h // 8)
    ys, xs = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xs = (xs + 0.5) / sw * 2 - 1
    ys = (ys + 0.5) / sh * 2 - 1
    aspect = w / h
    r2 = (xs * aspect) ** 2 + ys**2
    r2 /= r2.max()
    gain = 1.0 - settings["vignetting"] * rng.uniform(0.6, 1.0) * r2
    # Uneven light: a tilt across the frame and a lamp's broad bright spot.
    u = settings["uneven_light"]
    a = rng.uniform(0, 2 * math.pi)
    gain *= 1.0 + u * rng.uniform(0.3, 1.0) * (xs * math.cos(a) + ys * math.sin(a))
    if board_centre_px is not None:
        cx = board_centre_px[0] / w * 2 - 1 + rng.uniform(-0.4, 0.4)
        cy = board_centre_px[1] / h * 2 - 1 + rng.uniform(-0.4, 0.4)
    else:
        cx, cy = rng.uniform(-0.5, 0.5, size=2)
    spot = np.exp(-(((xs - cx) * aspect) ** 2 + (ys - cy) ** 2) / (2 * rng.uniform(0.3, 0.7) ** 2))
    gain *= 1.0 + u * rng.uniform(0.2, 0.8) * (spot - 0.5)
    # Shadow bands from fittings above the table (as in the webcam photos): soft stripes.
    for _ in range(int(rng.integers(0, settings["shadow_bands"] + 1))):
        theta = rng.uniform(-0.35, 0.35) + (math.pi / 2 if rng.random() < 0.3 else 0.0)
        offset = rng.uniform(-0.9, 0.9)
        width = rng.uniform(0.05, 0.22)
        softness = rng.uniform(0.02, 0.08)
        d = np.abs(-xs * math.sin(theta) + ys * math.cos(theta) - offset)
        band = 1.0 / (1.0 + np.exp((d - width / 2) / softness))
        gain *= 1.0 - settings["band_depth"] * rng.uniform(0.5, 1.0) * band
    gain = np.clip(gain, 0.05, 1.95).astype(np.float32)
    exposure = 1.0 + rng.uniform(-1, 1) * settings["colour_temp"] * 0.8
    warm = rng.uniform(-1, 1) * settings["colour_temp"]
    tint = rng.uniform(-1, 1) * settings["colour_temp"] * 0.3
    channel = np.array([1.0 - warm, 1.0 + tint, 1.0 + warm], np.float32) * exposure  # B, G, R
    full = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
    gain_u8 = np.clip(full[:, :, None] * channel[None, None, :] * _GAIN_ONE + 0.5, 0, 255).astype(np.uint8)
    blur = settings.get("blur_sigma_px", 0.0) * rng.uniform(0.5, 1.0)
    glare = None
    if settings.get("glare", 0) > 0 and rng.random() < 0.7:
        # A soft elongated reflection near the board, slightly tinted by the light.
        gx, gy = (cx, cy) if board_centre_px is not None else rng.uniform(-0.4, 0.4, size=2)
        gx, gy = gx + rng.uniform(-0.5, 0.5), gy + rng.uniform(-0.5, 0.5)
        ang = rng.uniform(0, math.pi)
        along = (xs - gx) * aspect * math.cos(ang) + (ys - gy) * math.sin(ang)
        across = -(xs - gx) * aspect * math.sin(ang) + (ys - gy) * math.cos(ang)
        blob = np.exp(-(along**2) / (2 * rng.uniform(0.15, 0.4) ** 2) - across**2 / (2 * rng.uniform(0.05, 0.15) ** 2))
        amount = settings["glare"] * rng.uniform(0.4, 1.0)
        g = cv2.resize(blob.astype(np.float32) * amount, (w, h), interpolation=cv2.INTER_LINEAR)
        glare = np.clip(g[:, :, None] * np.array([1.0, 1.0, 0.97], np.float32)[None, None, :], 0, 255).astype(np.uint8)
    return Lighting(gain=gain_u8, blur_sigma_px=float(blur), glare=glare)


def light_changed(lighting: Lighting, *, rng: np.random.Generator, strength: float) -> Lighting:
    """The same view after a light change (a lamp switched, a cloud): a new global level and tint."""
    level = 1.0 + rng.uniform(-1, 1) * strength
    warm = rng.uniform(-1, 1) * strength * 0.5
    channel = np.array([level * (1 - warm), level, level * (1 + warm)], np.float32)
    gain = np.clip(lighting.gain.astype(np.float32) * channel[None, None, :], 0, 255).astype(np.uint8)
    return Lighting(gain=gain, blur_sigma_px=lighting.blur_sigma_px, glare=lighting.glare)


def blend_lighting(a: Lighting, b: Lighting, *, weight: float) -> Lighting:
    """Lighting part way (`weight` 0 to 1) from `a` to `b`: a lamp warming up, the camera's exposure catching up."""
    gain = cv2.addWeighted(a.gain, 1.0 - weight, b.gain, weight, 0.0)
    glare = b.glare if a.glare is None or b.glare is None else cv2.addWeighted(a.glare, 1.0 - weight, b.glare, weight, 0.0)
    return Lighting(gain=gain, blur_sigma_px=b.blur_sigma_px, glare=glare)


class SensorNoise:
    """Gaussian sensor noise drawn once into a small bank and reused at random offsets (fast per frame)."""

    _PAD = 32

    def __init__(self, resolution: tuple[int, int], *, sigma: float, rng: np.random.Generator, bank_size: int = 2):
        self.sigma = sigma
        self._rng = rng
        self._bank: list[tuple[np.ndarray, np.ndarray]] = []
        if sigma <= 0:
            return
        w, h = resolution
        for _ in range(bank_size):
            n = rng.standard_normal(size=(h + self._PAD, w + self._PAD, 3), dtype=np.float32) * np.float32(sigma)
            # Luma noise shared by the channels, plus some chroma noise, both a little
            # blotchy as demosaicing and denoising leave them (rescaled to keep sigma).
            n = 0.6 * n[:, :, :1] + 0.55 * n
            n = cv2.GaussianBlur(n, (0, 0), 0.7) * np.float32(2.45)
            self._bank.append((np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)))

    def apply(self, image: np.ndarray) -> np.ndarray:
        """The image with fresh-looking noise (a new array)."""
        if not self._bank:
            return image.copy()
        h, w = image.shape[:2]
        pos, neg = self._bank[int(self._rng.integers(len(self._bank)))]
        dy, dx = (int(v) for v in self._rng.integers(0, self._PAD, size=2))
        out = cv2.add(image, np.ascontiguousarray(pos[dy : dy + h, dx : dx + w]))
        return cv2.subtract(out, np.ascontiguousarray(neg[dy : dy + h, dx : dx + w]))


def jpeg_roundtrip(image: np.ndarray, *, quality: int) -> np.ndarray:
    """The image after JPEG compression at `quality` (unchanged at 100)."""
    if quality >= 100:
        return image.copy()
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)
