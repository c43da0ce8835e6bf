"""The analyzer across camera bumps (a rendered still held, then moved twice before it settles again), and what it
asks of its reader."""

import json
from pathlib import Path

import cv2
import numpy as np

from vision.analysis import BoardAnalyzer
from vision.board_location import BoardLocation, Landmarks
from vision.homography import project
from vision.pieces import BoardReading
from vision.settle import SettleSettings
from vision.sources import Frame

STILL = Path(__file__).resolve().parents[2] / "sample_images" / "simulated" / "crokinole" / "still_1"


def _location(truth: dict, shift_px: float) -> BoardLocation:
    """The board as the still's truth places it, the picture moved `shift_px` to the right."""
    homography = np.array([[1.0, 0.0, shift_px], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]) @ np.array(truth["homography"])
    grid = np.linspace(-300.0, 300.0, 7)
    points = np.array([(x, y) for x in grid for y in grid if max(abs(x), abs(y)) > 180.0])
    landmarks = Landmarks(tuple(f"p{i}" for i in range(len(points))), points, project(homography, points))
    return BoardLocation(True, truth["game"], truth["board_model"], homography, 1.0, 0.0, landmarks)


def test_a_board_bumped_twice_before_it_settled_settles_and_is_read_again():
    truth = json.loads((STILL / "truth.json").read_text())
    image = cv2.imread(str(STILL / "image.jpg"))
    h, w = image.shape[:2]
    # A grained table (a plain one looks the same moved): stripes beyond the board's frame.
    centre_px = project(np.array(truth["homography"]), np.zeros((1, 2)))[0]
    outer_px = np.linalg.norm(project(np.array(truth["homography"]), np.array([[0.0, 440.0]]))[0] - centre_px)
    stripes = image.copy()
    for x in range(-h, w, 14):
        cv2.line(stripes, (x, 0), (x + h, h), (40, 60, 80), 3)
    beyond = np.hypot(*(np.mgrid[:h, :w][::-1] - centre_px[:, None, None])) > outer_px
    image[beyond] = stripes[beyond]
    # Each bump moves the picture 8 px on; the second comes before the board settled after the first.
    views = [image] + [cv2.warpAffine(image, np.float32([[1, 0, 8.0 * k], [0, 1, 0]]), (w, h),
                                      borderMode=cv2.BORDER_REPLICATE) for k in (1, 2)]
    locations = {id(view): _location(truth, 8.0 * k) for k, view in enumerate(views)}
    readings_t_s = []

    def read(frame_image, *, homography, board, **options):
        readings_t_s.append(t_s)
        return BoardReading(truth["game"], ())

    analyzer = BoardAnalyzer(truth["game"], locate=lambda frame_image: locations[id(frame_image)], read=read)
    script = [views[0]] * 30 + [views[1]] * 8 + [views[2]] * 60
    for index, view in enumerate(script):
        t_s = index / 30
        analyzer.update(Frame(index, t_s, view))
    after = [t for t in readings_t_s if t > 38 / 30]
    assert len(after) == 1, readings_t_s  # read once more, after the second bump ...
    assert after[0] <= 38 / 30 + 2 * SettleSettings().settle_s  # ... as soon as it was still (no arm seen)


def test_a_carrom_analyzer_asks_its_reader_for_the_unsure_coins_and_a_crokinole_one_does_not():
    asked = {}
    for game in ("carrom", "crokinole"):
        still = STILL.parents[1] / game / "still_1"
        truth = json.loads((still / "truth.json").read_text())
        image = cv2.imread(str(still / "image.jpg"))
        location = _location(truth, 0.0)

        def read(frame_image, *, homography, board, game=game, **options):
            asked[game] = options.get("with_unsure", False)
            return BoardReading(game, ())

        analyzer = BoardAnalyzer(game, locate=lambda frame_image: location, read=read)
        for index in range(30):
            analyzer.update(Frame(index, index / 30, image))
    assert asked == {"carrom": True, "crokinole": False}
