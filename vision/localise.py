"""Board localisation for any game: pick the locator, try the board models, keep the best fit."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from calibration.geometry import DEFAULT_MODELS, GAMES, available_models, load_board
from vision.board_location import BoardLocation
from vision.frames import validate_image


CLEARLY_BETTER = 0.8
"""A later model must fit with at most this share of the current best's error to replace it."""
GOOD_ENOUGH_MM = 0.5
"""A fit this close needs no other model tried: no model could be clearly better."""


def locate_board(
    image: np.ndarray, *, game: str, models: Sequence[str] | None = None
) -> BoardLocation:
    """Find the board of `game` in a BGR frame.

    Parameters
    ----------
    image : (H, W, 3) uint8 ndarray
    game : {"carrom", "crokinole", "couronne"}
    models : sequence of str, optional
        Board models to try (e.g. from a table profile). By default every
        shipped model of the game is tried, the game's default first, and a
        later one kept only when its fit is clearly better, so a board whose
        lines differ from the tournament default is still found.

    Returns
    -------
    BoardLocation
        ``found`` is False, with a reason, when no model fits well enough.

    Examples
    --------
    >>> location = locate_board(image, game="crokinole")  # doctest: +SKIP
    >>> location.found, location.error_mm  # doctest: +SKIP
    (True, 0.3)
    """
    if game not in GAMES:
        raise ValueError(f"game must be one of {', '.join(GAMES)}, got {game!r}")
    image = validate_image(image)
    # the game's default model first; another replaces it only when clearly better, as boards
    # of one game often share their proportions and differ only in size, which one photo cannot tell
    candidates = list(models) if models else sorted(available_models(game), key=lambda m: m != DEFAULT_MODELS[game])
    best: BoardLocation | None = None
    starts = {}
    for model in candidates:
        board = load_board(game, model)
        extra = {}
        if game == "crokinole":
            from vision.localise_crokinole import coarse_start

            # the coarse stage depends only on the ratios of the line radii: models sharing them share it
            radii = board.line_radii_mm()
            key = (round(radii[10] / radii[15], 3), round(radii[5] / radii[15], 3))
            if key not in starts:
                starts[key] = coarse_start(image, board=board)
            extra["start"] = starts[key]
        location = _locator(game)(image, board=board, **extra)
        if location.found and (best is None or not best.found or location.error_mm < CLEARLY_BETTER * best.error_mm):
            best = location
        elif best is None:
            best = location
        if best.found and best.error_mm <= GOOD_ENOUGH_MM:
            break
    return best


def _locator(game: str):
    if game == "crokinole":
        from vision.localise_crokinole import locate_crokinole

        return locate_crokinole
    from vision.localise_square import locate_square_board

    return locate_square_board
