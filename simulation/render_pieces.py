"""Pieces drawn on the top-down canvas: shaded sprites with contact shadows, motion blur,
discs leaning into the 20-hole, discs down the hole or in the ditch, coins over a pocket.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.geometry import BoardModel, CarromBoard, CouronneBoard, CrokinoleBoard
from simulation.looks import Look
from simulation.render_board import Canvas
from simulation.scene import PieceState

_SUPERSAMPLE = 3
_VARIANTS = 3
Rect = tuple[int, int, int, int]  # x0, y0, x1, y1 in canvas px
_THICKNESS_MM = {"carrom": 8.0, "couronne": 8.0}  # crokinole's is in its board model
FLYING_SCALE = 1.1  # a piece jumped off a cushion looks this much larger, risen towards the camera


@dataclass(frozen=True)
class Sprite:
    """A piece seen from above: premultiplied colour (n, n, 3), alpha (n, n) and a soft shadow (m, m), float32."""

    colour: np.ndarray
    alpha: np.ndarray
    shadow: np.ndarray


def _style(kind: str, board: BoardModel) -> str:
    if isinstance(board, CrokinoleBoard):
        return "disc"
    if isinstance(board, CouronneBoard):
        return "ring"
    return "striker" if kind == "striker" else "coin"


def make_sprite(kind: str, *, radius_mm: float, inner_radius_mm: float, look: Look, board: BoardModel,
                px_per_mm: float, light_dir: np.ndarray, rng: np.random.Generator) -> Sprite:
    """Render one piece of `kind` as a shaded sprite at the canvas scale, lit from canvas direction `light_dir`."""
    light = np.asarray(light_dir, float)
    style = _style(kind, board)
    n = int(math.ceil(2 * (radius_mm + 1.0) * px_per_mm)) | 1
    big = n * _SUPERSAMPLE
    c = (big - 1) / 2
    yy, xx = np.mgrid[0:big, 0:big].astype(np.float32)
    x_mm = (xx - c) / (px_per_mm * _SUPERSAMPLE)
    y_mm = (yy - c) / (px_per_mm * _SUPERSAMPLE)
    dist = np.hypot(x_mm, y_mm)
    d = dist / radius_mm
    with np.errstate(invalid="ignore", divide="ignore"):
        ux = np.where(dist > 0, x_mm / dist, 0)
        uy = np.where(dist > 0, y_mm / dist, 0)
    facing = ux * light[0] + uy * light[1]  # >0 where the surface slopes towards the light
    alpha = np.clip((radius_mm - dist) * px_per_mm * _SUPERSAMPLE, 0, 1)
    base = np.array(look.piece_bgr(kind), np.float32)
    tone = rng.uniform(0.94, 1.06)
    shade = np.ones_like(d)
    gloss = 0.0
    if style in ("coin", "striker"):
        bevel = np.clip((d - 0.86) / 0.14, 0, 1)
        shade += 0.35 * facing * np.sin(np.pi * bevel) - 0.25 * bevel**3
        for ring_d, depth in ((0.42, 0.25), (0.74, 0.3)) if style == "coin" else ((0.8, 0.2),):
            shade -= depth * np.exp(-(((d - ring_d) * radius_mm) ** 2) / 0.18)
        shade += 0.06 * (x_mm * light[0] + y_mm * light[1]) / radius_mm
        gloss = 0.35 if style == "striker" else 0.18
    elif style == "disc":
        bevel = np.clip((d - 0.84) / 0.16, 0, 1)
        shade += 0.45 * facing * np.sin(np.pi * bevel) - 0.2 * bevel**2
        a = rng.uniform(0, np.pi)
        along = x_mm * math.cos(a) + y_mm * math.sin(a)
        across = -x_mm * math.sin(a) + y_mm * math.cos(a)
        wobble = 2.0 * np.sin(along / rng.uniform(8, 15) + rng.uniform(0, 6))
        grain = np.abs(np.sin(np.pi * (across + wobble) / rng.uniform(1.6, 3.0))) ** 3
        strength = 0.16 if sum(base) > 300 else 0.35
        shade -= strength * grain * (1 - bevel)
        shade -= 0.12 * np.exp(-(((d - 0.72) * radius_mm) ** 2) / 0.3)  # lathe ring
        gloss = 0.08
    else:
        inner = inner_radius_mm
        alpha *= np.clip((dist - inner) * px_per_mm * _SUPERSAMPLE, 0, 1)
        t = np.clip((dist - inner) / max(radius_mm - inner, 1e-3), 0, 1)
        shade += 0.5 * (-np.cos(np.pi * t)) * facing - 0.15 * (np.abs(np.cos(np.pi * t))) ** 3
        gloss = 0.25
    colour = base[None, None, :] * tone * shade[:, :, None]
    if gloss:
        hx, hy = light * radius_mm * 0.4
        spot = np.exp(-((x_mm - hx) ** 2 + (y_mm - hy) ** 2) / (2 * (0.3 * radius_mm) ** 2))
        colour += 255 * gloss * spot[:, :, None]
    colour = np.clip(colour, 0, 255) * alpha[:, :, None]
    colour_s = cv2.resize(colour, (n, n), interpolation=cv2.INTER_AREA)
    alpha_s = cv2.resize(alpha, (n, n), interpolation=cv2.INTER_AREA)
    pad = int(math.ceil(3 * px_per_mm))
    shadow = cv2.copyMakeBorder(alpha_s, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    if style == "ring":
        shadow = cv2.circle(np.zeros_like(shadow), (shadow.shape[1] // 2, shadow.shape[0] // 2), int(radius_mm * px_per_mm), 1.0, -1)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 1.2 * px_per_mm)
    return Sprite(colour=colour_s.astype(np.float32), alpha=alpha_s.astype(np.float32), shadow=shadow.astype(np.float32))


class PieceLayer:
    """Draws the pieces of a frame onto a working copy of the board canvas.

    Sprites are made once per kind (a few variants each) and reused; `draw` writes
    into the working image in place and returns the rectangles it touched, so a
    video can restore just those from the static canvas.
    """

    def __init__(self, board: BoardModel, *, look: Look, canvas: Canvas, rng: np.random.Generator, exposure_s: float,
                 camera_centre_mm: np.ndarray | None = None):
        self.board = board
        # Seen from a camera off to the side, a piece's top face shifts away from it and its edge shows.
        self.camera_centre_mm = camera_centre_mm
        self.thickness_mm = board.disc_thickness_mm if isinstance(board, CrokinoleBoard) else _THICKNESS_MM[board.game]
        self.look = look
        self.canvas = canvas
        self.exposure_s = exposure_s
        self._rng = rng
        self._sprites: dict[tuple[str, float, int], Sprite] = {}
        if isinstance(board, (CarromBoard, CouronneBoard)):
            self._pockets = [(x, y, board.pocket_diameter_mm / 2) for x, y in board.pocket_centres_mm()]
        else:
            self._pockets = []

    def _inner_radius(self, kind: str, radius_mm: float) -> float:
        if isinstance(self.board, CouronneBoard):
            b = self.board
            if kind == "shooter":
                return radius_mm * b.shooter_ring_inner_diameter_mm / b.shooter_ring_outer_diameter_mm
            return radius_mm * b.ring_inner_diameter_mm / b.ring_outer_diameter_mm
        return 0.0

    def sprite(self, kind: str, radius_mm: float, piece_id: int) -> Sprite:
        key = (kind, round(radius_mm, 2), piece_id % _VARIANTS)
        if key not in self._sprites:
            seed = int(self._rng.integers(2**31))
            self._sprites[key] = make_sprite(kind, radius_mm=radius_mm, inner_radius_mm=self._inner_radius(kind, radius_mm),
                                             look=self.look, board=self.board, px_per_mm=self.canvas.px_per_mm, light_dir=self.canvas.light_dir(),
                                             rng=np.random.default_rng(seed))
        return self._sprites[key]

    def draw(self, image: np.ndarray, pieces: tuple[PieceState, ...]) -> list[Rect]:
        """Draw `pieces` into `image` (the working canvas, modified in place); return the touched rectangles."""
        order = {"hole": 0, "ditch": 1, "board": 2, "moving": 3, "flying": 4}
        rects = []
        for piece in sorted((p for p in pieces if p.status in order), key=lambda p: order[p.status]):
            rect = self._draw_one(image, piece)
            if rect is not None:
                rects.append(rect)
        return rects

    def _draw_one(self, image: np.ndarray, piece: PieceState) -> Rect | None:
        s = self.canvas.px_per_mm
        spr = self.sprite(piece.kind, piece.radius_mm, piece.piece_id)
        u, v = self.canvas.to_px(piece.x_mm, piece.y_mm)
        linear = np.eye(2)
        dim = 1.0
        shadow_strength = 0.5
        if piece.status == "hole":
            linear = np.eye(2) * 0.95
            dim, shadow_strength = 0.4, 0.0
        elif piece.status == "ditch":
            dim = 0.85
        elif piece.status == "flying":
            # Jumped off a cushion: higher up, nearer the camera, its shadow fainter on the frame below.
            linear = np.eye(2) * FLYING_SCALE
            shadow_strength = 0.25
        if piece.lean_mm > 0:
            # Tilted into the hole: foreshortened along the line to the centre, darker on the low side.
            cu0, cv0 = self.canvas.to_px(0.0, 0.0)
            norm = max(math.hypot(u - cu0, v - cv0), 1e-6)
            radial = ((u - cu0) / norm, (v - cv0) / norm)
            tilt = math.radians(min(40.0, 12.0 + 60.0 * piece.lean_mm / max(piece.radius_mm, 1e-3)))
            rot = np.array([[radial[0], -radial[1]], [radial[1], radial[0]]])  # columns: radial, tangential
            linear = rot @ np.diag([math.cos(tilt), 1.0]) @ rot.T
            dim = 0.85
        # Motion blur: the sprite smeared along its path during the exposure.
        speed_px = math.hypot(piece.vx_mm_s, piece.vy_mm_s) * self.exposure_s * s
        steps = 1 if speed_px < 1.0 else min(16, int(math.ceil(speed_px / 1.5)) + 1)
        lin = self.canvas.board_to_canvas()[:2, :2]
        dx, dy = lin @ np.array([piece.vx_mm_s, piece.vy_mm_s]) * self.exposure_s
        half_path = (abs(dx) + abs(dy)) / 2 if steps > 1 else 0.0
        half_path += 3.0 * s  # room for the top face shifted by parallax
        n = spr.colour.shape[0]
        m = spr.shadow.shape[0]
        reach = m / 2 + half_path + 2 * s + 2
        x0, y0 = int(math.floor(u - reach)), int(math.floor(v - reach))
        x1, y1 = int(math.ceil(u + reach)) + 1, int(math.ceil(v + reach)) + 1
        hgt, wid = image.shape[:2]
        if x0 < 0 or y0 < 0 or x1 > wid or y1 > hgt:
            return None
        size = (x1 - x0, y1 - y0)
        acc_c = np.zeros((size[1], size[0], 3), np.float32)
        acc_a = np.zeros((size[1], size[0]), np.float32)
        acc_s = np.zeros((size[1], size[0]), np.float32)
        shadow_off = -self.canvas.light_dir() * 1.8 * s
        centre_n = np.array([(n - 1) / 2, (n - 1) / 2])
        top_px = np.zeros(2)
        if self.camera_centre_mm is not None and piece.status != "hole" and piece.lean_mm <= 0:
            c = self.camera_centre_mm
            h = self.thickness_mm
            top_mm = (np.array([piece.x_mm, piece.y_mm]) - c[:2]) * h / max(c[2] - h, 1.0)
            top_px = lin @ top_mm
        side_steps = int(min(4 if steps > 1 else 8, math.ceil(np.hypot(*top_px))))
        side_bgr = np.array(self.look.piece_bgr(piece.kind), np.float32) * 0.55
        for k in range(steps):
            f = 0.0 if steps == 1 else k / (steps - 1) - 0.5
            cu, cv_ = u - x0 + f * dx, v - y0 + f * dy
            t = np.array([cu, cv_]) + top_px - linear @ centre_n
            mat = np.hstack([linear, t[:, None]]).astype(np.float32)
            top_c = cv2.warpAffine(spr.colour, mat, size, flags=cv2.INTER_LINEAR)
            top_a = cv2.warpAffine(spr.alpha, mat, size, flags=cv2.INTER_LINEAR)
            if side_steps:
                side_a = np.zeros_like(top_a)
                for j in range(side_steps):
                    tj = np.array([cu, cv_]) + top_px * (j / side_steps) - linear @ centre_n
                    side_a = np.maximum(side_a, cv2.warpAffine(spr.alpha, np.hstack([linear, tj[:, None]]).astype(np.float32), size, flags=cv2.INTER_LINEAR))
                side_a *= 1.0 - top_a
                top_c = top_c + side_a[:, :, None] * side_bgr[None, None, :]
                top_a = top_a + side_a
            acc_c += top_c
            acc_a += top_a
            if shadow_strength:
                ts = np.array([cu + shadow_off[0], cv_ + shadow_off[1]]) - linear @ np.array([(m - 1) / 2, (m - 1) / 2])
                acc_s += cv2.warpAffine(spr.shadow, np.hstack([linear, ts[:, None]]).astype(np.float32), size, flags=cv2.INTER_LINEAR)
        acc_c /= steps
        acc_a /= steps
        acc_s /= steps
        roi = image[y0:y1, x0:x1].astype(np.float32)
        roi *= (1.0 - shadow_strength * acc_s)[:, :, None]
        if piece.lean_mm > 0:
            gy, gx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
            cu0, cv0 = self.canvas.to_px(0, 0)
            towards = 1.0 - np.clip(np.hypot(gx - cu0, gy - cv0) / max(math.hypot(u - cu0, v - cv0), 1e-3), 0, 2)
            acc_c *= np.clip(1.0 - 0.3 * (towards + 0.5), 0.65, 1.0)[:, :, None]
        out = roi * (1.0 - acc_a[:, :, None]) + acc_c * dim
        if self._pockets and piece.status in ("board", "moving"):
            out = self._cut_by_pockets(out, piece, (x0, y0, x1, y1), acc_a)
        image[y0:y1, x0:x1] = np.clip(out, 0, 255).astype(np.uint8)
        return (x0, y0, x1, y1)

    def _cut_by_pockets(self, out: np.ndarray, piece: PieceState, rect: Rect, alpha: np.ndarray) -> np.ndarray:
        """Where a coin hangs over a pocket, its overhang tips into the dark."""
        for px, py, pr in self._pockets:
            if math.hypot(piece.x_mm - px, piece.y_mm - py) >= pr + piece.radius_mm:
                continue
            x0, y0, x1, y1 = rect
            gy, gx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
            cu, cv_ = self.canvas.to_px(px, py)
            s = self.canvas.px_per_mm
            inside = np.clip((pr * s - np.hypot(gx - cu, gy - cv_)) / (2.0 * s) + 0.5, 0, 1)
            static = self.canvas.image[y0:y1, x0:x1].astype(np.float32)
            w = (0.75 * inside * alpha)[:, :, None]
            out = out * (1 - w) + static * w
        return out
