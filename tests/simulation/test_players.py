import math

import numpy as np
import pytest

from calibration.geometry import load_board
from simulation.physics_boards import COIN, CROKINOLE_DISC, STRIKER, carrom_table, crokinole_table, seat_to_board
from simulation.play_carrom import new_table
from simulation.players import Skill, carrom_flick, crokinole_flick

PERFECT = Skill(angle_sigma_deg=0.0, speed_sigma=0.0)


@pytest.mark.parametrize("seat", ["south", "north", "east", "west"])
def test_seat_frames_put_the_player_on_their_side(seat):
    x, y = seat_to_board(seat, 0.0, -100.0)
    expected = {"south": (0, -100), "north": (0, 100), "east": (100, 0), "west": (-100, 0)}[seat]
    assert (x, y) == pytest.approx(expected, abs=1e-9)


def test_perfect_carrom_player_pots_an_easy_coin_from_the_base_line():
    board = load_board("carrom")
    table = carrom_table(board, rng=np.random.default_rng(0))
    coin = table.add_piece("white", radius_mm=15.5, material=COIN, x_mm=200, y_mm=180, status="board")
    table.add_piece("black", radius_mm=15.5, material=COIN, x_mm=-150, y_mm=50, status="board")
    striker = table.add_piece("striker", radius_mm=20.5, material=STRIKER, status="off")
    flick = carrom_flick(table, board, seat="south", striker_id=striker, target_kinds={"white"}, is_break=False,
                         rng=np.random.default_rng(1), skill=PERFECT)
    assert flick.y_mm < 0 and flick.vy_mm_s > 0  # from the south base line, forwards
    table.place(striker, flick.x_mm, flick.y_mm)
    table.strike(striker, flick.vx_mm_s, flick.vy_mm_s)
    assert table.piece(coin).status == "pocket"


def test_break_is_aimed_at_the_formation():
    board = load_board("carrom")
    table, striker = new_table(board, np.random.default_rng(0))
    flick = carrom_flick(table, board, seat="north", striker_id=striker, target_kinds={"white"}, is_break=True,
                         rng=np.random.default_rng(2), skill=PERFECT)
    assert flick.y_mm > 0 and flick.vy_mm_s < -3000


def test_crokinole_draw_on_an_empty_board_stops_inside_the_fifteen_line_or_in_the_hole():
    board = load_board("crokinole")
    inside = 0
    for seed in range(6):
        table = crokinole_table(board, rng=np.random.default_rng(seed))
        disc = table.add_piece("light", radius_mm=15.875, material=CROKINOLE_DISC, status="off")
        flick = crokinole_flick(table, board, seat="south", disc_id=disc, opponent_kind="dark",
                                rng=np.random.default_rng(seed), skill=PERFECT)
        assert math.hypot(flick.x_mm, flick.y_mm) == pytest.approx(board.shooting_line_diameter_mm / 2)
        assert flick.y_mm < 0
        table.place(disc, flick.x_mm, flick.y_mm)
        table.strike(disc, flick.vx_mm_s, flick.vy_mm_s)
        state = table.piece(disc)
        inside += state.status == "hole" or (
            state.status == "board" and board.zone_value(state.x_mm, state.y_mm, state.radius_mm) >= 10)
    # Pegs deflect some draws; most still end near the middle.
    assert inside >= 4


def test_crokinole_player_takes_out_an_opponent_disc_in_the_open():
    board = load_board("crokinole")
    table = crokinole_table(board, rng=np.random.default_rng(0))
    target = table.add_piece("dark", radius_mm=15.875, material=CROKINOLE_DISC, x_mm=0, y_mm=-160, status="board")
    disc = table.add_piece("light", radius_mm=15.875, material=CROKINOLE_DISC, status="off")
    flick = crokinole_flick(table, board, seat="south", disc_id=disc, opponent_kind="dark",
                            rng=np.random.default_rng(0), skill=PERFECT)
    table.place(disc, flick.x_mm, flick.y_mm)
    result = table.strike(disc, flick.vx_mm_s, flick.vy_mm_s)
    assert any({c.piece_a, c.piece_b} == {disc, target} for c in result.contacts)
    moved = table.piece(target)
    assert moved.status == "ditch" or math.hypot(moved.x_mm, moved.y_mm - (-160)) > 50
