"""Board localisation for any game: pick the locator, try the board models, keep the best fit."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import cv2
import numpy as np

from calibration.geometry import DEFAULT_MODELS, GAMES, available_models, load_board
from calibration.intrinsics import CameraIntrinsics
from calibration.markers import frame_markers
from vision.board_location import BoardLocation
from vision.frames import validate_image
from vision.homography import image_to_board, project, px_per_mm_at
from vision.line_features import line_share
from vision.localise_markers import find_markers, marker_fit, marker_location


CLEARLY_BETTER = 0.9
"""A later model must fit with at most this share of the current best's error, in image pixels, to
replace it: the better fit wins, the default model a near tie. Pixels, not millimetres: a smaller
board with the same proportions fits a photo as well in pixels, and in its own smaller millimetres
would seem better. On the real crokinole photos the measured club model fits with 0.2 to 0.73
times the NCA model's error; on the carrom webcam photos the club model with 0.83 (a2) to 1.24
times the ICF model's."""
MIN_LINE_SHARE = 0.0005
"""A frame with fewer of its pixels on thin, contrasted lines than this (`line_share`) shows no
printed lines at all, so no board: not searched (boards in view give 0.01 and more)."""
MARKER_AGREEMENT_MM = 15.0
"""The printed lines' fit is kept over the markers' when it moves no board point further than this
(markers on a raised frame sit a little off the playing surface's plane)."""


def locate_board(
    image: np.ndarray, *, game: str, models: Sequence[str] | None = None, markers: bool = True,
    intrinsics: CameraIntrinsics | None = None,
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
    markers : bool
        Look for ArUco markers on the frame (`calibration.markers`); when at
        least two are seen they place the board and its lines only refine it.
    intrinsics : CameraIntrinsics, optional
        The camera's calibration (`boardreader calibrate camera`): the frame is
        undistorted first, so the printed lines are straight and the fit exact;
        the homography then maps to the undistorted frame's pixels
        (``lens_corrected`` is set).

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
    if intrinsics is not None:
        image = intrinsics.undistort_image(image)
    # the locators work in grey: convert once for them and the markers
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    detections = find_markers(gray, dictionary=frame_markers(load_board(game)).dictionary) if markers else None
    # the game's default model first; another replaces it only when clearly better, as boards
    # of one game often share their proportions and differ only in size, which one photo cannot tell
    candidates = list(models) if models else sorted(available_models(game), key=lambda m: m != DEFAULT_MODELS[game])
    best: BoardLocation | None = None
    starts, lines, quads = {}, None, None
    has_lines = None
    located_alike = set()
    for model in candidates:
        board = load_board(game, model)
        fit = marker_fit(detections, frame_markers(board)) if detections is not None and len(detections) else None
        if fit is not None:
            # the markers place the board: the printed lines refine it, nothing is searched
            location = _from_markers(gray, board, *fit)
            if best is None or _clearly_better(location, best):
                best = location
            continue
        if has_lines is None:
            has_lines = line_share(gray) >= MIN_LINE_SHARE
        if not has_lines:
            best = best or BoardLocation.not_found(game, model, "no printed lines in view")
            continue
        # models whose searched features are the same give the same fit: only the first is tried
        alike = _searched_features(board)
        if alike in located_alike:
            continue
        located_alike.add(alike)
        extra = {}
        if game == "crokinole":
            from vision.localise_crokinole import CoarseStart, coarse_lines, coarse_start

            radii = board.line_radii_mm()
            if best is not None and best.found:
                # another model only needs comparing where the first found the board: its fine stage
                # starts from the found fit, scaled so the two models' 15 lines coincide
                first = load_board(game, best.model)
                scaled = best.homography @ _scale(first.line_radii_mm()[15] / radii[15])
                extra["start"] = CoarseStart(scaled, starts[_ratios(first)].polarity)
            else:
                # the coarse stage depends only on the ratios of the line radii: models sharing them
                # share it, and its lines and votes depend on no model at all
                if _ratios(board) not in starts:
                    lines = lines or coarse_lines(gray)
                    starts[_ratios(board)] = coarse_start(gray, board=board, lines=lines)
                extra["start"] = starts[_ratios(board)]
        elif best is not None and best.found:
            # another square model only needs comparing where the first found the board: its lines
            # refine the found fit, scaled so the two models' base line squares coincide; that start is
            # already a fit, so it is refined without screening
            extra["start"] = best.homography @ _scale(_main_line_mm(load_board(game, best.model)) / _main_line_mm(board))
            extra["screen"] = False
        else:
            from vision.localise_square import board_quads

            # the frame's quadrilaterals depend on no model
            quads = board_quads(gray) if quads is None else quads
            extra["quads"] = quads
        location = _locator(game)(gray, board=board, **extra)
        if location.found and (best is None or not best.found or _clearly_better(location, best)):
            best = location
        elif best is None:
            best = location
    return replace(best, lens_corrected=True) if intrinsics is not None and best.found else best


def _from_markers(image: np.ndarray, board, homography: np.ndarray, landmarks) -> BoardLocation:
    """The board refined on its printed lines from the markers' homography, in the markers' own
    orientation; when the lines do not confirm it within `MARKER_AGREEMENT_MM`, the markers' fit
    alone if every marker is seen, else not found."""
    if board.game == "crokinole":
        from vision.localise_crokinole import CoarseStart, locate_crokinole

        tries = [locate_crokinole(image, board=board, start=CoarseStart(homography, polarity)) for polarity in ("dark", "bright")]
    else:
        from vision.localise_square import locate_square_board

        tries = [locate_square_board(image, board=board, start=homography)]
    extent = 0.8 * (board.surface_radius_mm if board.game == "crokinole" else board.half_side_mm)
    probe_mm = np.array([[1.0, 1.0], [-1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [0.0, 0.0]]) * extent
    expected_px = project(homography, probe_mm)
    for location in tries:
        if not location.found:
            continue
        # the locators turn a symmetric board to the image axes; the markers know its true turn
        turned = min((location.homography @ _quarter_turn(k) for k in range(4)),
                     key=lambda h: float(np.abs(project(h, probe_mm) - expected_px).max()))
        disagreement_mm = float(np.max(np.linalg.norm(image_to_board(turned, expected_px) - probe_mm, axis=1)))
        if disagreement_mm <= MARKER_AGREEMENT_MM:
            return replace(location, homography=turned)
    # a few small markers leave the perspective loose: alone, only all of them place the board
    if len(set(landmarks.names)) == 4 * len(frame_markers(board).ids):
        return marker_location(board, homography, landmarks)
    return next((t for t in tries if not t.found), tries[0])


def _clearly_better(location: BoardLocation, best: BoardLocation) -> bool:
    """Whether `location` fits with clearly less error than `best` (`CLEARLY_BETTER`), in image pixels."""
    if not location.found:
        return False
    if not best.found:
        return True
    return _error_px(location) < CLEARLY_BETTER * _error_px(best)


def _error_px(location: BoardLocation) -> float:
    """The fit's mean landmark error in image pixels, at the board's centre."""
    return location.error_mm * px_per_mm_at(location.homography)


def _searched_features(board) -> tuple:
    """What the board's locator searches and fits: models alike in these are located alike (the round
    crokinole board has the NCA board's lines and pegs in another frame)."""
    if board.game == "crokinole":
        return (tuple(board.line_radii_mm().items()), board.surface_radius_mm, tuple(map(tuple, board.peg_centres_mm())),
                board.peg_diameter_mm, board.line_width_mm)
    return tuple(sorted((k, v) for k, v in vars(board).items() if k not in ("model", "description")))


def _main_line_mm(board) -> float:
    """Distance from a square board's centre to the main printed line of each side."""
    from vision.board_primitives import square_primitives
    from vision.localise_square import side_offsets_mm

    return side_offsets_mm(board, square_primitives(board))[0]


def _ratios(board) -> tuple[float, float]:
    """A crokinole board's 10 and 5 line radii over its 15 line's: what its coarse stage depends on."""
    radii = board.line_radii_mm()
    return round(radii[10] / radii[15], 3), round(radii[5] / radii[15], 3)


def _scale(factor: float) -> np.ndarray:
    return np.diag([factor, factor, 1.0])


def _quarter_turn(k: int) -> np.ndarray:
    c, s = round(math.cos(k * math.pi / 2)), round(math.sin(k * math.pi / 2))
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def _locator(game: str):
    if game == "crokinole":
        from vision.localise_crokinole import locate_crokinole

        return locate_crokinole
    from vision.localise_square import locate_square_board

    return locate_square_board
