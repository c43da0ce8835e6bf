"""Table profiles: built from a frame and its homography, saved, loaded, refused when malformed."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from calibration.profile import THUMBNAIL_PX, TableProfile, build_profile


def _frame_and_homography() -> tuple[np.ndarray, np.ndarray]:
    """A synthetic top view: a light surface with a dark coin at board (100, 50) mm."""
    image = np.full((600, 800, 3), (60, 60, 60), np.uint8)
    homography = np.array([[0.7, 0.0, 400.0], [0.0, -0.7, 300.0], [0.0, 0.0, 1.0]])
    corners = (homography @ np.array([[-370, -370, 1], [370, 370, 1]]).T).T
    cv2.rectangle(image, tuple(corners[0, :2].astype(int)), tuple(corners[1, :2].astype(int)), (170, 200, 230), -1)
    coin = (homography @ np.array([100, 50, 1.0]))[:2]
    cv2.circle(image, tuple(coin.astype(int)), 11, (20, 20, 20), -1)
    return image, homography


def test_profile_samples_surface_and_pieces_and_round_trips(tmp_path):
    image, homography = _frame_and_homography()
    profile = build_profile(image, homography, game="carrom", model="icf", pieces_mm={"black": (100.0, 50.0)})
    assert profile.surface["surface"].bgr == pytest.approx((170, 200, 230), abs=2)
    assert profile.pieces["black"].bgr == pytest.approx((20, 20, 20), abs=2)
    assert profile.thumbnail().shape == (THUMBNAIL_PX, THUMBNAIL_PX, 3)
    path = tmp_path / "table.json"
    profile.save(path)
    loaded = TableProfile.load(path)
    assert loaded == profile
    assert np.allclose(loaded.homography_array(), homography)
    assert loaded.board().surface_side_mm == 740.0


def test_crokinole_profile_samples_each_zone():
    image = np.full((700, 700, 3), (80, 140, 200), np.uint8)
    homography = np.array([[1.0, 0.0, 350.0], [0.0, -1.0, 350.0], [0.0, 0.0, 1.0]])
    profile = build_profile(image, homography, game="crokinole", model="nca")
    assert set(profile.surface) == {"zone_15", "zone_10", "zone_5"}


def test_piece_outside_the_frame_is_refused():
    image, homography = _frame_and_homography()
    with pytest.raises(ValueError, match="outside the frame"):
        build_profile(image, homography, game="carrom", model="icf", pieces_mm={"white": (5000.0, 0.0)})


@pytest.mark.parametrize(
    "content, message",
    [
        ("not json", "not a JSON"),
        (json.dumps({"game": "carrom"}), "missing or malformed"),
        (json.dumps({"game": "carrom", "model": "nope", "homography": np.eye(3).tolist(), "image_size": [1, 1]}), "no board model"),
        (json.dumps({"game": "carrom", "model": "icf", "homography": [[1, 2]], "image_size": [1, 1]}), "3x3"),
    ],
)
def test_malformed_profiles_give_a_clear_error(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=message):
        TableProfile.load(path)
