"""One settled board mid-game for a still image, with the hard cases a reader must face.

The board is played by physics for a seeded number of strokes, then a seeded
sampler moves a few resting pieces into the situations real play produces only
now and then: coins touching in clusters, a coin half over a pocket mouth, a
crokinole disc touching a line by a fraction of a millimetre, a disc leaning
into the 20-hole. Every case it makes is listed, so tests and benchmarks can
pick them out.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from calibration.geometry import BoardModel, CarromBoard, CouronneBoard, CrokinoleBoard
from simulation.physics import lean_into_hole_mm
from simulation.play_carrom import play_carrom
from simulation.play_couronne import play_couronne
from simulation.play_crokinole import play_crokinole
from simulation.players import carrom_striker_line
from simulation.scene import PieceState, SceneFrame, Timeline

#: Chance that each hard case is attempted in one still.
CASE_PROBABILITY = 0.6
#: Touching pieces are set this close (mm): touching to the eye and to any reader.
_TOUCH_GAP_MM = (0.0, 0.3)


def still_scene(board: BoardModel, *, seed: int) -> tuple[Timeline, list[dict[str, Any]]]:
    """A timeline whose one frame is the still's board, and the hard cases made in it."""
    rng = np.random.default_rng([seed, 1])
    if isinstance(board, CarromBoard):
        strokes = 0 if rng.random() < 0.15 else int(rng.integers(2, 30))
        timeline = play_carrom(board, seed=seed, fps=0, boards=1, max_strokes=strokes)
    elif isinstance(board, CrokinoleBoard):
        timeline = play_crokinole(board, seed=seed, fps=0, rounds=1, max_shots=int(rng.integers(3, 16)))
    else:
        timeline = play_couronne(board, seed=seed, fps=0, max_strokes=int(rng.integers(0, 25)))
    pieces = list(timeline.frames[-1].pieces)
    cases: list[dict[str, Any]] = []
    used: set[int] = set()
    if rng.random() < CASE_PROBABILITY:
        cases += _cluster(pieces, board, rng, used)
    if not isinstance(board, CrokinoleBoard) and rng.random() < CASE_PROBABILITY:
        cases += _pocket_mouth(pieces, board, rng, used)
    if isinstance(board, CrokinoleBoard):
        if rng.random() < CASE_PROBABILITY:
            cases += _line_touch(pieces, board, rng, used)
        if rng.random() < CASE_PROBABILITY:
            cases += _lean(pieces, board, rng, used)
    if isinstance(board, CarromBoard) and (len(timeline.shots) == 0 or rng.random() < 0.5):
        cases += _striker_on_base_line(pieces, board, rng, used)
    frame = SceneFrame(timeline.frames[-1].t_s, tuple(pieces))
    return dataclasses.replace(timeline, frames=(frame,)), cases


def _resting(pieces: list[PieceState], used: set[int], *, kinds: set[str] | None = None) -> list[int]:
    """Indices of resting pieces not yet moved by another case."""
    return [i for i, p in enumerate(pieces)
            if p.status == "board" and i not in used and (kinds is None or p.kind in kinds)]


def _fits(pieces: list[PieceState], board: BoardModel, index: int, x: float, y: float) -> bool:
    """No overlap with another resting piece, on the surface, clear of pockets, pegs and the hole."""
    r = pieces[index].radius_mm
    for j, p in enumerate(pieces):
        if j != index and p.status == "board" and math.hypot(p.x_mm - x, p.y_mm - y) < p.radius_mm + r - 1e-6:
            return False
    if isinstance(board, CrokinoleBoard):
        d = math.hypot(x, y)
        if d + r >= board.shooting_line_diameter_mm / 2 - board.line_width_mm:
            return False
        if d < board.hole_diameter_mm / 2 + r:
            return False
        return all(math.hypot(x - px, y - py) >= r + board.peg_diameter_mm / 2
                   for px, py in board.peg_centres_mm())
    h = board.half_side_mm - r
    if abs(x) > h or abs(y) > h:
        return False
    return all(math.hypot(x - px, y - py) >= board.pocket_diameter_mm / 2 for px, py in board.pocket_centres_mm())


def _move(pieces: list[PieceState], used: set[int], index: int, x: float, y: float, lean_mm: float = 0.0) -> None:
    """Move a resting piece and mark it used, so no later case moves it again."""
    used.add(index)
    pieces[index] = dataclasses.replace(pieces[index], x_mm=round(x, 3), y_mm=round(y, 3), lean_mm=round(lean_mm, 3))


def _cluster(pieces, board, rng, used: set[int]) -> list[dict[str, Any]]:
    """Two to four resting pieces moved to touch one another."""
    resting = _resting(pieces, used, kinds={"white", "black", "queen", "light", "dark", "pink", "blue"})
    if len(resting) < 2:
        return []
    order = [resting[i] for i in rng.permutation(len(resting))]
    members = [order[0]]
    for index in order[1: int(rng.integers(2, 5))]:
        for _ in range(30):
            anchor = pieces[members[int(rng.integers(len(members)))]]
            a = float(rng.uniform(0, 2 * math.pi))
            gap = float(rng.uniform(*_TOUCH_GAP_MM))
            dist = anchor.radius_mm + pieces[index].radius_mm + gap
            x, y = anchor.x_mm + dist * math.cos(a), anchor.y_mm + dist * math.sin(a)
            if _fits(pieces, board, index, x, y):
                _move(pieces, used, index, x, y)
                members.append(index)
                break
    if len(members) < 2:
        return []
    used.update(members)
    return [{"case": "cluster", "pieces": sorted(pieces[i].piece_id for i in members)}]


def _pocket_mouth(pieces, board: CarromBoard | CouronneBoard, rng, used: set[int]) -> list[dict[str, Any]]:
    """A resting piece whose centre lies just outside a pocket circle: half over the mouth, not in."""
    resting = _resting(pieces, used, kinds={"white", "black", "queen", "pink", "blue"})
    if not resting:
        return []
    index = resting[int(rng.integers(len(resting)))]
    number = int(rng.integers(4))
    px, py = board.pocket_centres_mm()[number]
    r = pieces[index].radius_mm
    for _ in range(20):
        offset = board.pocket_diameter_mm / 2 + float(rng.uniform(0.5, 0.5 * r))
        a = math.atan2(-py, -px) + float(rng.uniform(-0.5, 0.5))
        x, y = px + offset * math.cos(a), py + offset * math.sin(a)
        if _fits(pieces, board, index, x, y):
            _move(pieces, used, index, x, y)
            return [{"case": "pocket_mouth", "pieces": [pieces[index].piece_id], "pocket": number,
                     "overlap_mm": round(r + board.pocket_diameter_mm / 2 - offset, 2)}]
    return []


def _line_touch(pieces, board: CrokinoleBoard, rng, used: set[int]) -> list[dict[str, Any]]:
    """A disc whose edge is within a fraction of a millimetre of a scoring line's edge."""
    resting = _resting(pieces, used)
    if not resting:
        return []
    index = resting[int(rng.integers(len(resting)))]
    r = pieces[index].radius_mm
    half_w = board.line_width_mm / 2
    for _ in range(40):
        line_r = board.line_radii_mm()[int(rng.choice([15, 10]))]
        gap = float(rng.uniform(-0.8, 0.8))
        inside = rng.random() < 0.5
        d = line_r - half_w - r - gap if inside else line_r + half_w + r + gap
        a = float(rng.uniform(0, 2 * math.pi))
        if _fits(pieces, board, index, d * math.cos(a), d * math.sin(a)):
            _move(pieces, used, index, d * math.cos(a), d * math.sin(a))
            return [{"case": "line_touch", "pieces": [pieces[index].piece_id], "gap_mm": round(gap, 3)}]
    return []


def _lean(pieces, board: CrokinoleBoard, rng, used: set[int]) -> list[dict[str, Any]]:
    """A disc resting with its centre over the edge of the 20-hole, leaning in (scores 15)."""
    resting = _resting(pieces, used)
    if not resting:
        return []
    index = resting[int(rng.integers(len(resting)))]
    hole_r = board.hole_diameter_mm / 2
    r = pieces[index].radius_mm
    for _ in range(40):
        d = float(rng.uniform(hole_r - 0.25 * r, hole_r - 0.5))
        a = float(rng.uniform(0, 2 * math.pi))
        x, y = d * math.cos(a), d * math.sin(a)
        clear = all(
            j == index or p.status != "board" or math.hypot(p.x_mm - x, p.y_mm - y) >= p.radius_mm + r
            for j, p in enumerate(pieces)
        )
        if clear:
            lean = lean_into_hole_mm(d, hole_r, board.hole_depth_mm)
            _move(pieces, used, index, x, y, lean)
            return [{"case": "lean", "pieces": [pieces[index].piece_id], "lean_mm": round(lean, 2)}]
    return []


def _striker_on_base_line(pieces, board: CarromBoard, rng, used: set[int]) -> list[dict[str, Any]]:
    """The striker set on the south base line, as a player is about to shoot."""
    index = next(i for i, p in enumerate(pieces) if p.kind == "striker")
    y_seat, half_length = carrom_striker_line(board)
    for _ in range(30):
        x = float(rng.uniform(-half_length, half_length))
        original = pieces[index]
        pieces[index] = dataclasses.replace(original, status="board")
        if _fits(pieces, board, index, x, y_seat):
            _move(pieces, used, index, x, y_seat)
            return [{"case": "striker_on_base_line", "pieces": [original.piece_id]}]
        pieces[index] = original
    return []
