"""A simulated carrom match (ICF singles), refereed by the carrom rules engine.

The physics plays each stroke; the stroke goes into the event log as vision
would see it (`{"type": "stroke", "pocketed": [...], "striker": ..., "foul": false}`),
and `scoring.replay` says what happens next: whose turn it is, which colour each
side plays, which coins and whether the queen go back on the board (`live.to_place`),
and when a board, game or match ends.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

import numpy as np

from calibration.geometry import CarromBoard
from simulation.physics import Table
from simulation.physics_boards import COIN, STRIKER, carrom_table
from simulation.play_clock import Recorder, lifted_while_aiming
from simulation.players import Skill, carrom_flick
from simulation.scene import Seat, Timeline
from simulation.play_referee import Referee

SIDES = ("A", "B")
COINS_PER_COLOUR = 9
#: A whole match never needs more; a loop that does is stopped rather than run forever.
MAX_MATCH_STROKES = 4000
#: Gap left between the coins of the break formation so they start touching but not overlapping.
_FORMATION_GAP_MM = 0.05


def match_line() -> dict[str, Any]:
    return {"type": "match", "game": "carrom", "preset": "icf", "sides": list(SIDES)}


def seat_of(side: str, game: int) -> Seat:
    """ICF 58: singles players change to the opposite side after each game."""
    south_side = SIDES[(game - 1) % 2]
    return "south" if side == south_side else "north"


def break_formation(board: CarromBoard) -> list[tuple[str, float, float]]:
    """The 19 coins of the break: the queen in the centre, a ring of 6 and a hexagon of 12, touching.

    Inner ring alternates white and black; in the outer hexagon each colour takes
    every other place, so each colour has 9 coins.
    """
    d = board.coin_diameter_mm + _FORMATION_GAP_MM
    places = [("queen", 0.0, 0.0)]
    for k in range(6):
        a = math.radians(30 + 60 * k)
        places.append(("white" if k % 2 == 0 else "black", d * math.cos(a), d * math.sin(a)))
    for k in range(12):
        a = math.radians(30 + 30 * k)
        r = 2 * d if k % 2 == 0 else math.sqrt(3) * d
        places.append(("white" if (k // 2) % 2 == 1 else "black", r * math.cos(a), r * math.sin(a)))
    return places


def new_table(board: CarromBoard, rng: np.random.Generator) -> tuple[Table, int]:
    """A carrom table with the 19 coins in the break formation and the striker off the board."""
    table = carrom_table(board, rng=rng)
    for kind, x, y in break_formation(board):
        table.add_piece(kind, radius_mm=board.coin_diameter_mm / 2, material=COIN, x_mm=x, y_mm=y, status="board")
    striker = table.add_piece("striker", radius_mm=board.striker_diameter_mm / 2, material=STRIKER,
                              x_mm=0.0, y_mm=-board.half_side_mm - board.frame_width_mm - 40.0, status="off")
    return table, striker


def reset_formation(table: Table, board: CarromBoard) -> None:
    places = {kind: [] for kind in ("white", "black", "queen")}
    for kind, x, y in break_formation(board):
        places[kind].append((x, y))
    for kind, spots in places.items():
        for piece_id, (x, y) in zip(table.ids(kind=kind), spots):
            table.place(piece_id, x, y)


def _set_out(table: Table, board: CarromBoard, striker: int) -> None:
    """The coins set out in the break formation for the next board, the striker taken off."""
    table.set_aside(striker, "off")
    reset_formation(table, board)


def free_spot(table: Table, board: CarromBoard, radius_mm: float, rng: np.random.Generator) -> tuple[float, float]:
    """Where a returned piece goes: the centre if free, else the nearest free spot found inside
    the outer circle (ICF 78: as near the centre as possible), else anywhere free."""
    if table.is_free(0.0, 0.0, radius_mm):
        return 0.0, 0.0
    outer_r = board.outer_circle_diameter_mm / 2 - radius_mm
    for limit_mm in np.linspace(radius_mm * 2, board.half_side_mm - radius_mm - 5, 12):
        for _ in range(40):
            r = float(rng.uniform(0, min(limit_mm, outer_r) if limit_mm <= outer_r else limit_mm))
            a = float(rng.uniform(0, 2 * math.pi))
            x, y = r * math.cos(a), r * math.sin(a)
            if table.is_free(x, y, radius_mm):
                return x, y
    raise RuntimeError("no free spot on the carrom board")


def _place_returned(table: Table, board: CarromBoard, recorder: Recorder, live: dict[str, Any],
                    rng: np.random.Generator) -> None:
    """The player to strike next puts the returned pieces back, one by one by hand."""
    to_place = live["to_place"]
    pending = [(kind, n) for kind, n in (("queen", to_place.get("queen", 0)), ("white", to_place.get("white", 0)),
                                         ("black", to_place.get("black", 0))) if n > 0]
    seat = seat_of(live["turn"], live["game"])
    for kind, n in pending:
        pocketed = table.ids(kind=kind, status="pocket")
        if len(pocketed) < n:
            raise RuntimeError(f"rules engine returns {n} {kind} but only {len(pocketed)} are pocketed")
        for piece_id in pocketed[-n:]:
            x, y = free_spot(table, board, table.piece(piece_id).radius_mm, rng)
            recorder.place(piece_id, x, y, seat=seat)


def play_carrom(board: CarromBoard, *, seed: int, fps: float, boards: int | None = None,
                max_strokes: int | None = None) -> Timeline:
    """Play carrom until the match is over, `boards` boards are done, or `max_strokes` strokes."""
    rng = np.random.default_rng(seed)
    table, striker = new_table(board, rng)
    recorder = Recorder(table, fps=fps)
    skills = {side: Skill(angle_sigma_deg=float(rng.uniform(0.7, 1.6)), speed_sigma=float(rng.uniform(0.05, 0.11)))
              for side in SIDES}
    referee = Referee(match_line())
    result = referee.result
    current = (result["live"]["game"], result["live"]["board"])
    boards_done = 0
    recorder.event("board_start", game=current[0], board=current[1])
    while True:
        live = result["live"]
        if result.get("winner") is not None or live.get("over"):
            break
        if (live["game"], live["board"]) != current:
            boards_done += 1
            recorder.event("board_end", game=current[0], board=current[1])
            if boards is not None and boards_done >= boards:
                break
            recorder.wait(1.5)
            recorder.by_hand(seat_of(live["turn"], live["game"]), 0.0, 0.0,
                             partial(_set_out, table, board, striker))
            current = (live["game"], live["board"])
            recorder.event("board_start", game=current[0], board=current[1])
            recorder.wait(1.0)
        if recorder.strokes >= (max_strokes if max_strokes is not None else MAX_MATCH_STROKES):
            break
        _place_returned(table, board, recorder, live, rng)
        result = referee.add(_stroke(table, board, recorder, striker, live, skills, rng))
    return recorder.timeline(game="carrom", board_model=board.model, event_log=referee.log,
                             score=referee.final_score())


def _stroke(table: Table, board: CarromBoard, recorder: Recorder, striker: int, live: dict[str, Any],
            skills: dict[str, Skill], rng: np.random.Generator) -> dict[str, Any]:
    side = live["turn"]
    colour = live["colours"][side]
    seat = seat_of(side, live["game"])
    targets = {colour}
    queen_open = live["queen"] == "on_board" and live["on_board"].get("queen")
    # ICF 92: the queen only after an own coin; a side covering goes for its own colour.
    if queen_open and live["pocketed"].get(colour, 0) > 0 and not live.get("dues", {}).get(side):
        targets.add("queen")
        if live["on_board"][colour] <= 1:
            # ICF 107: the last own coin before the queen loses the board; go for the queen.
            targets = {"queen"}
    is_break = live.get("strokes", 0) == 0 or (live.get("break_attempts", 0) > 0 and _formation_intact(table))
    with lifted_while_aiming(table, (striker,)):
        flick = carrom_flick(table, board, seat=seat, striker_id=striker, target_kinds=targets, is_break=is_break,
                             rng=rng, skill=skills[side])
    outcome = recorder.shoot(striker, flick, seat=seat, side=side)
    pocketed = [table.piece(c.piece_id).kind for c in outcome.captures if c.piece_id != striker]
    touched = any(striker in (c.piece_a, c.piece_b) for c in outcome.contacts)
    return {
        "type": "stroke",
        "pocketed": pocketed,
        "striker": any(c.piece_id == striker for c in outcome.captures),
        "foul": False,
        "touched": touched,
    }


def _formation_intact(table: Table) -> bool:
    queen = table.piece(table.ids(kind="queen")[0])
    return queen.status == "board" and math.hypot(queen.x_mm, queen.y_mm) < 1.0
