"""Naming pieces from their measured colours: teams found per board, sizes for striker and shooter."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.geometry import load_board
from vision.classify_pieces import classify_pieces, split_in_two
from vision.piece_detections import PieceDetections

WOOD = (150.0, 135.0, 160.0)


def detections(faces_lab, *, surround=WOOD, sizes=None) -> PieceDetections:
    faces = np.asarray(faces_lab, float)
    n = len(faces)
    return PieceDetections(
        centres_mm=np.column_stack([np.arange(n) * 40.0, np.zeros(n)]),
        radii_mm=np.full(n, 15.9),
        size=np.asarray(sizes if sizes is not None else np.zeros(n), int),
        support=np.ones(n),
        colour_lab=faces,
        surround_lab=np.tile(surround, (n, 1)),
    )


@pytest.mark.parametrize(
    ("light", "dark"),
    [
        ((200, 130, 150), (45, 128, 130)),  # natural vs black
        ((150, 132, 158), (60, 135, 140)),  # light wood vs dark stain on the same wood
        ((110, 170, 160), (40, 130, 128)),  # red vs black
    ],
)
def test_crokinole_teams_are_split_and_named_by_brightness(light, dark):
    faces = [light, dark, dark, light, dark]
    kinds = classify_pieces(detections(faces), board=load_board("crokinole")).kinds
    assert kinds == ("light", "dark", "dark", "light", "dark")


def test_one_team_alone_is_not_split_in_two():
    faces = [(205, 130, 150), (212, 131, 152), (199, 129, 149)]
    kinds = classify_pieces(detections(faces, surround=(185, 135, 165)), board=load_board("crokinole")).kinds
    assert kinds == ("light",) * 3
    faces = [(40, 128, 130), (52, 128, 131)]
    assert classify_pieces(detections(faces), board=load_board("crokinole")).kinds == ("dark", "dark")


def test_carrom_queen_striker_white_black():
    faces = [(225, 128, 140), (40, 128, 128), (120, 185, 160), (230, 126, 150), (35, 129, 127)]
    found = detections(faces, surround=(200, 130, 150), sizes=[0, 0, 0, 1, 0])
    assert classify_pieces(found, board=load_board("carrom")).kinds == ("white", "black", "queen", "striker", "black")


def test_couronne_pink_blue_shooter():
    faces = [(170, 165, 125), (120, 125, 90), (210, 130, 150), (165, 170, 128)]
    found = detections(faces, sizes=[0, 0, 1, 0])
    assert classify_pieces(found, board=load_board("couronne")).kinds == ("pink", "blue", "shooter", "pink")


def test_profile_samples_decide():
    faces = [(150, 128, 128), (90, 128, 128)]
    samples = {"light": np.array([155.0, 128, 128]), "dark": np.array([85.0, 128, 128])}
    result = classify_pieces(detections(faces), board=load_board("crokinole"), samples_lab=samples)
    assert result.kinds == ("light", "dark")


def test_split_in_two_finds_the_gap():
    threshold, quality, gap = split_in_two(np.array([1.0, 1.1, 0.9, 5.0, 5.2]))
    assert 1.1 < threshold < 5.0 and quality > 4 and gap > 3.5
    assert classify_pieces(detections(np.zeros((0, 3))), board=load_board("carrom")).kinds == ()


WALNUT = (107.0, 143.0, 154.0)
GOLDEN = (113.0, 138.0, 168.0)


@pytest.mark.parametrize(("faces", "surround", "kind"), [
    # two black discs, one in a lighter patch: 0.29 and 0.42 of the board's brightness, one team
    ([(36, 128, 130), (57, 128, 131)], WOOD, "dark"),
    # red discs on walnut at 0.71, 0.75 and 0.84 of its brightness: dyed, far more colourful than natural wood
    ([(73, 178, 158), (78, 180, 160), (88, 181, 159)], WALNUT, "dark"),
    # light discs of the board's own wood, one shaded leaning into the hole at 0.73
    ([(107, 130, 148), (152, 131, 152), (148, 130, 151), (155, 131, 150)], WOOD, "light"),
    # dark-stained discs on golden wood at 0.8 of its brightness (as on the real photos): a quarter of its chroma
    ([(88, 133, 137), (85, 134, 136)], GOLDEN, "dark"),
    # a natural light disc on a more colourful board: paler and duller than the board, still light
    ([(190, 133, 150)], GOLDEN, "light"),
])
def test_one_team_alone_is_named_together(faces, surround, kind):
    result = classify_pieces(detections(faces, surround=surround), board=load_board("crokinole"))
    assert result.kinds == (kind,) * len(faces)


def test_red_and_light_teams_are_told_apart_on_walnut():
    faces = [(230, 129, 150), (80, 180, 158), (215, 130, 152), (95, 178, 160)]
    result = classify_pieces(detections(faces, surround=WALNUT), board=load_board("crokinole"))
    assert result.kinds == ("light", "dark", "light", "dark")
    assert (result.margin > 0.5).all()


def test_white_discs_brighter_than_a_colourful_board_are_light_however_dull():
    # As simulated clip 5113 at 26.4 s: two white discs half again as bright as warm wood, with chromas of 3 and 10
    # against the board's 30, beside two red ones. Counted dull, the duller white went with the reds.
    faces = [(250, 129, 131), (252, 124, 137), (98, 181, 157), (97, 178, 158)]
    result = classify_pieces(detections(faces, surround=(148, 140, 155)), board=load_board("crokinole"))
    assert result.kinds == ("light", "light", "dark", "dark")
