"""The physical make-up of each game: materials, piece sizes and the static parts of its table.

Dimensions come from the board models in `calibration/`; masses and friction are
typical of the real equipment (a powdered carrom board lets a coin slide a long
way; crokinole discs glide on a waxed surface; couronne rings are lighter).
"""

from __future__ import annotations

import math

import numpy as np

from calibration.geometry import CarromBoard, CouronneBoard, CrokinoleBoard
from simulation.physics import Material, Table, TableSpec
from simulation.scene import Seat

COIN = Material(mass_g=5.5, deceleration_mm_s2=900.0, elasticity=0.92)
STRIKER = Material(mass_g=15.0, deceleration_mm_s2=900.0, elasticity=0.92)
CROKINOLE_DISC = Material(mass_g=8.0, deceleration_mm_s2=750.0, elasticity=0.93)
RING = Material(mass_g=7.0, deceleration_mm_s2=1100.0, elasticity=0.88)
SHOOTER_RING = Material(mass_g=12.0, deceleration_mm_s2=1100.0, elasticity=0.88)

#: The turn of each seat's frame (player at -y, shooting towards +y) onto the board.
SEAT_ANGLE_RAD: dict[Seat, float] = {
    "south": 0.0,
    "east": math.pi / 2,
    "north": math.pi,
    "west": 3 * math.pi / 2,
}


def seat_to_board(seat: Seat, x_mm: float, y_mm: float) -> tuple[float, float]:
    """A point in a seat's frame (the player at -y) in board coordinates."""
    a = SEAT_ANGLE_RAD[seat]
    c, s = math.cos(a), math.sin(a)
    return c * x_mm - s * y_mm, s * x_mm + c * y_mm


def board_to_seat(seat: Seat, x_mm: float, y_mm: float) -> tuple[float, float]:
    """A board point in a seat's frame (the player at -y)."""
    a = -SEAT_ANGLE_RAD[seat]
    c, s = math.cos(a), math.sin(a)
    return c * x_mm - s * y_mm, s * x_mm + c * y_mm


def _square_walls(half_mm: float):
    h = half_mm
    return (((-h, -h), (h, -h)), ((h, -h), (h, h)), ((h, h), (-h, h)), ((-h, h), (-h, -h)))


def carrom_table(board: CarromBoard, *, rng: np.random.Generator) -> Table:
    """An empty carrom table: cushions on the surface edge, four corner pockets."""
    spec = TableSpec(
        walls=_square_walls(board.half_side_mm),
        wall_elasticity=0.75,
        pockets=tuple((x, y, board.pocket_diameter_mm / 2) for x, y in board.pocket_centres_mm()),
    )
    return Table(spec, rng=rng)


def crokinole_table(board: CrokinoleBoard, *, rng: np.random.Generator) -> Table:
    """An empty crokinole table: pegs on the 15 line, the 20-hole, a ditch past the edge."""
    spec = TableSpec(
        pegs=tuple((x, y, board.peg_diameter_mm / 2) for x, y in board.peg_centres_mm()),
        hole_radius_mm=board.hole_diameter_mm / 2,
        hole_depth_mm=board.hole_depth_mm,
        surface_radius_mm=board.surface_radius_mm,
        ditch_radius_mm=board.surface_radius_mm + board.ditch_width_mm / 2,
    )
    return Table(spec, rng=rng)


def couronne_table(board: CouronneBoard, *, rng: np.random.Generator) -> Table:
    """An empty couronne table: cushions, four large corner pockets; hard hits may jump off."""
    spec = TableSpec(
        walls=_square_walls(board.half_side_mm),
        wall_elasticity=0.7,
        pockets=tuple((x, y, board.pocket_diameter_mm / 2) for x, y in board.pocket_centres_mm()),
        jump_speed_mm_s=600.0,
        jump_probability=0.08,
    )
    return Table(spec, rng=rng)
