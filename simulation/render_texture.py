"""Procedural textures for the renderer: wood grain, planks and smooth noise fields."""

from __future__ import annotations

import cv2
import numpy as np


def smooth_noise(shape: tuple[int, int], *, cell_px: float, rng: np.random.Generator) -> np.ndarray:
    """Band-limited noise in [-1, 1] of `shape`, varying over about `cell_px` pixels (float32)."""
    h, w = shape
    gh = max(2, int(np.ceil(h / cell_px)) + 2)
    gw = max(2, int(np.ceil(w / cell_px)) + 2)
    coarse = rng.uniform(-1.0, 1.0, size=(gh, gw)).astype(np.float32)
    big = cv2.resize(coarse, (int(gw * cell_px), int(gh * cell_px)), interpolation=cv2.INTER_CUBIC)
    return np.clip(big[:h, :w], -1.0, 1.0)


def wood_texture(
    shape: tuple[int, int],
    *,
    bgr: tuple[int, int, int],
    grain: float,
    px_per_mm: float,
    rng: np.random.Generator,
    vertical: bool = False,
    planks_mm: float = 0.0,
) -> np.ndarray:
    """A wood (or painted, when `grain` is small) surface of `shape`, BGR uint8.

    Growth rings are sine bands along the grain warped by low-frequency noise,
    with fine fibres stretched along the grain; `planks_mm` > 0 splits the
    surface into planks of about that width with their own tone and figure.
    """
    h, w = shape
    # Work at half resolution: the figure is far coarser than a pixel.
    sh, sw = max(8, h // 2), max(8, w // 2)
    if vertical:
        sh, sw = sw, sh
    s = px_per_mm / 2
    yy = np.arange(sh, dtype=np.float32)[:, None] / s
    warp = smooth_noise((sh, sw), cell_px=160 * s, rng=rng) * 30.0 + smooth_noise((sh, sw), cell_px=40 * s, rng=rng) * 5.0
    ring_mm = rng.uniform(3.5, 7.0)
    phase = (yy + warp) / ring_mm
    rings = np.abs(np.sin(np.pi * phase)) ** 4  # narrow dark late-wood lines
    flame = np.sin(np.pi * phase / 3.0)  # broad light and dark figure
    fibre_coarse = rng.normal(0, 1, size=(max(2, int(sh / (0.6 * s)) + 1), max(2, int(sw / (25 * s)) + 1))).astype(np.float32)
    fibres = cv2.resize(fibre_coarse, (sw, sh), interpolation=cv2.INTER_LINEAR)
    blotch = smooth_noise((sh, sw), cell_px=200 * s, rng=rng)
    tone = 1.0 + grain * (-0.8 * rings + 0.5 * flame + 0.25 * fibres + 0.6 * blotch)
    if planks_mm > 0:
        # Planks run along the grain, each with its own tone.
        y_mm = np.arange(sh, dtype=np.float32) / s
        edges = np.cumsum(rng.uniform(0.6, 1.4, size=int(sh / s / planks_mm) + 3) * planks_mm)
        plank = np.searchsorted(edges, y_mm)
        plank_tone = rng.uniform(-1.0, 1.0, size=plank.max() + 1).astype(np.float32)
        tone = tone * (1.0 + 0.9 * grain * plank_tone[plank])[:, None]
    tone = tone.astype(np.float32)
    if vertical:
        tone = tone.T
    tone = cv2.resize(tone, (w, h), interpolation=cv2.INTER_LINEAR)
    base = np.array(bgr, np.float32)[None, None, :]
    return np.clip(base * tone[:, :, None], 0, 255).astype(np.uint8)
