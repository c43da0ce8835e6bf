"""Scripted players: choose a shot like a club player would, then miss it a little.

Each function returns a `Flick` (where the shooting piece is set down and how it
is flicked). The plan is geometric (the "ghost piece" a target must be hit from
to run into a pocket, or a draw that stops at a chosen point); the execution
adds seeded noise to the angle and the speed, so pieces are missed, strikers
follow coins into pockets and discs fly off, as in real play.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from calibration.geometry import CarromBoard, CouronneBoard, CrokinoleBoard
from simulation.physics import Material, Table
from simulation.physics_boards import COIN, CROKINOLE_DISC, RING, SHOOTER_RING, STRIKER, board_to_seat, seat_to_board
from simulation.play_clock import Flick
from simulation.scene import Seat

#: Coefficient of restitution between two pieces (pymunk multiplies the two elasticities).
_PIECE_RESTITUTION = 0.85
_MAX_SPEED_MM_S = 6000.0


@dataclass(frozen=True)
class Skill:
    """How well a scripted player executes: standard deviations of aim and strength."""

    angle_sigma_deg: float = 1.3
    speed_sigma: float = 0.10


def stopping_distance_mm(material: Material, speed_mm_s: float) -> float:
    """How far a piece slides from `speed_mm_s` to rest (constant friction plus drag)."""
    a, k = material.deceleration_mm_s2, material.drag_per_s
    if speed_mm_s <= 0:
        return 0.0
    return speed_mm_s / k - a / k**2 * math.log1p(k * speed_mm_s / a)


def speed_for_distance(material: Material, distance_mm: float) -> float:
    """The speed that makes a piece slide `distance_mm` before it stops."""
    lo, hi = 0.0, _MAX_SPEED_MM_S * 2
    for _ in range(50):
        mid = (lo + hi) / 2
        if stopping_distance_mm(material, mid) < distance_mm:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _segment_clearance_mm(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> float:
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    u = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.hypot(ax + u * dx - px, ay + u * dy - py)


def _path_is_clear(table: Table, start, end, radius_mm: float, *, ignore: set[int],
                   obstacles: tuple[tuple[float, float, float], ...] = ()) -> bool:
    for state in table.states():
        if state.status != "board" or state.piece_id in ignore:
            continue
        if _segment_clearance_mm(*start, *end, state.x_mm, state.y_mm) < radius_mm + state.radius_mm + 0.5:
            return False
    return all(_segment_clearance_mm(*start, *end, x, y) >= radius_mm + r + 0.5 for x, y, r in obstacles)


def _execute(direction: tuple[float, float], speed_mm_s: float, *, rng: np.random.Generator,
             skill: Skill) -> tuple[float, float]:
    angle = math.atan2(direction[1], direction[0]) + math.radians(rng.normal(0.0, skill.angle_sigma_deg))
    speed = min(_MAX_SPEED_MM_S, max(150.0, speed_mm_s * (1.0 + rng.normal(0.0, skill.speed_sigma))))
    return speed * math.cos(angle), speed * math.sin(angle)


@dataclass(frozen=True)
class _Pot:
    score: float
    start: tuple[float, float]
    direction: tuple[float, float]
    speed_mm_s: float


def _best_pot(table: Table, *, seat: Seat, spots: list[tuple[float, float]], shooter_radius_mm: float,
              shooter: Material, targets: list[int], target_material: Material,
              pockets: list[tuple[float, float, float]]) -> _Pot | None:
    """The easiest pot: a target, a pocket and a spot from which the cut is thin and the paths clear."""
    best: _Pot | None = None
    for target_id in targets:
        t = table.piece(target_id)
        for px, py, pr in pockets:
            ux, uy = px - t.x_mm, py - t.y_mm
            run_mm = math.hypot(ux, uy)
            ux, uy = ux / run_mm, uy / run_mm
            gx, gy = t.x_mm - ux * (t.radius_mm + shooter_radius_mm), t.y_mm - uy * (t.radius_mm + shooter_radius_mm)
            if not _path_is_clear(table, (t.x_mm, t.y_mm), (px, py), t.radius_mm, ignore={target_id}):
                continue
            for sx, sy in spots:
                dx, dy = gx - sx, gy - sy
                aim_mm = math.hypot(dx, dy)
                if aim_mm < 1e-6:
                    continue
                dx, dy = dx / aim_mm, dy / aim_mm
                if board_to_seat(seat, dx, dy)[1] < 0.15:
                    continue  # no shooting backwards from the line
                cut = dx * ux + dy * uy
                if cut < 0.35:
                    continue
                if not _path_is_clear(table, (sx, sy), (gx, gy), shooter_radius_mm, ignore={target_id}):
                    continue
                score = cut * 2.0 - (aim_mm + run_mm) / 1000.0
                if best is None or score > best.score:
                    transfer = cut * (1 + _PIECE_RESTITUTION) * shooter.mass_g / (shooter.mass_g + target_material.mass_g)
                    target_speed = speed_for_distance(target_material, run_mm + pr + 80.0)
                    impact = target_speed / transfer
                    speed = speed_for_distance(shooter, stopping_distance_mm(shooter, impact) + aim_mm)
                    best = _Pot(score, (sx, sy), (dx, dy), speed)
    return best


def _free_spots(table: Table, seat: Seat, *, y_seat_mm: float, half_length_mm: float,
                radius_mm: float, count: int = 15) -> list[tuple[float, float]]:
    spots = []
    for x_seat in np.linspace(-half_length_mm, half_length_mm, count):
        x, y = seat_to_board(seat, float(x_seat), y_seat_mm)
        if table.is_free(x, y, radius_mm):
            spots.append((x, y))
    return spots


def _direct_hit(table: Table, *, spots, targets: list[int], shooter: Material, rng: np.random.Generator,
                extra_mm: float) -> tuple[tuple[float, float], tuple[float, float], float]:
    """No pot on: hit a target piece straight and hard enough to move things about."""
    sx, sy = spots[int(rng.integers(len(spots)))]
    if targets:
        t = table.piece(targets[int(rng.integers(len(targets)))])
        tx, ty = t.x_mm, t.y_mm
    else:
        tx, ty = 0.0, 0.0
    d = math.hypot(tx - sx, ty - sy) or 1.0
    return (sx, sy), ((tx - sx) / d, (ty - sy) / d), speed_for_distance(shooter, d + extra_mm)


def _break(seat: Seat, y_seat: float, half_length: float, speed_mm_s: float, *, rng: np.random.Generator,
           skill: Skill) -> Flick:
    """The opening stroke: from near the middle of the line, hard into the pieces at the centre."""
    x, y = seat_to_board(seat, float(rng.uniform(-0.3, 0.3) * half_length), y_seat)
    d = math.hypot(x, y)
    vx, vy = _execute((-x / d, -y / d), speed_mm_s, rng=rng, skill=Skill(skill.angle_sigma_deg * 0.5, 0.08))
    return Flick(x, y, vx, vy)


def carrom_striker_line(board: CarromBoard) -> tuple[float, float]:
    """The seat-frame y of the striker's centre on the base line, and the half length it may use."""
    y_seat = -(board.half_side_mm - board.base_line_inset_mm - board.base_line_gap_mm / 2)
    half_length = board.base_line_length_mm / 2 - board.base_circle_diameter_mm / 2
    return y_seat, half_length


def carrom_flick(table: Table, board: CarromBoard, *, seat: Seat, striker_id: int, target_kinds: set[str],
                 is_break: bool, rng: np.random.Generator, skill: Skill = Skill()) -> Flick:
    """A carrom stroke for the player at `seat`: the break, a pot of a target kind, or a hard hit."""
    y_seat, half_length = carrom_striker_line(board)
    radius = table.piece(striker_id).radius_mm
    if is_break:
        return _break(seat, y_seat, half_length, 4800.0, rng=rng, skill=skill)
    spots = _free_spots(table, seat, y_seat_mm=y_seat, half_length_mm=half_length, radius_mm=radius)
    if not spots:
        spots = [seat_to_board(seat, 0.0, y_seat)]
    targets = [i for i in table.ids(status="board") if table.piece(i).kind in target_kinds]
    pockets = [(x, y, board.pocket_diameter_mm / 2) for x, y in board.pocket_centres_mm()]
    pot = _best_pot(table, seat=seat, spots=spots, shooter_radius_mm=radius, shooter=STRIKER, targets=targets,
                    target_material=COIN, pockets=pockets)
    if pot is None:
        start, direction, speed = _direct_hit(table, spots=spots, targets=targets, shooter=STRIKER, rng=rng,
                                              extra_mm=500.0)
    else:
        start, direction, speed = pot.start, pot.direction, pot.speed_mm_s
    vx, vy = _execute(direction, speed, rng=rng, skill=skill)
    return Flick(start[0], start[1], vx, vy)


def couronne_start_line(board: CouronneBoard) -> tuple[float, float]:
    """The seat-frame y of the shooter ring's centre on the start line, and its usable half length."""
    return -(board.half_side_mm - board.start_line_inset_mm), board.start_line_length_mm / 2


def couronne_flick(table: Table, board: CouronneBoard, *, seat: Seat, shooter_id: int, own_kind: str,
                   is_break: bool, rng: np.random.Generator, skill: Skill = Skill()) -> Flick:
    """A couronne stroke: the break, a pot of an own ring if one is on, else a hard hit at one."""
    y_seat, half_length = couronne_start_line(board)
    if is_break:
        return _break(seat, y_seat, half_length, 3800.0, rng=rng, skill=skill)
    radius = table.piece(shooter_id).radius_mm
    spots = _free_spots(table, seat, y_seat_mm=y_seat, half_length_mm=half_length, radius_mm=radius)
    if not spots:
        spots = [seat_to_board(seat, 0.0, y_seat)]
    targets = [i for i in table.ids(kind=own_kind, status="board")]
    pockets = [(x, y, board.pocket_diameter_mm / 2) for x, y in board.pocket_centres_mm()]
    pot = _best_pot(table, seat=seat, spots=spots, shooter_radius_mm=radius, shooter=SHOOTER_RING,
                    targets=targets, target_material=RING, pockets=pockets)
    if pot is None:
        start, direction, speed = _direct_hit(table, spots=spots, targets=targets, shooter=SHOOTER_RING, rng=rng,
                                              extra_mm=400.0)
    else:
        start, direction, speed = pot.start, pot.direction, pot.speed_mm_s
    vx, vy = _execute(direction, speed, rng=rng, skill=skill)
    return Flick(start[0], start[1], vx, vy)


def crokinole_flick(table: Table, board: CrokinoleBoard, *, seat: Seat, disc_id: int, opponent_kind: str,
                    rng: np.random.Generator, skill: Skill = Skill()) -> Flick:
    """A crokinole shot from the shooting line in `seat`'s quadrant.

    With opponent discs on the board: a straight take-out of the best opponent
    disc with a clear line (pegs and discs in the way rule a line out). Without,
    or with no clear line: a draw to a point in the 15 zone, sometimes at the hole.
    """
    radius = table.piece(disc_id).radius_mm
    shoot_r = board.shooting_line_diameter_mm / 2
    pegs = tuple((x, y, board.peg_diameter_mm / 2) for x, y in board.peg_centres_mm())
    spots = []
    for angle_deg in np.linspace(-135 + 7, -45 - 7, 13):
        a = math.radians(float(angle_deg))
        x, y = seat_to_board(seat, shoot_r * math.cos(a), shoot_r * math.sin(a))
        if table.is_free(x, y, radius):
            spots.append((x, y))
    if not spots:
        spots = [seat_to_board(seat, 0.0, -shoot_r)]
    best = None
    for target_id in table.ids(kind=opponent_kind, status="board"):
        t = table.piece(target_id)
        value = board.zone_value(t.x_mm, t.y_mm, t.radius_mm)
        for sx, sy in spots:
            d = math.hypot(t.x_mm - sx, t.y_mm - sy)
            ux, uy = (t.x_mm - sx) / d, (t.y_mm - sy) / d
            gx, gy = t.x_mm - ux * (t.radius_mm + radius), t.y_mm - uy * (t.radius_mm + radius)
            if not _path_is_clear(table, (sx, sy), (gx, gy), radius, ignore={target_id}, obstacles=pegs):
                continue
            score = value / 5.0 - d / 300.0
            if best is None or score > best[0]:
                best = (score, (sx, sy), (ux, uy), speed_for_distance(CROKINOLE_DISC, d + 350.0))
    if best is None:
        best = _draw(table, spots, radius=radius, pegs=pegs, board=board, rng=rng)
    _, (sx, sy), direction, speed = best
    vx, vy = _execute(direction, speed, rng=rng, skill=skill)
    return Flick(sx, sy, vx, vy)


def _draw(table: Table, spots, *, radius: float, pegs, board: CrokinoleBoard, rng: np.random.Generator):
    """A shot that stops at a chosen point inside the 15 line (at the hole about one time in three)."""
    fifteen_r = board.fifteen_line_diameter_mm / 2
    for _ in range(12):
        if rng.random() < 0.35:
            tx, ty = 0.0, 0.0
        else:
            r = float(rng.uniform(board.hole_diameter_mm / 2 + radius, fifteen_r - radius - 2))
            a = float(rng.uniform(0, 2 * math.pi))
            tx, ty = r * math.cos(a), r * math.sin(a)
        sx, sy = spots[int(rng.integers(len(spots)))]
        if _path_is_clear(table, (sx, sy), (tx, ty), radius, ignore=set(), obstacles=pegs):
            break
    d = math.hypot(tx - sx, ty - sy)
    return 0.0, (sx, sy), ((tx - sx) / d, (ty - sy) / d), speed_for_distance(CROKINOLE_DISC, d)
