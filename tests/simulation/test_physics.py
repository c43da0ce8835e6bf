import math
from dataclasses import replace

import numpy as np
import pytest

from calibration.geometry import load_board
from simulation.physics import FLIGHT_S, MAX_STROKE_S, lean_into_hole_mm
from simulation.physics_boards import COIN, CROKINOLE_DISC, RING, STRIKER, carrom_table, couronne_table, crokinole_table
from simulation.play_carrom import new_table as new_carrom_table
from simulation.play_carrom import break_formation
from simulation.players import carrom_striker_line, speed_for_distance, stopping_distance_mm


def _toward(x0, y0, x1, y1, speed):
    d = math.hypot(x1 - x0, y1 - y0)
    return (x1 - x0) / d * speed, (y1 - y0) / d * speed


@pytest.mark.parametrize("pocket", range(4))
def test_carrom_coin_aimed_straight_in_is_pocketed_in_that_pocket(pocket):
    board = load_board("carrom")
    table = carrom_table(board, rng=np.random.default_rng(0))
    coin = table.add_piece("white", radius_mm=15.5, material=COIN, status="board")
    px, py = board.pocket_centres_mm()[pocket]
    result = table.strike(coin, *_toward(0, 0, px, py, 2500.0))
    assert table.piece(coin).status == "pocket"
    assert table.piece(coin).pocket == pocket
    assert [c.pocket for c in result.captures] == [pocket]


def test_couronne_ring_aimed_straight_in_is_pocketed():
    board = load_board("couronne")
    table = couronne_table(board, rng=np.random.default_rng(0))
    ring = table.add_piece("pink", radius_mm=17.0, material=RING, x_mm=100, y_mm=-50, status="board")
    px, py = board.pocket_centres_mm()[1]
    table.strike(ring, *_toward(100, -50, px, py, 2200.0))
    assert (table.piece(ring).status, table.piece(ring).pocket) == ("pocket", 1)


def test_couronne_ring_that_jumps_a_cushion_flies_on_over_the_frame_then_is_off_the_table():
    board = load_board("couronne")
    table = couronne_table(board, rng=np.random.default_rng(0))
    table.spec = replace(table.spec, jump_probability=1.0)
    ring = table.add_piece("blue", radius_mm=17.0, material=RING, x_mm=100, y_mm=0, status="board")
    seen = []
    result = table.strike(ring, 1500.0, 400.0, on_step=lambda t_s: seen.append((t_s, table.piece(ring))))
    assert [c.status for c in result.captures] == ["off"]
    flight = [(t_s, state) for t_s, state in seen if state.status == "flying"]
    assert flight, "the jump was not seen in flight"
    assert flight[0][0] == pytest.approx(result.captures[0].t_s, abs=0.01)
    assert flight[-1][0] - flight[0][0] == pytest.approx(FLIGHT_S, abs=0.01)
    xs = [state.x_mm for _, state in flight]
    # From the east cushion outward, across the frame and beyond it (a ring rides over the cushion it hit).
    assert xs == sorted(xs) and xs[0] < board.half_side_mm < board.half_side_mm + board.frame_width_mm < xs[-1]
    assert table.piece(ring).status == "off"


def test_coin_that_misses_the_pockets_bounces_off_the_cushions_and_stays_on_the_board():
    board = load_board("carrom")
    table = carrom_table(board, rng=np.random.default_rng(0))
    coin = table.add_piece("black", radius_mm=15.5, material=COIN, status="board")
    table.strike(coin, 2500.0, 300.0)
    state = table.piece(coin)
    assert state.status == "board"
    assert abs(state.x_mm) <= board.half_side_mm - 15.5 + 1 and abs(state.y_mm) <= board.half_side_mm - 15.5 + 1


def test_break_spreads_the_formation_and_everything_comes_to_rest():
    board = load_board("carrom")
    table, striker = new_carrom_table(board, np.random.default_rng(0))
    y, _ = carrom_striker_line(board)
    table.place(striker, 0.0, y)
    result = table.strike(striker, 0.0, 4800.0)
    assert result.duration_s < MAX_STROKE_S
    states = table.states()
    assert all(s.status != "moving" and s.vx_mm_s == 0 and s.vy_mm_s == 0 for s in states)
    moved = [s for s, (_, x, y) in zip(states, break_formation(board)) if math.hypot(s.x_mm - x, s.y_mm - y) > 20]
    assert len(moved) >= 10
    assert any(c.piece_a == striker or c.piece_b == striker for c in result.contacts)


def test_same_stroke_gives_the_same_positions():
    def run():
        board = load_board("carrom")
        table, striker = new_carrom_table(board, np.random.default_rng(0))
        table.place(striker, 35.0, carrom_striker_line(board)[0])
        table.strike(striker, -150.0, 4700.0)
        return table.states()

    assert run() == run()


def test_slow_crokinole_disc_aimed_at_the_centre_drops_into_the_hole():
    board = load_board("crokinole")
    table = crokinole_table(board, rng=np.random.default_rng(0))
    disc = table.add_piece("light", radius_mm=15.875, material=CROKINOLE_DISC, x_mm=0, y_mm=-300, status="board")
    result = table.strike(disc, 0.0, speed_for_distance(CROKINOLE_DISC, 300.0))
    assert table.piece(disc).status == "hole"
    assert [c.status for c in result.captures] == ["hole"]


def test_fast_crokinole_disc_skims_over_the_hole():
    board = load_board("crokinole")
    table = crokinole_table(board, rng=np.random.default_rng(0))
    disc = table.add_piece("light", radius_mm=15.875, material=CROKINOLE_DISC, x_mm=0, y_mm=-300, status="board")
    table.strike(disc, 0.0, 1500.0)
    assert table.piece(disc).status != "hole"


def test_disc_resting_partly_over_the_hole_stays_and_leans():
    board = load_board("crokinole")
    table = crokinole_table(board, rng=np.random.default_rng(0))
    hole_r = board.hole_diameter_mm / 2
    disc = table.add_piece("dark", radius_mm=15.875, material=CROKINOLE_DISC, x_mm=0, y_mm=-(hole_r - 2.5),
                           status="board")
    beside = table.add_piece("dark", radius_mm=15.875, material=CROKINOLE_DISC, x_mm=0, y_mm=-(hole_r + 5),
                             status="board")
    table.settle_leaners()
    assert table.piece(disc).status == "board"
    assert table.piece(disc).lean_mm > 0
    assert table.piece(beside).lean_mm == 0


def test_lean_grows_from_the_hole_edge_inwards():
    assert lean_into_hole_mm(17.5, 17.45, 10.0) == 0.0
    assert 0 < lean_into_hole_mm(16.0, 17.45, 10.0) < lean_into_hole_mm(14.0, 17.45, 10.0) <= 10.0


def test_disc_crossing_the_surface_edge_goes_to_the_ditch():
    board = load_board("crokinole")
    table = crokinole_table(board, rng=np.random.default_rng(0))
    disc = table.add_piece("light", radius_mm=15.875, material=CROKINOLE_DISC, x_mm=200, y_mm=0, status="board")
    result = table.strike(disc, 2000.0, 0.0)
    state = table.piece(disc)
    assert state.status == "ditch"
    assert [c.status for c in result.captures] == ["ditch"]
    assert math.hypot(state.x_mm, state.y_mm) > board.surface_radius_mm


def test_peg_deflects_a_disc_aimed_at_it():
    board = load_board("crokinole")
    table = crokinole_table(board, rng=np.random.default_rng(0))
    px, py = board.peg_centres_mm()[5]
    disc = table.add_piece("light", radius_mm=15.875, material=CROKINOLE_DISC, x_mm=px * 2.5, y_mm=py * 2.5,
                           status="board")
    table.strike(disc, *_toward(px * 2.5, py * 2.5, px, py, 900.0))
    state = table.piece(disc)
    # Straight on it would stop beyond the peg towards the centre; the peg throws it back.
    assert math.hypot(state.x_mm, state.y_mm) > math.hypot(px, py)


def test_stopping_distance_and_speed_for_distance_are_inverse_and_match_the_physics():
    for material in (COIN, STRIKER, CROKINOLE_DISC, RING):
        assert stopping_distance_mm(material, speed_for_distance(material, 400.0)) == pytest.approx(400.0, rel=1e-4)
    board = load_board("carrom")
    table = carrom_table(board, rng=np.random.default_rng(0))
    coin = table.add_piece("white", radius_mm=15.5, material=COIN, x_mm=0, y_mm=-200, status="board")
    table.strike(coin, 0.0, speed_for_distance(COIN, 300.0))
    assert table.piece(coin).y_mm == pytest.approx(100.0, abs=3.0)
