"""Event inference: what happened between settled readings of the board.

Pieces keep an identity across settled readings (a `_Track`): a piece that lies
where a piece lay is the same piece, whatever the classifier says this time, and
its kind is the vote of all its sightings. Between two readings:

- a piece that is gone went into the pocket that was busy while the board moved
  (carrom, couronne); a piece gone with no busy pocket is only declared off the
  board once a second reading confirms it, so a missed detection costs nothing. A
  carrom coin that jumps off is put back in the centre circle: one gone with no pocket
  to take it, or never read again where the picture never changed, is lost with no
  event (the reader's phantom or a coin it no longer sees), and read again where it
  lay, it is that coin;
- a piece that appears between strokes was placed back (confirmed by a second reading too);
- the picture itself, compared with the last settled one, tells a reader's slip from a
  change: a piece not read where nothing changed is still there, one read where nothing
  changed was only missed before; neither is an event;
- pieces that moved mean a stroke or shot was played;
- a crokinole 20 is observed only from a disc seen coming to lie in the hole (even if it is
  taken out before the board settles), never from a disappearance (design.md); a disc read
  lying over the hole's mouth (a leaner) is what filled it, not a 20.

Observations use the event shape of design.md ("Ground truth and observations"),
with `confidence` and `needs_review`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import count
from typing import Any, Callable

import numpy as np
from scipy.optimize import linear_sum_assignment

from vision.pieces import BoardReading, Piece
from vision.pockets import DITCH_SECTORS, MOUTH_SHARE, PocketActivity, PocketSpell
from vision.striker_rim import LIGHT_COIN_MIN_LIGHTNESS

MOVED_MM = 4.0  # a piece further than this from where a piece lay has been moved
# Carrom: an unsure coin (`BoardReading.unsure`) this near where a coin lay is that coin; unsure circles are fitted
# less closely (simulated clip 5205 at 187.1 s, 1080p: a pale white unread 4.5 mm from where it was read before).
UNSURE_PLACE_MM = 8.0
CENTRE_SPOT_MM = MOVED_MM  # carrom: a piece centred this near the board's centre lies on the centre spot
CONFIRM_READINGS = 2  # readings that must agree before a piece counts as gone or new without other evidence
# Carrom, and a piece first read where the picture had not changed: a piece not read this many readings in a row
# where the picture did not change is lost, with no event (print once read as a coin is never read again; a real
# coin the reader misses now and then is soon read again).
LOST_UNREAD = 3
STROKE_PIECES = {"carrom": "striker", "couronne": "shooter"}
CROKINOLE_COLOURS = ("light", "dark")
CLEARED_DISCS = 3  # crokinole: this many discs and more taken off an emptied board, nothing struck, is a clearing
CLEARED_LEFT = 1  # crokinole: discs read on a board so cleared that were not read where a disc lay, at most
HIDDEN_IN_HOLE = ("dark",)  # crokinole: disc colours that can lie in the 20-hole unseen, when the hole cannot say
# Crokinole: a ditch sector that gained this share of a disc's look takes part in an arrival, and
# neighbouring sectors that gained this many discs between them (less what the sectors beside them
# lost) had one come in: a disc come to rest against one lying there already shows only in part.
ARRIVAL_SHARE = 0.1
ARRIVAL_DISC = 0.2
LANDING_REACH_RAD = np.pi / 4  # crokinole: a disc knocked off enters the ditch within this bearing of where it lay
# Crokinole: the hand setting a disc down on the shooting line stirs the ditch behind it up to this long before
# the strike (simulated shots: 0.9-1.1 s); the motion there says where the shot came from.
SET_DOWN_BEFORE_STRIKE_S = 1.2
# A pocket's activity (PocketActivity.energy) that a piece makes dropping in: a striker, one no reading saw, one
# gone in a stroke seen as no strike.
DROP_IN_ENERGY = 0.05
# Carrom, couronne: a struck piece covers the way from where it lay to a pocket at no more than this on
# average from the strike (it must be hit first): a pocket busiest sooner was stirred by something else.
# Simulated strokes need up to 1.1 m/s; pockets wrongly credited needed 3-4 m/s.
MAX_POCKETING_SPEED_MM_S = 2000.0
# Carrom: a pocket's spell that ended at its peak (a drop), with this share of the watched ring changed in its busiest
# frame, had a striker drop in: its face is 1.75 coins'. Of the spells ending at their peak in simulated clips
# 5212-5221 (1080p), 58 of coins dropping in alone peaked at 0.153 at most, the two of a striker following a coin
# into its pocket at 0.21 and 0.24.
STRIKER_DROP_PEAK = 0.18
DROP_FRAMES = 2  # ... and whose energy is at least this many times its peak
NEAR_POCKET_PIECES = 2.0  # a piece gone from within this many of its diameters of a pocket's mouth may have dropped in unseen
# Carrom, couronne: of pieces of one kind after a strike, the one not found again is more likely the one
# nearer a pocket: each mm it lay from one weighs this much against each mm the others moved.
GONE_NEAR_POCKET_WEIGHT = 0.5
# Carrom, couronne: a piece that jumps a cushion beside a pocket stirs the pocket's region as it passes and flies
# over the frame: something crossing the frame within this reach of the pocket's centre, from a little before
# the pocket's busiest moment to this long after it, says the piece jumped off instead of dropping in.
JUMP_BESIDE_POCKET_MM = 150.0
JUMP_BEFORE_S = 0.3
JUMP_AFTER_S = 0.5


@dataclass(frozen=True)
class Observation:
    """One thing vision saw happen."""

    t_s: float
    type: str  # shot | pocketed | sunk_20 | off_board | placed
    piece: str | None = None
    pocket: int | None = None
    confidence: float = 1.0
    needs_review: bool = False
    seen_t_s: float | None = None  # when the settled view it was drawn from was taken
    # off_board: "twenty_removed" when a 20 was taken out of the hole into the ditch, "jumped" off over the frame
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        record: dict[str, Any] = {"t": round(self.t_s, 3), "type": self.type}
        if self.piece is not None:
            record["piece"] = self.piece
        if self.pocket is not None:
            record["pocket"] = self.pocket
        record["confidence"] = round(self.confidence, 3)
        record["needs_review"] = self.needs_review
        if self.seen_t_s is not None:
            record["seen_t"] = round(self.seen_t_s, 3)
        if self.reason is not None:
            record["reason"] = self.reason
        return record


SpotCheck = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""(n, 2) centres in mm and (n,) radii in mm -> (n,) bool: the spot looks as at the last settled reading."""
SpotTimes = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""(n, 2) centres in mm and (n,) radii in mm -> (n,) float: when each spot last looked as at the last settled view
before it changed for good (NaN: it looks so still, or nobody can tell)."""


@dataclass(frozen=True)
class Motion:
    """What the gate and the pockets saw between two settled readings."""

    start_s: float  # first frame that moved
    strike_s: float | None  # first frame where pieces moved on their own (not under a hand)
    pockets: tuple[PocketActivity, ...] = ()
    hole_entries: tuple[float, ...] = ()  # crokinole: when the 20-hole was seen to take something
    hole_full: bool = False  # crokinole: the 20-hole looks full at this settle
    unchanged: SpotCheck | None = None  # the image's word on whether a piece's spot changed
    clearly_unchanged: SpotCheck | None = None  # ... on whether it is as it was far beyond doubt
    ditch: tuple[tuple[float, float], ...] = ()  # crokinole: (t_s, angle) of each spell of motion in the ditch
    ditch_discs: tuple[float, ...] = ()  # crokinole: discs lying in each sector of the ditch now (DitchWatch.discs)
    ditch_changes: tuple[tuple[float, float], ...] = ()  # crokinole: (t_s, angle) of any change of the ditch (arms too)
    hole_hides: tuple[str, ...] = HIDDEN_IN_HOLE  # crokinole: disc colours that lie in the 20-hole without changing its look
    hand_after_strike: bool | None = None  # an arm reached over the board anew after the last strike (None: not known)
    hand_came_s: float | None = None  # when that arm came (None: none came, or not known)
    later_strikes: tuple[float, ...] = ()  # carrom, couronne: strokes struck after the first before the board settled
    # No strike seen: when the shot or stroke struck by fainter signs (crokinole: the faintest free motion;
    # carrom, couronne: the aiming hand letting go).
    unseen_strike_s: float | None = None
    # Crokinole, per hole entry: the filled hole looked brighter than empty (a disc lighter than the hole came in).
    hole_brighter: tuple[bool, ...] = ()
    changed_at: SpotTimes | None = None  # the image's word on when a piece's spot changed for good
    arm_ran_in_s: float | None = None  # the arm's motion that ran straight into the strike began then
    # Carrom, couronne: (t_s, x_mm, y_mm) of each spell of something crossing the frame with no arm beyond it.
    frame_flights: tuple[tuple[float, float, float], ...] = ()
    still: bool = False  # nothing on the board moved at all since the last reading

    @property
    def rolling_from_s(self) -> float | None:
        """The earliest the struck pieces may have rolled (None without a strike): a piece rolling along the
        rim with the striking arm's last motion may have been struck before the strike seen."""
        if self.strike_s is None:
            return None
        return self.strike_s if self.arm_ran_in_s is None else min(self.strike_s, self.arm_ran_in_s)

    @property
    def busy_hole(self) -> PocketActivity | None:
        """Crokinole: the 20-hole's activity (pocket 0) where it changed at all."""
        return next((a for a in self.pockets if a.pocket == 0 and a.energy > 0), None)

    def followed_by(self, later: Motion | None) -> Motion:
        """This movement and a `later` one as one (the settled view between them could not be read)."""
        if later is None:
            return self
        pockets = {a.pocket: a for a in self.pockets}
        for a in later.pockets:
            before = pockets.get(a.pocket)
            if before is not None:
                peak = before if before.energy >= a.energy else a
                a = PocketActivity(a.pocket, before.energy + a.energy, peak.peak_t_s,
                                   a.glimpse_t_s if a.glimpse_t_s is not None else before.glimpse_t_s,
                                   before.spells + a.spells)
            pockets[a.pocket] = a
        strike_s = self.strike_s if self.strike_s is not None else later.strike_s
        return Motion(
            self.start_s, strike_s, pockets=tuple(pockets[i] for i in sorted(pockets)),
            hole_entries=self.hole_entries + later.hole_entries, hole_full=later.hole_full,
            unchanged=later.unchanged, clearly_unchanged=later.clearly_unchanged, ditch=self.ditch + later.ditch,
            ditch_discs=later.ditch_discs,
            ditch_changes=self.ditch_changes + later.ditch_changes, hole_hides=later.hole_hides,
            # The view between was covered: whether a hand came after the last strike is known only
            # when the later movement struck anew.
            hand_after_strike=later.hand_after_strike if later.strike_s is not None else None,
            hand_came_s=later.hand_came_s if later.strike_s is not None else None,
            later_strikes=self.later_strikes + ((later.strike_s,) if self.strike_s is not None
                                                and later.strike_s is not None else ()) + later.later_strikes,
            unseen_strike_s=self.unseen_strike_s if self.unseen_strike_s is not None else later.unseen_strike_s,
            hole_brighter=self.hole_brighter + later.hole_brighter, changed_at=later.changed_at,
            arm_ran_in_s=self.arm_ran_in_s if self.strike_s is not None else later.arm_ran_in_s,
            frame_flights=self.frame_flights + later.frame_flights)

    def spots_unchanged(self, places: list[tuple[float, float, float]], *, clearly: bool = False) -> list[bool]:
        """For each (x_mm, y_mm, r_mm): whether the picture there is as it was (`clearly`: far beyond doubt; False
        when nobody can tell)."""
        if self.still:
            return [True] * len(places)
        check = self.clearly_unchanged if clearly else self.unchanged
        if check is None or not places:
            return [False] * len(places)
        xyr = np.array(places, float)
        return [bool(b) for b in check(xyr[:, :2], xyr[:, 2])]

    def spot_changed_s(self, x_mm: float, y_mm: float, r_mm: float) -> float | None:
        """When the picture at a piece's spot changed for good: a hand came over it to put it down or take it
        up (None when nobody can tell, or it looks as it did)."""
        if self.changed_at is None:
            return None
        when = float(self.changed_at(np.array([[x_mm, y_mm]]), np.array([r_mm]))[0])
        return when if np.isfinite(when) else None


@dataclass
class _Track:
    """One physical piece across readings."""

    track_id: int
    x_mm: float
    y_mm: float
    votes: dict[str, float] = field(default_factory=dict)
    readings: int = 0
    missing_since_s: float | None = None  # the shot after which it was last missed
    missed: int = 0
    unread: int = 0  # readings in a row it was not read where the picture did not change
    appeared_s: float | None = None  # tentative until seen again
    announce: bool = True  # once confirmed, a new piece was placed (not just seen late)
    late: bool = False  # first read where the picture had not changed, and not seen moving since
    r_mm: float = 0.0
    zone: int | None = None  # crokinole: the zone it was last read in (0: touching the outer line)

    @property
    def kind(self) -> str:
        return max(self.votes, key=self.votes.get)

    @property
    def bearing_rad(self) -> float:
        """Direction from the board's centre to where it lies."""
        return float(np.arctan2(self.y_mm, self.x_mm))

    def see(self, piece: Piece) -> None:
        self.x_mm, self.y_mm, self.r_mm, self.zone = piece.x_mm, piece.y_mm, piece.r_mm, piece.zone
        self.votes[piece.kind] = self.votes.get(piece.kind, 0.0) + max(piece.confidence, 0.05)
        self.readings += 1
        self.missed = 0
        self.unread = 0
        self.missing_since_s = None


def _assign(cost: np.ndarray, limit: float) -> list[tuple[int, int]]:
    if cost.size == 0:
        return []
    rows, cols = linear_sum_assignment(np.minimum(cost, 1e6))
    return [(r, c) for r, c in zip(rows, cols) if np.isfinite(cost[r, c]) and cost[r, c] <= limit]


class EventInferer:
    """Turns each new settled reading into observations, given what moved in between.

    Parameters
    ----------
    game : {"carrom", "crokinole", "couronne"}
    pocket_centres_mm : centres of the pockets (or the 20-hole), as PocketWatch numbers them.
    first_shooter : crokinole: the colour that shoots first, when the match knows it.
    hole_radius_mm : the radius of the crokinole 20-hole (a disc read over its mouth explains its look), or of
        the pockets (a piece gone from beside one may have dropped in unseen).
    shooting_line_radius_mm : crokinole: where discs are set down to be shot (0: not known).
    fifteen_reach_mm : crokinole: the outer edge of the 15 line, which a disc touches when its own edge lies
        nearer the centre (0: not known, and a shot onto a board with no opponent disc is taken as valid).
    """

    def __init__(self, game: str, *, pocket_centres_mm: tuple[tuple[float, float], ...],
                 first_shooter: str | None = None, hole_radius_mm: float = 0.0,
                 shooting_line_radius_mm: float = 0.0, fifteen_reach_mm: float = 0.0,
                 placing_radius_mm: float = 0.0):
        self.game = game
        self._placing_radius_mm = placing_radius_mm  # carrom: pieces put back by hand lie this near the centre
        self._pockets_mm = np.array(pocket_centres_mm, float)
        self._hole_radius_mm = hole_radius_mm
        self._over_hole: list[Piece] = []  # crokinole: discs that lay over the hole's mouth at the last reading
        self._shooting_line_mm = shooting_line_radius_mm
        self._fifteen_reach_mm = fifteen_reach_mm
        self._waiting: _Track | None = None  # crokinole: a disc read on the shooting line before its shot
        self._tracks: list[_Track] = []
        # Carrom: coins gone with nothing to show where (no pocket stirred that they could reach), and pieces read
        # where nothing came and not read again; a piece read again where one lay is that piece, seen again.
        self._lost: list[_Track] = []
        self._queen_pocketed = False  # carrom: the queen was last seen going into a pocket (it comes back by hand)
        self._unsure_mm = np.zeros((0, 2))  # carrom: where the last reading's unsure coins lay (`BoardReading.unsure`)
        self._striker_read_as: str | None = None  # carrom: the coin a striker read at a coin's size is read as
        self._ids = count()
        self._twenties: dict[str, int] = {}
        self._ditch_discs: tuple[float, ...] = ()  # crokinole: discs lying in each ditch sector at the last reading
        self._last_20s: list[str] = []  # crokinole: colours of the 20s of the last shot (an invalid one's are taken out)
        self._last_shot_invalid = False  # crokinole: the last shot broke NCA 3a or 3b (its discs are taken off: 3c)
        self._started = False
        self._hole_full = False  # crokinole: the 20-hole looked full at the last reading
        self.round_ended = False  # crokinole: every disc is shot (the match says): a board emptied now is cleared
        # Crokinole: the colour of the last shot (as if before the first one, when its shooter is known).
        self._last_shot: str | None = None
        if first_shooter in CROKINOLE_COLOURS:
            self._last_shot = CROKINOLE_COLOURS[1 - CROKINOLE_COLOURS.index(first_shooter)]

    @property
    def started(self) -> bool:
        """Whether a first reading has been taken (the layout later ones are compared with)."""
        return self._started

    def kinds_on_board(self) -> dict[str, int]:
        """Confirmed pieces per voted kind (what the board holds, as far as vision knows)."""
        counts: dict[str, int] = {}
        for track in self._tracks:
            if track.appeared_s is None and track.missed == 0:
                counts[track.kind] = counts.get(track.kind, 0) + 1
        return counts

    def settled(self, reading: BoardReading, t_s: float, motion: Motion | None) -> list[Observation]:
        """Observations between the previous settled reading and this one (none for the first)."""
        self._note_striker_face(reading)
        lay_mm = np.array([(t.x_mm, t.y_mm) for t in self._tracks]).reshape(-1, 2)
        unsure_before_mm, self._unsure_mm = self._unsure_mm, np.array(
            [(p.x_mm, p.y_mm) for p in reading.unsure]).reshape(-1, 2)
        if not self._started:
            self._started = True
            for piece in reading.pieces:
                self._new_track(piece, appeared_s=None)
            self._twenties = dict(reading.twenties)
            self._over_hole = self._over_hole_discs(reading)
            self._ditch_discs = motion.ditch_discs if motion is not None else ()
            self._hole_full = motion.hole_full if motion is not None else False
            return []
        board_moved = motion is not None and not motion.still
        motion = motion or Motion(t_s, None, still=True)
        # A shot with no strike seen (crokinole: a pale disc on a pale board; carrom, couronne: everything
        # rolling along the cushions) is timed by fainter signs, else by when the board began to move.
        shot_t_s = next((s for s in (motion.strike_s, motion.unseen_strike_s) if s is not None), motion.start_s)
        entries = self._hole_entries(reading, motion, shot_t_s) if self.game == "crokinole" else []
        if entries and motion.strike_s is None:
            # A disc came to lie in the hole, so one was shot, however faintly it showed on its way.
            motion = replace(motion, strike_s=shot_t_s)
        stroke_piece = STROKE_PIECES.get(self.game)
        observations: list[Observation] = []
        still, moved, unmatched_tracks, unmatched_pieces = self._match(reading.pieces, motion)
        # A piece read off its place where the picture did not change was not moved: a little off,
        # the reader erred; far off, that is another piece and this one is still where it was. But the one
        # striker (shooter) read elsewhere moved, however little its going changed the picture.
        stayed = motion.spots_unchanged([(t.x_mm, t.y_mm, t.r_mm) for t, _ in moved])
        moved_really, misread = [], []
        for (track, piece), same in zip(moved, stayed):
            if not same or self._on_queen_spot(track) or track.kind == stroke_piece:
                moved_really.append((track, piece))
            elif np.hypot(piece.x_mm - track.x_mm, piece.y_mm - track.y_mm) <= max(2 * track.r_mm, MOVED_MM):
                misread.append((track, piece))
            else:
                # Another piece: this one is where it was, or (missed before) still gone.
                unmatched_pieces.append(piece)
                unmatched_tracks.append(track)
        moved = moved_really + misread
        for track, _ in moved_really:
            track.late = False
        for track, piece in still + moved:
            if track.appeared_s is not None:
                observations += self._confirm_new(track)
            track.see(piece)
        if self.game == "carrom" and any(p.kind == stroke_piece for p in reading.pieces):
            # One striker (rules 1.1): read elsewhere, a piece once taken for it and read as a coin now is that coin
            # (simulated clip 5205 at 184.5 s, 1080p: a pale white come where the striker vanished). Not where
            # another piece lies: that is the piece it was read as (5211 at 122.4 s, a black read as the striker).
            for track, piece in still + moved:
                if track.kind == stroke_piece and piece.kind != stroke_piece and not any(
                        t is not track and np.hypot(t.x_mm - track.x_mm, t.y_mm - track.y_mm) < t.r_mm + track.r_mm
                        for t in self._tracks):
                    del track.votes[stroke_piece]
        # The picture tells a reader's slip from a change: a piece not read where nothing changed
        # is still there; a piece read where nothing changed was there before, only missed.
        # A piece missed at the last reading too was not there then either: its spot unchanged says it is still gone.
        # A crokinole disc touching the outer line is taken off (4a) whatever the picture says, unless it came where
        # the picture never changed: print the reader took for a disc (by the ditch's edge, say).
        # Carrom, couronne: where a pocket stirred that it could have gone into, a piece is kept unread only where
        # its spot is clearly as it was: a pale white gone from a pale base line changes it little (simulated clip
        # 5212 at 84.5 s, 1080p: correlation 0.93, face change 19.7).
        busy = [a for a in motion.pockets if a.energy > 0]
        kept = motion.spots_unchanged([(t.x_mm, t.y_mm, t.r_mm) for t in unmatched_tracks])
        if self.game in STROKE_PIECES:
            doubted = [i for i, (t, same) in enumerate(zip(unmatched_tracks, kept))
                       if same and self._reachable(t, busy, motion.rolling_from_s)]
            clear = motion.spots_unchanged([(unmatched_tracks[i].x_mm, unmatched_tracks[i].y_mm,
                                             unmatched_tracks[i].r_mm) for i in doubted], clearly=True)
            for i, same in zip(doubted, clear):
                kept[i] = same
        unread = [t for t, same in zip(unmatched_tracks, kept)
                  if same and t.appeared_s is None and t.missed == 0 and not self._on_queen_spot(t)
                  and (t.late or motion.still or not self._on_outer_line(t))]
        unmatched_tracks = [t for t in unmatched_tracks if t not in unread]
        for track in unread:
            if self._unsure_at(track, reading):
                continue  # read as an unsure coin of its kind where it lay: not lost
            track.unread += 1
            if (self.game == "carrom" or track.late) and track.unread >= LOST_UNREAD:
                # Never read again where the picture never changed: print the reader once took for a coin
                # (or a coin it no longer sees): lost, with no event, until read there again. Elsewhere only
                # what first came where the picture never changed (a disc, which comes by a shot, changes it).
                self._lost.append(track)
                self._tracks.remove(track)
        new_tracks, late_tracks = [], []
        late = motion.spots_unchanged([(p.x_mm, p.y_mm, p.r_mm) for p in unmatched_pieces])
        for piece, seen_late in zip(unmatched_pieces, late):
            found = self._found_again(piece)
            if found is not None:
                found.see(piece)
                self._tracks.append(found)
                continue
            # The queen returned to the centre lies on its printed spot, often of its own colour:
            # the picture there hardly changes, but it is no queen read late.
            returned = self._queen_returned(piece)
            queen_back = self._queen_back(piece)
            # Put down when the hand came over its spot (several in a row under one movement), else when
            # the board began to change. Where the queen put back left its spot looking as before, the spot's
            # last change was an arm passing over it later (putting down a due coin), not the queen's.
            placed_s = (None if seen_late and returned
                        else motion.spot_changed_s(piece.x_mm, piece.y_mm, piece.r_mm))
            seen_late = seen_late and not returned
            track = self._new_track(piece, appeared_s=placed_s if placed_s is not None else motion.start_s)
            # Placed by hand between strokes; one that turns up after a stroke (out of a cluster,
            # say) was on the board all along, but for a pocketed queen, or one whose spot changed for
            # good before the strike: it was put back before the stroke.
            before_strike = placed_s is not None and motion.strike_s is not None and placed_s < motion.strike_s
            # Carrom has one queen (rules 1.1): a second read beside the one on the board is print or that queen
            # read twice (simulated clip 5218 at 3.1 s, 1080p: the queen broken 30 mm off the centre circle, and
            # the circle's rim and the queen's edge read as a second queen, placed).
            second_queen = (self.game == "carrom" and piece.kind == "queen"
                            and any(t.kind == "queen" and t is not track for t in self._tracks))
            put_down = self._put_down(piece, motion)
            track.announce = (not seen_late and not second_queen
                              and (motion.strike_s is None or queen_back or before_strike or put_down))
            track.late = seen_late
            (late_tracks if seen_late else new_tracks).append(track)
        if self.game == "crokinole" and motion.strike_s is not None and not new_tracks and self._waiting is None:
            # A pale disc shot onto a pale board hardly changes the picture where it stops: after a strike
            # with no disc come in, the one of the shooter's colour read where the picture did not change
            # is the shot disc, not a disc missed before.
            pale = [t for t in late_tracks if self._next_shooter() in (None, t.kind)]
            new_tracks = pale if len(pale) == 1 else []

        strikers_gone = [t for t in unmatched_tracks if t.kind == stroke_piece and t.appeared_s is None]
        missing = [t for t in unmatched_tracks if t.kind != stroke_piece and t.appeared_s is None]
        # Carrom: a pale coin not read may show as an unsure coin where it lay or where it came to rest.
        for track, piece in self._unsure_kept(missing, reading, motion, lay_mm=lay_mm,
                                              unsure_before_mm=unsure_before_mm):
            missing.remove(track)
            unmatched_tracks.remove(track)
            track.see(piece)
            moved_really.append((track, piece))
        # Crokinole: what the shot touched (3a). A disc read a little off its place where the picture barely
        # changed was grazed: nudged a few mm, too little to count as moved.
        touched = {t.track_id for t in missing} | {t.track_id for t, _ in moved_really + misread}
        on_board_before = [t for t in self._tracks if t.appeared_s is None]
        placed_then_gone = []  # tentative pieces not seen again: never there, unless a pocket says they went in
        for track in unmatched_tracks:
            if track.appeared_s is not None:
                self._tracks.remove(track)
                if track.announce and track.kind != stroke_piece:
                    placed_then_gone.append(track)
        # A stroke moves or takes pieces; the striker alone coming and going between strokes
        # (picked up, put on the base line) is no stroke unless pieces rolled on their own.
        # The striker is on the board when struck: after a strike with none to be seen (and none
        # known before, e.g. picked up and put down within the stroke) it went in or off.
        vanished = (stroke_piece is not None and motion.strike_s is not None and not strikers_gone
                    and not any(p.kind == stroke_piece for _, p in still + moved)
                    and not any(p.kind == stroke_piece for p in unmatched_pieces))
        striker_changed = bool(strikers_gone or vanished or any(t.kind == stroke_piece for t in new_tracks)
                               or any(t.kind == stroke_piece for t, _ in moved_really))
        waiting = cleared = False
        if self.game == "crokinole":
            # Every disc taken off, none come: the board cleared for the next round. One disc read
            # there still, and not where a disc lay, is no disc left behind: the reader's phantom, or
            # the next round's first disc set down; it is taken as new, to be confirmed by the next reading.
            # Struck, that is a shot that knocked them off, unless every disc of the round was shot already.
            cleared = (motion.strike_s is None or self.round_ended) and (
                (not reading.pieces and (len(missing) >= CLEARED_DISCS or (self.round_ended and missing)))
                or (len(missing) >= CLEARED_DISCS and len(reading.pieces) <= CLEARED_LEFT and not still))
            # A hole that took a disc looks full once the hand is gone; one looked full only while a hand was over it.
            filled = bool(entries) and motion.hole_full
            if cleared and self.round_ended and motion.strike_s is not None and len(reading.pieces) == 1 \
                    and not self._on_shooting_line(reading.pieces[0]):
                # The board cleared and the next round's first shot struck before it settled: the one disc
                # read, come to rest off the shooting line, is that shot's.
                for track, piece in moved:
                    self._tracks.remove(track)
                    new_tracks.append(self._new_track(piece, appeared_s=motion.start_s))
                moved = moved_really = []
            elif cleared or self._removed_by_hand(missing, reading, motion,
                                                  changed=bool(new_tracks or moved_really or filled)):
                # A hand reaching in to take discs off stirs the board like a shot: it was none.
                motion = replace(motion, strike_s=None, later_strikes=())
                entries = []
            # A shot brings a disc in from the shooting line or sets discs rolling; discs taken
            # off by hand after an invalid shot or a 20 are no shot. A disc set on the shooting
            # line with nothing rolling waits for its shot (the hand held still long enough for
            # the board to settle): the shot comes with the strike.
            waiting = (motion.strike_s is None and len(new_tracks) == 1
                       and self._on_shooting_line(new_tracks[0]))
            is_stroke = bool((new_tracks and not waiting) or motion.strike_s is not None)
        else:
            # Pieces gone with nothing seen rolling are more likely misread than played, unless a pocket
            # stirred as a piece dropping in does (everything rolled along the cushions, taken for an arm);
            # pieces read elsewhere when the board never moved since the last reading (settled again after
            # a slow coin crept) were not struck either.
            struck, gone_now = motion.strike_s is not None, any(t.missed == 0 for t in missing)
            dropped_in = board_moved and gone_now and any(a.energy >= DROP_IN_ENERGY for a in busy)
            is_stroke = bool((board_moved and any(t.kind != stroke_piece for t, _ in moved_really))
                             or (struck and (striker_changed or gone_now)) or dropped_in)
        shot_seen = bool(new_tracks) or self._waiting is not None  # crokinole: the shot disc was read
        if is_stroke:
            observations.append(Observation(shot_t_s, "shot", self._shot_piece(new_tracks),
                                            confidence=1.0 if motion.strike_s is not None else 0.6))
            if stroke_piece is not None:
                # Strokes struck before the board settled from the first: what went, went in one of them.
                observations += [Observation(t_s, "shot", stroke_piece, confidence=0.7, needs_review=True)
                                 for t_s in motion.later_strikes]
            self._waiting = None
        if waiting:
            self._waiting = new_tracks[0]

        # Crokinole: the discs come into the ditch, and when each landed (None: not seen landing).
        # The discs lying in the ditch were counted at both readings: a disc not seen arriving did not come.
        ditch_counted = bool(motion.ditch_discs) and len(motion.ditch_discs) == len(self._ditch_discs)
        landings = self._ditch_landings(motion)
        shot_disc = self._last_shot if is_stroke and not shot_seen else None
        for when, brighter in entries:
            observations.append(self._into_hole(missing, when, shot_disc, brighter))
            shot_disc = None
        # The reader may see 20s itself (then it says so in `twenties`).
        seen_new_20 = any(n > self._twenties.get(kind, 0) for kind, n in reading.twenties.items())
        # Discs cleared off for the next round went by hand, whatever the next round's first shot did to the hole.
        if self.game == "crokinole" and not entries and not seen_new_20 and motion.strike_s is not None \
                and not cleared:
            hidden = self._hidden_in_hole(missing, landings, motion, shot_disc, ditch_counted=ditch_counted)
            if hidden is not None:
                observations.append(hidden)
                entries = [(hidden.t_s, None)]
        if cleared:
            for track in missing:
                self._tracks.remove(track)
            for track, piece in moved:
                self._tracks.remove(track)
                self._new_track(piece, appeared_s=motion.start_s)
            missing = []
        shared = self._share_spells([t for t in missing if t.missed == 0], busy, motion)
        for track in missing:
            if track.missing_since_s is None:
                landed_s = self._came_to_ditch_s(track, landings, motion)
                taken_s = self._taken_up_s(track, motion) if self.game == "crokinole" else None
                track.missing_since_s = next(t for t in (taken_s, landed_s, shot_t_s) if t is not None)
            track.missed += 1
            reachable = self._reachable(track, busy, motion.rolling_from_s)
            explained = bool(reachable) and self.game in STROKE_PIECES and track.missed == 1
            unseen = None if reachable or track.missed > 1 else self._dropped_unseen(track, motion)
            if unseen is not None:
                observations.append(unseen)
                self._tracks.remove(track)
            elif not explained and self.game == "carrom" and track.missed >= CONFIRM_READINGS:
                # A carrom coin that jumps off is put back in the centre circle (ICF 65, 66): it scores
                # nothing, and its going shows only there. One that merely stops being read (print the
                # reader once took for a coin, a coin it no longer sees) is no event.
                self._lost.append(track)
                self._tracks.remove(track)
            elif explained or self.game == "crokinole" or track.missed >= CONFIRM_READINGS:
                # Every stir of the pockets given to another piece gone with it: this one may only be unread.
                unstirred = bool(shared) and track.track_id not in shared and track.missed == 1
                observations.append(self._gone(track, reachable if explained else [], motion, observations,
                                               shared.get(track.track_id), doubtful=unstirred))
                self._tracks.remove(track)
        if not (strikers_gone or vanished):
            observations += self._placed_and_pocketed(placed_then_gone, busy, observations, motion)
        observations += self._striker_gone(strikers_gone, vanished, is_stroke, busy, observations, motion)
        if self.game == "crokinole":
            # The last shot's 20s taken out again come first: before this view's shot, if there is one.
            observations += self._twenties_removed(landings, motion)
            if is_stroke and motion.strike_s is not None and not shot_seen and not entries:
                hole = motion.busy_hole
                crossed_s = hole.peak_t_s if hole is not None and hole.peak_t_s is not None else shot_t_s
                observations += self._shot_disc_off(landings, shot_t_s, motion.ditch, max(shot_t_s, crossed_s))
            observations += self._sunk(reading, motion, shot_t_s)
            if is_stroke and motion.strike_s is not None:
                self._last_20s = [o.piece for o in observations
                                  if o.type == "sunk_20" and o.piece is not None and o.reason is None]
                opponents = [t.track_id for t in on_board_before if t.kind != self._last_shot]
                if opponents:
                    self._last_shot_invalid = not touched.intersection(opponents)  # NCA 3a
                else:
                    shot = new_tracks + [t for t, _ in moved_really + misread]
                    self._last_shot_invalid = not self._last_20s and not any(map(self._in_fifteen, shot))  # 3b
            for track in new_tracks:
                track.appeared_s = None  # the shot disc: no placement to confirm
        self._hole_full = motion.hole_full
        if self.game == "crokinole" and not is_stroke and missing:
            # The rules take off what an invalid shot left once, before the next shot: discs gone later are not that.
            self._last_shot_invalid = False
        for o in sorted(observations, key=lambda o: o.t_s):
            if o.piece == "queen" and o.type in ("pocketed", "placed"):
                self._queen_pocketed = o.type == "pocketed"
        return sorted((replace(o, seen_t_s=t_s) for o in observations), key=lambda o: o.t_s)

    def _match(self, pieces: tuple[Piece, ...], motion: Motion):
        """Same place first, whatever the kind (unless the picture there changed); then moved pieces by kind."""
        tracks = list(self._tracks)
        if not tracks or not pieces:
            return [], [], tracks, list(pieces)
        track_xy = np.array([(t.x_mm, t.y_mm) for t in tracks])
        piece_xy = np.array([(p.x_mm, p.y_mm) for p in pieces])
        distance = np.linalg.norm(track_xy[:, None] - piece_xy[None], axis=2)
        still = _assign(distance, MOVED_MM)
        crossed = [(r, c) for r, c in still if tracks[r].kind != pieces[c].kind]
        if crossed and motion.unchanged is not None:
            # Another kind read where a piece lay is that piece misread, unless the picture there
            # changed: after a break, one piece went and another came to rest where it lay.
            same = motion.spots_unchanged([(tracks[r].x_mm, tracks[r].y_mm, tracks[r].r_mm) for r, _ in crossed])
            swapped = {pair for pair, kept in zip(crossed, same) if not kept}
            still = [pair for pair in still if pair not in swapped]
        free_t = [i for i in range(len(tracks)) if i not in {r for r, _ in still}]
        # A piece read where a lost one of its kind lay is that one read again (`_found_again`), not another moved
        # there (simulated carrom clip 5144 at 31.4 s: a white read again where it was lost was taken for the one
        # gone into the pocket, and a white unread elsewhere for the one gone).
        free_p = [j for j in range(len(pieces)) if j not in {c for _, c in still} and not self._lost_at(pieces[j])]
        # Carrom: a coin put down by hand where none lay (a due, a coin that jumped off, the queen returned: ICF 65,
        # 66, 95a) was not struck to rest there (simulated clip 5216 at 76.7 s, 1080p: a due black put down on the
        # centre took the track of the black pocketed in the stroke before).
        free_p = [j for j in free_p if not self._put_down(pieces[j], motion)]
        moved = []
        # Crokinole: a disc touching the outer line is taken off before the next shot (rules 4a): when
        # it is gone, another disc of its colour is not it moved. The disc waiting on the shooting line
        # (beyond the outer line too) was shot, if anything struck.
        shot = self._waiting if motion.strike_s is not None else None
        free_t = [i for i in free_t if not (self.game == "crokinole" and tracks[i].zone == 0 and tracks[i] is not shot)]
        if self.game in STROKE_PIECES and motion.strike_s is None:
            # Nothing struck: a piece already gone at the last reading and read now elsewhere did not roll
            # there. It is another put down by hand (a couronne ring knocked off, put back in the centre
            # circle: S-CO 3.2), and the one gone stays gone.
            free_t = [i for i in free_t if tracks[i].missed == 0]
        if free_t and free_p:
            same_kind = np.array([[tracks[i].kind == pieces[j].kind for j in free_p] for i in free_t])
            cost = np.where(same_kind, distance[np.ix_(free_t, free_p)], np.inf)
            # A piece whose spot looks as it did is still there (or was print the reader once took for a
            # piece): a piece read far from it is another one, which must not be taken for it moved.
            # The game's one striker (shooter) read elsewhere is the one that lay there, however little its going
            # changed the picture (simulated clip 5207 at 37.3 s: a white read as the striker where it lay, and the
            # striker read again elsewhere, was taken for a second striker).
            kept = motion.spots_unchanged([(tracks[i].x_mm, tracks[i].y_mm, tracks[i].r_mm) for i in free_t])
            for row, (i, same) in enumerate(zip(free_t, kept)):
                if same and not self._on_queen_spot(tracks[i]) and tracks[i].kind != STROKE_PIECES.get(self.game):
                    cost[row, cost[row] > max(2 * tracks[i].r_mm, MOVED_MM)] = np.inf
            # Carrom, couronne: nor did a piece come to rest where the picture is clearly as it was: a piece read there
            # now was there unread, or is print taken for one (simulated clip 5215 at 69.2 s, 1080p: a white read
            # between two coins was taken for the white gone into the pocket beside it, moved there). A crokinole
            # disc shot onto a pale board changes its spot little.
            if self.game in STROKE_PIECES:
                unmoved = motion.spots_unchanged([(pieces[j].x_mm, pieces[j].y_mm, pieces[j].r_mm) for j in free_p],
                                                 clearly=True)
                for col, (j, same) in enumerate(zip(free_p, unmoved)):
                    if same and pieces[j].kind != STROKE_PIECES[self.game]:
                        cost[cost[:, col] > max(2 * pieces[j].r_mm, MOVED_MM), col] = np.inf
            if self.game in STROKE_PIECES and motion.strike_s is not None and len(self._pockets_mm):
                # A track left unmatched went somewhere: after a strike, more likely into a pocket beside it.
                gaps = np.linalg.norm(track_xy[free_t][:, None] - self._pockets_mm[None], axis=2).min(axis=1)
                cost = cost - GONE_NEAR_POCKET_WEIGHT * gaps[:, None]
            moved = [(free_t[r], free_p[c]) for r, c in _assign(cost, np.inf)]
        taken_t = {r for r, _ in still} | {r for r, _ in moved}
        taken_p = {c for _, c in still} | {c for _, c in moved}
        moved_pieces = [(tracks[r], pieces[c]) for r, c in moved]
        misread = self._stroke_piece_misread([t for i, t in enumerate(tracks) if i not in taken_t],
                                             [(j, p) for j, p in enumerate(pieces) if j not in taken_p], motion)
        if misread is not None:
            track, j = misread
            moved_pieces.append((track, replace(pieces[j], kind=track.kind)))
            taken_t.add(tracks.index(track))
            taken_p.add(j)
        return ([(tracks[r], pieces[c]) for r, c in still],
                moved_pieces,
                [t for i, t in enumerate(tracks) if i not in taken_t],
                [p for j, p in enumerate(pieces) if j not in taken_p])

    def _stroke_piece_misread(self, left: list[_Track], pieces: list[tuple[int, Piece]],
                              motion: Motion) -> tuple[_Track, int] | None:
        """After a strike, the striker (shooter) read as a coin (ring) where it came to rest: its track and the index
        of that piece, if any.

        A struck piece is read by size, and a pale striker on a pale board may show a coin's: a coin come to rest
        where none lay, with no coin of its kind gone to have rolled there, read late or put down before the
        strike, is the striker. Of several, the largest. A carrom striker so read is a coin of its face's lightness
        as read before (`_note_striker_face`): a light striker is read as a white, so a black come to rest so was put
        down by a hand (simulated clip 5216 at 76.7 s, 1080p: a due black put down after the stroke was taken for the
        striker, which had gone into a pocket). Strikers are not all white (the edited webcam photo carrom_mod2 holds
        a black one).
        """
        stroke_piece = STROKE_PIECES.get(self.game)
        strikers = [t for t in left if t.kind == stroke_piece]
        if stroke_piece is None or motion.strike_s is None or len(strikers) != 1:
            return None
        gone_kinds = {t.kind for t in left}
        candidates = [(j, p) for j, p in pieces if p.kind not in gone_kinds
                      and self._striker_read_as in (None, p.kind)]
        late = motion.spots_unchanged([(p.x_mm, p.y_mm, p.r_mm) for _, p in candidates])
        candidates = [(j, p) for (j, p), seen_late in zip(candidates, late) if not seen_late
                      and not self._placed_before(p, motion.strike_s, motion)]
        if not candidates:
            return None
        return strikers[0], max(candidates, key=lambda c: c[1].r_mm)[0]

    def _note_striker_face(self, reading: BoardReading) -> None:
        """Carrom: the coin a striker read at a coin's size is read as, by its face as read now: a white or a black."""
        face_lab = reading.colours_lab.get("striker") if self.game == "carrom" else None
        if face_lab is not None:
            self._striker_read_as = "white" if face_lab[0] >= LIGHT_COIN_MIN_LIGHTNESS else "black"

    @staticmethod
    def _placed_before(piece: Piece, t_s: float, motion: Motion) -> bool:
        """Whether the picture at the piece's spot changed for good before `t_s` (a hand put it down then)."""
        placed_s = motion.spot_changed_s(piece.x_mm, piece.y_mm, piece.r_mm)
        return placed_s is not None and placed_s < t_s

    def _unsure_kept(self, missing: list[_Track], reading: BoardReading, motion: Motion, *, lay_mm: np.ndarray,
                     unsure_before_mm: np.ndarray) -> list[tuple[_Track, Piece]]:
        """Carrom: coins not read, each matched to an unsure coin of its kind (`BoardReading.unsure`) that is it.

        A pale coin read before is its own unsure circle where it still lies; struck, it is one come where the picture
        changed, away from where every piece lay and from the last reading's unsure circles.
        """
        if self.game != "carrom" or not missing or not reading.unsure:
            return []
        unsure = list(reading.unsure)
        changed = [not same for same in motion.spots_unchanged([(p.x_mm, p.y_mm, p.r_mm) for p in unsure])]
        cost = np.full((len(missing), len(unsure)), np.inf)
        for j, piece in enumerate(unsure):
            at = np.array([piece.x_mm, piece.y_mm])
            come = (motion.strike_s is not None and changed[j]
                    and _farther_than(at, lay_mm, 2 * piece.r_mm) and _farther_than(at, unsure_before_mm, MOVED_MM))
            for i, track in enumerate(missing):
                if track.kind == piece.kind and (come or _unsure_where_it_lay(track, piece)):
                    cost[i, j] = np.hypot(track.x_mm - piece.x_mm, track.y_mm - piece.y_mm)
        return [(missing[i], unsure[j]) for i, j in _assign(cost, np.inf)]

    def _unsure_at(self, track: _Track, reading: BoardReading) -> bool:
        """Carrom: whether an unsure coin of the track's kind lies where it lay."""
        return self.game == "carrom" and any(p.kind == track.kind and _unsure_where_it_lay(track, p)
                                             for p in reading.unsure)

    def _new_track(self, piece: Piece, *, appeared_s: float | None) -> _Track:
        track = _Track(next(self._ids), piece.x_mm, piece.y_mm, appeared_s=appeared_s)
        track.see(piece)
        self._tracks.append(track)
        return track

    def _lost_at(self, piece: Piece) -> list[_Track]:
        """The lost pieces of `piece`'s kind that lay where it is read."""
        if piece.kind == STROKE_PIECES.get(self.game) and any(t.kind == piece.kind for t in self._tracks):
            return []  # the game's one striker (shooter) is the one on the board, wherever it is read now
        return [t for t in self._lost if t.kind == piece.kind
                and np.hypot(t.x_mm - piece.x_mm, t.y_mm - piece.y_mm) <= max(2 * t.r_mm, MOVED_MM)]

    def _found_again(self, piece: Piece) -> _Track | None:
        """The lost piece of `piece`'s kind that lay where it is read (taken from the lost), if any."""
        near = self._lost_at(piece)
        if not near:
            return None
        found = min(near, key=lambda t: np.hypot(t.x_mm - piece.x_mm, t.y_mm - piece.y_mm))
        self._lost.remove(found)
        return found

    def _on_queen_spot(self, track: _Track) -> bool:
        """Carrom: the queen lying on the centre spot, often printed in its colour: the picture there cannot tell it gone."""
        return self.game == "carrom" and track.kind == "queen" and np.hypot(track.x_mm, track.y_mm) <= CENTRE_SPOT_MM

    def _put_down(self, piece: Piece, motion: Motion) -> bool:
        """Carrom: a coin read where none lay, a hand having reached in since the strike, was put down there by hand.

        Pieces are put back inside the outer circle (ICF 65, 66, 95a): one on the centre spot, or one whose spot
        changed only once the hand came (the struck pieces had come to rest by then).
        """
        if not motion.hand_after_strike or self.game != "carrom" or piece.kind == STROKE_PIECES[self.game]:
            return False
        from_centre_mm = np.hypot(piece.x_mm, piece.y_mm)
        if from_centre_mm <= CENTRE_SPOT_MM:
            return True
        if motion.hand_came_s is None or from_centre_mm > self._placing_radius_mm:
            return False
        changed_s = motion.spot_changed_s(piece.x_mm, piece.y_mm, piece.r_mm)
        return changed_s is not None and changed_s >= motion.hand_came_s

    def _queen_returned(self, piece: Piece) -> bool:
        """Carrom: a queen read on the centre spot while none is on the board was put back there."""
        return (self.game == "carrom" and piece.kind == "queen" and np.hypot(piece.x_mm, piece.y_mm) <= CENTRE_SPOT_MM
                and not any(t.kind == "queen" for t in self._tracks))

    def _queen_back(self, piece: Piece) -> bool:
        """Carrom: a queen read while the one last seen going into a pocket is not on the board was put back."""
        return (self.game == "carrom" and piece.kind == "queen" and self._queen_pocketed
                and not any(t.kind == "queen" for t in self._tracks))

    def _confirm_new(self, track: _Track) -> list[Observation]:
        appeared_s, track.appeared_s = track.appeared_s, None
        if self.game == "crokinole" or track.kind == STROKE_PIECES[self.game] or not track.announce:
            return []  # the striker comes and goes with every stroke
        return [Observation(appeared_s, "placed", track.kind, confidence=min(1.0, track.votes[track.kind]))]

    def _removed_by_hand(self, missing: list[_Track], reading: BoardReading, motion: Motion, *, changed: bool) -> bool:
        """Crokinole: whether the view's only change is discs the rules take off, gone under a hand: no shot.

        Nothing came in, moved or entered the hole (`changed`); what went is a disc left touching the
        outer line (rules 4a), the shooter's own discs after a shot that touched no opponent disc
        (3c), or 20s out of the hole (2: read there before, or the hole full at the last reading, or
        a 20 seen going in at the last shot when it was invalid, and empty now).
        """
        if changed:
            return False
        fewer_20s = any(reading.twenties.get(kind, 0) < n for kind, n in self._twenties.items())
        # A 20 hidden in the hole (a dark disc in a dark hole) is known only by the last shot: taken out
        # when that shot was invalid (3c). A valid one is set aside too, but that may come with the next shot.
        emptied = (self._hole_full or (self._last_shot_invalid and bool(self._last_20s))) and not motion.hole_full
        # A 20 the last shot hid in the hole (a dark disc in a dark hole) is taken out under a hand that stirs
        # the hole, and a valid one is set aside off the board (2): no disc came into the ditch, as one shot
        # straight off would.
        set_aside = bool(self._last_20s) and motion.busy_hole is not None and not self._came_into_ditch(motion)
        removable = all(t.zone == 0 or (self._last_shot_invalid and t.kind == self._last_shot) for t in missing)
        return removable and (bool(missing) or fewer_20s or emptied or set_aside)

    def _came_into_ditch(self, motion: Motion) -> bool:
        """Crokinole: whether the ditch counts more discs than at the last reading (True when it cannot count)."""
        if not motion.ditch_discs or len(motion.ditch_discs) != len(self._ditch_discs):
            return True
        return bool(_arrivals(np.array(motion.ditch_discs) - np.array(self._ditch_discs)))

    def _next_shooter(self) -> str | None:
        """Crokinole: the colour whose turn it is, as the shots so far alternate (None: not known)."""
        if self._last_shot not in CROKINOLE_COLOURS:
            return None
        return CROKINOLE_COLOURS[1 - CROKINOLE_COLOURS.index(self._last_shot)]

    def _shot_piece(self, new_tracks: list[_Track]) -> str | None:
        if self.game in STROKE_PIECES:
            return STROKE_PIECES[self.game]
        # Crokinole: the disc that came in from the shooting line is the shooter's colour;
        # without one, the players take turns.
        if len(new_tracks) == 1 and new_tracks[0].kind in CROKINOLE_COLOURS:
            self._last_shot = new_tracks[0].kind
        elif self._waiting is not None and self._waiting.kind in CROKINOLE_COLOURS:
            self._last_shot = self._waiting.kind
        elif self._last_shot is not None:
            self._last_shot = self._next_shooter()
        else:
            return None
        return self._last_shot

    @staticmethod
    def _landing(track: _Track, landings: list[tuple[float, float]]) -> float:
        """When the disc landed in the ditch: the landing nearest its bearing (taken from `landings`)."""
        gap = [_angle_apart(angle, track.bearing_rad) for _, angle in landings]
        return landings.pop(int(np.argmin(gap)))[0]

    def _taken_up_s(self, track: _Track, motion: Motion) -> float | None:
        """Crokinole: when a hand took a disc off the surface (by the rules: on the outer line, after an invalid
        shot) before any shot: when the hand came over its spot for good (None: not seen, a shot took it, or
        the rules take no such disc off: a hand reaching past it for a 20 in the hole only hid it)."""
        if track.zone != 0 and not self._last_shot_invalid:
            return None
        taken_s = motion.spot_changed_s(track.x_mm, track.y_mm, track.r_mm)
        return taken_s if taken_s is not None and (motion.strike_s is None or taken_s < motion.strike_s) else None

    def _came_to_ditch_s(self, track: _Track, landings: list[tuple[float | None, float]],
                         motion: Motion) -> float | None:
        """When a disc gone from the surface came into the ditch (None: not seen; nothing for other games).

        A disc left touching the outer line is taken off by hand before the next shot (rules 4a):
        the first change of the ditch at its bearing before that shot's strike. Otherwise its
        counted landing nearest its bearing (taken from `landings`). Not counted (a dark disc in a
        dark ditch, one come against discs lying there): the motion, else any change of the ditch,
        near its bearing once it could have got there; else the motion, else any change, anywhere
        then. It could not land before the shot disc came from the shooting line to it and it went
        on to the ditch, at `MAX_POCKETING_SPEED_MM_S` at most: what the ditch did before that
        was the shooter's hand.
        """
        counted = self._landing(track, landings) if landings else None
        bearing = track.bearing_rad
        strike_s = motion.strike_s
        if track.zone == 0 and strike_s is not None:
            removed = [t_s for t_s, angle in motion.ditch_changes
                       if t_s < strike_s and _angle_apart(angle, bearing) <= LANDING_REACH_RAD]
            if removed:
                return min(removed)
        if counted is not None:
            return counted
        way_mm = 2 * max(0.0, self._shooting_line_mm - np.hypot(track.x_mm, track.y_mm))
        earliest_s = None if strike_s is None else strike_s + way_mm / MAX_POCKETING_SPEED_MM_S
        for seen in (motion.ditch, motion.ditch_changes):
            near = [(t_s, angle) for t_s, angle in _after(seen, earliest_s)
                    if _angle_apart(angle, bearing) <= LANDING_REACH_RAD]
            if near:
                return self._landing(track, near)
        for seen in (motion.ditch, motion.ditch_changes):
            anywhere = _after(seen, earliest_s)
            if anywhere:
                return self._landing(track, anywhere)
        return None

    def _shot_disc_off(self, landings: list[tuple[float | None, float]], shot_t_s: float,
                       spells: tuple[tuple[float, float], ...], after_s: float) -> list[Observation]:
        """A shot whose disc is nowhere on the board nor in the hole: it went to the ditch.

        Timed by its landing there, else by the first motion in the ditch (`spells`) from `after_s`
        (the shot, or the hole's busiest moment when it crossed the hole: the shooter's hand over
        the ditch at the strike is no landing), else from the shot (the hole barely stirred, last,
        by the disc passing near it on its way off).
        """
        if self._last_shot is None:
            return []
        seen = [t_s for t_s, _ in landings if t_s is not None] or [t_s for t_s, _ in _after(spells, after_s)] or [
            t_s for t_s, _ in _after(spells, shot_t_s)]
        when = min(seen, default=shot_t_s)
        return [Observation(when, "off_board", self._last_shot, confidence=0.6, needs_review=True)]

    def _twenties_removed(self, landings: list[tuple[float | None, float]], motion: Motion) -> list[Observation]:
        """The last shot's 20s taken out of the hole into the ditch again (NCA 3c: the shot was invalid).

        The shot touched no opponent disc while there were some on the board: the rules take
        out what it sank. Without that, discs put into the ditch by hand with none gone from
        the surface are 20s taken out too. A valid 20 is set aside off the board instead.
        Each is timed by the hand stirring the hole last before its arrival in the ditch (before
        this view's strike), else by that arrival, else when the board began to change.
        """
        if not self._last_20s:
            return []
        before = [i for i, (t_s, _) in enumerate(landings)
                  if motion.strike_s is None or (t_s is not None and t_s < motion.strike_s)]
        seen = motion.strike_s is not None or motion.busy_hole is not None or bool(motion.ditch_changes or landings)
        if self._last_shot_invalid and not seen:
            return []  # read again before the referee came: nothing has been taken out yet
        if self._last_shot_invalid:
            count = len(self._last_20s)
        elif motion.strike_s is None:
            count = min(len(before), len(self._last_20s))
        else:
            count = 0
        hole = motion.busy_hole
        observations = []
        for _ in range(count):
            t_s = landings.pop(before.pop(0) - len(observations))[0] if before else None
            if t_s is not None and hole is not None:
                taken_s = [spell.peak_t_s for spell in hole.spells if spell.peak_t_s < t_s]
                t_s = taken_s[-1] if taken_s else t_s
            observations.append(Observation(t_s if t_s is not None else motion.start_s, "off_board",
                                            self._last_20s.pop(), confidence=0.6, needs_review=True,
                                            reason="twenty_removed"))
        self._last_20s, self._last_shot_invalid = [], False
        return observations

    def _ditch_landings(self, motion: Motion) -> list[tuple[float | None, float]]:
        """(t_s or None, angle) of each disc come into the ditch since the last reading.

        With the discs lying in the ditch counted at both readings, each arrival is timed by
        the last spell of motion in its sectors (after the strike); without them, every
        spell after the strike counts as a landing.
        """
        strike_s = motion.strike_s
        spells = [(t_s, angle) for t_s, angle in motion.ditch if strike_s is None or t_s >= strike_s]
        before, self._ditch_discs = self._ditch_discs, motion.ditch_discs or self._ditch_discs
        if not motion.ditch_discs or len(before) != len(motion.ditch_discs):
            return [(t_s, angle) for t_s, angle in spells]
        landings = []
        for angle, count in _arrivals(np.array(motion.ditch_discs) - np.array(before)):
            reach = np.pi / len(before) * (count + 2)
            moved = [t_s for t_s, a in motion.ditch if _angle_apart(a, angle) <= reach]
            changed = [t_s for t_s, a in motion.ditch_changes if _angle_apart(a, angle) <= reach]
            # Knocked off after the strike: seen moving on its own there, else the last change of the
            # ditch there (a landing against the frame is no free motion). Or else put there by hand
            # before it (a removal the board did not settle after before the next shot).
            if strike_s is None:
                when = max(moved + changed, default=None)
            else:
                when = max([t for t in moved if t >= strike_s] or [t for t in changed if t >= strike_s]
                           or moved + changed, default=None)
            landings += [(when, angle)] * count
        return landings

    def _gone(self, track: _Track, busy: list[PocketActivity], motion: Motion, so_far: list[Observation],
              spell: PocketActivity | None = None, *, doubtful: bool = False) -> Observation:
        """Where the piece went: the busiest of the `busy` pockets, or its own `spell` of one (`_share_spells`).

        A `doubtful` one (no spell left for it) is held for review."""
        when = track.missing_since_s
        if self.game == "crokinole" or not busy:
            # Crokinole discs leave for the ditch; a 20 is only ever seen in the hole.
            review = self.game != "crokinole"
            return Observation(when, "off_board", track.kind, confidence=0.8 if not review else 0.5,
                               needs_review=review)
        distance = np.linalg.norm(self._pockets_mm[[a.pocket for a in busy]] - (track.x_mm, track.y_mm), axis=1)
        # The busiest pocket, unless the piece lay right at another busy one.
        scores = np.array([a.energy for a in busy]) / (1.0 + distance / 100.0)
        best = spell if spell is not None else busy[int(np.argmax(scores))]
        confidence = 0.5 if doubtful else 0.95 if len(busy) == 1 else 0.75
        return self._into_pocket(best, track.kind, motion, so_far, confidence=confidence, needs_review=doubtful)

    def _into_pocket(self, pocket: PocketActivity, kind: str, motion: Motion, so_far: list[Observation], *,
                     confidence: float, needs_review: bool = False) -> Observation:
        """A piece gone where `pocket` stirred: dropped in, or jumped off beside it when something crossed the
        frame there as it went (held for review). One crossing is one piece: a crossing a piece gone
        `so_far` jumped in explains no other."""
        claimed = _jumped_at(so_far)
        flights = [t_s for t_s, x_mm, y_mm in motion.frame_flights
                   if t_s not in claimed and pocket.peak_t_s - JUMP_BEFORE_S <= t_s <= pocket.peak_t_s + JUMP_AFTER_S
                   and (motion.strike_s is None or t_s > motion.strike_s)
                   and np.hypot(*(self._pockets_mm[pocket.pocket] - (x_mm, y_mm))) <= JUMP_BESIDE_POCKET_MM]
        if flights:
            return Observation(flights[0], "off_board", kind, confidence=0.6, needs_review=True, reason="jumped")
        return Observation(pocket.peak_t_s, "pocketed", kind, pocket.pocket, confidence=confidence,
                           needs_review=needs_review)

    def _share_spells(self, tracks: list[_Track], busy: list[PocketActivity],
                      motion: Motion) -> dict[int, PocketActivity]:
        """Several pieces gone: each spell of a pocket busy goes to one of them, the best suited.

        Each piece dropping in makes a spell: a pocket busy twice took two pieces, each at its own time,
        and a piece beside a quieter pocket is not given to the busiest. A piece given no spell of its own
        (two coins dropping in together, or one no longer read) is left to `_gone`, held for review. In a
        single stroke which spell is whose cannot be told from where they lay (the break), but every pocket
        that stirred took one: two coins gone in a break, one into each of two pockets, are not both given
        to the busier, leaving the other's stir to the striker (simulated carrom clip 5143 at 2.3 s).
        Returns track id -> its pocket, narrowed to its spell.
        """
        if len(tracks) < 2 or motion.strike_s is None:
            return {}
        reachable = [self._reachable(t, busy, motion.rolling_from_s) for t in tracks]
        spells = sorted({(a.pocket, b) for options in reachable for a in options for b in a.spells},
                        key=lambda spell: (spell[0], spell[1].peak_t_s))
        score = np.zeros((len(tracks), len(spells)))
        for i, (track, options) in enumerate(zip(tracks, reachable)):
            for a in options:
                distance = np.hypot(*(self._pockets_mm[a.pocket] - (track.x_mm, track.y_mm)))
                for j, (pocket, spell) in enumerate(spells):
                    if pocket == a.pocket and spell in a.spells:
                        score[i, j] = spell.energy / (1.0 + distance / 100.0)
        cost = np.where(score > 0, -score, np.inf)
        given = {}
        for i, j in _assign(cost, 0.0):
            pocket, spell = spells[j]
            given[tracks[i].track_id] = PocketActivity(pocket, spell.energy, spell.peak_t_s, spell.peak_t_s, (spell,))
        return given

    def _dropped_unseen(self, track: _Track, motion: Motion) -> Observation | None:
        """Carrom, couronne: a piece gone after a strike from beside a pocket that stirred, however little, since.

        A pale coin on a pale board dropping in barely changes the pocket's region: lying within
        `NEAR_POCKET_PIECES` of its diameters of the pocket's mouth, it went in (held for review).
        """
        if self.game not in STROKE_PIECES or motion.strike_s is None or not len(self._pockets_mm):
            return None
        gaps = np.hypot(*(self._pockets_mm - (track.x_mm, track.y_mm)).T)
        pocket = int(np.argmin(gaps))
        glimpse = next((a.glimpse_t_s for a in motion.pockets if a.pocket == pocket), None)
        if gaps[pocket] > self._hole_radius_mm + NEAR_POCKET_PIECES * 2 * track.r_mm or glimpse is None \
                or glimpse < motion.strike_s:
            return None
        return Observation(glimpse, "pocketed", track.kind, pocket, confidence=0.5, needs_review=True)

    def _reachable(self, track: _Track, busy: list[PocketActivity], strike_s: float | None) -> list[PocketActivity]:
        """The `busy` pockets the piece could have gone into: reached from where it lay by a spell of them busy.

        Each pocket comes with only the spells it could have made (its energy and peak theirs): a pocket
        stirred before the strike too (a striker lifted off its mouth) took the piece in a later spell.
        Without a strike to time the way from, any busy pocket.
        """
        if strike_s is None:
            return busy
        reachable = []
        for a in busy:
            earliest_s = strike_s + np.hypot(*(self._pockets_mm[a.pocket] - (track.x_mm, track.y_mm))) \
                / MAX_POCKETING_SPEED_MM_S
            reachable += self._spells_after([a], earliest_s)
        return reachable

    def _placed_and_pocketed(self, tracks: list[_Track], busy: list[PocketActivity], so_far: list[Observation],
                             motion: Motion) -> list[Observation]:
        """Carrom, couronne: pieces placed by hand and struck into a pocket before a second reading confirmed them.

        Only a pocket that took nothing else, reached from where the piece was placed, stirred enough to have
        taken it: the striker stayed on the board, so that pocket's stir is the placed piece's.
        """
        if self.game not in STROKE_PIECES or motion.strike_s is None:
            return []
        observations = []
        for track in tracks:
            taken = {o.pocket for o in so_far + observations if o.type == "pocketed"}
            free = [a for a in self._reachable(track, busy, motion.rolling_from_s)
                    if a.pocket not in taken and a.energy >= DROP_IN_ENERGY]
            if free:
                observations += self._confirm_new(track) + [self._gone(track, free, motion, so_far + observations)]
        return observations

    def _striker_gone(self, gone: list[_Track], vanished: bool, is_stroke: bool, busy: list[PocketActivity],
                      so_far: list[Observation], motion: Motion) -> list[Observation]:
        """The striker (shooter) gone after a stroke: into a pocket, back in a hand, or off the board.

        A pocket clearly busy since the strike with no coin gone into it took the striker, as did a carrom pocket
        a coin went into that shows a striker's drop too (`_striker_dropped`). Otherwise a
        hand that reached over the board after the (last) strike (none seen: after pieces first rolled)
        picked it up for the next stroke. With none, a piece never leaves the board by itself: the
        striker went with a coin into a pocket stirred since the strike, or, no pocket stirred, a
        couronne shooter jumped off (when is not seen: the strike's time). Both are held for review.
        A couronne shooter seen flying off over the frame after the strike (no other piece's flight)
        jumped off, whatever pocket stirred. On a carrom board only a pocket the striker dropped into
        counts (`_dropped_in`): one it passed by says it is on the board, unread.
        """
        for track in gone:
            self._tracks.remove(track)
        if not is_stroke or not (gone or vanished):
            return []
        piece = STROKE_PIECES[self.game]
        flown_s = self._unclaimed_flight_s(motion, so_far) if self.game == "couronne" else None
        if flown_s is not None:
            return [Observation(flown_s, "off_board", piece, confidence=0.6, needs_review=True, reason="jumped")]
        taken = {o.pocket for o in so_far if o.type == "pocketed"}
        stirred = self._spells_after(busy, motion.strike_s)
        # Carrom: a striker's drop in a pocket a coin went into: it followed the coin in, a hand come since or not
        # (simulated clips 5212 at 102.9 s and 5216 at 73.8 s, 1080p: 0.1 s after the coin, one burst).
        followed = [a for a in stirred if self.game == "carrom" and a.pocket in taken and _striker_dropped(a)]
        if self.game == "carrom":
            # A pale striker the reader missed stirs the pockets it passes: only a pocket it dropped into counts.
            stirred = [a for a in stirred if _dropped_in(a, after=a.pocket in taken)]
        free = [a for a in stirred if a.pocket not in taken and a.energy >= DROP_IN_ENERGY] or followed
        if free:
            return [self._gone(gone[0], free, motion, so_far) if gone
                    else self._stroke_piece_gone(free, motion, so_far)]
        if motion.hand_after_strike is not False:
            return []
        if stirred:
            best = max(stirred, key=lambda a: a.energy)
            return [self._into_pocket(best, piece, motion, so_far, confidence=0.6, needs_review=True)]
        if self.game != "couronne" or motion.strike_s is None:
            return []  # only couronne rings jump
        struck_s = motion.later_strikes[-1] if motion.later_strikes else motion.strike_s
        return [Observation(struck_s, "off_board", piece, confidence=0.5, needs_review=True)]

    @staticmethod
    def _unclaimed_flight_s(motion: Motion, so_far: list[Observation]) -> float | None:
        """When something first crossed the frame after the strike that no piece gone so far jumped in."""
        if motion.strike_s is None:
            return None
        claimed = _jumped_at(so_far)
        return min((t_s for t_s, _, _ in motion.frame_flights if t_s > motion.strike_s and t_s not in claimed),
                   default=None)

    @staticmethod
    def _spells_after(busy: list[PocketActivity], t_s: float | None) -> list[PocketActivity]:
        """The `busy` pockets narrowed to their spells busy from `t_s` on (all of them without a time)."""
        if t_s is None:
            return busy
        narrowed = []
        for a in busy:
            # An activity told without its spells (made by hand) is one spell at its peak.
            told = a.spells or ((PocketSpell(a.peak_t_s, a.energy),) if a.peak_t_s is not None else ())
            spells = tuple(b for b in told if b.peak_t_s >= t_s)
            if spells:
                busiest = max(spells, key=lambda b: b.energy)
                narrowed.append(replace(a, energy=sum(b.energy for b in spells), peak_t_s=busiest.peak_t_s,
                                        spells=spells))
        return narrowed

    def _stroke_piece_gone(self, busy: list[PocketActivity], motion: Motion,
                           so_far: list[Observation]) -> Observation:
        """The struck striker (shooter), never read since: into the busiest of the `busy` pockets."""
        best = max(busy, key=lambda a: a.energy)
        return self._into_pocket(best, STROKE_PIECES[self.game], motion, so_far, confidence=0.8)

    def _hole_entries(self, reading: BoardReading, motion: Motion, shot_t_s: float) -> list[tuple[float, bool | None]]:
        """When discs came to lie in the 20-hole since the last reading, and whether each made it look brighter.

        The hole's look says when it took something; a disc now read lying over its mouth
        (a leaner) is what a new fill was, one per disc come to lie there. A disc that lay over
        the mouth and is gone, with none left there and the hole still full, fell in without
        the look changing (nor saying how it changed).
        """
        over = self._over_hole_discs(reading)
        came = [p for p in over if all(np.hypot(p.x_mm - q.x_mm, p.y_mm - q.y_mm) > MOVED_MM for q in self._over_hole)]
        brighter = (motion.hole_brighter if len(motion.hole_brighter) == len(motion.hole_entries)
                    else (None,) * len(motion.hole_entries))
        entries = list(zip(motion.hole_entries, brighter))
        if came and entries:
            # Each disc come to lie over the mouth filled its look once (another may have left it).
            del entries[max(0, len(entries) - len(came)):]
        elif self._over_hole and not over and motion.hole_full and not entries:
            entries.append((shot_t_s, None))
        self._over_hole = over
        return entries

    def _hidden_in_hole(self, missing: list[_Track], landings: list[tuple[float | None, float]], motion: Motion,
                        shot_disc: str | None, *, ditch_counted: bool) -> Observation | None:
        """A disc gone into the hole without the hole's look saying so (a dark disc in a dark hole).

        The hole's region was busy, and more discs are gone (those no longer read, and the
        shot disc when none came in) than were seen landing in the ditch: each landing
        explains the gone disc nearest its bearing, and the one left went into the hole.
        A disc counted in the ditch with no motion nor change there to show it coming is no
        landing. Where the ditch counted none, motion in it after the hole's busiest moment is
        a landing. Only a disc like the hole hides there, unless it lay over part of the hole, and
        the hole's look changed but was taken for a disc come to lean over it in its place, while
        the ditch's count says none came there.
        Held for review at low confidence, since it rests on the ditch being watched well.
        """
        hole = motion.busy_hole
        if hole is None:
            return None
        # A hand taking the last shot's 20 out stirs the hole before this shot's strike: that is no disc falling in.
        hole = next(iter(self._spells_after([hole], motion.strike_s)), hole)
        landings = [(t_s, angle) for t_s, angle in landings if t_s is not None]
        unexplained = list(missing)
        if not landings and hole.peak_t_s is not None:
            # None counted (a dark ditch): a disc seen moving in the ditch after the hole's busiest moment did
            # not go into the hole: a gone disc near its bearing, else the shot disc (from anywhere).
            from_rad = self._shot_from_rad(motion)
            # The shot disc, over the hole at its busiest, cannot land sooner than it takes to cross the board.
            shot_lands_s = hole.peak_t_s + self._shooting_line_mm / MAX_POCKETING_SPEED_MM_S
            for t_s, angle in _spell_groups(_after(motion.ditch, max(hole.peak_t_s, motion.strike_s or 0.0))):
                # A disc leaves outward, or on along the shot's line: one on the hole's brink struck across the
                # hole lands on the far side.
                apart = {t.track_id: min(_angle_apart(t.bearing_rad, angle),
                                         _angle_apart(self._struck_towards_rad(t, from_rad), angle))
                         for t in unexplained}
                near = [t for t in unexplained if apart[t.track_id] <= LANDING_REACH_RAD]
                if near:
                    unexplained.remove(min(near, key=lambda t: apart[t.track_id]))
                elif shot_disc is not None and t_s >= shot_lands_s:
                    shot_disc = None
            if not unexplained and shot_disc is None:
                return None
        elif len(missing) + (shot_disc is not None) <= len(landings):
            return None
        for _, angle in landings:
            if not unexplained:
                break
            unexplained.remove(min(unexplained, key=lambda t: _angle_apart(t.bearing_rad, angle)))
        when = hole.peak_t_s if hole.peak_t_s is not None else motion.start_s
        # A disc unlike the hole changes its look (the hole watch sees it): only one like it hides there.
        if not unexplained:
            if shot_disc not in motion.hole_hides:
                return None
            return Observation(when, "sunk_20", shot_disc, confidence=0.4, needs_review=True)
        hiding = [t for t in unexplained if t.kind in motion.hole_hides
                  or (ditch_counted and motion.hole_entries and self._on_hole_brink(t))]
        if not hiding:
            return None
        return Observation(when, "sunk_20", self._take_nearest_centre(hiding, missing).kind, confidence=0.4,
                           needs_review=True)

    @staticmethod
    def _shot_from_rad(motion: Motion) -> float | None:
        """Crokinole: the bearing of the shooting line where the shot was set down: where the ditch stirred
        last before the strike (None: not seen, or stirred in more than one place)."""
        if motion.strike_s is None:
            return None
        stirred = [angle for t_s, angle in motion.ditch if 0 <= motion.strike_s - t_s <= SET_DOWN_BEFORE_STRIKE_S]
        if not stirred or any(_angle_apart(a, stirred[-1]) > LANDING_REACH_RAD for a in stirred):
            return None
        return stirred[-1]

    def _struck_towards_rad(self, track: _Track, from_rad: float | None) -> float:
        """Crokinole: the bearing at which a disc reaches the ditch going on along the line from the shot's
        start through it (its own bearing when the start or the shooting line is not known)."""
        at = np.array([track.x_mm, track.y_mm])
        if from_rad is None or np.hypot(*at) >= self._shooting_line_mm:
            return track.bearing_rad
        way = at - self._shooting_line_mm * np.array([np.cos(from_rad), np.sin(from_rad)])
        way /= np.linalg.norm(way)
        along = -at @ way + np.sqrt((at @ way) ** 2 - at @ at + self._shooting_line_mm ** 2)
        end = at + along * way
        return float(np.arctan2(end[1], end[0]) % (2 * np.pi))

    def _on_outer_line(self, track: _Track) -> bool:
        """Crokinole: a disc read touching the outer line, which the rules take off (4a): once not read, it is gone.

        A pale disc lifted off a pale board leaves the picture there as it was: that says nothing.
        """
        return self.game == "crokinole" and track.zone == 0

    def _on_shooting_line(self, track: _Track | Piece) -> bool:
        """Crokinole: whether a disc lies where discs are set down to be shot (on or beyond the shooting line)."""
        return self._shooting_line_mm > 0 and np.hypot(track.x_mm, track.y_mm) >= self._shooting_line_mm - track.r_mm

    def _over_hole_discs(self, reading: BoardReading) -> list[Piece]:
        """Crokinole: the discs read lying over the hole's mouth (the part its look is taken from)."""
        if self.game != "crokinole":
            return []
        reach_mm = MOUTH_SHARE * self._hole_radius_mm
        return [p for p in reading.pieces if np.hypot(p.x_mm, p.y_mm) < reach_mm + p.r_mm]

    def _in_fifteen(self, track: _Track) -> bool:
        """Crokinole: whether a disc lies inside or touching the 15 line (True when the line is not known)."""
        return self._fifteen_reach_mm <= 0 or bool(np.hypot(track.x_mm, track.y_mm) - track.r_mm
                                                    <= self._fifteen_reach_mm)

    def _on_hole_brink(self, track: _Track) -> bool:
        """Crokinole: whether a disc lay over part of the hole, on the brink of falling in."""
        return bool(np.hypot(track.x_mm, track.y_mm) < self._hole_radius_mm + track.r_mm)

    def _into_hole(self, missing: list[_Track], when: float, shot_disc: str | None,
                   brighter: bool | None) -> Observation:
        """A disc came to lie in the hole: the vanished disc nearest to it, or the unseen shot disc (`shot_disc`).

        Seen in the hole region, not inferred from a disappearance; still held for review,
        since which disc it is rests on where the discs were. The hole's look decides the colour
        where it can (`brighter`: the filled hole looked brighter than empty, the lighter colour
        came in): a disc of the other colour that vanished at the same shot went into the ditch.
        """
        colour = None if brighter is None else CROKINOLE_COLOURS[0 if brighter else 1]
        fitting = [t for t in missing if colour in (None, t.kind)]
        if not missing or (not fitting and shot_disc == colour):
            return Observation(when, "sunk_20", shot_disc, confidence=0.6, needs_review=True)
        return Observation(when, "sunk_20", self._take_nearest_centre(fitting or missing, missing).kind,
                           confidence=0.7, needs_review=True)

    def _take_nearest_centre(self, candidates: list[_Track], missing: list[_Track]) -> _Track:
        """The candidate nearest the hole, no longer missing or tracked: it is the disc in the hole."""
        nearest = min(candidates, key=lambda t: np.hypot(t.x_mm, t.y_mm))
        missing.remove(nearest)
        self._tracks.remove(nearest)
        return nearest

    def _sunk(self, reading: BoardReading, motion: Motion, shot_t_s: float) -> list[Observation]:
        """20s: discs newly seen lying in the hole."""
        hole = next((a for a in motion.pockets if a.pocket == 0), None)
        when = hole.peak_t_s if hole is not None and hole.peak_t_s is not None else shot_t_s
        observations = []
        for kind, seen in reading.twenties.items():
            observations += [Observation(when, "sunk_20", kind)] * max(0, seen - self._twenties.get(kind, 0))
        self._twenties = dict(reading.twenties)
        return observations


def _arrivals(rise: np.ndarray) -> list[tuple[float, int]]:
    """(angle, discs) of each run of neighbouring ditch sectors that gained discs (`rise` per sector)."""
    n = len(rise)
    gained = rise >= ARRIVAL_SHARE
    if gained.all() or not gained.any():
        return []  # all of it at once: the light or the view changed, not discs
    start = int(np.flatnonzero(~gained)[0])  # runs are read from a sector that gained nothing
    runs, run = [], []
    for i in range(start, start + n + 1):
        sector = i % n
        if gained[sector] and i < start + n:
            run.append(sector)
        elif run:
            runs.append(run)
            run = []
    arrivals = []
    for run in runs:
        # A disc lying in the ditch nudged along it leaves a sector beside the one it comes into.
        beside = [(run[0] - 1) % n, (run[-1] + 1) % n]
        total = float(rise[run].sum() + np.minimum(rise[beside], 0.0).sum())
        if total < ARRIVAL_DISC:
            continue
        angles = (np.array(run) + 0.5) * 2 * np.pi / n
        weights = rise[run]
        angle = float(np.arctan2((weights * np.sin(angles)).sum(), (weights * np.cos(angles)).sum()) % (2 * np.pi))
        arrivals.append((angle, max(1, round(total))))
    return arrivals


def _spell_groups(spells: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The first (t_s, angle) of each group of ditch spells in neighbouring sectors: one disc's landing each."""
    groups: list[tuple[float, float]] = []
    for t_s, angle in sorted(spells):
        if all(_angle_apart(angle, a) > 1.5 * 2 * np.pi / DITCH_SECTORS for _, a in groups):
            groups.append((t_s, angle))
    return groups


def _after(spells: tuple[tuple[float, float], ...], start_s: float | None) -> list[tuple[float, float]]:
    """The (t_s, angle) spells of motion from `start_s` on (none without a start)."""
    return [] if start_s is None else [(t_s, angle) for t_s, angle in spells if t_s >= start_s]


def _unsure_where_it_lay(track: _Track, unsure: Piece) -> bool:
    return bool(np.hypot(track.x_mm - unsure.x_mm, track.y_mm - unsure.y_mm) <= UNSURE_PLACE_MM)


def _farther_than(at_mm: np.ndarray, places_mm: np.ndarray, reach_mm: float) -> bool:
    return bool(len(places_mm) == 0 or np.hypot(*(places_mm - at_mm).T).min() > reach_mm)


def _angle_apart(a: float, b: float) -> float:
    """The angle between two bearings in radians (0 to pi)."""
    return abs((a - b + np.pi) % (2 * np.pi) - np.pi)


def _dropped_in(activity: PocketActivity, *, after: bool) -> bool:
    """Carrom: whether a pocket's spells look like the striker dropping into it: clearly busy, its busiest spell
    ending at its peak, or, `after` a coin went into that pocket, a spell of two bursts (it followed the coin in).

    A pale striker the reader misses stirs the pockets it passes: the change falls off as it rose, and a coin's
    drop alone makes one burst (simulated carrom clips 5202-5211 at 1080p). A couronne ring dropping in changes
    the pocket's ring otherwise (simulated clip 5201 at 24.8 s: a spell falling off slowly).
    """
    if after:
        return any(spell.bursts >= 2 for spell in activity.spells)
    busiest = max(activity.spells, key=lambda spell: spell.energy, default=None)
    return activity.energy >= DROP_IN_ENERGY and (busiest is None or busiest.ended_at_peak)


def _striker_dropped(activity: PocketActivity) -> bool:
    """Carrom: whether one of a pocket's spells ended at a peak only a striker dropping in makes (`STRIKER_DROP_PEAK`).

    A coin's drop changes less of the pocket's ring, and a striker passing by after a coin went in falls off slowly.
    The drop is seen over several frames: an arm's flicker over the pocket lasts a frame or two (nine such spells
    peaked at 0.18 to 0.22 in those clips, their energies under 1.2 times their peaks; the strikers' drops 2.9 and 3.5).
    """
    return any(spell.ended_at_peak and spell.peak >= STRIKER_DROP_PEAK and spell.energy >= DROP_FRAMES * spell.peak
               for spell in activity.spells)


def _jumped_at(observations: list[Observation]) -> set[float]:
    """The times of the frame crossings the `observations` already say a piece jumped in."""
    return {o.t_s for o in observations if o.reason == "jumped"}
