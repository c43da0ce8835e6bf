"""Read a board: from a frame and its homography to the classified, scored pieces on the playing surface."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.geometry import BoardModel, CarromBoard, CouronneBoard, CrokinoleBoard
from vision.base_line_cover import striker_hiding_base_lines
from vision.carrom_print import BOARD_FACE_MIN_SUPPORT, printed_discs_mm, second_queens_on_figure
from vision.classify_pieces import classify_pieces
from vision.couronne_colours import knows_colours, shooter_by_samples
from vision.detect_hole import disc_in_hole
from vision.detect_occluders import Covers, covered, find_covers, in_cover_box
from vision.detect_pieces import POCKET_MOUTH_SLACK_MM, detect_pieces, on_surface
from vision.frames import validate_image
from vision.homography import px_per_mm_at
from vision.piece_colours import BOARD_FACE_MATCH, board_face_gap
from vision.piece_detections import PieceDetections, piece_sizes
from vision.pieces import BoardReading, Piece
from vision.rectify_board import DEFAULT_PX_PER_MM, BoardView, board_view
from vision.rectify_parallax import CameraAbove, camera_above
from vision.ring_coins import COARSE_SOURCE_PX_PER_MM, ring_coins
from vision.unsure_coins import unsure_coins
from vision.zones import REVIEW_TOLERANCE_MM, disc_zone


PIECE_THICKNESS_MM = {"carrom": 8.0, "couronne": 8.0}
"""Thickness of carrom coins and couronne rings (crokinole's is in its board model)."""


SILHOUETTE_HEIGHT_SHARE = 0.6
"""Height of the outline the camera sees, as a share of the piece's thickness: the top face's rim on the
side towards the camera, the base's on the far side (fitted on synthetic stills: 0.55 to 0.65)."""


def piece_thickness_mm(board: BoardModel) -> float:
    if isinstance(board, CrokinoleBoard):
        return board.disc_thickness_mm
    return PIECE_THICKNESS_MM[board.game]


def _hole_overhung(centres_mm: np.ndarray, board: CrokinoleBoard) -> bool:
    """True when a disc on the surface lies over part of the 20-hole (leaning into it): the hole cannot be seen."""
    reach = board.hole_diameter_mm / 2 + board.disc_diameter_mm / 2 - 4.0
    return bool(len(centres_mm)) and bool(np.min(np.hypot(centres_mm[:, 0], centres_mm[:, 1])) < reach)


def _visible_share(image: np.ndarray, homography: np.ndarray, view_size: int, *, board: BoardModel,
                   px_per_mm: float, half_extent_mm: float) -> float:
    """Share of the playing surface that falls inside the frame."""
    step = 8.0
    if isinstance(board, CrokinoleBoard):
        r = board.surface_radius_mm
        g = np.arange(-r, r + step, step)
        xs, ys = np.meshgrid(g, g)
        inside = np.hypot(xs, ys) <= r
    else:
        h = board.half_side_mm
        g = np.arange(-h, h + step, step)
        xs, ys = np.meshgrid(g, g)
        inside = np.ones_like(xs, bool)
    pts = np.column_stack([xs[inside], ys[inside], np.ones(inside.sum())]) @ np.asarray(homography).T
    with np.errstate(divide="ignore", invalid="ignore"):
        u, v = pts[:, 0] / pts[:, 2], pts[:, 1] / pts[:, 2]
    seen = (pts[:, 2] > 0) & (u >= 0) & (v >= 0) & (u < image.shape[1]) & (v < image.shape[0])
    return float(seen.mean()) if len(seen) else 0.0


def read_pieces(image: np.ndarray, *, homography: np.ndarray, board: BoardModel,
                samples_lab: dict[str, np.ndarray] | None = None,
                px_per_mm: float = DEFAULT_PX_PER_MM,
                review_tolerance_mm: float = REVIEW_TOLERANCE_MM, look_in_hole: bool = False,
                team_lab: dict[str, np.ndarray] | None = None,
                striker_lab: np.ndarray | None = None, with_unsure: bool = False) -> BoardReading:
    """Every piece on the playing surface of a located board, classified and (crokinole) scored.

    Parameters
    ----------
    image : (H, W, 3) uint8 ndarray
        BGR frame.
    homography : (3, 3) ndarray
        Board mm -> image px (from board localisation).
    board : the board model the homography was fitted with.
    samples_lab : optional per-table colour samples, kind -> 8-bit Lab (a table profile, or learnt from the
        video so far). Couronne: with both teams' and the shooter's, they name the shooter (`couronne_colours`).
    px_per_mm : scale of the rectified view the pieces are found in.
    review_tolerance_mm : crokinole discs closer than this to a line are flagged `needs_review`.
    look_in_hole : crokinole: count a disc seen lying flat in the 20-hole in `twenties` (a still; video
        analysis tells 20s from the hole's change between settled frames and leaves this off).
    team_lab : crokinole: the teams' colours read so far in a video, team -> 8-bit Lab (`learnt_team_colours`).
        They find faint discs of a team's colour; the colours of this reading name the teams.
    striker_lab : carrom: the striker's colour read so far in a video, 8-bit Lab (`striker_colour`): it tells the
        striker from a white coin lit apart from the others.
    with_unsure : carrom: also give the coin-sized circles not taken for coins (`unsure_coins`), classified as the
        pieces are, in the reading's `unsure`.

    Returns
    -------
    BoardReading

    Examples
    --------
    >>> reading = read_pieces(frame, homography=location.homography, board=board)  # doctest: +SKIP
    >>> reading.counts()
    {'light': 5, 'dark': 4}
    """
    image = validate_image(image)
    view = board_view(image, homography=homography, board=board, px_per_mm=px_per_mm)
    teams = np.array(list(team_lab.values())) if team_lab and isinstance(board, CrokinoleBoard) else None
    found = detect_pieces(view, board=board, team_lab=teams, striker_lab=striker_lab)
    if isinstance(board, CarromBoard) and px_per_mm_at(homography) < COARSE_SOURCE_PX_PER_MM:
        found = found.join(ring_coins(view, found, board=board, samples_lab=samples_lab))
    if isinstance(board, CouronneBoard) and knows_colours(samples_lab):
        found = shooter_by_samples(found, samples_lab)
    printed_radius_mm = getattr(board, "base_circle_diameter_mm", 0.0) / 2
    covers = find_covers(view, board=board, pieces_mm=found.centres_mm, pieces_radius_mm=found.radii_mm,
                         printed_mm=printed_discs_mm(board), print_radius_mm=printed_radius_mm,
                         piece_radius_mm=piece_sizes(board)[0].radius_mm)
    faint_hidden = np.zeros(len(found), bool)
    if covers.patches and found.is_faint.any():
        # A faint rim by a cover may be a part of it (a robot's bracket), cut out of the cover as a piece: it is
        # judged against the cover as it is without the faint rims cut out. Only by a cover found with them cut
        # out: faint coins in a cluster would otherwise make a cover of their own.
        clear = ~found.is_faint
        judged = find_covers(view, board=board, pieces_mm=found.centres_mm[clear],
                             pieces_radius_mm=found.radii_mm[clear], printed_mm=printed_discs_mm(board),
                             print_radius_mm=printed_radius_mm, piece_radius_mm=piece_sizes(board)[0].radius_mm)
        by_cover = in_cover_box(covers, found.centres_mm, margin_mm=2 * piece_sizes(board)[0].radius_mm)
        faint_hidden = found.is_faint & by_cover & covered(judged, found.centres_mm, found.radii_mm)
        if faint_hidden.any():
            kept = ~faint_hidden
            covers = find_covers(view, board=board, pieces_mm=found.centres_mm[kept],
                                 pieces_radius_mm=found.radii_mm[kept], printed_mm=printed_discs_mm(board),
                                 print_radius_mm=printed_radius_mm, piece_radius_mm=piece_sizes(board)[0].radius_mm)
    hidden_by = covered(covers, found.centres_mm, found.radii_mm) | faint_hidden
    boxed = in_cover_box(covers, found.centres_mm)
    if isinstance(board, CarromBoard) and boxed.any():
        # Between a machine's parts, a circle of bare board with part of its rim drawn is a gap, not a coin
        # (webcam a2: between the carriage's brackets, face within 9 Lab units of the board, rim 0.65 seen).
        gap = board_face_gap(view.lab, view, found.colour_lab, board=board)
        hidden_by |= boxed & (gap < BOARD_FACE_MATCH) & (found.support < BOARD_FACE_MIN_SUPPORT)
    found = found.filter(~hidden_by)
    twenties: dict[str, int] = {}
    if look_in_hole and isinstance(board, CrokinoleBoard) and not _hole_overhung(found.centres_mm, board):
        chroma = np.hypot(found.colour_lab[:, 1] - 128, found.colour_lab[:, 2] - 128)
        in_hole = disc_in_hole(image, homography=homography, board=board,
                               team_chroma=float(chroma.max()) if len(chroma) else None)
        if in_hole is not None:
            twenties[in_hole.kind] = 1
    classes = classify_pieces(found, board=board, samples_lab=samples_lab)
    printed_queens = second_queens_on_figure(found, classes.kinds, board)
    if printed_queens.any():
        found, classes = found.filter(~printed_queens), classes.filter(~printed_queens)
    if isinstance(board, CarromBoard) and "striker" not in classes.kinds:
        found, classes = striker_hiding_base_lines(view, found, classes, board=board)
    # The outline seen stands above the board; the rules judge where the piece stands.
    camera = camera_above(homography, image_size=(image.shape[1], image.shape[0]))
    centres_mm = camera.correct(found.centres_mm, face_height_mm=SILHOUETTE_HEIGHT_SHARE * piece_thickness_mm(board))
    # Measured on carrom coins; a couronne ring half over the dark mouth is fitted towards it alike (stills
    # 60000-60039: two rings 31 and 32 mm from the pocket's centre, a pocket's radius, read inside it).
    slack_mm = 0.0 if isinstance(board, CrokinoleBoard) else POCKET_MOUTH_SLACK_MM
    standing = on_surface(centres_mm, board, pocket_slack_mm=slack_mm)
    found, centres_mm, classes = found.filter(standing), centres_mm[standing], classes.filter(standing)
    unsure = ()
    if with_unsure and isinstance(board, CarromBoard):
        unsure = _unsure_pieces(view, found, camera, board=board, covers=covers, samples_lab=samples_lab)
    pieces = []
    for i, kind in enumerate(classes.kinds):
        x, y = (float(v) for v in centres_mm[i])
        confidence = float(min(found.support[i], 0.5 + 0.5 * classes.margin[i]))
        if isinstance(board, CrokinoleBoard):
            zone, clearance, review = disc_zone(x, y, board=board, tolerance_mm=review_tolerance_mm)
            # The camera's position is estimated, not known: a zone that hangs on the correction is doubtful.
            review |= disc_zone(*found.centres_mm[i], board=board, tolerance_mm=review_tolerance_mm)[0] != zone
            pieces.append(Piece(kind, x, y, float(found.radii_mm[i]), confidence, zone, review, clearance))
        else:
            pieces.append(Piece(kind, x, y, float(found.radii_mm[i]), confidence))
    hidden = 1.0 - _visible_share(image, homography, view.image.shape[0], board=board, px_per_mm=px_per_mm,
                                  half_extent_mm=view.half_extent_mm)
    colours_lab = {kind: tuple(float(v) for v in np.median(found.colour_lab[np.array(classes.kinds) == kind], axis=0))
                   for kind in set(classes.kinds)}
    return BoardReading(board.game, tuple(pieces), twenties,
                        review_tolerance_mm if isinstance(board, CrokinoleBoard) else 0.0,
                        min(1.0, hidden + covers.share), covers.patches, colours_lab, unsure)


def _unsure_pieces(view: BoardView, found: PieceDetections, camera: CameraAbove, *, board: CarromBoard,
                   covers: Covers, samples_lab: dict[str, np.ndarray] | None) -> tuple[Piece, ...]:
    """The unsure coins clear of the pieces `found` and of the covers, named as they would be among them."""
    unsure = unsure_coins(view, found, board=board)
    unsure = unsure.filter(~covered(covers, unsure.centres_mm, unsure.radii_mm))
    kinds = classify_pieces(found.join(unsure), board=board, samples_lab=samples_lab).kinds[len(found):]
    centres_mm = camera.correct(unsure.centres_mm, face_height_mm=SILHOUETTE_HEIGHT_SHARE * piece_thickness_mm(board))
    standing = on_surface(centres_mm, board)
    pieces = zip(kinds, centres_mm, unsure.radii_mm, unsure.support, standing)
    return tuple(Piece(kind, float(x), float(y), float(r), float(support))
                 for kind, (x, y), r, support, stands in pieces if stands)


def lab_of_bgr(colour_bgr) -> np.ndarray:
    """8-bit Lab of one BGR colour (as table profiles store colour samples)."""
    pixel = np.array(colour_bgr, np.uint8).reshape(1, 1, 3)
    return cv2.cvtColor(pixel, cv2.COLOR_BGR2LAB).reshape(3).astype(np.float64)
