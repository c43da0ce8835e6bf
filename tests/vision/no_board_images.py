"""Frames without any board, made here: what a camera sees when the board is not there."""

from __future__ import annotations

from functools import partial

import cv2
import numpy as np


def chess_board(size_px: int = 800, *, angle_deg: float = 12.0, tilt: float = 0.0) -> np.ndarray:
    """A chess board on a table, turned by `angle_deg` and seen with a perspective `tilt` (0: from above,
    0.3: its far side a third narrower)."""
    rng = np.random.default_rng(1)
    image = np.full((size_px, size_px, 3), (60, 90, 120), np.uint8)
    square = size_px // 10
    for row in range(8):
        for col in range(8):
            colour = (230, 230, 220) if (row + col) % 2 == 0 else (40, 70, 30)
            cv2.rectangle(image, (square * (col + 1), square * (row + 1)), (square * (col + 2), square * (row + 2)), colour, -1)
    rotation = cv2.getRotationMatrix2D((size_px / 2, size_px / 2), angle_deg, 1.0)
    image = cv2.warpAffine(image, rotation, (size_px, size_px), borderValue=(60, 90, 120))
    if tilt:
        inset = tilt * size_px / 2
        corners = np.float32([[0, 0], [size_px, 0], [size_px, size_px], [0, size_px]])
        seen = np.float32([[inset, 0.1 * size_px], [size_px - inset, 0.1 * size_px], [size_px, size_px], [0, size_px]])
        image = cv2.warpPerspective(image, cv2.getPerspectiveTransform(corners, seen), (size_px, size_px), borderValue=(60, 90, 120))
    noise = rng.normal(0, 4, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def blank_wall(size_px: int = 800) -> np.ndarray:
    """A smooth painted wall with a lighting gradient and sensor noise."""
    rng = np.random.default_rng(2)
    y, x = np.mgrid[0:size_px, 0:size_px].astype(np.float32) / size_px
    base = 150 + 60 * x - 30 * y
    image = np.stack([base * 0.95, base, base * 1.05], axis=-1) + rng.normal(0, 3, (size_px, size_px, 3))
    return np.clip(image, 0, 255).astype(np.uint8)


def random_texture(size_px: int = 800) -> np.ndarray:
    """Blurred random noise at several scales, like a patterned carpet."""
    rng = np.random.default_rng(3)
    image = np.zeros((size_px, size_px, 3), np.float32)
    for sigma in (1, 4, 16):
        layer = rng.normal(0, 60, (size_px, size_px, 3)).astype(np.float32)
        image += cv2.GaussianBlur(layer, (0, 0), sigma) * sigma**0.5
    return np.clip(128 + image, 0, 255).astype(np.uint8)


def black_frame(size_px: int = 800) -> np.ndarray:
    """A dark frame (lens cap, lights off) with a little noise."""
    rng = np.random.default_rng(4)
    return np.clip(rng.normal(3, 2, (size_px, size_px, 3)), 0, 255).astype(np.uint8)


def wooden_table(size_px: int = 800) -> np.ndarray:
    """A bare wooden table top: long grain lines, no printed markings."""
    rng = np.random.default_rng(5)
    y = np.arange(size_px, dtype=np.float32)[:, None]
    x = np.arange(size_px, dtype=np.float32)[None, :]
    warp = 12 * np.sin(x / 97.0) + 6 * np.sin(x / 23.0 + 1.3)
    grain = np.sin((y + warp) / 3.1) * 0.5 + np.sin((y + warp) / 11.7) * 0.5
    base = 140 + 25 * grain + rng.normal(0, 3, (size_px, size_px))
    image = np.stack([base * 0.55, base * 0.8, base], axis=-1)
    return np.clip(image, 0, 255).astype(np.uint8)


def wall_with_door(size_px: int = 800) -> np.ndarray:
    """A painted wall with a panelled door in its frame: long straight edges and thin dark gaps."""
    rng = np.random.default_rng(6)
    image = np.full((size_px, size_px, 3), (185, 195, 200), np.float32)
    left, right, top = int(0.3 * size_px), int(0.7 * size_px), int(0.08 * size_px)
    cv2.rectangle(image, (left - 18, top - 18), (right + 18, size_px), (240, 240, 235), -1)  # frame
    cv2.rectangle(image, (left, top), (right, size_px), (120, 150, 170), -1)  # door
    cv2.rectangle(image, (left, top), (right, size_px), (40, 50, 60), 2)  # gap around the door
    for y0, y1 in ((0.15, 0.45), (0.55, 0.9)):
        cv2.rectangle(image, (left + 25, int(y0 * size_px)), (right - 25, int(y1 * size_px)), (95, 120, 140), 3)
    cv2.circle(image, (right - 30, int(0.5 * size_px)), 7, (30, 30, 30), -1)  # handle
    image += rng.normal(0, 3, image.shape)
    return np.clip(image, 0, 255).astype(np.uint8)


NO_BOARD_IMAGES = {
    "chess_board": chess_board,
    "chess_board_square_on": partial(chess_board, angle_deg=0.0),
    "chess_board_diagonal": partial(chess_board, angle_deg=45.0),
    "chess_board_tilted": partial(chess_board, angle_deg=25.0, tilt=0.35),
    "wall_with_door": wall_with_door,
    "blank_wall": blank_wall,
    "random_texture": random_texture,
    "black_frame": black_frame,
    "wooden_table": wooden_table,
}
