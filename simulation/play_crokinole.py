"""A simulated crokinole match (NCA singles): rounds of 8 discs a side, shot alternately.

After every shot the ruling of rules.md 2.3 (`scoring.crokinole_shots`) decides
which discs go to the ditch (invalid shot, touching the outer line, left the
surface) and which are 20s; at the end of a round the discs left on the board
are scored by zone and a `round` event goes into the log.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

import numpy as np

from calibration.geometry import CrokinoleBoard
from scoring.crokinole_shots import ShotFacts, resolve_shot
from simulation.physics import StrokeResult, Table
from simulation.physics_boards import CROKINOLE_DISC, crokinole_table, seat_to_board
from simulation.play_clock import Recorder
from simulation.players import Skill, crokinole_flick
from simulation.scene import Seat, Timeline
from simulation.play_referee import Referee

SIDES = ("A", "B")
KIND_OF_SIDE = {"A": "light", "B": "dark"}
SEAT_OF_SIDE: dict[str, Seat] = {"A": "south", "B": "north"}
DISCS_PER_SIDE = 8


def match_line() -> dict[str, Any]:
    return {"type": "match", "game": "crokinole", "preset": "nca", "sides": list(SIDES)}


def new_table(board: CrokinoleBoard, rng: np.random.Generator) -> tuple[Table, dict[str, list[int]]]:
    """A table with every disc off the board, beside its owner's seat."""
    table = crokinole_table(board, rng=rng)
    discs: dict[str, list[int]] = {}
    for side in SIDES:
        discs[side] = []
        for k in range(DISCS_PER_SIDE):
            x, y = _beside_seat(board, SEAT_OF_SIDE[side], k)
            discs[side].append(table.add_piece(KIND_OF_SIDE[side], radius_mm=board.disc_diameter_mm / 2,
                                               material=CROKINOLE_DISC, x_mm=x, y_mm=y, status="off"))
    return table, discs


def _beside_seat(board: CrokinoleBoard, seat: Seat, k: int) -> tuple[float, float]:
    outside = board.surface_radius_mm + board.ditch_width_mm + board.frame_width_mm + 40.0
    return seat_to_board(seat, (k - (DISCS_PER_SIDE - 1) / 2) * (board.disc_diameter_mm + 4), -outside)


def play_crokinole(board: CrokinoleBoard, *, seed: int, fps: float, rounds: int | None = None,
                   max_shots: int | None = None) -> Timeline:
    """Play rounds until the match is over (or `rounds` rounds, or `max_shots` shots in all).

    A round cut short by `max_shots` logs no `round` event.
    """
    rng = np.random.default_rng(seed)
    table, discs = new_table(board, rng)
    recorder = Recorder(table, fps=fps)
    skills = {side: Skill(angle_sigma_deg=float(rng.uniform(0.8, 1.8)), speed_sigma=float(rng.uniform(0.06, 0.12)))
              for side in SIDES}
    referee = Referee(match_line())
    round_index = 0
    while True:
        if rounds is not None and round_index >= rounds:
            break
        # A tie that needs a shoot-out at the hole ends the simulation: shoot-outs are not played.
        if referee.is_over or referee.result["live"].get("shootout_required"):
            break
        starter = referee.result["live"].get("starter") or SIDES[round_index % 2]
        twenties = _play_round(table, board, recorder, discs, starter=starter, skills=skills, rng=rng,
                               max_shots=max_shots)
        if twenties is None:
            recorder.wait(1.0)  # cut short after a shot: the camera runs on until the hands are gone and all is still
            break
        referee.add({"type": "round", "discs": round_discs(table, board, discs), "twenties": twenties})
        recorder.event("round_end", round=round_index + 1)
        round_index += 1
        recorder.wait(1.0)
        for side in SIDES:
            recorder.by_hand(SEAT_OF_SIDE[side], 0.0, 0.0, partial(_clear_side, table, board, discs, side))
        recorder.wait(1.0)
    return recorder.timeline(game="crokinole", board_model=board.model, event_log=referee.log,
                             score=referee.final_score())


def _clear_side(table: Table, board: CrokinoleBoard, discs: dict[str, list[int]], side: str) -> None:
    """A side's player takes its discs off the board after a round, beside their seat."""
    for k, piece_id in enumerate(discs[side]):
        x_mm, y_mm = _beside_seat(board, SEAT_OF_SIDE[side], k)
        table.set_aside(piece_id, "off", x_mm=x_mm, y_mm=y_mm)


def _play_round(table: Table, board: CrokinoleBoard, recorder: Recorder, discs: dict[str, list[int]], *,
                starter: str, skills: dict[str, Skill], rng: np.random.Generator,
                max_shots: int | None) -> dict[str, int] | None:
    """Shoot every disc of the round; the 20s of each side, or None if `max_shots` cut it short."""
    twenties = {side: 0 for side in SIDES}
    order = [starter, SIDES[1 - SIDES.index(starter)]]
    for shot in range(2 * DISCS_PER_SIDE):
        if max_shots is not None and recorder.strokes >= max_shots:
            return None
        side = order[shot % 2]
        opponent = order[(shot + 1) % 2]
        disc = discs[side][shot // 2]
        before = set(table.ids(status="board"))
        flick = crokinole_flick(table, board, seat=SEAT_OF_SIDE[side], disc_id=disc,
                                opponent_kind=KIND_OF_SIDE[opponent], rng=rng, skill=skills[side])
        result = recorder.shoot(disc, flick, seat=SEAT_OF_SIDE[side], side=side)
        for owner in _rule_on_shot(table, board, recorder, discs, side=side, disc=disc, before=before,
                                   result=result):
            twenties[owner] += 1
    return twenties


def shot_facts(table: Table, board: CrokinoleBoard, discs: dict[str, list[int]], *, side: str, disc: int,
               before: set[int], result: StrokeResult) -> ShotFacts:
    """What a shot did, from the physics: the contact chain from the shot disc, zones after."""
    owners = {str(i): s for s in SIDES for i in discs[s]}
    chain = {disc}
    for contact in result.contacts:
        a, b = contact.piece_a, contact.piece_b
        if a in chain and b not in chain:
            chain.add(b)
        elif b in chain and a not in chain:
            chain.add(a)
    moved = before | {disc}
    ditched = {c.piece_id for c in result.captures if c.status == "ditch"}
    zones, touching = {}, set()
    fifteen_r = board.fifteen_line_diameter_mm / 2 + board.line_width_mm / 2
    for piece_id in moved:
        state = table.piece(piece_id)
        if state.status == "hole":
            zones[str(piece_id)] = 20
        elif state.status == "board":
            zone = board.zone_value(state.x_mm, state.y_mm, state.radius_mm)
            zones[str(piece_id)] = zone
            if zone == 10 and math.hypot(state.x_mm, state.y_mm) - state.radius_mm <= fifteen_r:
                touching.add(str(piece_id))
    return ShotFacts(
        shooter=side,
        shot_disc=str(disc),
        owners=owners,
        on_board_before=frozenset(str(i) for i in before),
        struck=frozenset(str(i) for i in (chain - {disc}) & before),
        zones_after=zones,
        touching_fifteen_line=frozenset(touching),
        left_surface=frozenset(str(i) for i in ditched & moved),
    )


def _rule_on_shot(table: Table, board: CrokinoleBoard, recorder: Recorder, discs: dict[str, list[int]], *,
                  side: str, disc: int, before: set[int], result: StrokeResult) -> list[str]:
    """Apply the ruling on a shot by hand: removals to the ditch, 20s out of the hole (NCA 2).

    Returns the owner side of each 20 scored.
    """
    outcome = resolve_shot(shot_facts(table, board, discs, side=side, disc=disc, before=before, result=result))
    if not outcome.removals and not outcome.twenties:
        return []
    seat = SEAT_OF_SIDE[side]
    ditch_r = board.surface_radius_mm + board.ditch_width_mm / 2
    for removal in outcome.removals:
        state = table.piece(int(removal.disc))
        # A disc taken out of the hole goes to the ditch on the shooter's side.
        x, y = (state.x_mm, state.y_mm) if state.status == "board" else seat_to_board(SEAT_OF_SIDE[side], 0.0, -1.0)
        d = math.hypot(x, y) or 1.0
        recorder.remove(int(removal.disc), "ditch", seat=seat, reason=removal.reason.value, x_mm=x / d * ditch_r,
                        y_mm=y / d * ditch_r)
    owners = {str(i): s for s in SIDES for i in discs[s]}
    for twenty in outcome.twenties:
        # WCC: a 20 is taken out of the hole after the turn and kept beside the board.
        owner = owners[twenty]
        x, y = _beside_seat(board, SEAT_OF_SIDE[owner], DISCS_PER_SIDE + len(table.ids(status="off")) % 8)
        recorder.by_hand(seat, 0.0, 0.0, partial(_set_twenty_aside, table, recorder, int(twenty), KIND_OF_SIDE[owner],
                                                 x_mm=x, y_mm=y))
    return [owners[t] for t in outcome.twenties]


def _set_twenty_aside(table: Table, recorder: Recorder, piece_id: int, kind: str, *, x_mm: float,
                      y_mm: float) -> None:
    table.set_aside(piece_id, "off", x_mm=x_mm, y_mm=y_mm)
    recorder.event("twenty_set_aside", piece=kind)


def round_discs(table: Table, board: CrokinoleBoard, discs: dict[str, list[int]]) -> dict[str, list[int]]:
    """Zone value of every disc of each side on the board (a leaning disc scores 15)."""
    return {
        side: sorted(
            (board.zone_value(s.x_mm, s.y_mm, s.radius_mm) for s in map(table.piece, discs[side])
             if s.status == "board"),
            reverse=True,
        )
        for side in SIDES
    }

