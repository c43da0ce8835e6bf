"""Pieces of one game in a rectified board view: discs of the game's sizes, minus what the board itself shows.

The board model says which sizes to look for (carrom coin and striker, couronne
ring and shooter, crokinole disc) and where the board has things of that size
that are not pieces: pockets (a piece whose centre is over a pocket is in it),
carrom's filled base circles and centre circle (told from a piece lying on them
by their print colour, sampled from all of them at once), the ditch around a
crokinole surface. Overlapping circles are resolved greedily, best rim first:
pieces lying flat touch at most. Carrom's print is told from coins in
`vision.carrom_print`, and its one striker decided in `vision.carrom_striker`.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from calibration.geometry import BoardModel, CarromBoard, CouronneBoard, CrokinoleBoard
from vision.carrom_print import (FULL_RIM_SUPPORT, PRINT_CLEARANCE_MM, PRINT_SYMMETRY_MATCH, base_print_lab, by_pockets,
                                 clear_coins, clear_of_curved_print, clear_of_print, coin_on_print, half_rim_region,
                                 on_centre_figure, printed_discs_mm, printed_faint_region, printed_half_rim,
                                 printed_lettering, printed_mask, printed_outline)
from vision.carrom_striker import CoinRims, coin_rims_inside, large_piece_among, striker_decided
from vision.carrom_strokes import stroke_mask
from vision.centre_coin import coin_on_centre
from vision.cast_shadows import shadowed_as_pale_pieces
from vision.crokinole_shaded import SHADED_RIMS, flat_in_the_light, shaded_discs
from vision.detect_discs import (PEAK_VOTE_SHARE, EdgeField, FaintRims, find_discs, longest_arc,
                                 rim_edges, rim_radius, verify_rims)
from vision.face_shading import shaded_as_coins
from vision.piece_colours import BOARD_FACE_MATCH, board_face_gap, face_spread, piece_colours, pieces_mask, step_share
from vision.piece_detections import PieceDetections, PieceSize, piece_sizes
from vision.print_symmetry import symmetry_gap
from vision.rectify_board import BoardView
from vision.striker_rim import coins_grown
from vision.team_colours import colour_distance
from vision.zones import hole_mask


POCKET_MOUTH_SLACK_MM = 4.0
"""How far over a pocket's mouth a measured centre may lie and the piece still count as on the board. A light coin
half over the dark mouth is fitted up to 5 mm towards the pocket (stills 60000-60119: centres 23 to 27 mm from the
pocket's, measured 20 to 23); a pocketed piece lies at the pocket's centre, well inside."""

PARALLAX_MARGIN_MM = 6.0
"""How far past the surface's limits a top face may be seen (the exact test follows the parallax correction)."""


MIN_STEP_SHARE = 0.5
"""Least share of a piece's rim that must show a colour step (a filled disc, not a printed outline)."""


MIN_STEP_SHARE_CARROM = 0.62
"""The same on a carrom board, whose arrows end in open arcs a coin's size that outline half a circle."""


FULL_RIM_MIN_STEP_SHARE = 0.45
"""Least colour-step share of such a whole rim (white coins on birch: 0.58 to 0.60)."""

OFF_CURVES_RIM_SUPPORT = 0.78
"""Rim support from which a clear coin-sized rim clear of the curved print (`clear_of_curved_print`: it may lie over
the base lines) needs only `OFF_CURVES_MIN_STEP_SHARE`: no printed arc is there to draw part of one. A white coin
on a cream board under a bright lamp shows a face of the board's own colour and a rim in its edge's shade. 1080p
clips 5202-5211 every 4 s, true homography, such rims not read otherwise: 40 whites at supports of 0.78 and up
(steps 0.35 to 0.60; 5205, 5206, 5209, 5211), none without a coin under it; the first such, a circle across a
white's edge, at 0.74."""

OFF_CURVES_MIN_STEP_SHARE = 0.3
"""Least colour-step share of such a rim: its edge's shade steps on part of it (the pale whites above: 0.35 and up)."""

ROUND_PRINT_REACH_MM = 6.0
"""How far a striker-sized circle drawn round a printed base circle may be centred off it: a circle of a striker's
radius holds the base circle up to 4.6 mm off its centre, and the print's fit strays a millimetre (simulated clip
5211, 1080p, 128 to 208 s: such rings 4.0 to 5.0 mm off the print's fit, read as the queen)."""

FIGURE_MIN_SUPPORT = 0.72
"""Least share of its rim a clear coin on the carrom centre figure must show: the star's points, its hub and the
circles draw coin-sized arcs that, with a neighbour's edge, make up most of a circle. Tuning stills 96060-96259 and
fresh 97000-97199 (1280x720): the clear coins kept within 110 mm of the centre showed 0.764 and up (1172), the print
kept there 0.667, 0.694 and 0.764; simulated clip 5216 at 78.8 s (1080p) read the hub and a red point beside a black
on the centre as a queen, 0.69 of its rim seen."""

LARGE_RIM_LEAD = 0.1
"""Score a large rim (striker, shooter) has over a small one of the same fit: where a large piece is, smaller circles
fit inside its rim too, and a clear large rim must win."""

INNER_RIM_REACH_MM = 4.0
"""How far from a large rim's centre the small rim inside it (a striker's bevel) is centred (`_outfits_inner_rim`)."""

FAINT_RIMS = FaintRims()
"""What a rim with few votes must show to be a piece (`vision.detect_discs.FaintRims`)."""

FAINT_RINGS = FaintRims(least_screen_support=0.7)
"""The same for couronne rings, whose faint rims show whole at the first, unfitted look (stills 60000-60119: those
kept 0.94 and up): a stricter screen spares verifying most of the wood's texture."""

FAINT_MIN_STEP_SHARE = 0.75
"""Least share of a faint rim that must show a colour step: its face must stand apart from the board all round."""

FAINT_MAX_SURROUND_SPREAD = 35.0
"""Most upper-quartile Lab spread of the board just around a faint rim (synthetic coins up to 31, the webcam
robot's rods and rails 39 and up)."""


CROKINOLE_FAINT_MIN_FACE_GAP = 20.0
"""Least Lab distance between a crokinole faint rim's face and the board around it (`_faint_pieces`): faint
discs on synthetic stills 22 to 45 (one light disc on pale maple 9.6, left out); arcs of the wood's grain on the
real photos enclose the board's own colour, at most 17.6."""

CROKINOLE_FAINT_MAX_FACE_SPREAD = 15.0
"""Most upper-quartile Lab spread over a crokinole faint rim's face from its median: a disc's face is even
(synthetic faint discs 7 to 14), grain is not (real photos 10 to 25)."""

CROKINOLE_FAINT_TEAM_MATCH = 10.0
"""Most Lab distance (lightness counting a quarter, `colour_distance`) between a crokinole faint rim's face and a
team's colour read earlier in the same video for the face to be that team's (`detect_pieces`'s `team_lab`)."""

CROKINOLE_FAINT_MIN_TEAM_GAP = 12.0
"""Least Lab distance between such a face and the board around it (light discs on pale maple in simulated clips 14 to
20, short of `CROKINOLE_FAINT_MIN_FACE_GAP`; the grain's even arcs on the real photos at most 8.1)."""

CROKINOLE_FAINT_MIN_TEAM_HUE_GAP = 6.0
"""The same, lightness counting a quarter (`colour_distance`): a patch of the wood lit lighter is no disc, though a
team's colour is the wood's lit lighter (simulated clip 5114, pale birch: 3.3; light discs on pale maple 10 to 13)."""

PRINTED_FAINT_RIMS = FaintRims(least_vote_share=0.03, min_support=0.85, min_sectors=7, least_screen_support=0.85)
"""What a faint carrom rim over the board's lines and arcs must show (`printed_faint_region`): a printed line
through a coin or beside it takes votes from its rim, and lines and arcs draw parts of coin-sized circles, never a
whole one (stills 60000-60119: coins on print 0.85 to 1.0 of their rims seen at the first look and after fitting,
print mostly under). A line's own votes pile into a ridge of weak peaks along it (about 370 per view from 0.02 of a
full rim's votes, 80 from 0.03); the coins on it gather 0.03 and up."""

PRINTED_FAINT_STRIKER_RIMS = dataclasses.replace(PRINTED_FAINT_RIMS, least_vote_share=0.02)
"""The same for the striker's rim: a player sets it on the base lines, whose two lines take the votes of its rim
where they cross it (tuning and check stills: pale strikers there gather 0.026 to 0.028 of a full rim's votes).
Striker-sized circles are fewer along the lines than coin-sized ones."""


PRINTED_FAINT_MIN_STEP_SHARE = 0.9
"""Least colour-step share of such a rim (coins on print 0.9 to 1.0)."""


HALF_RIMS = FaintRims(least_vote_share=0.02, min_support=0.4, min_sectors=3, max_residual_px=0.55,
                      max_radius_error=0.12, least_screen_support=0.4)
"""What a carrom coin's rim seen in part only must show, clear of the print or over it (`half_rim_region`; a white
coin on a pale board shows its shadow side alone; tuning stills 60000-60119: such coins 0.42 to 0.74 of their rims
seen, residuals up to 0.51 px, radii 14.6 to 17.3 mm, the shadow widening them). Such a rim must also show a coin's
face (`HALF_RIM_*`)."""

HALF_RIM_SURROUND_REACH = 1.6
"""Outer radius, in a coin's radii, of the board around a faint rim that must be even (`_faint_pieces`): by a
pocket, a half rim is looked for only where the mouth and the frame lie beyond it (`by_pockets`)."""

HALF_RIM_MAX_SURROUND_SPREAD = 15.0
"""Most upper-quartile Lab spread of the board just around a half rim (such coins up to 14.6; texture and print that
draw half rims, 30 at the 90th percentile)."""

HALF_RIM_MAX_FACE_SPREAD = 25.0
"""Most upper-quartile Lab spread over a half rim's face (such coins 8 to 23)."""

HALF_RIM_MIN_ARC = 0.375
"""Least share of a half rim seen in one unbroken arc: a coin's shadow side is one (such coins 0.38 to 0.62), the
edges of printed lettering are broken (0.31 to 0.35)."""


TOUCHING_ROUNDS = 3
"""Rounds of looking for pieces wedged between found ones (each found one opens new places)."""

TOUCHING_GAP_MM = 0.5
"""Gap assumed between touching pieces when placing a wedged piece between two found ones."""

TOUCHING_PLACE_SPACING_MM = 0.25
"""Places named by several pairs of found pieces closer than this are looked at once."""

TOUCHING_RIMS = FaintRims(min_support=0.65, min_sectors=6, max_residual_px=1.2, max_radius_error=0.15)
"""What the rim of a wedged piece must show (`vision.detect_discs.FaintRims`; carrom stills 60000-60119: wedged
coins 0.68 and up of their rims seen, residuals up to 1.1 px)."""

TOUCHING_MIN_STEP_SHARE = 0.75
"""Least colour-step share of a wedged piece's rim (wedged coins 0.79 and up; half of the places between coins
that hold none, 0.69 and under)."""

TOUCHING_MAX_FACE_SPREAD = 22.0
"""Most upper-quartile Lab spread over a wedged piece's face (coins up to 21; print figures far more)."""

TOUCHING_MIN_SURROUND_GAP = 20.0
"""Least Lab distance between a wedged piece's face and the board just around it (coins 21 and up)."""

TOUCHING_MIN_SHADING = 10.0
"""Least face spread of a wedged piece of the board's own colour: a white coin on a pale board shows its rim's
shading and engraving (11.6 and up), a gap of bare board between coins only the image's noise (8 at most)."""


SHOOTER_MIN_COLOUR_GAP = 20.0
"""Least a*b* distance from the nearer team's colour (`_off_team_colour`) of a couronne shooter told by colour
(stills 60000-60039: shooters 14 to 45, rings at most 14)."""

SHOOTER_SPREAD_FACTOR = 4.0
"""The shooter's colour must also stand this many times the pieces' median distance from their team's."""

MIN_TEAM_CHROMA = 15.0
"""Median Lab chroma of the pieces under which the teams' colours are too faint to single out a shooter by colour."""


def on_surface(centres_mm: np.ndarray, board: BoardModel, *, margin_mm: float = 0.0,
               pocket_slack_mm: float = 0.0) -> np.ndarray:
    """True for centres on the playing surface: not over a pocket, not in the ditch or beyond.

    A positive `margin_mm` keeps centres that far past the limits (a top face
    seen with parallax lies a few millimetres out from where the piece stands);
    `pocket_slack_mm` keeps centres that much further over a pocket's mouth.
    """
    centres_mm = np.asarray(centres_mm, np.float64).reshape(-1, 2)
    x, y = centres_mm[:, 0], centres_mm[:, 1]
    if isinstance(board, CrokinoleBoard):
        return np.hypot(x, y) <= board.surface_radius_mm + margin_mm
    half = board.half_side_mm + margin_mm
    on = (np.abs(x) <= half) & (np.abs(y) <= half)
    for px, py in board.pocket_centres_mm():
        on &= np.hypot(x - px, y - py) > board.pocket_diameter_mm / 2 - margin_mm - pocket_slack_mm
    return on


def faint_region(centres_mm: np.ndarray, board: BoardModel, *, radius_mm: float, by_pegs: bool = False) -> np.ndarray:
    """True for circles of `radius_mm` where a faint rim may be a piece.

    Carrom: anywhere clear of the print (`clear_of_print`). Crokinole: leaning over the 20-hole
    (a tilted disc scatters its rim's votes), or clear of the hole, the pegs and the surface's
    edge into the ditch, which draw disc-sized arcs of their own; with `by_pegs`, by the pegs
    too. Couronne: anywhere.
    """
    c = np.asarray(centres_mm, np.float64).reshape(-1, 2)
    if isinstance(board, CarromBoard):
        return clear_of_print(c, board, radius_mm=radius_mm)
    if isinstance(board, CrokinoleBoard):
        from_centre = np.hypot(c[:, 0], c[:, 1])
        leaning = (from_centre > board.hole_diameter_mm / 4) & (from_centre < board.hole_diameter_mm / 2 + radius_mm / 2)
        reach = radius_mm + PRINT_CLEARANCE_MM
        pegs = np.asarray(board.peg_centres_mm(), np.float64)
        clear = (from_centre > board.hole_diameter_mm / 2 + reach) & (from_centre < board.surface_radius_mm - reach)
        if not by_pegs:
            clear &= np.hypot(c[:, None, 0] - pegs[None, :, 0], c[:, None, 1] - pegs[None, :, 1]).min(axis=1) > (
                board.peg_diameter_mm / 2 + reach)
        return leaning | clear
    return np.ones(len(c), bool)


def resolve_overlaps(centres_mm: np.ndarray, radii_mm: np.ndarray, score: np.ndarray,
                      *, allowed_overlap_mm: float) -> np.ndarray:
    """Greedy, best score first: keep a circle unless it overlaps a kept one by more than allowed."""
    keep: list[int] = []
    for i in np.argsort(-score, kind="stable"):
        if all(np.hypot(*(centres_mm[i] - centres_mm[j])) >= radii_mm[i] + radii_mm[j] - allowed_overlap_mm
               for j in keep):
            keep.append(int(i))
    mask = np.zeros(len(score), bool)
    mask[keep] = True
    return mask


def detect_pieces(view: BoardView, *, board: BoardModel, min_support: float = 0.5,
                  team_lab: np.ndarray | None = None, striker_lab: np.ndarray | None = None) -> PieceDetections:
    """Every piece-sized disc on the playing surface of a rectified view.

    Parameters
    ----------
    view : BoardView of the board.
    board : the board model that was rectified.
    min_support : least share of a rim that must be seen.
    team_lab : crokinole: (k, 3) 8-bit Lab colours of the teams' discs as read so far in a video; a faint rim whose
        face is one of them is a disc where it stands too little apart from the board to be one by itself.
    striker_lab : carrom: (3,) 8-bit Lab colour of the striker as read so far in a video (`striker_colour`); it
        decides between a striker-sized piece and a coin with a striker's rim round it (`striker_decided`).

    Returns
    -------
    PieceDetections, best rim first.

    Examples
    --------
    >>> found = detect_pieces(board_view(frame, homography=h, board=board), board=board)  # doctest: +SKIP
    """
    sizes = piece_sizes(board)
    lab = view.lab
    edges = view.edges
    s = view.px_per_mm
    centres, radii, size_index, support, score, faint, on_print, partial = [], [], [], [], [], [], [], []
    mouths_px = None
    if isinstance(board, CarromBoard):
        # A dark pocket mouth hides the part of a coin's rim over it (a black coin over it shows little else).
        pockets_px = view.to_px(np.asarray(board.pocket_centres_mm(), np.float64))
        mouths_px = np.column_stack([pockets_px, np.full(len(pockets_px), board.pocket_diameter_mm / 2 * s)])
    elif isinstance(board, CrokinoleBoard):
        # A disc leaning over the 20-hole shows no rim against the hole's dark inside.
        mouths_px = np.array([[*view.to_px(np.zeros((1, 2)))[0], board.hole_diameter_mm / 2 * s]])
    # Crokinole, in a video: a faint whole rim by a peg may be a disc of a team's colour as read so far
    # (`_faint_pieces`). Not by the hole or the surface's edge, whose arcs enclose the wood of a pale disc's colour.
    by_team = isinstance(board, CrokinoleBoard) and team_lab is not None and len(team_lab) > 0
    for k, size in enumerate(sizes):
        # Faint rims are looked for where the board model says nothing else could draw them (`faint_region`); on
        # couronne among the rings only (the one shooter, told by its colour, is worth no second search).
        faint_rims = FAINT_RINGS if isinstance(board, CouronneBoard) else FAINT_RIMS
        is_faint_searched = not isinstance(board, CouronneBoard) or k == 0
        faint_on_print = PRINTED_FAINT_STRIKER_RIMS if k == 1 else PRINTED_FAINT_RIMS
        found = find_discs(edges, radius_px=size.radius_mm * s, min_support=min_support,
                           faint=faint_rims if is_faint_searched else None,
                           faint_region=lambda px, r=size.radius_mm: faint_region(view.to_mm(px), board, radius_mm=r,
                                                                                  by_pegs=by_team),
                           unseen_px=mouths_px,
                           faint_elsewhere=faint_on_print if isinstance(board, CarromBoard) else None,
                           elsewhere_region=lambda px, r=size.radius_mm: printed_faint_region(view.to_mm(px), board,
                                                                                              radius_mm=r),
                           partial=HALF_RIMS if isinstance(board, CarromBoard) and k == 0 else (
                               SHADED_RIMS if isinstance(board, CrokinoleBoard) else None),
                           partial_region=lambda px, r=size.radius_mm: half_rim_region(
                               view.to_mm(px), board, radius_mm=r, clear_mm=HALF_RIM_SURROUND_REACH * r)
                           if isinstance(board, CarromBoard) else np.zeros(len(px), bool),
                           printed_px=stroke_mask(view, board=board) if isinstance(board, CarromBoard) else None)
        mm = view.to_mm(found.centres_px)
        r_mm = found.radii_px / s
        # The measured radius must be nearer this size than any other.
        nearest = np.argmin(np.abs(r_mm[:, None] - np.array([z.radius_mm for z in sizes])[None, :]), axis=1)
        ok = (nearest == k) & on_surface(mm, board, margin_mm=PARALLAX_MARGIN_MM)
        weak = (found.vote_share < PEAK_VOTE_SHARE) | found.is_partial
        printed_faint = weak & ~faint_region(mm, board, radius_mm=size.radius_mm)
        by_peg = (faint_region(mm, board, radius_mm=size.radius_mm, by_pegs=True) if by_team
                  else np.zeros(len(mm), bool))
        ok &= ~printed_faint | found.is_partial | by_peg | (printed_faint_region(mm, board, radius_mm=size.radius_mm)
                                                            & (found.support >= faint_on_print.min_support))
        centres.append(mm[ok])
        radii.append(r_mm[ok])
        size_index.append(np.full(ok.sum(), k))
        support.append(found.support[ok])
        fit = np.clip(1 - np.abs(r_mm[ok] - size.radius_mm) / size.radius_mm, 0, 1)
        # Where a large piece is, smaller circles fit inside its rim too; a clear large rim wins.
        score.append(found.support[ok] * fit - 0.02 * np.minimum(found.residual_px[ok], 10) + LARGE_RIM_LEAD * k)
        faint.append(weak[ok])
        on_print.append(printed_faint[ok])
        partial.append(found.is_partial[ok])
    centres_mm = np.vstack(centres) if centres else np.zeros((0, 2))
    radii_mm, size_arr = np.concatenate(radii), np.concatenate(size_index).astype(int)
    support_arr, score_arr, faint_arr = np.concatenate(support), np.concatenate(score), np.concatenate(faint)
    on_print_arr, partial_arr = np.concatenate(on_print), np.concatenate(partial)
    if len(radii_mm) == 0:
        return PieceDetections.empty()
    steps = step_share(lab, view.to_px(centres_mm), radii_mm * s, offset_px=0.3 * sizes[0].radius_mm * s)
    # A half rim by a pocket steps as a half rim elsewhere does: the print it lies on is a thin line. (A crokinole rim
    # by a peg steps as one elsewhere: its team's colour judges it.)
    whole_on_print = on_print_arr & ~partial_arr & isinstance(board, CarromBoard)
    filled = steps >= np.where(faint_arr, np.where(whole_on_print, PRINTED_FAINT_MIN_STEP_SHARE, FAINT_MIN_STEP_SHARE),
                               MIN_STEP_SHARE_CARROM if isinstance(board, CarromBoard) else MIN_STEP_SHARE)
    candidates = PieceDetections(centres_mm, radii_mm, size_arr, support_arr, np.zeros((len(size_arr), 3)),
                                 np.zeros((len(size_arr), 3)))
    if isinstance(board, CrokinoleBoard):
        # A disc of the board's own colour steps little in colour round its rim, and may show part of it only: its
        # bevel's shading may judge it instead (`_faint_pieces`), and it fills only a gap the clear rims left.
        shaded = partial_arr | ~filled
        # A whole rim by a peg is judged by its team's colour alone: one that steps too little for that is no disc.
        by_print_only = on_print_arr & ~partial_arr & ~filled
        partial_arr, faint_arr, on_print_arr = shaded, faint_arr | shaded, on_print_arr & ~shaded
        filled = (filled | shaded) & ~by_print_only
    # A light coin on a light board steps little in colour, but shows its whole rim: an open arc cannot; clear of
    # the curved print, most of it will do. Nor need it, where the light shades its face as it shades the clear coins'.
    if isinstance(board, CarromBoard):
        whole_step = ~faint_arr & (steps >= FULL_RIM_MIN_STEP_SHARE)
        filled |= whole_step & (support_arr >= FULL_RIM_SUPPORT)
        filled |= (~faint_arr & (steps >= OFF_CURVES_MIN_STEP_SHARE) & (size_arr == 0)
                   & (support_arr >= OFF_CURVES_RIM_SUPPORT)
                   & clear_of_curved_print(centres_mm, board, radius_mm=sizes[0].radius_mm))
        filled[~faint_arr] |= _lit_like_coins(candidates.filter(~faint_arr), filled[~faint_arr], lab, view,
                                              board=board)
        filled |= _shadowed_like_pale_pieces(candidates, filled, partial_arr, lab, view, board=board)
    clear = filled & ~faint_arr
    found = _clear_pieces(candidates.filter(clear), score_arr[clear], edges, lab, view, sizes, board,
                          outfits_inner=(_outfits_inner_rim(candidates) if isinstance(board, CarromBoard)
                                         else np.zeros(len(candidates), bool))[clear])
    if isinstance(board, CarromBoard):
        found = found.filter(~_drawn_by_figure(found, board))
    # Fitted once, for the two questions asked of the clear pieces' coin rims: is there room for a faint striker, and
    # which piece is the striker.
    inner = (coin_rims_inside(found, edges, view, coin_radius_mm=sizes[0].radius_mm, unseen_px=mouths_px)
             if isinstance(board, CarromBoard) else None)
    # A faint rim only fills a gap the clear ones left: it never displaces one.
    weak = filled & faint_arr
    found = found.join(_faint_pieces(candidates.filter(weak), score_arr[weak], found, lab, view, sizes, board,
                                     on_print=on_print_arr[weak], partial=partial_arr[weak], edges=edges,
                                     inner=inner, team_lab=team_lab))
    if isinstance(board, CouronneBoard):
        found = _shooter_among_all(found, sizes)
    # Measured on carrom coins (a couronne ring's face is its band; crokinole's 20-hole is a disc's size).
    looked_at = 0
    for _ in range(TOUCHING_ROUNDS if isinstance(board, CarromBoard) else 0):
        more = _touching_pieces(found, edges, lab, view, sizes, board, unseen_px=mouths_px, new_from=looked_at)
        if len(more) == 0:
            break
        found, looked_at = found.join(more), len(found)
    if isinstance(board, CarromBoard):
        found = found.join(coin_on_centre(found, edges, lab, view, sizes, board))
        found = striker_decided(found, edges, lab, view, sizes, board, unseen_px=mouths_px, measured=inner,
                                striker_lab=striker_lab)
    return found.filter(np.argsort(-found.support, kind="stable"))


def _lit_like_coins(candidates: PieceDetections, clear: np.ndarray, lab: np.ndarray, view: BoardView, *,
                    board: CarromBoard) -> np.ndarray:
    """True for coin-sized circles, not yet `clear`, whose faces the light shades as the clear coins' (carrom).

    Only circles a coin's width from every clear one are looked at: next to one, a circle drawn across two coins
    is shaded by them. The printed base and centre circles are left out of the coins the light's way is taken from.
    """
    c = candidates.centres_mm
    prints = printed_discs_mm(board)
    off_prints = np.hypot(c[:, None, 0] - prints[None, :, 0], c[:, None, 1] - prints[None, :, 1]).min(axis=1) > (
        board.base_circle_diameter_mm)
    looked = ~clear & (candidates.size == 0)
    if clear.any():
        looked &= np.hypot(c[:, None, 0] - c[None, clear, 0], c[:, None, 1] - c[None, clear, 1]).min(axis=1) > (
            board.coin_diameter_mm)
    lit = np.zeros(len(c), bool)
    lit[looked] = shaded_as_coins(c[looked], clear_coins(candidates.filter(clear & off_prints)), lab, view,
                                  radius_mm=board.coin_diameter_mm / 2)
    return lit


def _shadowed_like_pale_pieces(candidates: PieceDetections, filled: np.ndarray, partial: np.ndarray,
                               lab: np.ndarray, view: BoardView, *, board: CarromBoard) -> np.ndarray:
    """True for coin-sized half rims clear of the print, not yet `filled`, that cast their shade as the pale
    circles do (`shadowed_as_pale_pieces`): a white coin on a white board shows little but its shadow's side.

    The light's way is taken from the pale circles filled and these half rims together (their median shade): on a
    pale board few pale pieces are read whole, the half rims that are pieces are shaded alike, and the others every
    way or hardly at all.
    """
    c, s = candidates.centres_mm, view.px_per_mm
    looked = partial & ~filled & (candidates.size == 0)
    looked[looked] = clear_of_print(c[looked], board, radius_mm=board.coin_diameter_mm / 2)
    shown = looked | filled
    shadowed = np.zeros(len(c), bool)
    shadowed[looked] = shadowed_as_pale_pieces(lab, view.to_px(c[looked]), candidates.radii_mm[looked] * s,
                                               pieces_px=view.to_px(c[shown]),
                                               piece_radii_px=candidates.radii_mm[shown] * s)
    return shadowed


def _touching_places(found: PieceDetections, radius_mm: float, *, new_from: int = 0) -> np.ndarray:
    """Centres (m, 2) of circles of `radius_mm` that would touch two found pieces at once, one of them at least
    from index `new_from` on."""
    c, r = found.centres_mm, found.radii_mm + radius_mm + TOUCHING_GAP_MM
    i, j = np.triu_indices(len(c), 1)
    i, j = i[j >= new_from], j[j >= new_from]
    d = np.hypot(*(c[j] - c[i]).T)
    ok = (d < r[i] + r[j]) & (d > np.abs(r[i] - r[j])) & (d > 0)
    i, j, d = i[ok], j[ok], d[ok]
    along = (d * d + r[i] ** 2 - r[j] ** 2) / (2 * d)
    across = np.sqrt(np.maximum(r[i] ** 2 - along ** 2, 0.0))
    unit = (c[j] - c[i]) / d[:, None]
    normal = np.column_stack([-unit[:, 1], unit[:, 0]])
    base = c[i] + along[:, None] * unit
    return np.vstack([base + across[:, None] * normal, base - across[:, None] * normal])


def _touching_pieces(found: PieceDetections, edges: EdgeField, lab: np.ndarray, view: BoardView,
                     sizes: tuple[PieceSize, ...], board: BoardModel, *, unseen_px: np.ndarray | None,
                     new_from: int = 0) -> PieceDetections:
    """Small pieces wedged between found ones (a break cluster, coins in a row).

    Their centres gather few votes, for much of their rims are shared with their
    neighbours', but they lie where a piece would touch two found ones: each such
    place is looked at. What counts there is a whole, round rim around a face of
    one colour standing apart from what surrounds it; a face of the board's own
    colour must show a coin's shading besides (bare board between coins shows
    none), and the piece must lie whole on the surface, clear of the pockets.
    """
    size = sizes[0]
    s = view.px_per_mm
    if len(found) < 2:
        return PieceDetections.empty()
    allowed_mm = 0.3 * size.radius_mm
    # Places between pieces found before were looked at in an earlier round.
    places = _touching_places(found, size.radius_mm, new_from=new_from)
    places = places[clear_of(places, found, size.radius_mm - allowed_mm) & _whole_on_surface(places, board,
                                                                                                 size.radius_mm)]
    if len(places) == 0:
        return PieceDetections.empty()
    # Several pairs name nearly the same place; each start may settle on the rim differently, the best is kept.
    places = places[resolve_overlaps(places, np.full(len(places), TOUCHING_PLACE_SPACING_MM / 2),
                                      np.zeros(len(places)), allowed_overlap_mm=0.0)]
    rims = verify_rims(edges, view.to_px(places), radius_px=size.radius_mm * s, unseen_px=unseen_px)
    centres, radii = view.to_mm(rims.centres_px), rims.radii_px / s
    keep = ((rims.support >= TOUCHING_RIMS.min_support) & (rims.sectors >= TOUCHING_RIMS.min_sectors)
            & (rims.residual_px <= TOUCHING_RIMS.max_residual_px)
            & (np.abs(radii - size.radius_mm) <= TOUCHING_RIMS.max_radius_error * size.radius_mm)
            & clear_of(centres, found, radii - allowed_mm) & _whole_on_surface(centres, board, size.radius_mm))
    if keep.any():
        keep[keep] = step_share(lab, view.to_px(centres[keep]), radii[keep] * s,
                                offset_px=0.3 * size.radius_mm * s) >= TOUCHING_MIN_STEP_SHARE
    if not keep.any():
        return PieceDetections.empty()
    centres, radii, support = centres[keep], radii[keep], rims.support[keep]
    size_arr = np.zeros(len(centres), int)
    colour, surround = piece_colours(lab, view, centres, size_arr, sizes, board)
    spread = face_spread(lab, view.to_px(centres), colour, radius_px=0.6 * size.radius_mm * s)
    keep = ((spread <= TOUCHING_MAX_FACE_SPREAD)
            & (np.linalg.norm(colour - surround, axis=1) >= TOUCHING_MIN_SURROUND_GAP))
    if isinstance(board, CarromBoard):
        keep &= (board_face_gap(lab, view, colour, board=board) >= BOARD_FACE_MATCH) | (spread >= TOUCHING_MIN_SHADING)
    more = PieceDetections(centres, radii, size_arr, support, colour, surround,
                           np.ones(len(centres), bool)).filter(keep)
    more = more.filter(resolve_overlaps(more.centres_mm, more.radii_mm, more.support, allowed_overlap_mm=allowed_mm))
    printed = printed_mask(found.join(more), lab, view, board=board, edges=edges, sizes=sizes)[len(found):]
    return more.filter(~printed)


def clear_of(centres_mm: np.ndarray, found: PieceDetections, radius_mm) -> np.ndarray:
    """True for circles of `radius_mm` (scalar or per circle) overlapping none of the found pieces."""
    if len(found) == 0 or len(centres_mm) == 0:
        return np.ones(len(centres_mm), bool)
    gaps = np.hypot(centres_mm[:, None, 0] - found.centres_mm[None, :, 0],
                    centres_mm[:, None, 1] - found.centres_mm[None, :, 1])
    return (gaps >= found.radii_mm[None, :] + np.reshape(radius_mm, (-1, 1))).all(axis=1)


def _whole_on_surface(centres_mm: np.ndarray, board: BoardModel, radius_mm: float) -> np.ndarray:
    """True for circles of `radius_mm` lying whole on the playing surface, clear of the pockets' mouths."""
    if isinstance(board, CrokinoleBoard):
        return np.hypot(centres_mm[:, 0], centres_mm[:, 1]) <= board.surface_radius_mm - radius_mm
    return on_surface(centres_mm, board, margin_mm=-radius_mm)


def _clear_pieces(candidates: PieceDetections, score_arr: np.ndarray, edges: EdgeField, lab: np.ndarray,
                  view: BoardView, sizes: tuple[PieceSize, ...], board: BoardModel, *,
                  outfits_inner: np.ndarray) -> PieceDetections:
    """The pieces among clear rims: the board's print taken out, overlaps settled, one large piece at most.

    `outfits_inner` marks large rims that show more of themselves than the small rim found inside them
    (`_outfits_inner_rim`).
    """
    if len(candidates) == 0:
        return PieceDetections.empty()
    colour, surround = piece_colours(lab, view, candidates.centres_mm, candidates.size, sizes, board)
    found = PieceDetections(candidates.centres_mm, candidates.radii_mm, candidates.size, candidates.support, colour,
                            surround)
    printed = printed_mask(found, lab, view, board=board, edges=edges, sizes=sizes)
    if isinstance(board, CrokinoleBoard):
        # The 20-hole is a disc-sized circle of its own; it must not crowd out a disc leaning over it.
        printed |= hole_mask(found.centres_mm, board=board)
        printed |= flat_in_the_light(lab, view, found.centres_mm, found.radii_mm, board=board, face_lab=colour,
                                     surround_lab=surround)
    prints_mm = found.centres_mm[printed & (found.size == 0)]
    found, score_arr, outfits_inner = found.filter(~printed), score_arr[~printed], outfits_inner[~printed]
    allowed_mm = 0.3 * sizes[0].radius_mm
    keep = resolve_overlaps(found.centres_mm, found.radii_mm, score_arr, allowed_overlap_mm=allowed_mm)
    while isinstance(board, CarromBoard) and keep.any():
        # Told among the circles kept, where a neighbour is another piece rather than another fit of the same;
        # a print's other fits, crowded out by the first, come up in turn.
        outline = np.zeros(len(found), bool)
        outline[np.nonzero(keep)[0]] = printed_outline(found.filter(keep), lab, view, board=board, by_other_print=True)
        if not outline.any():
            break
        found, score_arr, outfits_inner = found.filter(~outline), score_arr[~outline], outfits_inner[~outline]
        keep = resolve_overlaps(found.centres_mm, found.radii_mm, score_arr, allowed_overlap_mm=allowed_mm)
    if isinstance(board, CarromBoard) and keep.any():
        across = _drawn_across(found, keep, score_arr, allowed_mm=allowed_mm)
        if across.any():
            score_arr = np.where(across, score_arr - 10.0, score_arr)
            keep = resolve_overlaps(found.centres_mm, found.radii_mm, score_arr, allowed_overlap_mm=allowed_mm)
    if len(sizes) == 2 and keep.any():
        sized = _one_large_piece(found.filter(keep), edges, lab, view, sizes, board, outfits_inner=outfits_inner[keep])
        demoted = np.zeros(len(found), bool)
        demoted[np.nonzero(keep)[0]] = (found.size[keep] == 1) & (sized.size == 0)
        # Kept to carrom: on couronne stills (seeds 60000-60039) it lost a ring for each it found.
        if demoted.any() and isinstance(board, CarromBoard):
            # A large circle that is not the one large piece was drawn round small pieces it crowded out
            # (two touching coins, a coin and its shadow): the small circles it overlaps come first.
            score_arr = np.where(demoted, score_arr - 10.0, score_arr)
            keep = resolve_overlaps(found.centres_mm, found.radii_mm, score_arr, allowed_overlap_mm=allowed_mm)
            sized = _one_large_piece(found.filter(keep), edges, lab, view, sizes, board, outfits_inner=outfits_inner[keep])
        if isinstance(board, CarromBoard):
            # A large circle about a small one that is print, and not the one large piece, is the print's outer ring
            # (simulated clip 5211 at 92 s, 1080p: a red base circle's ring and fill, its edge profile a coin's, was
            # read as a queen 18.9 mm across).
            round_print = (found.size[keep] == 1) & (sized.size == 0) & centred_about(
                sized.centres_mm, prints_mm, reach_mm=ROUND_PRINT_REACH_MM)
            sized = sized.filter(~round_print)
        return sized
    return found.filter(keep)


def _drawn_by_figure(found: PieceDetections, board: CarromBoard) -> np.ndarray:
    """True for clear coin-sized circles on the centre figure showing too little rim (`FIGURE_MIN_SUPPORT`)."""
    return on_centre_figure(found.centres_mm, board) & (found.size == 0) & (found.support < FIGURE_MIN_SUPPORT)


def _drawn_across(found: PieceDetections, keep: np.ndarray, score_arr: np.ndarray, *, allowed_mm: float) -> np.ndarray:
    """Kept large circles that crowd out a small rim they do not hold, and win over it only by `LARGE_RIM_LEAD`.

    The lead is for the small circles a large piece holds (its bevel's ring). A large circle drawn across a coin's
    rim and an arc beside it overlaps the neighbouring coin it crowds out, centred beyond its rim (simulated clip 5208
    at 0 s, 1080p: a white's rim and the centre circle's print in the break formation fitted a striker, which crowded
    out the black beside the white).
    """
    across = np.zeros(len(found), bool)
    small = np.nonzero(~keep & (found.size == 0))[0]
    for i in np.nonzero(keep & (found.size == 1))[0]:
        gaps = np.hypot(*(found.centres_mm[small] - found.centres_mm[i]).T)
        crowded = gaps < found.radii_mm[i] + found.radii_mm[small] - allowed_mm
        # A small rim centred inside the large one is drawn on its own face or rim (its bevel's ring, a highlight's
        # edge), never a neighbour's (simulated clip 5208 at 47.6 s: a coin-sized circle across a striker's rim and
        # its highlight, 14 mm off its centre, crowded out the striker).
        beyond = gaps > found.radii_mm[i]
        across[i] = bool((crowded & beyond & (score_arr[small] >= score_arr[i] - LARGE_RIM_LEAD)).any())
    return across


def _faint_pieces(candidates: PieceDetections, score_arr: np.ndarray, found: PieceDetections, lab: np.ndarray,
                  view: BoardView, sizes: tuple[PieceSize, ...], board: BoardModel, *, on_print: np.ndarray,
                  partial: np.ndarray, edges: EdgeField, inner: CoinRims | None,
                  team_lab: np.ndarray | None = None) -> PieceDetections:
    """Pieces among faint rims: on even board, clear of the pieces found, and a large one only where none was found
    (`large_piece_among`, told by the coin rims `inner` in the found ones).

    `on_print` marks carrom rims over the board's print (`PRINTED_FAINT_RIMS`): judged by their face and as the
    print itself is, not by the board around them, which the print makes busy. `partial` marks carrom rims seen in
    part only (`HALF_RIMS`): the board around them must be evener, and their face a coin's, on print too.
    """
    s = view.px_per_mm
    allowed_mm = 0.3 * sizes[0].radius_mm
    if len(found):
        free = clear_of(candidates.centres_mm, found, candidates.radii_mm - allowed_mm)
        if large_piece_among(found, board, inner=inner):
            free &= candidates.size == 0
        candidates, score_arr, on_print, partial = (candidates.filter(free), score_arr[free], on_print[free],
                                                    partial[free])
    if len(candidates) == 0:
        return PieceDetections.empty()
    # Crokinole: the board around a faint rim is the wood's, not the discs' beside. The wood between two light discs
    # and a line is drawn as a rim round the wood's own colour (simulated clip 5116 at 53.8 s: 24 Lab units from its
    # surround with the discs, 7 without).
    beside = (pieces_mask(view, found.centres_mm, found.radii_mm, margin_mm=1.0)
              if isinstance(board, CrokinoleBoard) and len(found) else None)
    colour, surround = piece_colours(lab, view, candidates.centres_mm, candidates.size, sizes, board,
                                     around_excluded=beside)
    centres_px = view.to_px(candidates.centres_mm)
    if isinstance(board, CrokinoleBoard):
        # The wood's grain draws faint disc-sized arcs around the board's own colour; a disc's face is its team's
        # colour all over. (The board around a disc by the 20-hole is not even: the hole is in it.)
        gap = np.linalg.norm(colour - surround, axis=1)
        is_even = ~partial & (face_spread(lab, centres_px, colour, radius_px=0.6 * sizes[0].radius_mm * s)
                              <= CROKINOLE_FAINT_MAX_FACE_SPREAD)
        even = is_even & ~on_print & (gap >= CROKINOLE_FAINT_MIN_FACE_GAP)
        if team_lab is not None and len(team_lab):
            # A light disc on pale maple stands little apart from the board; its face is its team's colour all the same.
            to_team = np.min([colour_distance(colour, team) for team in team_lab], axis=0)
            even |= is_even & (to_team <= CROKINOLE_FAINT_TEAM_MATCH) & (gap >= CROKINOLE_FAINT_MIN_TEAM_GAP) & (
                colour_distance(colour, surround) >= CROKINOLE_FAINT_MIN_TEAM_HUE_GAP)
        # A disc of the board's own colour, or one showing part of its rim only, shows its bevel's shading instead.
        r = sizes[0].radius_mm
        is_clear = faint_region(candidates.centres_mm, board, radius_mm=r) & (
            np.hypot(*candidates.centres_mm.T) >= board.hole_diameter_mm / 2 + r / 2)
        even |= ~on_print & shaded_discs(lab, view, candidates.centres_mm, candidates.radii_mm, board=board,
                                         face_lab=colour, surround_lab=surround, is_clear=is_clear)
        # Judged: the tests of carrom's half rims and rims on print below are not theirs.
        partial = on_print = np.zeros(len(candidates), bool)
    else:
        # Rails, rods and their shadows over the board draw faint piece-sized arcs too, with a busy surround. The
        # print's strokes are the board's own, where the model places them.
        around = face_spread(lab, centres_px, surround, inner_px=1.15 * sizes[0].radius_mm * s,
                             radius_px=HALF_RIM_SURROUND_REACH * sizes[0].radius_mm * s,
                             excluded=stroke_mask(view, board=board) if isinstance(board, CarromBoard) else None)
        even = around <= np.where(partial, HALF_RIM_MAX_SURROUND_SPREAD, FAINT_MAX_SURROUND_SPREAD)
        if isinstance(board, CarromBoard):
            # A maker's name printed between a base line and the cushion draws faint coin-sized rims round its
            # letters; the face they enclose is the board's colour thinned towards the print's.
            even &= on_print | partial | ~printed_lettering(colour, surround, base_print_lab(lab, view, board=board))
    if on_print.any():
        # A half rim on the arrows by a pocket is judged by the board around it too, as half rims elsewhere are:
        # other pieces' edges draw half rims.
        even = np.where(on_print, coin_on_print(candidates, colour, surround, found, lab, view, sizes, board,
                                                edges=edges) & (even | ~partial), even)
        # On the centre figure, whose star points draw faint coin-sized rims of their own.
        in_figure = np.nonzero(on_print & even & on_centre_figure(candidates.centres_mm, board))[0]
        gaps = symmetry_gap(lab, centres_px[in_figure], radius_px=sizes[0].radius_mm * s,
                            occupied_px=view.to_px(np.vstack([found.centres_mm, candidates.centres_mm])))
        even[in_figure] = np.isfinite(gaps) & (gaps >= PRINT_SYMMETRY_MATCH)
        # A coin there stands in the light as the coins found elsewhere do; the star's points lie flat in it.
        looked = in_figure[even[in_figure]]
        even[looked] = shaded_as_coins(candidates.centres_mm[looked], clear_coins(found), lab, view,
                                       radius_mm=sizes[0].radius_mm)
        # Elsewhere over the print than the figure and the arrows by a pocket, a half rim looks alike at a symmetric
        # place where the print or bare board between neighbours drew it (tuning stills 60042, an arrow's arc, and
        # 60071, between two coins by a base circle: gaps 3 and 10; pale coins there 13 to 23, one at 8).
        halves = on_print & even & partial & ~by_pockets(candidates.centres_mm, board,
                                                         clear_mm=HALF_RIM_SURROUND_REACH * sizes[0].radius_mm)
        halves[in_figure] = False
        even[halves] = ~printed_half_rim(lab, view, candidates.centres_mm[halves], board=board,
                                         occupied_mm=np.vstack([found.centres_mm, candidates.centres_mm]))
    if partial.any():
        even &= ~partial | (face_spread(lab, centres_px, colour, radius_px=0.6 * sizes[0].radius_mm * s)
                            <= HALF_RIM_MAX_FACE_SPREAD)
        looked = np.nonzero(partial & even)[0]
        seen, _ = rim_edges(edges, centres_px[looked], radius_px=sizes[0].radius_mm * s)
        even[looked] = longest_arc(seen) >= HALF_RIM_MIN_ARC
    if isinstance(board, CouronneBoard):
        # A ring's band is its team's colour; bare board between pieces and the print's lines draw faint rims too.
        even &= board_face_gap(lab, view, colour, board=board) >= BOARD_FACE_MATCH
    faint = PieceDetections(candidates.centres_mm, candidates.radii_mm, candidates.size, candidates.support,
                            colour, surround, np.ones(len(candidates), bool)).filter(even)
    score_arr = score_arr[even]
    keep = resolve_overlaps(faint.centres_mm, faint.radii_mm, score_arr, allowed_overlap_mm=allowed_mm)
    large = np.nonzero(keep & (faint.size == 1))[0]
    if len(large) > 1:
        # One large piece, the best: the others were drawn round small ones, which come up in their place.
        score_arr = score_arr.copy()
        score_arr[large[np.argsort(-score_arr[large])][1:]] = -np.inf
        keep = resolve_overlaps(faint.centres_mm, faint.radii_mm, score_arr, allowed_overlap_mm=allowed_mm)
        keep &= np.isfinite(score_arr)
    return faint.filter(keep)


def _one_large_piece(found: PieceDetections, edges, lab: np.ndarray, view: BoardView,
                     sizes: tuple[PieceSize, ...], board: BoardModel, *, outfits_inner: np.ndarray) -> PieceDetections:
    """Sizes decided again, with at most one large piece (striker, shooter).

    The game has one striker or shooter. A couronne shooter is of its own
    colour, neither team's (`_shooter_by_colour`): where the teams' colours are
    clear, colour decides it, for blur and shadow leave the two sizes a
    millimetre or two apart. Otherwise each rim's mean edge profile is measured
    against every other piece's, so a blurred or shadowed small piece cannot
    pass for the large one; but a large rim that shows more of itself than the small rim inside it
    (`_outfits_inner_rim`) is judged by its own fit, as a pale striker's profile peaks on its bevel.
    """
    s = view.px_per_mm
    small, large = sizes[0].radius_mm, sizes[1].radius_mm
    measured = rim_radius(edges, view.to_px(found.centres_mm), min_radius_px=0.85 * small * s,
                          max_radius_px=1.1 * large * s) / s
    # The rim's profile can peak on print or a shadow beyond a small piece; the rim fitted at its own size cannot.
    judged = np.where(outfits_inner, found.radii_mm, np.minimum(measured, found.radii_mm))
    by_size = (judged - (small + large) / 2) / (large - small)
    if isinstance(board, CarromBoard) and (by_size > 0).sum() > 1:
        # A black coin or the queen grown by its shadow leaves the one place to a light large rim: `striker_decided`
        # makes it a coin again, and the striker it crowded out would be lost (clip 5206 at 70 s).
        inner = coin_rims_inside(found, edges, view, coin_radius_mm=small, unseen_px=None)
        grown = coins_grown(found.colour_lab, found.size, inner.support)
        if ((by_size > 0) & ~grown).any():
            by_size = np.where(grown, -np.inf, by_size)
    by_colour = _shooter_by_colour(found.colour_lab, by_size) if isinstance(board, CouronneBoard) else None
    size = np.zeros(len(found), int) if by_colour is None else by_colour.astype(int)
    if by_colour is None and (by_size > 0).any():
        size[np.argmax(by_size)] = 1
    radii = np.where(size == 1, np.maximum(measured, found.radii_mm), found.radii_mm)
    colour, surround = piece_colours(lab, view, found.centres_mm, size, sizes, board)
    return PieceDetections(found.centres_mm, radii, size, found.support, colour, surround)


def centred_about(centres_mm: np.ndarray, others_mm: np.ndarray, *,
                  reach_mm: float = INNER_RIM_REACH_MM) -> np.ndarray:
    """True for centres within `reach_mm` of any of `others_mm`: circles about the same centre."""
    if len(others_mm) == 0:
        return np.zeros(len(centres_mm), bool)
    return np.hypot(*(centres_mm[:, None] - others_mm[None]).transpose(2, 0, 1)).min(axis=1) < reach_mm


def _outfits_inner_rim(candidates: PieceDetections) -> np.ndarray:
    """Large rims (carrom's striker) with small rims inside, about the same centre, that each show less of themselves.

    A striker's bevel draws a coin-sized ring inside its rim; on a pale striker that ring's edge is the stronger and
    the rim's mean profile peaks there (`vision.detect_discs.rim_radius`, 17.7 mm against the striker's 20.5: tuning
    stills 81019, 81054), but its own rim shows more of itself than the ring does. A coin's shadow grows a large
    circle round it that shows less of itself than the coin's rim (tuning stills 60000-60059, 81000-81059: never
    more where the large one was clear).
    """
    large = np.nonzero(candidates.size == 1)[0]
    small = np.nonzero(candidates.size == 0)[0]
    outfits = np.zeros(len(candidates), bool)
    if len(large) == 0 or len(small) == 0:
        return outfits
    gaps = np.hypot(*(candidates.centres_mm[large, None] - candidates.centres_mm[None, small]).transpose(2, 0, 1))
    inside = gaps < INNER_RIM_REACH_MM
    inner_support = np.where(inside, candidates.support[small][None], -np.inf).max(axis=1)
    outfits[large] = inside.any(axis=1) & (candidates.support[large] > inner_support)
    return outfits


def _shooter_among_all(found: PieceDetections, sizes: tuple[PieceSize, ...]) -> PieceDetections:
    """The couronne shooter told by colour again, among the clear and faint pieces together.

    A team whose other rings all showed faint rims has one clear ring only, and a
    group of one is no team (`_off_team_colour`): that ring then stands apart from
    the clear pieces' colours like a shooter. With the faint rings it has its team.
    """
    small, large = sizes[0].radius_mm, sizes[1].radius_mm
    by_colour = _shooter_by_colour(found.colour_lab, (found.radii_mm - (small + large) / 2) / (large - small))
    if by_colour is None or not found.is_faint.any():
        return found
    return dataclasses.replace(found, size=by_colour.astype(int))


def _shooter_by_colour(colour_lab: np.ndarray, by_size: np.ndarray) -> np.ndarray | None:
    """Which piece is the couronne shooter, told by colour: a mask of one piece or none; None where colours cannot tell.

    A piece far from both teams' colours is the shooter whatever its size. A piece
    nearer them, where the camera's light has washed the colours out, is the
    shooter only if it is also the largest piece and larger than a ring.
    """
    off_team = _off_team_colour(colour_lab)
    if off_team is None:
        return None
    shooter = np.zeros(len(off_team), bool)
    apart_from = SHOOTER_SPREAD_FACTOR * float(np.median(off_team))
    most = int(np.argmax(off_team))
    if off_team[most] >= max(SHOOTER_MIN_COLOUR_GAP, apart_from):
        shooter[most] = True
    elif off_team[most] >= apart_from and by_size[most] > 0 and by_size[most] == by_size.max():
        shooter[most] = True
    return shooter


def _off_team_colour(colour_lab: np.ndarray) -> np.ndarray | None:
    """Per piece, the a*b* distance of its colour from the nearer team's median colour (8-bit Lab units).

    The teams are the two groups of hue (a* + b*) that leave the least spread
    within each; a group of one is no team. None where the colours are too faint
    to tell teams apart, or no team of two is on the board.
    """
    ab = np.asarray(colour_lab, np.float64)[:, 1:] - 128.0
    if len(ab) < 3 or float(np.median(np.hypot(ab[:, 0], ab[:, 1]))) < MIN_TEAM_CHROMA:
        return None
    hue = ab.sum(axis=1)
    order = np.argsort(hue, kind="stable")
    costs = [hue[order[:k]].var() * k + hue[order[k:]].var() * (len(hue) - k) for k in range(1, len(hue))]
    split = 1 + int(np.argmin(costs))
    gap = np.full(len(ab), np.inf)
    for members in (order[:split], order[split:]):
        if len(members) >= 2:
            gap = np.minimum(gap, np.linalg.norm(ab - np.median(ab[members], axis=0), axis=1))
    return gap if np.isfinite(gap).all() else None


