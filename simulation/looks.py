"""Board looks and difficulty settings, loaded from the JSON files in ``simulation/looks/``.

A look is a colour scheme and texture strength for one game's board, table and
pieces; colours are stored as RGB in the data and handed out as BGR (OpenCV order).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

DIFFICULTIES: tuple[str, ...] = ("clean", "easy", "medium", "hard")


@dataclass(frozen=True)
class Look:
    """One game's board look: raw data from ``looks/<game>.json``."""

    game: str
    name: str
    data: dict[str, Any]

    def bgr(self, key: str) -> tuple[int, int, int]:
        """A colour of the look as BGR, e.g. ``look.bgr("lines_rgb")`` or ``look.bgr("surface")``."""
        value = self.data[key]
        rgb = value["rgb"] if isinstance(value, dict) else value
        return (int(rgb[2]), int(rgb[1]), int(rgb[0]))

    def piece_bgr(self, kind: str) -> tuple[int, int, int]:
        r, g, b = self.data["pieces"][kind]
        return (int(b), int(g), int(r))

    def grain(self, key: str) -> float:
        return float(self.data[key].get("grain", 0.0))


def jittered(look: Look, *, rng: np.random.Generator, amount: float = 0.03) -> Look:
    """The same look with every colour shifted a little (brightness and tint), pieces half as much.

    Boards of one design still differ: wood from another tree, a faded print.
    """

    def shift(value: Any, scale: float) -> Any:
        if isinstance(value, list) and len(value) == 3 and all(isinstance(c, (int, float)) for c in value):
            level = 1.0 + rng.uniform(-scale, scale)
            return [int(np.clip(c * level * (1.0 + rng.uniform(-scale, scale) / 2), 0, 255)) for c in value]
        if isinstance(value, dict):
            return {k: shift(v, scale / 2 if k == "pieces" else scale) for k, v in value.items()}
        return value

    return Look(game=look.game, name=look.name, data=shift(look.data, amount))


@cache
def _looks_file(game: str) -> dict[str, Any]:
    path = resources.files("simulation").joinpath("looks", f"{game}.json")
    if not path.is_file():
        raise ValueError(f"no looks for game {game!r}")
    return json.loads(path.read_text())


def looks_for(game: str) -> tuple[Look, ...]:
    """All looks shipped for `game`."""
    return tuple(Look(game=game, name=d["name"], data=d) for d in _looks_file(game)["looks"])


def choose_look(game: str, *, rng: np.random.Generator, name: str | None = None) -> Look:
    """The look called `name`, or one drawn with `rng` when `name` is None."""
    looks = looks_for(game)
    if name is None:
        return looks[int(rng.integers(len(looks)))]
    for look in looks:
        if look.name == name:
            return look
    raise ValueError(f"no look {name!r} for {game}; have {[look.name for look in looks]}")


@cache
def _difficulty_file() -> dict[str, Any]:
    return json.loads(resources.files("simulation").joinpath("looks", "difficulty.json").read_text())


def difficulty_settings(difficulty: str) -> dict[str, Any]:
    """Camera, light and noise ranges for a difficulty (``looks/difficulty.json``)."""
    settings = _difficulty_file()
    if difficulty not in settings:
        raise ValueError(f"unknown difficulty {difficulty!r}; expected one of {', '.join(DIFFICULTIES)}")
    return dict(settings[difficulty])
