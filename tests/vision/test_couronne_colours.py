"""Late in a couronne game: the shooter told from a team's last ring by the colours read earlier on the same table."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.geometry import load_board
from simulation.film import film_still
from simulation.scene import PieceState, SceneFrame
from vision.classify_pieces import classify_pieces
from vision.couronne_colours import learnt_colours
from vision.piece_detections import PieceDetections
from vision.pieces import BoardReading, Piece
from vision.pieces_read import read_pieces

OPENING = [("pink", -200.0, 150.0), ("pink", -60.0, 210.0), ("pink", 120.0, -90.0), ("pink", 230.0, 40.0),
           ("blue", -180.0, -160.0), ("blue", 40.0, 120.0), ("blue", 190.0, -220.0), ("blue", -40.0, -230.0),
           ("shooter", -230.0, -10.0)]
LATE = [("pink", 120.0, -90.0), ("blue", -180.0, -160.0), ("shooter", 200.0, 180.0)]


def _photo(places, *, seed: int, look: str):
    board = load_board("couronne")
    radius = {"shooter": board.shooter_ring_outer_diameter_mm / 2}
    frame = SceneFrame(0.0, tuple(PieceState(i, kind, x, y, radius.get(kind, board.ring_outer_diameter_mm / 2))
                                  for i, (kind, x, y) in enumerate(places)))
    return film_still(frame, board=board, seed=seed, difficulty="hard", resolution=(1280, 720), look=look)


@pytest.mark.parametrize(("look", "seed"), [("dark_wood", 65), ("micki_natural", 61), ("green_felt_look", 63)])
def test_a_teams_last_ring_is_not_taken_for_the_shooter(look, seed):
    """One ring of each team and the shooter: each stands alone in colour, and the wood shooter is a few hue units
    from pink. The colours read at the opening on the same table tell them apart."""
    board = load_board("couronne")
    image, homography = _photo(OPENING, seed=seed, look=look)
    colours = learnt_colours({}, read_pieces(image, homography=homography, board=board))
    image, homography = _photo(LATE, seed=seed, look=look)
    reading = read_pieces(image, homography=homography, board=board, samples_lab=colours)
    assert reading.counts() == {"pink": 1, "blue": 1, "shooter": 1}
    shooter = next(p for p in reading.pieces if p.kind == "shooter")
    assert np.hypot(shooter.x_mm - 200.0, shooter.y_mm - 180.0) < 6.0


def _reading(kinds_and_colours) -> BoardReading:
    pieces = tuple(Piece(kind, 10.0 * i, 0.0, 17.0, 1.0) for i, (kind, _) in enumerate(kinds_and_colours))
    colours = {kind: colour for kind, colour in kinds_and_colours}
    return BoardReading("couronne", pieces, colours_lab=colours)


def test_a_team_of_one_and_a_shooter_without_both_teams_teach_no_colour():
    known = {"pink": np.array([140.0, 160.0, 150.0]), "blue": np.array([80.0, 130.0, 110.0]),
             "shooter": np.array([160.0, 142.0, 156.0])}
    lone_blue = _reading([("pink", (141.0, 161.0, 149.0)), ("pink", (141.0, 161.0, 149.0)),
                          ("blue", (160.0, 142.0, 156.0))])
    assert np.array_equal(learnt_colours(known, lone_blue)["blue"], known["blue"])
    assert np.array_equal(learnt_colours(known, lone_blue)["pink"], [141.0, 161.0, 149.0])
    only_pinks = _reading([("pink", (141.0, 161.0, 149.0)), ("pink", (141.0, 161.0, 149.0)),
                           ("shooter", (120.0, 128.0, 128.0))])
    assert np.array_equal(learnt_colours(known, only_pinks)["shooter"], known["shooter"])
    both_teams = _reading([("pink", (141.0, 161.0, 149.0)), ("blue", (79.0, 131.0, 111.0)),
                           ("shooter", (158.0, 143.0, 155.0))])
    assert np.array_equal(learnt_colours(known, both_teams)["shooter"], [158.0, 143.0, 155.0])


def test_rings_keep_their_team_when_the_light_dims():
    """Couronne 5118 at 111.5 s: the light had dimmed the last pinks by 45 units of L* since their colour was
    learnt; in full Lab they lay nearer the blues' colour, by hue still nearer their own."""
    colours = {"pink": np.array([206.0, 157.0, 107.0]), "blue": np.array([162.0, 132.0, 74.0]),
               "shooter": np.array([252.0, 126.0, 127.0])}
    faces = np.array([[160.0, 158.0, 89.0], [157.0, 153.0, 96.0], [149.0, 153.0, 94.0], [169.0, 158.0, 93.0],
                      [157.0, 158.0, 90.0], [239.0, 111.0, 119.0]])
    found = PieceDetections(np.column_stack([np.arange(6) * 40.0, np.zeros(6)]), np.full(6, 17.5),
                            np.array([0, 0, 0, 0, 0, 1]), np.ones(6), faces, np.tile([200.0, 130.0, 140.0], (6, 1)))
    kinds = classify_pieces(found, board=load_board("couronne"), samples_lab=colours).kinds
    assert kinds == ("pink",) * 5 + ("shooter",)
