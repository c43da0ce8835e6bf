"""Crokinole discs with faint rims on rendered boards: leaning over the 20-hole, or hardly standing out from the wood.

A leaning disc's rim shows no edge against the hole's dark inside, and tilted it
scatters its centre votes: the part of the rim over the hole is left out, and a
faint rim is believed there. Elsewhere a faint rim is believed where its face
stands apart in colour from the board around it and is even (wood grain draws
faint arcs around the board's own colour).
"""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest

from bench.truth_playback import TruthPlayback
from calibration.geometry import load_board
from simulation.film import film_still
from simulation.physics import lean_into_hole_mm
from simulation.scene import PieceState, SceneFrame
from vision.detect_pieces import faint_region
from vision.events import CROKINOLE_COLOURS
from vision.pieces_read import read_pieces
from vision.sources import VideoFileSource
from vision.team_colours import learnt_team_colours


@pytest.mark.parametrize("kind, x_mm, y_mm, seed, difficulty", [
    # where stills 60048, 60051 and 60067 left a leaning disc, under their light and camera
    ("dark", 5.91, 14.13, 60048, "clean"),
    ("light", -4.67, -13.84, 60051, "hard"),
    ("dark", 12.81, 9.06, 60067, "hard"),
])
def test_a_disc_leaning_over_the_hole_is_found_and_scores_15(kind, x_mm, y_mm, seed, difficulty):
    board = load_board("crokinole")
    r = board.disc_diameter_mm / 2
    x, y, d = x_mm, y_mm, math.hypot(x_mm, y_mm)
    lean = lean_into_hole_mm(d, board.hole_diameter_mm / 2, board.hole_depth_mm)
    other = "light" if kind == "dark" else "dark"
    frame = SceneFrame(0.0, (PieceState(0, kind, x, y, r, lean_mm=lean), PieceState(1, other, -150.0, 40.0, r)))
    image, homography = film_still(frame, board=board, seed=seed, difficulty=difficulty, resolution=(1280, 720))
    reading = read_pieces(image, homography=homography, board=board)
    leaning = [p for p in reading.pieces if np.hypot(p.x_mm - x, p.y_mm - y) < 5.0]
    assert len(leaning) == 1 and leaning[0].kind == kind
    assert leaning[0].zone == 15
    # the hole's own rim is no second disc
    assert sum(np.hypot(p.x_mm, p.y_mm) < 60.0 for p in reading.pieces) == 1


def test_a_faint_rim_is_believed_on_a_crokinole_board_away_from_what_draws_arcs_of_its_own():
    board = load_board("crokinole")
    r = board.disc_diameter_mm / 2
    peg_x, peg_y = board.peg_centres_mm()[0]
    believed = np.array([[0.0, 15.0], [-12.0, -9.0], [150.0, -80.0], [-250.0, 10.0]])
    not_believed = np.array([[0.0, 0.0], [0.0, 30.0], [peg_x * 1.02, peg_y * 1.02], [0.0, board.surface_radius_mm - 10.0]])
    assert faint_region(believed, board, radius_mm=r).all()
    assert not faint_region(not_believed, board, radius_mm=r).any()


@pytest.mark.parametrize("places, seed, difficulty", [
    # where stills 60031 and 60007 had dark discs that hardly stand out from the wood, under their light and camera
    ((("dark", -205.73, -85.26), ("dark", -219.35, -114.03), ("light", 120.0, 60.0)), 60031, "hard"),
    ((("dark", -95.37, 124.83), ("dark", -111.74, 97.56), ("light", 120.0, -60.0)), 60007, "hard"),
])
def test_discs_with_faint_rims_that_stand_apart_in_colour_are_found(places, seed, difficulty):
    board = load_board("crokinole")
    r = board.disc_diameter_mm / 2
    frame = SceneFrame(0.0, tuple(PieceState(i, kind, x, y, r) for i, (kind, x, y) in enumerate(places)))
    image, homography = film_still(frame, board=board, seed=seed, difficulty=difficulty, resolution=(1280, 720))
    reading = read_pieces(image, homography=homography, board=board)
    for kind, x, y in places:
        assert [p.kind for p in reading.pieces if np.hypot(p.x_mm - x, p.y_mm - y) < 5.0] == [kind]
    assert len(reading.pieces) == len(places)


def test_the_wood_between_two_light_discs_and_a_line_is_no_disc():
    # Simulated clip 5116 at 53.8 s, its last shot played: between the light discs at (43, -176) and (-10, -185),
    # on the 10 line, the discs' edges and the line drew a faint rim round the bare wood.
    board = load_board("crokinole")
    r = board.disc_diameter_mm / 2
    places = (("light", 43.19, -176.39), ("light", -99.34, 13.76), ("light", -10.29, -184.59),
              ("light", -12.41, 93.42), ("dark", 151.76, 188.76), ("dark", -55.83, 232.42), ("dark", -42.53, 38.83))
    frame = SceneFrame(0.0, tuple(PieceState(i, kind, x, y, r) for i, (kind, x, y) in enumerate(places)))
    image, homography = film_still(frame, board=board, seed=5116, difficulty="medium", resolution=(960, 540))
    reading = read_pieces(image, homography=homography, board=board)
    for kind, x, y in places:
        assert _kinds_near(reading, x, y) == [kind]
    assert len(reading.pieces) == len(places)


@pytest.fixture(scope="module")
def pale_disc_clip(tmp_path_factory):
    """Simulated crokinole clip 5108, to its seventh shot: light discs on pale maple, one come to rest by a peg."""
    out = tmp_path_factory.mktemp("clip")
    subprocess.run([sys.executable, "-m", "boardreader", "simulate", "--game", "crokinole", "--seed", "5108",
                    "--boards", "1", "--strokes", "7", "--resolution", "960x540", "--difficulty", "medium",
                    "--out", str(out)], check=True, capture_output=True)
    return out


def test_a_pale_disc_by_a_peg_is_found_by_its_teams_colour_read_earlier_in_the_video(pale_disc_clip):
    # At 19 s the light disc at (102, 20) mm lies against a peg on the 15 line; its face is 14 Lab units from the wood.
    truth = TruthPlayback(pale_disc_clip)
    board = load_board("crokinole", truth.truth["board_model"])
    frames = truth.frames
    team_lab: dict[str, np.ndarray] = {}
    for frame in VideoFileSource(pale_disc_clip / "video.mp4"):
        truth.t_s = frame.t_s
        homography = truth.locate(frame.image).homography
        if frame.t_s < 18.0 and frame.index % 30 == 0:
            # The teams' colours, as the analyzer learns them: from every reading, a lone disc's too.
            reading = read_pieces(frame.image, homography=homography, board=board, team_lab=team_lab)
            team_lab = learnt_team_colours(team_lab, reading, teams=CROKINOLE_COLOURS, min_pieces=1)
        if frame.t_s >= 19.0:
            break
    on_board = [p for p in frames[frame.index]["pieces"] if p["status"] == "board"]
    assert ("light", 102, 20) in [(p["kind"], round(p["x_mm"]), round(p["y_mm"])) for p in on_board]
    assert set(team_lab) == set(CROKINOLE_COLOURS)
    alone = read_pieces(frame.image, homography=homography, board=board)
    helped = read_pieces(frame.image, homography=homography, board=board, team_lab=team_lab)
    assert _kinds_near(alone, 102, 20) == []
    assert _kinds_near(helped, 102, 20) == ["light"]
    assert sorted(p.kind for p in helped.pieces) == sorted(p["kind"] for p in on_board)


def _kinds_near(reading, x_mm, y_mm) -> list[str]:
    return [p.kind for p in reading.pieces if np.hypot(p.x_mm - x_mm, p.y_mm - y_mm) < 5.0]
