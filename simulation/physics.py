"""Rigid-disc physics of a board seen from above: flicks, sliding friction, collisions, captures.

A `Table` holds the pieces of one game on a pymunk space (millimetres, grams,
seconds) with the board's static parts: cushions, pegs, pockets, the 20-hole and
the edge of a crokinole surface. It steps at a fixed time step and decides, after
every step, which pieces fall into a pocket or the hole, leave the surface or jump
off, so a stroke is a pure function of the positions and the flick: the same
input gives the same output on any machine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pymunk
import pymunk.batch

from simulation.scene import PieceState, PieceStatus

#: Fixed physics step: a 6 m/s break moves a piece 10 mm per step, under a coin's radius.
STEP_S = 1 / 600
#: Speed below which a piece counts as at rest (sliding friction stops it exactly anyway).
REST_SPEED_MM_S = 1.0
#: A stroke never runs longer than this (pieces are stopped where they are).
MAX_STROKE_S = 20.0
#: A piece that jumps off a cushion flies on over the frame this long, then drops out of view off the table.
FLIGHT_S = 0.3

_PIECE, _WALL, _PEG = 1, 2, 3
_READ_FIELDS = pymunk.batch.BodyFields.BODY_ID | pymunk.batch.BodyFields.POSITION | pymunk.batch.BodyFields.VELOCITY


@dataclass(frozen=True)
class Material:
    """How a kind of piece moves: its mass, sliding deceleration and bounciness."""

    mass_g: float
    deceleration_mm_s2: float
    elasticity: float
    #: Velocity lost per second in proportion to speed (air, wobble); ends long slides.
    drag_per_s: float = 0.15


@dataclass(frozen=True)
class Capture:
    """Something that happened to a piece during a stroke, at time `t_s` after the flick."""

    t_s: float
    piece_id: int
    status: PieceStatus
    pocket: int | None = None


@dataclass(frozen=True)
class Contact:
    """Two pieces touched for the first time in this contact, `t_s` after the flick."""

    t_s: float
    piece_a: int
    piece_b: int


@dataclass
class StrokeResult:
    """What one flick did: how long until rest, captures in time order, piece contacts."""

    duration_s: float
    captures: list[Capture] = field(default_factory=list)
    contacts: list[Contact] = field(default_factory=list)


@dataclass
class _Piece:
    piece_id: int
    kind: str
    radius_mm: float
    material: Material
    status: PieceStatus
    x_mm: float
    y_mm: float
    pocket: int | None = None
    lean_mm: float = 0.0
    body: pymunk.Body | None = None
    shape: pymunk.Circle | None = None
    state: PieceState | None = None


@dataclass(frozen=True)
class TableSpec:
    """The static parts of a board, in board millimetres.

    `walls`: cushion segments (inner faces on the surface edge); `pegs`: (x, y, r);
    `pockets`: (x, y, r) circles that capture a piece whose centre enters them;
    `hole_radius_mm`: the crokinole 20-hole at the centre; `surface_radius_mm`: a
    round surface whose edge a piece falls off into the ditch (no cushion);
    `ditch_radius_mm`: where a piece that fell off lies; `jump_speed_mm_s` and
    `jump_probability`: a piece hitting a cushion faster than that may jump off.
    """

    walls: tuple[tuple[tuple[float, float], tuple[float, float]], ...] = ()
    wall_elasticity: float = 0.7
    pegs: tuple[tuple[float, float, float], ...] = ()
    pockets: tuple[tuple[float, float, float], ...] = ()
    hole_radius_mm: float | None = None
    hole_depth_mm: float = 10.0
    #: A disc slower than this with its centre this far inside the hole edge drops in.
    hole_fall_speed_mm_s: float = 700.0
    hole_fall_fraction: float = 0.3
    surface_radius_mm: float | None = None
    ditch_radius_mm: float | None = None
    jump_speed_mm_s: float = math.inf
    jump_probability: float = 0.0


class Table:
    """The pieces of one board on a physics space.

    Parameters
    ----------
    spec : TableSpec
        The board's static parts.
    rng : numpy.random.Generator
        Seeded generator for the chance parts (pieces jumping off a cushion).
    """

    def __init__(self, spec: TableSpec, *, rng: np.random.Generator):
        self.spec = spec
        self._rng = rng
        self._space = pymunk.Space()
        self._space.iterations = 20
        # Millimetre units: the default slop (0.1) would leave resting pieces visibly overlapping.
        self._space.collision_slop = 0.02
        self._pieces: dict[int, _Piece] = {}
        self._by_shape: dict[pymunk.Shape, int] = {}
        self._by_body: dict[int, int] = {}
        self._batch = pymunk.batch.Buffer()
        # The bodies in space order with their friction, rebuilt whenever a body comes or goes.
        self._layout_version = 0
        self._layout: tuple = (-1, [], np.zeros(0), np.zeros(0))
        self._contacts: list[tuple[int, int]] = []
        self._wall_hits: list[int] = []
        # Pieces jumped off, in flight: id -> (t_s since the flick, x_mm, y_mm, vx_mm_s, vy_mm_s) at the jump.
        self._flights: dict[int, tuple[float, float, float, float, float]] = {}
        self._t_s = 0.0  # time since the current flick
        self._build_static()
        self._space.on_collision(_PIECE, _PIECE, begin=self._on_piece_contact)
        self._space.on_collision(_PIECE, _WALL, begin=self._on_wall_contact)

    # --- set-up -----------------------------------------------------------------

    def _build_static(self) -> None:
        static = self._space.static_body
        # Thick segments whose inner face lies on the cushion line: nothing tunnels through.
        thickness_mm = 25.0
        for (x1, y1), (x2, y2) in self.spec.walls:
            nx, ny = _outward_normal(((x1, y1), (x2, y2)))
            ox, oy = nx * thickness_mm, ny * thickness_mm
            wall = pymunk.Segment(static, (x1 + ox, y1 + oy), (x2 + ox, y2 + oy), thickness_mm)
            wall.elasticity = self.spec.wall_elasticity
            wall.friction = 0.05
            wall.collision_type = _WALL
            self._space.add(wall)
        for x, y, r in self.spec.pegs:
            peg = pymunk.Circle(static, r, (x, y))
            peg.elasticity = 0.8
            peg.friction = 0.05
            peg.collision_type = _PEG
            self._space.add(peg)

    def add_piece(
        self,
        kind: str,
        *,
        radius_mm: float,
        material: Material,
        x_mm: float = 0.0,
        y_mm: float = 0.0,
        status: PieceStatus = "off",
        pocket: int | None = None,
    ) -> int:
        """Add a piece; on the board (at rest, at x_mm, y_mm) only if `status` is "board"."""
        piece_id = len(self._pieces)
        self._pieces[piece_id] = _Piece(piece_id, kind, radius_mm, material, "off", x_mm, y_mm)
        if status == "board":
            self.place(piece_id, x_mm, y_mm)
        else:
            self.set_aside(piece_id, status, x_mm=x_mm, y_mm=y_mm, pocket=pocket)
        return piece_id

    def place(self, piece_id: int, x_mm: float, y_mm: float) -> None:
        """Put a piece on the board at rest at (x_mm, y_mm)."""
        piece = self._pieces[piece_id]
        self._flights.pop(piece_id, None)
        if piece.body is None:
            body = pymunk.Body(piece.material.mass_g, math.inf)
            shape = pymunk.Circle(body, piece.radius_mm)
            shape.elasticity = piece.material.elasticity
            shape.friction = 0.05
            shape.collision_type = _PIECE
            self._space.add(body, shape)
            self._by_shape[shape] = piece_id
            self._by_body[body.id] = piece_id
            self._layout_version += 1
            piece.body, piece.shape = body, shape
        piece.body.position = (x_mm, y_mm)
        piece.body.velocity = (0.0, 0.0)
        piece.status, piece.pocket, piece.lean_mm = "board", None, 0.0
        piece.x_mm, piece.y_mm = x_mm, y_mm
        piece.state = None
        self._space.reindex_shapes_for_body(piece.body)

    def set_aside(
        self,
        piece_id: int,
        status: PieceStatus,
        *,
        x_mm: float | None = None,
        y_mm: float | None = None,
        pocket: int | None = None,
    ) -> None:
        """Take a piece off the playing surface (into a pocket, the hole, the ditch or off)."""
        piece = self._pieces[piece_id]
        self._flights.pop(piece_id, None)
        if piece.body is not None:
            self._by_shape.pop(piece.shape, None)
            self._by_body.pop(piece.body.id, None)
            self._layout_version += 1
            self._space.remove(piece.body, piece.shape)
            piece.body = piece.shape = None
        piece.status, piece.pocket, piece.lean_mm = status, pocket, 0.0
        if x_mm is not None:
            piece.x_mm, piece.y_mm = x_mm, y_mm
        piece.state = None

    # --- queries ----------------------------------------------------------------

    def ids(self, *, kind: str | None = None, status: PieceStatus | None = None) -> list[int]:
        """Piece ids, optionally only of one kind and/or status."""
        return [
            p.piece_id
            for p in self._pieces.values()
            if (kind is None or p.kind == kind) and (status is None or p.status == status)
        ]

    def piece(self, piece_id: int) -> PieceState:
        """The current state of one piece."""
        return self._state(self._pieces[piece_id])

    def states(self) -> tuple[PieceState, ...]:
        """Every piece, in id order; unchanged pieces keep the same state object."""
        return tuple(self._state(p) for p in self._pieces.values())

    def is_free(self, x_mm: float, y_mm: float, radius_mm: float, *, gap_mm: float = 0.5) -> bool:
        """True if a piece of `radius_mm` at (x_mm, y_mm) would touch no piece on the board."""
        for p in self._pieces.values():
            if p.status == "board" and math.hypot(p.x_mm - x_mm, p.y_mm - y_mm) < p.radius_mm + radius_mm + gap_mm:
                return False
        return True

    def _state(self, piece: _Piece) -> PieceState:
        if piece.state is None:
            vx = vy = 0.0
            x_mm, y_mm, status = piece.x_mm, piece.y_mm, piece.status
            if piece.body is not None:
                vx, vy = piece.body.velocity
                if math.hypot(vx, vy) > REST_SPEED_MM_S:
                    status = "moving"
            elif piece.piece_id in self._flights:
                t0_s, x0, y0, vx, vy = self._flights[piece.piece_id]
                x_mm, y_mm, status = x0 + vx * (self._t_s - t0_s), y0 + vy * (self._t_s - t0_s), "flying"
            piece.state = PieceState(
                piece.piece_id, piece.kind, round(x_mm, 3), round(y_mm, 3), piece.radius_mm,
                status, round(vx, 2), round(vy, 2), piece.pocket, round(piece.lean_mm, 3),
            )
        return piece.state

    # --- motion -----------------------------------------------------------------

    def strike(
        self,
        piece_id: int,
        vx_mm_s: float,
        vy_mm_s: float,
        *,
        on_step: Callable[[float], None] | None = None,
    ) -> StrokeResult:
        """Flick a piece that is on the board and run until everything is at rest.

        `on_step(t_s)` is called after every step with the time since the flick,
        so a caller can sample frames (it must only read the table).
        """
        piece = self._pieces[piece_id]
        if piece.body is None:
            raise ValueError(f"piece {piece_id} is not on the board")
        piece.body.velocity = (vx_mm_s, vy_mm_s)
        piece.state = None
        result = StrokeResult(0.0)
        step = 0
        while True:
            step += 1
            t_s = step * STEP_S
            self._contacts.clear()
            self._wall_hits.clear()
            self._space.step(STEP_S)
            for a, b in self._contacts:
                result.contacts.append(Contact(t_s, a, b))
            moving = self._apply_friction_and_captures(t_s, result)
            self._fly(t_s)
            if on_step is not None:
                on_step(t_s)
            if (not moving and not self._flights) or t_s >= MAX_STROKE_S:
                break
        self._fly(math.inf)  # every flight ends with the stroke
        self._stop_all()
        self.settle_leaners()
        result.duration_s = step * STEP_S
        return result

    def _apply_friction_and_captures(self, t_s: float, result: StrokeResult) -> bool:
        # All bodies are read and written in one batch: a per-body Python loop would
        # dominate the run time with twenty resting pieces on the board.
        self._batch.clear()
        pymunk.batch.get_space_bodies(self._space, _READ_FIELDS, self._batch)
        count = len(self._space.bodies)
        if count == 0:
            return False
        ids = np.frombuffer(self._batch.int_buf(), dtype=np.int64)[:count]
        data = np.frombuffer(self._batch.float_buf(), dtype=np.float64)[: count * 4].reshape(count, 4)
        velocity = data[:, 2:4]
        speed = np.hypot(velocity[:, 0], velocity[:, 1])
        moving_mask = speed > 0.0
        if not moving_mask.any():
            return False
        if self._layout[0] != self._layout_version:
            layout_pieces = [self._pieces[self._by_body[int(i)]] for i in ids]
            self._layout = (
                self._layout_version,
                layout_pieces,
                np.array([p.material.deceleration_mm_s2 for p in layout_pieces]),
                np.array([p.material.drag_per_s for p in layout_pieces]),
            )
        _, pieces, deceleration, drag = self._layout
        slowed = np.maximum(0.0, speed - (deceleration + drag * speed) * STEP_S)
        slowed[slowed < REST_SPEED_MM_S] = 0.0
        scale = np.divide(slowed, speed, out=np.zeros(count), where=moving_mask)
        # Written in place into the batch just read and set back in the same body order
        # (positions are written back unchanged).
        velocity *= scale[:, None]
        pymunk.batch.set_space_bodies(self._space, _READ_FIELDS, self._batch)
        jumped = set(self._wall_hits)
        still_moving = False
        for index in np.flatnonzero(moving_mask):
            piece = pieces[index]
            x, y = float(data[index, 0]), float(data[index, 1])
            piece.x_mm, piece.y_mm = x, y
            piece.state = None
            capture = self._capture(piece, x, y, float(slowed[index]), piece.piece_id in jumped)
            if capture is not None:
                status, pocket, (px, py) = capture
                self.set_aside(piece.piece_id, status, x_mm=px, y_mm=py, pocket=pocket)
                if status == "off":
                    self._flights[piece.piece_id] = (t_s, x, y, *self._over_the_cushion(x, y, *map(float, velocity[index])))
                result.captures.append(Capture(t_s, piece.piece_id, status, pocket))
            elif slowed[index] > 0.0:
                still_moving = True
        return still_moving

    def _capture(self, piece: _Piece, x: float, y: float, speed: float, hit_wall: bool):
        spec = self.spec
        for number, (px, py, pr) in enumerate(spec.pockets):
            if math.hypot(x - px, y - py) < pr:
                return "pocket", number, (px, py)
        if spec.hole_radius_mm is not None:
            d = math.hypot(x, y)
            fall_mm = spec.hole_radius_mm - spec.hole_fall_fraction * piece.radius_mm
            if d < fall_mm and speed < spec.hole_fall_speed_mm_s:
                return "hole", None, (0.0, 0.0)
        if spec.surface_radius_mm is not None:
            d = math.hypot(x, y)
            if d > spec.surface_radius_mm:
                r = spec.ditch_radius_mm or d
                return "ditch", None, (x / d * r, y / d * r)
        if hit_wall and speed > spec.jump_speed_mm_s and self._rng.random() < spec.jump_probability:
            return "off", None, (x, y)
        return None

    def _fly(self, t_s: float) -> None:
        """Move the pieces in flight on to `t_s`; those flown for `FLIGHT_S` are out of view, off the table."""
        self._t_s = t_s
        for piece_id, flight in list(self._flights.items()):
            if t_s - flight[0] >= FLIGHT_S:
                del self._flights[piece_id]
            self._pieces[piece_id].state = None

    def _over_the_cushion(self, x: float, y: float, vx: float, vy: float) -> tuple[float, float]:
        """The velocity of a piece jumping off at (x, y): along the cushion as it came, and outward over it
        (the cushion already turned it back) at no less than half its speed."""
        nx, ny = _outward_normal(min(self.spec.walls, key=lambda wall: _distance_to_segment(x, y, *wall)))
        outward, speed = vx * nx + vy * ny, math.hypot(vx, vy)
        along_x, along_y = vx - outward * nx, vy - outward * ny
        out = max(abs(outward), 0.5 * speed)
        return along_x + out * nx, along_y + out * ny

    def _stop_all(self) -> None:
        for piece in self._pieces.values():
            if piece.body is not None:
                piece.body.velocity = (0.0, 0.0)
                piece.x_mm, piece.y_mm = piece.body.position
                piece.state = None

    def settle_leaners(self) -> None:
        """Set `lean_mm` of every resting disc: one with its centre over the hole leans in."""
        spec = self.spec
        if spec.hole_radius_mm is None:
            return
        for piece in self._pieces.values():
            if piece.status != "board":
                continue
            d = math.hypot(piece.x_mm, piece.y_mm)
            piece.lean_mm = lean_into_hole_mm(d, spec.hole_radius_mm, spec.hole_depth_mm)
            piece.state = None

    def _on_piece_contact(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data) -> None:
        a, b = arbiter.shapes
        ia, ib = self._by_shape.get(a), self._by_shape.get(b)
        if ia is not None and ib is not None:
            self._contacts.append((ia, ib))

    def _on_wall_contact(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data) -> None:
        for shape in arbiter.shapes:
            piece_id = self._by_shape.get(shape)
            if piece_id is not None:
                self._wall_hits.append(piece_id)


def _outward_normal(wall: tuple[tuple[float, float], tuple[float, float]]) -> tuple[float, float]:
    """The unit normal of a cushion segment pointing away from the board's centre."""
    (x1, y1), (x2, y2) = wall
    nx, ny = -(y2 - y1), x2 - x1
    norm = math.hypot(nx, ny)
    if nx * (x1 + x2) + ny * (y1 + y2) < 0:
        nx, ny = -nx, -ny
    return nx / norm, ny / norm


def _distance_to_segment(x: float, y: float, a: tuple[float, float], b: tuple[float, float]) -> float:
    (x1, y1), (x2, y2) = a, b
    dx, dy = x2 - x1, y2 - y1
    along = min(1.0, max(0.0, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)))
    return math.hypot(x - x1 - along * dx, y - y1 - along * dy)


def lean_into_hole_mm(distance_mm: float, hole_radius_mm: float, hole_depth_mm: float) -> float:
    """How far a resting disc's edge dips into the hole: 0 unless its centre is over the hole.

    The dip grows from 0 with the centre on the hole's edge to the hole depth at
    the point where the disc would fall in flat.
    """
    if distance_mm >= hole_radius_mm:
        return 0.0
    return min(hole_depth_mm, hole_depth_mm * (hole_radius_mm - distance_mm) / hole_radius_mm * 2)
