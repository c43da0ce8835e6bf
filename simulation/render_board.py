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

from calibration.geometry import BoardModel, CrokinoleBoard
from simulation.looks import Look
from simulation.render_board_crokinole import draw_crokinole
from simulation.render_board_square import draw_square_board
from simulation.render_paint import ONE, FlatFrame, Painter, bbox, paste
from simulation.render_texture import wood_texture

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
    p = Painter(image, px_per_mm, half_extent)
    light_dir = LIGHT_DIR
    if isinstance(board, CrokinoleBoard):
        frame = draw_crokinole(p, board, look, rng, light_dir)
    else:
        frame = draw_square_board(p, board, look, rng, light_dir)
    if camera_centre_mm is not None:
        _raise_frame(p, frame, camera_centre_mm=np.asarray(camera_centre_mm, float), height_mm=FRAME_HEIGHT_MM[board.game])
    return Canvas(image=image, px_per_mm=px_per_mm, half_extent_mm=half_extent)


def _raise_frame(p: Painter, frame: FlatFrame, *, camera_centre_mm: np.ndarray, height_mm: float) -> None:
    """Redraw the frame as seen by a camera at `camera_centre_mm`: its top scaled about the
    camera's nadir by ``Cz / (Cz - z)``, its inner walls in between (in place)."""
    cz = float(camera_centre_mm[2])
    if cz <= height_mm * 2:
        raise ValueError(f"camera height {cz:.0f} mm is too low for the frame")
    nx, ny = (np.array(p.pt(camera_centre_mm[0], camera_centre_mm[1]), float) / ONE)
    size = frame.mask.shape[1], frame.mask.shape[0]

    def scaled(z_mm: float) -> np.ndarray:
        k = cz / (cz - z_mm)
        return np.float32([[k, 0, nx * (1 - k)], [0, k, ny * (1 - k)]])

    box = bbox(frame.mask)
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
    paste(p.image, cv2.warpAffine(frame.image, top, size, flags=cv2.INTER_LINEAR), cv2.warpAffine(frame.mask, top, size, flags=cv2.INTER_LINEAR))
