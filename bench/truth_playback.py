"""Perfect eyes for testing what comes after them: the simulator's own truth as locator and reader.

Event inference is tested on its own by feeding it the board as the simulator
knows it; the real locator and reader are measured in their own tests and in bench/.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from calibration.geometry import CrokinoleBoard
from vision.board_location import BoardLocation, Landmarks
from vision.homography import project
from vision.pieces import BoardReading, Piece
from vision.zones import disc_zone


class TruthPlayback:
    """Locator and reader for one simulated clip; set `t_s` to the time of the frame at hand."""

    def __init__(self, folder: Path):
        self.truth = json.loads((folder / "truth.json").read_text())
        self.frames = [json.loads(line) for line in (folder / "frames.jsonl").read_text().splitlines()]
        self.t_s = 0.0
        # The first frame located, and its time: the analyzer may read it later (the board as first seen).
        self._first_located: tuple[np.ndarray, float] | None = None

    def locate(self, image: np.ndarray) -> BoardLocation:
        if self._first_located is None:
            self._first_located = (image, self.t_s)
        homography = np.array(self.truth["homography"])
        for change in self.truth.get("homography_changes", []):
            # Truth times are rounded: the frame of a change is the one within half a frame of it.
            if change["t"] <= self.t_s + 0.5 / self.truth["fps"]:
                homography = np.array(change["homography"])
        edge_mm = 330.0
        grid = np.linspace(-edge_mm, edge_mm, 7)
        points = np.array([(x, y) for x in grid for y in grid if max(abs(x), abs(y)) > 0.6 * edge_mm])
        landmarks = Landmarks(tuple(f"p{i}" for i in range(len(points))), points, project(homography, points))
        return BoardLocation(True, self.truth["game"], self.truth["board_model"], homography, 1.0, 0.0, landmarks)

    def read(self, image: np.ndarray, *, homography: np.ndarray, board, **options) -> BoardReading:
        """The truth's pieces at the frame's time (`read_pieces`'s options ask nothing of the truth)."""
        first = self._first_located
        t_s = first[1] if first is not None and first[0] is image else self.t_s
        frame = self.frames[min(round(t_s * self.truth["fps"]), len(self.frames) - 1)]
        on_board = [p for p in frame["pieces"] if p["status"] in ("board", "moving")]
        if not isinstance(board, CrokinoleBoard):
            pieces = tuple(Piece(p["kind"], p["x_mm"], p["y_mm"], p["r_mm"], 1.0) for p in on_board)
            return BoardReading(self.truth["game"], pieces)
        # Crokinole discs come with the zone the rules give them, as the simulator scores them.
        pieces = tuple(
            Piece(p["kind"], p["x_mm"], p["y_mm"], p["r_mm"], 1.0, board.zone_value(p["x_mm"], p["y_mm"], p["r_mm"]),
                  line_clearance_mm=disc_zone(p["x_mm"], p["y_mm"], board=board)[1])
            for p in on_board
        )
        return BoardReading(self.truth["game"], pieces)
