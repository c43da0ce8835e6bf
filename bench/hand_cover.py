"""When a simulated hand is over the board: its fingertip inside the board's outer outline (frame included).

The truth lists each shot's hand times (`shots`: in at `t_start`, flick at `t_strike`,
gone by `t_end`) and the hands that put pieces back or take them off between shots (`hands`:
at the piece at `t_strike`); between `t_start` and the fingertip reaching the frame, the arm is
still on the table beyond the board. The fingertip's path is the simulator's
(`simulation/hands.py`): from `TIP_START_BEYOND_MM` beyond the board's outer edge
straight in to `TIP_SHORT_MM` short of the piece, at the share `reach` gives.
"""

from __future__ import annotations

import numpy as np

from calibration.geometry import CrokinoleBoard, load_board
from simulation.hands import reach
from simulation.render_board import outer_half_size_mm
from simulation.scene import Shot

INWARD = {"south": (0.0, 1.0), "north": (0.0, -1.0), "east": (-1.0, 0.0), "west": (1.0, 0.0)}
TIP_START_BEYOND_MM = 250.0
TIP_SHORT_MM = 14.0


class HandCover:
    """`over_board(t_s)`: whether a hand's fingertip is over the board of a clip's `truth` at `t_s`."""

    def __init__(self, truth: dict):
        board = load_board(truth["game"], truth["board_model"])
        self._round = isinstance(board, CrokinoleBoard)
        self._edge_mm = outer_half_size_mm(board)
        self._shots = [Shot(s["seat"], s["t_start"], s["t_strike"], s["t_end"], s["x_mm"], s["y_mm"])
                       for s in truth["shots"] + truth.get("hands", [])]

    def fingertip_mm(self, shot: Shot, t_s: float) -> np.ndarray | None:
        """Where the fingertip of `shot`'s hand is at `t_s` (board mm); None while it is out of play."""
        amount = reach(shot, t_s)
        if amount <= 0.0:
            return None
        inward = np.array(INWARD[shot.seat])
        final = np.array([shot.x_mm, shot.y_mm]) - inward * TIP_SHORT_MM
        start = final - inward * (float(final @ inward) + self._edge_mm + TIP_START_BEYOND_MM)
        return start + (final - start) * amount

    def over_board(self, t_s: float) -> bool:
        for shot in self._shots:
            if not shot.t_start_s <= t_s <= shot.t_end_s:
                continue
            tip = self.fingertip_mm(shot, t_s)
            if tip is None:
                continue
            distance = np.hypot(*tip) if self._round else np.abs(tip).max()
            if distance <= self._edge_mm:
                return True
        return False
