import math

import pytest

from calibration.geometry import GAMES, available_models, load_board


@pytest.mark.parametrize("game", GAMES)
def test_every_shipped_model_loads(game):
    models = available_models(game)
    assert models
    for model in models:
        assert load_board(game, model).game == game


def test_unknown_model_names_the_choices():
    with pytest.raises(ValueError, match="have"):
        load_board("carrom", "no-such-board")


def test_carrom_pockets_counter_clockwise_from_first_players_left():
    board = load_board("carrom")
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = board.pocket_centres_mm()
    assert x0 < 0 and y0 < 0  # south-west: the left of the player seated south
    assert x1 > 0 and y1 < 0
    assert x2 > 0 and y2 > 0
    assert x3 < 0 and y3 > 0


@pytest.mark.parametrize(
    ("distance_mm", "expected"),
    [
        (0.0, 15),  # over the hole: the caller decides 20; leaning scores 15 (NCA 6)
        (60.0, 15),
        (101.6 - 15.0, 10),  # edge reaches into the 15 line: lower value (NCA 6, K01)
        (150.0, 10),
        (203.2 + 10.0, 5),  # touching the 10/5 line (K02)
        (250.0, 5),
        (304.8 - 15.0, 0),  # touching the shooting line (K03)
    ],
)
def test_crokinole_zone_takes_the_lower_value_on_a_line(distance_mm, expected):
    board = load_board("crokinole")
    angle = 0.3
    x, y = distance_mm * math.cos(angle), distance_mm * math.sin(angle)
    assert board.zone_value(x, y, board.disc_diameter_mm / 2) == expected


def test_crokinole_pegs_lie_on_the_fifteen_line():
    board = load_board("crokinole", "round")
    radii = [math.hypot(x, y) for x, y in board.peg_centres_mm()]
    assert len(radii) == 8
    assert all(r == pytest.approx(board.fifteen_line_diameter_mm / 2) for r in radii)
