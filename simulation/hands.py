"""Players' hands and arms over the board during shots, drawn in the camera image.

An arm reaches in from the shooter's seat towards the shot position between
``t_start_s`` and ``t_strike_s``, flicks, and withdraws by ``t_end_s``. It is drawn
in 3D above the board (wrist about 6 cm up), projected through the camera, so it
shows parallax and casts a soft shadow on the board.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.geometry import BoardModel
from simulation.camera import Camera
from simulation.render_board import outer_half_size_mm
from simulation.scene import Shot

_INWARD = {"south": (0.0, 1.0), "north": (0.0, -1.0), "east": (-1.0, 0.0), "west": (1.0, 0.0)}
_SKIN_BGR = ((150, 180, 225), (120, 160, 210), (95, 135, 185), (70, 100, 150), (50, 72, 110), (170, 195, 235))
_SLEEVE_BGR = ((40, 40, 40), (140, 80, 30), (40, 40, 150), (200, 200, 200), (60, 110, 60), (120, 120, 130), (30, 60, 110))
_LIGHT_DIR = np.array([-0.6, 0.8])  # board-plane direction towards the light (matches the canvas top-left)


@dataclass(frozen=True)
class _Person:
    skin_bgr: tuple[int, int, int]
    sleeve_bgr: tuple[int, int, int]
    lateral_mm: float
    arm_width_mm: float
    short_sleeve: bool


def _smoothstep(x: float) -> float:
    x = min(1.0, max(0.0, x))
    return x * x * (3 - 2 * x)


def reach(shot: Shot, t_s: float) -> float:
    """How far the hand is in, 0 (outside the picture) to 1 (at the piece), at time `t_s`."""
    if t_s < shot.t_start_s or t_s > shot.t_end_s:
        return 0.0
    if t_s <= shot.t_strike_s:
        approach = max(0.6 * (shot.t_strike_s - shot.t_start_s), 0.05)
        return _smoothstep((t_s - shot.t_start_s) / approach)
    withdraw = max(shot.t_end_s - shot.t_strike_s - 0.1, 0.05)
    return 1.0 - _smoothstep((t_s - shot.t_strike_s - 0.1) / withdraw)


class HandLayer:
    """Draws the arms of the shots active at a time into a camera image."""

    def __init__(self, board: BoardModel, *, shots: tuple[Shot, ...], rng: np.random.Generator):
        self.shots = shots
        self.edge_mm = outer_half_size_mm(board)
        people = {}
        for seat in _INWARD:
            people[seat] = _Person(
                skin_bgr=_SKIN_BGR[int(rng.integers(len(_SKIN_BGR)))],
                sleeve_bgr=_SLEEVE_BGR[int(rng.integers(len(_SLEEVE_BGR)))],
                lateral_mm=float(rng.uniform(-220, 220)),
                arm_width_mm=float(rng.uniform(62, 80)),
                short_sleeve=bool(rng.random() < 0.4),
            )
        self.people = people

    def active(self, t_s: float) -> list[tuple[Shot, float]]:
        return [(s, reach(s, t_s)) for s in self.shots if reach(s, t_s) > 0.0]

    def draw(self, image: np.ndarray, t_s: float, camera: Camera) -> None:
        """Draw every arm active at `t_s` into `image` (the camera picture, modified in place)."""
        for shot, amount in self.active(t_s):
            self._draw_arm(image, shot, amount, camera)

    def _draw_arm(self, image: np.ndarray, shot: Shot, amount: float, camera: Camera) -> None:
        person = self.people[shot.seat]
        n = np.array(_INWARD[shot.seat])
        lateral = np.array([-n[1], n[0]])
        tip_final = np.array([shot.x_mm, shot.y_mm]) - n * 14.0
        shoulder = lateral * (np.dot(tip_final, lateral) * 0.5 + person.lateral_mm) - n * (self.edge_mm + 380.0)
        start = tip_final - n * (np.dot(tip_final, n) + self.edge_mm + 250.0)
        tip = start + (tip_final - start) * amount
        direction = tip - shoulder
        direction /= max(np.linalg.norm(direction), 1e-6)
        side = np.array([-direction[1], direction[0]])
        wrist = tip - direction * 175.0
        elbow = wrist - direction * 260.0
        w = person.arm_width_mm
        palm_w = w * 1.25
        front = wrist + direction * 95.0
        # Shapes as (points in 3D mm, kind); z rises from the fingertip to the shoulder.
        shapes = [
            (_capsule(shoulder, elbow, w * 1.35, w * 1.2, 220.0, 150.0), "sleeve"),
            (_capsule(elbow, wrist, w * 1.15 if not person.short_sleeve else w, w * 0.85, 150.0, 70.0),
             "skin" if person.short_sleeve else "sleeve"),
            (_capsule(wrist - direction * 10, front, w * 0.95, palm_w, 70.0, 50.0), "skin"),
            # Index finger out to the piece; the others curled under as knuckles; the thumb at the side.
            (_capsule(front - side * palm_w * 0.28, tip, 19.0, 16.0, 42.0, 12.0), "skin"),
        ]
        for k, offset in enumerate((0.02, 0.22, 0.4)):
            base = front + side * palm_w * offset
            shapes.append((_capsule(base - direction * 8, base + direction * (22.0 - 4 * k), 20.0, 18.0, 45.0, 35.0), "skin"))
        shapes.append((_capsule(wrist + direction * 35 + side * palm_w * 0.42, wrist + direction * 95 + side * palm_w * 0.72, 24.0, 19.0, 55.0, 35.0), "skin"))
        if not person.short_sleeve:
            shapes.insert(2, (_capsule(wrist - direction * 60, wrist - direction * 25, w * 1.2, w * 1.15, 80.0, 72.0), "sleeve"))
        h, wid = image.shape[:2]
        projected = [(camera.project(_lift(pts, camera)), kind) for pts, kind in shapes]
        shadow_pts = [camera.project(pts[:, :2] - _LIGHT_DIR * pts[:, 2:3] * 0.45) for pts, _ in shapes]
        allpts = np.vstack([p for p, _ in projected] + shadow_pts)
        x0 = int(max(0, np.floor(allpts[:, 0].min()) - 40))
        y0 = int(max(0, np.floor(allpts[:, 1].min()) - 40))
        x1 = int(min(wid, np.ceil(allpts[:, 0].max()) + 40))
        y1 = int(min(h, np.ceil(allpts[:, 1].max()) + 40))
        if x1 <= x0 or y1 <= y0:
            return
        roi = image[y0:y1, x0:x1].astype(np.float32)
        off = np.array([x0, y0])
        scale = _px_per_mm(camera, tip)
        # The shadow is soft: draw it at a quarter of the resolution, blur, and scale back up.
        q = 4
        small = np.zeros(((y1 - y0) // q + 1, (x1 - x0) // q + 1), np.uint8)
        for pts in shadow_pts:
            cv2.fillPoly(small, [np.round((pts - off) / q * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
        small = cv2.GaussianBlur(small, (0, 0), max(0.5, 14.0 * scale / q))
        shadow = cv2.resize(small, (small.shape[1] * q, small.shape[0] * q), interpolation=cv2.INTER_LINEAR)[: y1 - y0, : x1 - x0]
        roi *= (1.0 - 0.5 * shadow.astype(np.float32) / 255.0)[:, :, None]
        for kind in ("sleeve", "skin"):
            mask = np.zeros(roi.shape[:2], np.uint8)
            for pts, k in projected:
                if k == kind:
                    cv2.fillPoly(mask, [np.round((pts - off) * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
            box = cv2.boundingRect(mask)
            if box[2] == 0:
                continue
            bx, by, bw, bh = box
            sub = mask[by : by + bh, bx : bx + bw]
            # Rounded limbs: brighter along the middle, darker at the silhouette.
            depth = cv2.distanceTransform((sub > 127).astype(np.uint8), cv2.DIST_L2, 3)
            round_shade = 0.62 + 0.45 * np.sqrt(np.clip(depth / max(0.4 * person.arm_width_mm * scale, 1.0), 0, 1))
            colour = np.array(person.skin_bgr if kind == "skin" else person.sleeve_bgr, np.float32)
            a = (sub.astype(np.float32) / 255.0)[:, :, None]
            part = roi[by : by + bh, bx : bx + bw]
            roi[by : by + bh, bx : bx + bw] = part * (1 - a) + (colour[None, None, :] * round_shade[:, :, None]) * a
        image[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)


def _capsule(p: np.ndarray, q: np.ndarray, width_p: float, width_q: float, z_p: float, z_q: float, n: int = 10) -> np.ndarray:
    """Outline (M, 3) of a tapered capsule from p to q in board mm, with heights z."""
    d = q - p
    length = max(float(np.linalg.norm(d)), 1e-6)
    d = d / length
    side = np.array([-d[1], d[0]])
    pts = []
    for k in range(n + 1):
        a = -math.pi / 2 + math.pi * k / n
        pts.append((q + (d * math.cos(a) + side * math.sin(a)) * width_q / 2, z_q))
    for k in range(n + 1):
        a = math.pi / 2 + math.pi * k / n
        pts.append((p + (d * math.cos(a) + side * math.sin(a)) * width_p / 2, z_p))
    return np.array([[xy[0], xy[1], z] for xy, z in pts])


def _lift(pts3: np.ndarray, camera: Camera) -> np.ndarray:
    """Board-plane points that project where the 3D points (x, y, z) do: along the ray through the camera."""
    centre = -camera.rotation.T @ camera.translation
    z = pts3[:, 2:3]
    scale = centre[2] / np.maximum(centre[2] - z, 1.0)
    return centre[None, :2] + (pts3[:, :2] - centre[None, :2]) * scale


def _px_per_mm(camera: Camera, at_mm: np.ndarray) -> float:
    a = camera.project(np.array([at_mm, at_mm + [1.0, 0.0]]))
    return float(np.linalg.norm(a[1] - a[0]))
