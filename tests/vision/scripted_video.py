"""Small scripted clips for gate and source tests: a textured board, a sliding disc, an arm."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from simulation.video import H264Writer

SIZE = (320, 240)
FPS = 30.0
BOARD = (40, 20, 280, 220)  # x0, y0, x1, y1 of the playing surface in the frame


@dataclass(frozen=True)
class Script:
    """Frame ranges (inclusive start, exclusive end) of what happens in the clip."""

    frames: int = 120
    disc_moving: tuple[int, int] = (10, 25)
    arm_in: tuple[int, int] = (50, 80)


def board_mask() -> np.ndarray:
    mask = np.zeros(SIZE[::-1], bool)
    x0, y0, x1, y1 = BOARD
    mask[y0:y1, x0:x1] = True
    return mask


def render(index: int, script: Script, rng_seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(rng_seed)
    frame = np.full((SIZE[1], SIZE[0], 3), (60, 60, 60), np.uint8)
    x0, y0, x1, y1 = BOARD
    grain = rng.normal(0, 6, (y1 - y0, 1, 1)) + np.array([120, 170, 210])
    frame[y0:y1, x0:x1] = np.clip(np.broadcast_to(grain, (y1 - y0, x1 - x0, 3)), 0, 255).astype(np.uint8)
    start, stop = script.disc_moving
    progress = min(max(index - start, 0), stop - start) / (stop - start)
    cx = int(80 + 120 * progress)
    cv2.circle(frame, (cx, 120), 14, (30, 30, 30), -1, cv2.LINE_AA)
    tip_y = arm_tip_y(index, script)
    if tip_y is not None:
        jitter = int(3 * np.sin(index))
        cv2.rectangle(frame, (150 + jitter, tip_y), (190 + jitter, SIZE[1] - 1), (90, 130, 200), -1)
    noise = np.random.default_rng(index).normal(0, 1.5, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)


def arm_tip_y(index: int, script: Script) -> int | None:
    """Image row of the arm's fingertips, or None when no arm is in the picture."""
    a0, a1 = script.arm_in
    if not a0 <= index < a1:
        return None
    reach = min(index - a0, a1 - 1 - index, 10) / 10  # in, hold, out
    return int(SIZE[1] - 150 * reach) - 1


def arm_over_board(index: int, script: Script) -> bool:
    tip_y = arm_tip_y(index, script)
    return tip_y is not None and tip_y < BOARD[3]


def write(path: Path, script: Script = Script()) -> Path:
    with H264Writer(path, resolution=SIZE, fps=FPS, crf=18) as writer:
        for index in range(script.frames):
            writer.write(render(index, script))
    return path
