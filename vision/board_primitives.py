"""The printed features of a square board as geometric primitives in board millimetres.

A primitive is a circle (centre, radius) or a straight segment (two end points);
`sample_primitives` spreads points along them with their board-plane normals, so a
locator can search the image for each one and fit the homography to what it finds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from calibration.geometry import CarromBoard, CouronneBoard


@dataclass(frozen=True)
class Primitive:
    """A circle or arc (``radius_mm > 0``, centre ``a_mm``, from ``start_deg`` to ``end_deg``)
    or a segment from ``a_mm`` to ``b_mm`` (``radius_mm == 0``).

    ``group`` names the kind of feature (e.g. ``base_circle``) shared by its copies on each side.
    """

    name: str
    group: str
    a_mm: tuple[float, float]
    b_mm: tuple[float, float] = (0.0, 0.0)
    radius_mm: float = 0.0
    width_mm: float = 1.0
    start_deg: float = 0.0
    end_deg: float = 360.0

    @property
    def is_circle(self) -> bool:
        return self.radius_mm > 0


def _rotations(x: float, y: float) -> list[tuple[float, float]]:
    """(x, y) and its images under the board's quarter turns (south, east, north, west sides)."""
    return [(x, y), (-y, x), (-x, -y), (y, -x)]


def carrom_primitives(board: CarromBoard) -> list[Primitive]:
    """Base lines (outer thick, inner thin), base circles and the centre circles of a carrom board."""
    h = board.half_side_mm
    r_c = board.base_circle_diameter_mm / 2
    half_len = board.base_line_length_mm / 2 - r_c
    y_out = -(h - board.base_line_inset_mm)
    y_in = y_out + board.base_line_gap_mm
    prims: list[Primitive] = []
    sides = ("south", "east", "north", "west")
    for k, side in enumerate(sides):
        for label, y, width in (("outer", y_out, 3.5), ("inner", y_in, 1.0)):
            a = _rotations(-half_len + r_c, y)[k]
            b = _rotations(half_len - r_c, y)[k]
            prims.append(Primitive(f"{side}_base_{label}", f"base_{label}", a, b, width_mm=width))
        for sx in (-1, 1):
            centre = _rotations(sx * half_len, y_out + board.base_line_gap_mm / 2)[k]
            name = f"{side}_base_circle_{'left' if sx < 0 else 'right'}"
            prims.append(Primitive(name, "base_circle", centre, radius_mm=r_c))
    prims.append(Primitive("centre_outer_circle", "centre_circle", (0.0, 0.0), radius_mm=board.outer_circle_diameter_mm / 2))
    return prims


def couronne_primitives(board: CouronneBoard) -> list[Primitive]:
    """Start lines, the centre circle and the corner-field arcs of a couronne board."""
    h = board.half_side_mm
    half_len = board.start_line_length_mm / 2
    y = -(h - board.start_line_inset_mm)
    prims: list[Primitive] = []
    for k, side in enumerate(("south", "east", "north", "west")):
        a, b = _rotations(-half_len + 10, y)[k], _rotations(half_len - 10, y)[k]
        prims.append(Primitive(f"{side}_start_line", "start_line", a, b, width_mm=2.0))
    prims.append(Primitive("centre_circle", "centre_circle", (0.0, 0.0), radius_mm=board.centre_circle_diameter_mm / 2, width_mm=2.0))
    # corner fields: the part of each circle about a pocket that lies on the surface
    corners = ("south_west", "south_east", "north_east", "north_west")
    for name, (x, y_c) in zip(corners, board.pocket_centres_mm()):
        inward = math.degrees(math.atan2(-y_c, -x))
        prims.append(
            Primitive(f"{name}_corner_field", "corner_field", (x, y_c), radius_mm=board.corner_field_diameter_mm / 2,
                      width_mm=2.5, start_deg=inward - 60, end_deg=inward + 60)
        )
    return prims


def square_primitives(board: CarromBoard | CouronneBoard) -> list[Primitive]:
    return carrom_primitives(board) if isinstance(board, CarromBoard) else couronne_primitives(board)


def sample_primitives(prims: list[Primitive], *, spacing_mm: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Points along each primitive.

    Returns
    -------
    points_mm : (n, 2) board points
    normals_mm : (n, 2) unit board-plane normals
    index : (n,) int, the primitive each point belongs to
    """
    points, normals, index = [], [], []
    for i, p in enumerate(prims):
        if p.is_circle:
            span = math.radians(p.end_deg - p.start_deg)
            count = max(12, int(span * p.radius_mm / spacing_mm))
            t = math.radians(p.start_deg) + (np.arange(count) + 0.5) * span / count
            unit = np.stack([np.cos(t), np.sin(t)], 1)
            points.append(np.asarray(p.a_mm) + p.radius_mm * unit)
            normals.append(unit)
        else:
            a, b = np.asarray(p.a_mm), np.asarray(p.b_mm)
            length = float(np.linalg.norm(b - a))
            count = max(4, int(length / spacing_mm))
            t = (np.arange(count) + 0.5) / count
            points.append(a + t[:, None] * (b - a))
            direction = (b - a) / length
            normals.append(np.tile([-direction[1], direction[0]], (count, 1)))
        index.append(np.full(count, i))
    return np.concatenate(points), np.concatenate(normals), np.concatenate(index)


class PrimitiveDistance:
    """Signed distance of points from their primitives, with the per-point geometry gathered once.

    A least-squares fit calls it hundreds of times on the same assignment of points.
    """

    def __init__(self, prims: list[Primitive], index: np.ndarray):
        self._centre = np.array([p.a_mm for p in prims], np.float64)[index]
        self._is_circle = np.array([p.is_circle for p in prims])[index]
        self._radius = np.array([p.radius_mm for p in prims])[index]
        b = np.array([p.b_mm for p in prims], np.float64)[index]
        direction = b - self._centre
        direction /= np.maximum(np.linalg.norm(direction, axis=1, keepdims=True), 1e-9)
        self._normal = np.stack([-direction[:, 1], direction[:, 0]], 1)

    def with_gradient(self, points_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The signed distances and their derivatives with respect to each point's x and y, (n, 2)."""
        offset = points_mm - self._centre
        line_distance = np.einsum("ij,ij->i", offset, self._normal)
        length = np.maximum(np.linalg.norm(offset, axis=1), 1e-9)
        circle_distance = length - self._radius
        grad = np.where(self._is_circle[:, None], offset / length[:, None], self._normal)
        return np.where(self._is_circle, circle_distance, line_distance), grad
