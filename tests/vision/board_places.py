"""Places of pieces on a board model, for rendered test boards."""

import numpy as np


def beside_pocket_mouths(board, kind: str, *, beyond_mm: float = 1.5) -> list[tuple[str, float, float]]:
    """One piece of `kind` per pocket, its centre just outside the mouth towards the board's centre (board mm)."""
    reach_mm = board.pocket_diameter_mm / 2 + beyond_mm
    places = []
    for px, py in board.pocket_centres_mm():
        away = -np.array([px, py]) / np.hypot(px, py)
        places.append((kind, float(px + reach_mm * away[0]), float(py + reach_mm * away[1])))
    return places


def carrom_frame(places, board=None):
    """A still scene of carrom pieces at `places` (kind, x_mm, y_mm), each of its kind's size."""
    from calibration.geometry import load_board
    from simulation.scene import PieceState, SceneFrame

    board = board or load_board("carrom")
    return SceneFrame(0.0, tuple(
        PieceState(i, kind, x, y, (board.striker_diameter_mm if kind == "striker" else board.coin_diameter_mm) / 2)
        for i, (kind, x, y) in enumerate(places)))
