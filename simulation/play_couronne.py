"""A simulated couronne game (Micki rules, two players), refereed by the couronne rules engine.

Each stroke goes into the log as counts of own and opponent rings pocketed or
knocked off and what happened to the shooter ring; `scoring.replay` says whose
turn it is and which rings go back where (`live.to_place`: centre circle, the
opponent's best spot in it, or a corner field).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from calibration.geometry import CouronneBoard
from simulation.physics import Table
from simulation.physics_boards import RING, SHOOTER_RING, couronne_table, seat_to_board
from simulation.play_clock import Recorder, lifted_while_aiming
from simulation.players import Skill, couronne_flick
from simulation.scene import Seat, Timeline
from simulation.play_referee import Referee

SIDES = ("pink", "blue")
SEAT_OF_SIDE: dict[str, Seat] = {"pink": "south", "blue": "north"}
RINGS_PER_SIDE = 12
MAX_GAME_STROKES = 1500


def match_line(rings: int = RINGS_PER_SIDE) -> dict[str, Any]:
    return {"type": "match", "game": "couronne", "sides": list(SIDES), "rings": rings}


def crown(board: CouronneBoard, rings: int = RINGS_PER_SIDE) -> list[tuple[str, float, float]]:
    """The opening layout: the rings of both colours alternating on two circles about the centre."""
    d = board.ring_outer_diameter_mm + 1.0
    inner = max(3, 2 * rings // 3)
    outer = 2 * rings - inner
    r_inner = d / (2 * math.sin(math.pi / inner))
    r_outer = max(r_inner + d, d / (2 * math.sin(math.pi / outer)))
    places = [(r_inner, 2 * math.pi * (k + 0.5) / inner) for k in range(inner)]
    places += [(r_outer, 2 * math.pi * k / outer) for k in range(outer)]
    return [(SIDES[i % 2], r * math.cos(a), r * math.sin(a)) for i, (r, a) in enumerate(places)]


def new_table(board: CouronneBoard, rng: np.random.Generator) -> tuple[Table, dict[str, int]]:
    """A couronne table with the crown laid out and both shooter rings off the board."""
    table = couronne_table(board, rng=rng)
    for kind, x, y in crown(board):
        table.add_piece(kind, radius_mm=board.ring_outer_diameter_mm / 2, material=RING, x_mm=x, y_mm=y,
                        status="board")
    shooters = {}
    for side in SIDES:
        x, y = seat_to_board(SEAT_OF_SIDE[side], 0.0, -board.half_side_mm - board.frame_width_mm - 40.0)
        shooters[side] = table.add_piece("shooter", radius_mm=board.shooter_ring_outer_diameter_mm / 2,
                                         material=SHOOTER_RING, x_mm=x, y_mm=y, status="off")
    return table, shooters


def _spot(table: Table, board: CouronneBoard, place: str, offender_seat: Seat, radius_mm: float,
          rng: np.random.Generator) -> tuple[float, float]:
    if place == "corner_field":
        # S-CO Strafen 6 (2 players): a corner field on the offender's side.
        c = board.half_side_mm - board.pocket_diameter_mm / 2 - board.corner_field_diameter_mm / 2
        for sx in ((-1, 1) if rng.random() < 0.5 else (1, -1)):
            x, y = seat_to_board(offender_seat, sx * c, -c)
            for _ in range(30):
                jx, jy = x + rng.uniform(-15, 15), y + rng.uniform(-15, 15)
                if table.is_free(jx, jy, radius_mm):
                    return float(jx), float(jy)
    limit = board.centre_circle_diameter_mm / 2 - radius_mm
    for attempt in range(400):
        r = float(rng.uniform(0, limit if attempt < 200 else board.half_side_mm * 0.6))
        a = float(rng.uniform(0, 2 * math.pi))
        if table.is_free(r * math.cos(a), r * math.sin(a), radius_mm):
            return r * math.cos(a), r * math.sin(a)
    raise RuntimeError("no free spot on the couronne board")


def _place_returned(table: Table, board: CouronneBoard, recorder: Recorder, to_place: dict[str, dict[str, int]],
                    offender: str, rng: np.random.Generator) -> None:
    """The offender puts the returned rings back, one by one by hand (off the board first)."""
    pending = [(side, place, n) for side in SIDES for place, n in sorted(to_place.get(side, {}).items()) if n > 0]
    for side, place, n in pending:
        # A ring knocked off comes back first; the others come out of a pocket.
        candidates = table.ids(kind=side, status="off") + table.ids(kind=side, status="pocket")
        for piece_id in candidates[:n]:
            x, y = _spot(table, board, place, SEAT_OF_SIDE[offender], table.piece(piece_id).radius_mm, rng)
            recorder.place(piece_id, x, y, seat=SEAT_OF_SIDE[offender])


def play_couronne(board: CouronneBoard, *, seed: int, fps: float, max_strokes: int | None = None) -> Timeline:
    """Play one couronne game to its end (or `max_strokes` strokes)."""
    rng = np.random.default_rng(seed)
    table, shooters = new_table(board, rng)
    recorder = Recorder(table, fps=fps)
    skills = {side: Skill(angle_sigma_deg=float(rng.uniform(0.8, 1.8)), speed_sigma=float(rng.uniform(0.06, 0.12)))
              for side in SIDES}
    referee = Referee(match_line())
    result = referee.result
    last_side = SIDES[0]
    while result.get("winner") is None and result["live"]["turn"] is not None:
        if recorder.strokes >= (max_strokes if max_strokes is not None else MAX_GAME_STROKES):
            break
        _place_returned(table, board, recorder, result["live"]["to_place"], last_side, rng)
        side = result["live"]["turn"]
        result = referee.add(_stroke(table, board, recorder, shooters, side, skills[side], rng))
        last_side = side
    return recorder.timeline(game="couronne", board_model=board.model, event_log=referee.log,
                             score=referee.final_score())


def _stroke(table: Table, board: CouronneBoard, recorder: Recorder, shooters: dict[str, int], side: str,
            skill: Skill, rng: np.random.Generator) -> dict[str, Any]:
    shooter = shooters[side]
    seat = SEAT_OF_SIDE[side]
    with lifted_while_aiming(table, tuple(shooters.values())):
        flick = couronne_flick(table, board, seat=seat, shooter_id=shooter, own_kind=side,
                               is_break=recorder.strokes == 0, rng=rng, skill=skill)
    outcome = recorder.shoot(shooter, flick, seat=seat, side=side, lift=tuple(shooters.values()))
    pocketed = {"own": 0, "opponent": 0}
    off_board = {"own": 0, "opponent": 0}
    shooter_pocketed = shooter_off = False
    for capture in outcome.captures:
        if capture.piece_id == shooter:
            shooter_pocketed |= capture.status == "pocket"
            shooter_off |= capture.status == "off"
            continue
        whose = "own" if table.piece(capture.piece_id).kind == side else "opponent"
        (pocketed if capture.status == "pocket" else off_board)[whose] += 1
    return {
        "type": "stroke",
        "pocketed": pocketed,
        "shooter_pocketed": shooter_pocketed,
        "shooter_off_board": shooter_off,
        "off_board": off_board,
    }
