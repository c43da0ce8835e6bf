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
