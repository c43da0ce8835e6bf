"""Procedural textures for the renderer: wood grain, planks and smooth noise fields."""

from __future__ import annotations

import math

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
    # Work at half resolution: the figure is far coarser than a pixel. Grain runs along x.
    sh, sw = max(8, h // 2), max(8, w // 2)
    if vertical:
        sh, sw = sw, sh
    s = px_per_mm / 2
    y_mm = np.arange(sh, dtype=np.float32)[:, None] / s
    x_mm = np.arange(sw, dtype=np.float32)[None, :] / s
    warp = smooth_noise((sh, sw), cell_px=90 * s, rng=rng) * 6.0 + smooth_noise((sh, sw), cell_px=25 * s, rng=rng) * 1.2
    fibre_coarse = rng.normal(0, 1, size=(max(2, int(sh / (0.6 * s)) + 1), max(2, int(sw / (25 * s)) + 1))).astype(np.float32)
    fibres = cv2.resize(fibre_coarse, (sw, sh), interpolation=cv2.INTER_LINEAR)
    blotch = smooth_noise((sh, sw), cell_px=200 * s, rng=rng)
    # Planks along the grain; each is flat-sawn from its own log: growth rings are
    # arcs around a far-off pith, stretched along the grain (cathedral figure).
    height_mm = sh / s
    plank_mm = planks_mm if planks_mm > 0 else height_mm + 1
    edges = [0.0]
    while edges[-1] < height_mm:
        edges.append(edges[-1] + plank_mm * (rng.uniform(0.6, 1.4) if planks_mm > 0 else 1.0))
    tone = np.empty((sh, sw), np.float32)
    for y0, y1 in zip(edges[:-1], edges[1:]):
        rows = slice(int(y0 * s), min(sh, int(math.ceil(y1 * s))))
        if rows.start >= rows.stop:
            continue
        pith_x = rng.uniform(-0.3, 1.3) * sw / s
        pith_y = (y0 + y1) / 2 + rng.choice([-1, 1]) * rng.uniform(40, 400)
        stretch = rng.uniform(4.0, 12.0)
        ring_mm = rng.uniform(2.5, 8.0)
        r = np.sqrt((y_mm[rows] - pith_y) ** 2 + ((x_mm - pith_x) / stretch) ** 2) + warp[rows]
        phase = r / ring_mm
        frac = phase - np.floor(phase)
        # Early wood light, late wood a darker band with a sharp edge.
        late = np.clip((frac - 0.65) / 0.35, 0, 1) ** 1.5
        contrast = 0.7 + 0.6 * (smooth_noise((rows.stop - rows.start, sw), cell_px=60 * s, rng=rng) + 1) / 2
        plank_tone = 1.0 + (0.9 * grain * rng.uniform(-1, 1) if planks_mm > 0 else 0.0)
        tone[rows] = plank_tone * (1.0 + grain * (-1.1 * late * contrast * 1.4 + 0.2 * fibres[rows] + 0.6 * blotch[rows]))
        if planks_mm > 0:
            tone[rows.start] *= 0.93  # the glue line between planks
    tone = tone.astype(np.float32)
    if vertical:
        tone = tone.T
    tone = cv2.resize(tone, (w, h), interpolation=cv2.INTER_LINEAR)
    base = np.array(bgr, np.float32)[None, None, :]
    return np.clip(base * tone[:, :, None], 0, 255).astype(np.uint8)
