"""Board models: the dimensions of each game's board, in millimetres, loaded from data.

Board coordinates: origin at the centre of the playing surface, x to the right,
y away from the first player's seat (south), seen from above.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, fields
from importlib import resources
from typing import Literal

Game = Literal["carrom", "crokinole", "couronne"]
GAMES: tuple[Game, ...] = ("carrom", "crokinole", "couronne")
DEFAULT_MODELS: dict[Game, str] = {"carrom": "icf", "crokinole": "nca", "couronne": "micki"}


@dataclass(frozen=True)
class CarromBoard:
    game: str
    model: str
    description: str
    surface_side_mm: float
    frame_width_mm: float
    pocket_diameter_mm: float
    coin_diameter_mm: float
    striker_diameter_mm: float
    centre_circle_diameter_mm: float
    outer_circle_diameter_mm: float
    base_line_length_mm: float
    base_line_gap_mm: float
    base_line_inset_mm: float
    base_circle_diameter_mm: float
    arrow_length_mm: float
    arrow_start_from_corner_mm: float

    @property
    def half_side_mm(self) -> float:
        return self.surface_side_mm / 2

    def pocket_centres_mm(self) -> tuple[tuple[float, float], ...]:
        """Pocket centres, numbered 0-3 counter-clockwise from the first player's left.

        The pocket circle touches both cushions of its corner.
        """
        c = self.half_side_mm - self.pocket_diameter_mm / 2
        return ((-c, -c), (c, -c), (c, c), (-c, c))


@dataclass(frozen=True)
class CrokinoleBoard:
    game: str
    model: str
    description: str
    frame_shape: str
    surface_diameter_mm: float
    shooting_line_diameter_mm: float
    ten_line_diameter_mm: float
    fifteen_line_diameter_mm: float
    line_width_mm: float
    hole_diameter_mm: float
    hole_depth_mm: float
    disc_diameter_mm: float
    disc_thickness_mm: float
    peg_count: int
    peg_diameter_mm: float
    ditch_width_mm: float
    frame_width_mm: float

    @property
    def surface_radius_mm(self) -> float:
        return self.surface_diameter_mm / 2

    def line_radii_mm(self) -> dict[int, float]:
        """Radius of the centre of each scoring line, keyed by the value inside it."""
        return {
            15: self.fifteen_line_diameter_mm / 2,
            10: self.ten_line_diameter_mm / 2,
            5: self.shooting_line_diameter_mm / 2,
        }

    def peg_centres_mm(self) -> tuple[tuple[float, float], ...]:
        """Pegs on the 15 line, two per quadrant, symmetric about the diagonal quadrant lines."""
        r = self.fifteen_line_diameter_mm / 2
        step = 2 * math.pi / self.peg_count
        return tuple(
            (r * math.cos(step / 2 + k * step), r * math.sin(step / 2 + k * step))
            for k in range(self.peg_count)
        )

    def line_clearance_mm(self, x_mm: float, y_mm: float, disc_radius_mm: float) -> float:
        """Gap between a disc's edge and the nearest edge of the nearest scoring line.

        Negative when the disc touches or overlaps a line.
        """
        d = math.hypot(x_mm, y_mm)
        half_w = self.line_width_mm / 2
        return min(abs(d - r) - disc_radius_mm - half_w for r in self.line_radii_mm().values())

    def zone_value(self, x_mm: float, y_mm: float, disc_radius_mm: float) -> int:
        """Score of a disc lying flat on the surface at (x_mm, y_mm).

        A disc scores the lowest value of any zone it touches (NCA 6); touching the
        shooting line scores 0 (WCC). A disc leaning over the hole scores 15: the
        caller decides whether a disc lies flat in the hole (20).
        """
        d = math.hypot(x_mm, y_mm)
        half_w = self.line_width_mm / 2
        outer_edge_mm = d + disc_radius_mm
        value = 15
        for inside_value, r in sorted(self.line_radii_mm().items(), reverse=True):
            if outer_edge_mm >= r - half_w:
                value = inside_value - 5
        return value


@dataclass(frozen=True)
class CouronneBoard:
    game: str
    model: str
    description: str
    surface_side_mm: float
    frame_width_mm: float
    pocket_diameter_mm: float
    corner_field_diameter_mm: float
    centre_circle_diameter_mm: float
    start_line_length_mm: float
    start_line_inset_mm: float
    ring_outer_diameter_mm: float
    ring_inner_diameter_mm: float
    shooter_ring_outer_diameter_mm: float
    shooter_ring_inner_diameter_mm: float

    @property
    def half_side_mm(self) -> float:
        return self.surface_side_mm / 2

    def pocket_centres_mm(self) -> tuple[tuple[float, float], ...]:
        """Pocket centres, numbered 0-3 counter-clockwise from the first player's left."""
        c = self.half_side_mm - self.pocket_diameter_mm / 2
        return ((-c, -c), (c, -c), (c, c), (-c, c))


BoardModel = CarromBoard | CrokinoleBoard | CouronneBoard
_BOARD_TYPES: dict[str, type] = {
    "carrom": CarromBoard,
    "crokinole": CrokinoleBoard,
    "couronne": CouronneBoard,
}


def available_models(game: str) -> list[str]:
    """Names of the board models shipped for `game`."""
    prefix = f"{game}_"
    return sorted(
        entry.name[len(prefix) : -len(".json")]
        for entry in resources.files("calibration").joinpath("boards").iterdir()
        if entry.name.startswith(prefix) and entry.name.endswith(".json")
    )


def board_from_dict(data: dict) -> BoardModel:
    """Build a board model from its JSON form, rejecting missing or unknown fields."""
    game = data.get("game")
    if game not in _BOARD_TYPES:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(GAMES)}")
    cls = _BOARD_TYPES[game]
    names = {f.name for f in fields(cls)}
    missing = names - data.keys()
    unknown = data.keys() - names
    if missing or unknown:
        raise ValueError(
            f"board model {data.get('model')!r}: missing {sorted(missing)}, unknown {sorted(unknown)}"
        )
    return cls(**data)


def load_board(game: str, model: str | None = None) -> BoardModel:
    """Load a shipped board model, e.g. ``load_board("crokinole", "round")``."""
    if game not in _BOARD_TYPES:
        raise ValueError(f"unknown game {game!r}; expected one of {', '.join(GAMES)}")
    model = model or DEFAULT_MODELS[game]
    path = resources.files("calibration").joinpath("boards", f"{game}_{model}.json")
    if not path.is_file():
        raise ValueError(f"no board model {model!r} for {game}; have {available_models(game)}")
    return board_from_dict(json.loads(path.read_text()))
