"""From frames to observations: locate and track the board, gate on settling, read, infer events.

One `BoardAnalyzer.update(frame)` per frame. Per frame it does only cheap work
(the settle gate, the pocket mouths; a tracker check every few frames and before
each read); the board is read in full only on the first frame of each settled
stretch.
"""

from __future__ import annotations

from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Callable, NamedTuple

import cv2
import numpy as np

from calibration.geometry import BoardModel, CrokinoleBoard, load_board
from vision.board_location import BoardLocation
from vision.board_tracker import BoardTracker
from vision.couronne_colours import knows_colours, learnt_colours
from vision.homography import project
from vision.events import (CROKINOLE_COLOURS, DROP_IN_ENERGY, HIDDEN_IN_HOLE, STROKE_PIECES, EventInferer, Motion,
                           Observation)
from vision.jumps import FrameWatch
from vision.localise import locate_board
from vision.pieces import BoardReading
from vision.pieces_read import read_pieces
from vision.pockets import (DitchWatch, HoleWatch, PocketActivity, PocketWatch, approach_mask, board_masks,
                            pocket_centres_mm, pocket_radius_mm)
from vision.settle import AlikeTimes, GateReading, SettleGate, SettleSettings
from vision.sources import Frame
from vision.striker_rim import learnt_striker_colours, striker_colour
from vision.team_colours import learnt_team_colours

# Share of the board moving on its own (about a shot piece's trace in a frame) ... A crokinole
# disc is a smaller share of its board than a striker, and slows sooner.
MIN_STRIKE_MOTION = {"carrom": 0.003, "couronne": 0.003, "crokinole": 0.0018}
ARM_MOTION = 0.01  # share of the board changed in parts reaching its rim in a frame that is an arm, not a piece
ARM_GONE_S = 0.4  # no arm seen moving over the board for this long, one seen then is another (not the striking one)
STRIKE_FRAMES = 3  # ... going on for this many frames in a row
FAINT_MOTION = 1e-4  # crokinole: any free motion (a pale disc sliding on a pale board), to time a shot seen otherwise
STRIKE_SHARE_OF_PEAK = 0.35  # ... with at least this share of the total motion of the stroke's largest such run
# The striking hand withdrawing over the pieces it just set rolling joins them to the rim for a few frames: runs
# of free motion this close before a strike's run are the same stroke, which struck at the first of them
# (less than AIM_S: the striker set down, then aimed, is not).
STRIKE_JOIN_S = 0.2
# A run of motion that the hand holds still over the board right after (within SET_DOWN_GAP_S), for at least
# AIM_S before more motion, set the striker down: the player aims, then strikes.
SET_DOWN_GAP_S = 0.1
ARM_RUN_GAP_S = 0.1  # frames of an arm's motion less than this apart are one run of it
AIM_S = 0.3
MAX_SEGMENT_FRAMES = 9000  # moving frames kept between settled readings (5 min at 30 fps)
SAME_SPOT_CORRELATION = 0.9  # a piece's patch matching the last read view this well (nudges allowed) is unchanged ...
SPOT_FACE_SHARE = 0.7  # ... and its face, inside this share of its radius, ...
SAME_FACE_CHANGE = 20.0  # ... changed by no more than this (mean over its pixels of the largest channel change)
# Clearly as before (`spots_unchanged(clearly=True)`): a pale coin come to rest on a pale board, or gone from a pale
# base line, changes its face little (simulated clips at 1080p: 5206 at 21.7 s, face change 19.9; 5212 at 84.5 s,
# 19.7); a spot nothing came to rest on, or a coin the reader missed lies on, far less (5215 at 69.2 s: 8.4; coins
# the reader missed beside a stirred pocket in clips 5202-5221: 10.5 at most). Its patch's correlation tells them
# apart no better (0.93 gone from the base line, 0.92 missed beside a pocket).
CLEARLY_SAME_FACE_CHANGE = 15.0
# A settled reading with more of the surface covered is not trusted. The part a camera never
# sees (beyond the frame's edge) does not count: it is the same in every reading.
MAX_COVERED_SHARE = 0.1
LOCATE_EVERY_S = 0.5  # while no board is found, try again this often
TRACK_EVERY_FRAMES = 4  # while the board is where it was, check it this often (and before every read)
# Read ahead once the board has been still this long: a piece coasting to rest often restarts the
# stillness in its first frames, and a reading begun then would only hold up the next.
READ_AHEAD_AFTER_S = 0.1
SAME_VIEW_PX = 1.5  # a board found again this close to where it was has not moved (the tracker's own limit)
# Carrom, couronne: a board set out afresh holds most of the set again, at least this share of the pieces the board
# started with, and this many more than before (a carrom board is over with at most the nine coins of one colour
# and the queen left of nineteen; a couronne game with at most one side's rings).
SET_OUT_MIN_SHARE = 0.75
SET_OUT_MIN_GAIN = 5


@dataclass(frozen=True)
class AnalysisStep:
    """What one frame added: a settled reading and the observations it led to, if any."""

    frame_index: int
    t_s: float
    board_found: bool
    is_stable: bool
    reading: BoardReading | None = None
    observations: tuple[Observation, ...] = ()
    homography: np.ndarray | None = None
    reading_t_s: float | None = None  # when the frame of `reading` was taken (a background reading comes later)


@dataclass
class _Segment:
    """The movement since the last settled reading."""

    start_s: float | None = None
    # (t_s, share of the board) per frame since the movement started (0 when still); the last few minutes only,
    # so a board that never settles (a crowd in view) does not grow memory.
    free_motion: deque[tuple[float, float]] = field(default_factory=lambda: deque(maxlen=MAX_SEGMENT_FRAMES))
    # (t_s, share of the board) per moving frame changed in parts that reach the rim (an arm), 1.0 while one is
    # held in; the same few minutes.
    arm_motion: deque[tuple[float, float]] = field(default_factory=lambda: deque(maxlen=MAX_SEGMENT_FRAMES))

    def begin(self, t_s: float) -> None:
        """Movement since the last settled reading started at `t_s` (if not earlier)."""
        if self.start_s is None:
            self.start_s = t_s

    def still(self, t_s: float) -> None:
        """Nothing moved in the frame at `t_s`: it ends a run of free motion (a piece vanishing in one frame and
        another stirring a few frames later are no strike's rolling)."""
        if self.start_s is not None:
            self.free_motion.append((t_s, 0.0))

    def hand_came_after(self, t_s: float | None) -> bool | None:
        """Whether an arm reached over the board anew after `t_s` (the strike), not the striking one withdrawing.

        None without a strike to look from.
        """
        return None if t_s is None else self.hand_came_s(t_s) is not None

    def hand_came_s(self, t_s: float | None) -> float | None:
        """When an arm reached over the board anew after `t_s` (the strike); None without one, or a strike."""
        return None if t_s is None else self._arm_came_s(t_s)

    def strikes_s(self, *, min_motion: float, aimed: bool = False) -> list[float]:
        """When each stroke struck: pieces first moved on their own and kept moving, then each such run after a new arm.

        A hand's fingers flicker and a piece put down or dropping into a pocket
        changes a frame or two; a strike sets pieces rolling for many frames. Runs
        of frames with free motion are weighed by their total motion: the first strike
        starts the first run with a good share of the stroke's largest. With `aimed`
        (carrom), a run that a hand holds still over the board right after, aiming,
        before more motion, is the striker being set down: the stroke is struck after
        the aim.

        The board need not settle between two strokes (pieces still rolling when the next
        player reaches in): a strong run of free motion at least `AIM_S` after an arm came
        over the board anew, beyond the striking one withdrawing, is the next stroke.
        """
        runs = _runs(self.free_motion, min_motion=min_motion)
        # The hand setting the striker down moves it too: the stroke is struck after the aim.
        aimed_s = self._last_aim_end_s(runs) if aimed else None
        if aimed_s is not None:
            runs = [run for run in runs if run.start_s > aimed_s]
        long_runs = [run for run in runs if run.frames >= STRIKE_FRAMES]
        if aimed and not long_runs and aimed_s is None:
            # The striker set down under the hand moved with the arm's body, not on its own: the aim
            # is the hand's last hold however it set the striker down.
            aimed_s = self.last_hold_end_s()
            runs = [run for run in runs if aimed_s is not None and run.start_s > aimed_s]
        if not long_runs and aimed_s is not None:
            long_runs = runs[:1]  # a soft stroke after the aim, the striker alone barely moving
        largest = max((run.total for run in long_runs), default=0.0)
        strong = [run.start_s for run in long_runs if run.total >= STRIKE_SHARE_OF_PEAK * largest]
        strikes = strong[:1]
        for start in strong[1:]:
            arm_s = self._arm_came_s(strikes[-1])
            # The next player sets the striker down and aims before striking: an arm seen only just before
            # the run is a piece knocking the board's frame (or the picture's edge), not a hand.
            if arm_s is not None and start - arm_s >= AIM_S:
                strikes.append(start)
        return strikes

    def began_s(self, strike_s: float, *, min_motion: float) -> float:
        """When the motion of the stroke struck at `strike_s` (one of `strikes_s`) began: the runs of free
        motion just before its run, each less than `STRIKE_JOIN_S` before the next, are the same stroke."""
        before = [run for run in _runs(self.free_motion, min_motion=min_motion) if run.start_s < strike_s]
        for run in reversed(before):
            if strike_s - run.end_s > STRIKE_JOIN_S:
                break
            strike_s = run.start_s
        return strike_s

    def arm_ran_in_s(self, strike_s: float) -> float:
        """When the arm's motion that ran straight into the strike at `strike_s` began (`strike_s` if none did).

        A stroke struck under the hand's last frames can set a ring rolling along the cushion as the
        hand leaves: both reach the rim, so the gate takes the ring's first frames for the arm and the
        strike shows only once the ring leaves the rim. The pieces may have rolled from the first frame
        of the arm's motion that ran straight into the strike (back to the hand held still over the board).
        """
        began_s = strike_s
        for t_s, share in reversed(self.arm_motion):
            if t_s >= began_s:
                continue
            if share >= 1.0 or share <= 0.0 or began_s - t_s > ARM_RUN_GAP_S:
                break
            began_s = t_s
        return began_s

    def _last_aim_end_s(self, runs: list[_Run]) -> float | None:
        """When the last aim ended of those that follow, one each, the long runs from the first on (None: none)."""
        aimed_s = None
        for run in runs:
            if run.frames >= STRIKE_FRAMES:
                aim_end_s = self._aim_end_s(run.end_s)
                if aim_end_s is None:
                    break
                aimed_s = aim_end_s
        return aimed_s

    def _aim_end_s(self, end_s: float) -> float | None:
        """When a hand held still over the board (occluded) from just after `end_s` for `AIM_S` at least stopped aiming."""
        first_s = last_s = None
        for t_s, share in self.arm_motion:
            if t_s <= end_s:
                continue
            if last_s is None and share < 1.0 and t_s - end_s <= SET_DOWN_GAP_S:
                continue  # the hand that set the striker down comes to rest
            if share < 1.0 or t_s - (end_s if last_s is None else last_s) > SET_DOWN_GAP_S:
                break
            first_s = first_s if first_s is not None else t_s
            last_s = t_s
        return last_s if last_s is not None and last_s - first_s >= AIM_S else None

    def last_hold_end_s(self, before_s: float | None = None) -> float | None:
        """When the last stretch of a hand held still over the board (occluded) for `AIM_S` at least ended
        (before `before_s`, if given).

        A player aims with the hand held still and strikes as it lets go: a stroke seen as no strike
        (everything rolling along the cushions, taken for the arm) struck then.
        """
        first_s = last_s = found_s = None
        for t_s, share in self.arm_motion:
            if before_s is not None and t_s >= before_s:
                break
            if share < 1.0:
                first_s = None
                continue
            if first_s is None or t_s - last_s > SET_DOWN_GAP_S:
                first_s = t_s
            last_s = t_s
            if last_s - first_s >= AIM_S:
                found_s = last_s
        return found_s

    def faint_strike_s(self) -> float | None:
        """Crokinole: when a shot that set no strike's motion going was struck (None: no run of free motion).

        A pale disc on a pale board changes few pixels as it slides: its shot shows as the run of
        free motion, however faint, with the most of it, kept up for a strike's frames.
        """
        runs = [run for run in _runs(self.free_motion, min_motion=FAINT_MOTION) if run.frames >= STRIKE_FRAMES]
        return max(runs, key=lambda run: run.total).start_s if runs else None

    def first_rolled_s(self, *, min_motion: float) -> float | None:
        """When pieces first moved on their own, however briefly (None: never): a stroke seen as no strike."""
        runs = _runs(self.free_motion, min_motion=min_motion)
        return runs[0].start_s if runs else None

    def _arm_came_s(self, strike_s: float) -> float | None:
        """When an arm reached over the board anew after `strike_s`: seen again after none was for a while.

        The striking hand lingers and withdraws, seen every frame or two while it moves; a hand
        still over the board changes nothing, so it is a gap in the arm's motion that tells it gone.
        """
        last_s = strike_s
        for when, share in self.arm_motion:
            if when < strike_s or share < ARM_MOTION:
                continue
            if when - last_s >= ARM_GONE_S:
                return when
            last_s = when
        return None


@dataclass
class BoardAnalyzer:
    """Frames in, observations out, for one board of `game`.

    Parameters
    ----------
    game : {"carrom", "crokinole", "couronne"}
    locate : callable(image) -> BoardLocation, optional
        The full locator; by default `locate_board` over every shipped model.
    read : callable(image, *, homography, board) -> BoardReading
        The piece reader; `read_pieces` by default.
    settle : SettleSettings
    read_in_background : bool
        Read settled frames on a second thread while the next frames are gated; a
        reading's observations then come with a later frame's step (in order), and
        `finish()` must be called at the end for the last one.
    read_ahead : bool
        Start reading, on a second thread, once the board has been still for
        `READ_AHEAD_AFTER_S`, so that the reading is ready when the board counts as settled
        (at `settle.settle_s`) and its events follow at once; a reading of a board that moves
        again first is thrown away. For live tables, where the time from the settle to the event
        counts and the CPU waits between frames.
    first_shooter : str, optional
        Crokinole: the colour that shoots first on the next board, as the match knows it.
    """

    game: str
    locate: Callable[[np.ndarray], BoardLocation] | None = None
    read: Callable[..., BoardReading] = read_pieces
    settle: SettleSettings = field(default_factory=SettleSettings)
    read_in_background: bool = False
    read_ahead: bool = False
    first_shooter: str | None = None  # crokinole: the colour shooting first on each new board (set by the match)
    round_ended: bool = False  # crokinole: every disc of the round is shot (set by the match): a clearing comes next

    def __post_init__(self) -> None:
        if self.locate is None:
            self.locate = lambda image: locate_board(image, game=self.game)
        self._tracker: BoardTracker | None = None
        self._board: BoardModel | None = None
        self._homography: np.ndarray | None = None
        self._gate: SettleGate | None = None
        self._pockets: PocketWatch | None = None
        self._ditch: DitchWatch | None = None  # crokinole
        self._frame_watch: FrameWatch | None = None  # carrom, couronne: pieces jumping off over the frame
        self._inferer: EventInferer | None = None
        self._segment = _Segment()
        self._frames_since_track = 0
        self._track_doubt = False  # the last check did not find the board where it was
        self._last_locate_s = -np.inf
        self._settled_frame: np.ndarray | None = None  # full frame of the last settled view (moved with the board)
        self._settled_seen: np.ndarray | None = None  # where it shows what was in view (None: everywhere)
        self._read_frame: np.ndarray | None = None  # full frame of the last reading events were drawn from
        self._hole: HoleWatch | None = None  # crokinole
        self._hole_small: np.ndarray | None = None  # the hole's mouth in the gate's small view
        self._empty_frame: np.ndarray | None = None  # crokinole: a full frame with the 20-hole and the ditch empty
        self._reader = (ThreadPoolExecutor(1, thread_name_prefix="read")
                        if self.read_in_background or self.read_ahead else None)
        self._ahead: _Ahead | None = None  # a reading started when the board stopped, for its settle
        self._pending: tuple[Future, Frame, Motion | None] | None = None  # a reading under way
        self._unread: Motion | None = None  # the movement before a settled view that could not be read
        self._done: AnalysisStep | None = None  # a reading concluded, to go out with this frame's step
        self._opening: Frame | None = None  # the first frame the board was found in, until a reading
        self._last_read: tuple[BoardReading, float, Motion] | None = None  # the reading events were last drawn from
        self._piece_contrast: float | None = None  # the faintest pieces' contrast against the board, as last read
        self._samples_lab: dict[str, np.ndarray] = {}  # couronne: the teams' and shooter's colours as read so far
        self._team_lab: dict[str, np.ndarray] = {}  # crokinole: the teams' colours as read so far
        self._strikers_lab: tuple[tuple[float, float, float], ...] = ()  # carrom: the striker's colours last read
        self._start_pieces = 0  # carrom, couronne: pieces (the shooting one left out) the board as first read held

    @property
    def board(self) -> BoardModel | None:
        return self._board

    def _new_inferer(self) -> EventInferer:
        return EventInferer(self.game, pocket_centres_mm=pocket_centres_mm(self._board),
                            first_shooter=self.first_shooter, hole_radius_mm=pocket_radius_mm(self._board),
                            shooting_line_radius_mm=getattr(self._board, "shooting_line_diameter_mm", 0.0) / 2,
                            fifteen_reach_mm=_fifteen_reach_mm(self._board),
                            placing_radius_mm=getattr(self._board, "outer_circle_diameter_mm", 0.0) / 2)

    def new_board(self) -> None:
        """Crokinole: a new round starts from the board as last read (cleared), so that the next reading's changes
        are the new round's. Carrom and couronne boards start afresh where the pieces are seen set out again
        (`is_set_out`), whatever the match counted: a false event or a missed foul may end a board early.
        """
        if self._board is None:
            return
        self._inferer = self._new_inferer()
        if self._last_read is not None:
            reading, t_s, motion = self._last_read
            self._inferer.settled(reading, t_s, motion)

    def update(self, frame: Frame) -> AnalysisStep:
        step = self._update(frame)
        if self._pending is not None and self._done is None and self._pending[0].done():
            self._conclude()
        return self._with_done(step)

    def finish(self) -> AnalysisStep | None:
        """Wait for a reading still under way; the step with its observations, if any."""
        self._drop_ahead()
        self._conclude()
        if self._reader is not None:
            self._reader.shutdown()
        if self._done is None:
            return None
        return self._with_done(AnalysisStep(self._done.frame_index, self._done.t_s, True, True))

    def _with_done(self, step: AnalysisStep) -> AnalysisStep:
        if self._done is None:
            return step
        done, self._done = self._done, None
        return replace(step, reading=done.reading, observations=done.observations, homography=done.homography,
                       reading_t_s=done.t_s)

    def _update(self, frame: Frame) -> AnalysisStep:
        if self._tracker is None and not self._find_board(frame):
            return AnalysisStep(frame.index, frame.t_s, False, False)
        self._frames_since_track += 1
        if self._track_doubt or self._frames_since_track >= TRACK_EVERY_FRAMES:
            held = self._track(frame)
            if held is not None:
                return held
        return self._watch(frame)

    def _track(self, frame: Frame) -> AnalysisStep | None:
        """Check where the board is; a step that holds everything when it moved or is lost."""
        self._frames_since_track = 0
        state = self._tracker.update(frame.image)
        self._track_doubt = state.status != "tracking"
        if not state.location.found:
            return AnalysisStep(frame.index, frame.t_s, False, False)
        if _view_shift_px(state.location.homography, self._homography, self._board) > SAME_VIEW_PX:
            # Bumped and re-found: the masks move with the board; what was read stays in mm. (Found
            # again where it was, e.g. after a hand covered the tracker's patches, the gate keeps
            # its view: a fresh gate would take an arm then in sight for the empty table.)
            self._set_view(state.location.homography, frame.image.shape[:2])
        if state.status in ("moved", "lost"):
            # The board is not where the masks are: hold everything until it is re-found.
            self._segment.begin(frame.t_s)
            return AnalysisStep(frame.index, frame.t_s, True, False, homography=self._homography)
        return None

    def _find_board(self, frame: Frame) -> bool:
        if frame.t_s - self._last_locate_s < LOCATE_EVERY_S:
            return False
        self._last_locate_s = frame.t_s
        location = self.locate(frame.image)
        if not location.found:
            return False
        self._board = load_board(location.game, location.model)
        self._opening = frame
        # A round starts with the 20-hole and the ditch empty: the first sight of the board is how they look empty.
        self._empty_frame = frame.image
        self._hole = None
        self._tracker = BoardTracker(self.locate)
        self._tracker.reset(location, frame.image)
        self._inferer = self._new_inferer()
        self._set_view(location.homography, frame.image.shape[:2])
        return True

    def _set_view(self, homography: np.ndarray, image_shape: tuple[int, int]) -> None:
        self._conclude()  # a reading under way belongs to the view it was taken in
        self._drop_ahead()
        previous = self._homography
        self._homography = np.array(homography, float)
        surface, rim = board_masks(self._homography, board=self._board, image_shape=image_shape)
        table = approach_mask(self._homography, board=self._board, image_shape=image_shape)
        old_gate, self._gate = self._gate, SettleGate(board_mask=surface, rim_mask=rim, settings=self.settle,
                                                      approach_mask=table)
        if self._piece_contrast is not None:
            self._gate.follow_contrast(self._piece_contrast)
        if self._pockets is None or previous is None:
            self._pockets = PocketWatch(self._homography, board=self._board, image_shape=image_shape)
        else:
            self._pockets = self._pockets.moved(self._homography, board=self._board, image_shape=image_shape)
        self._ditch = None
        if not isinstance(self._board, CrokinoleBoard):
            self._frame_watch = (FrameWatch(self._homography, board=self._board, image_shape=image_shape)
                                 if self._frame_watch is None or previous is None
                                 else self._frame_watch.moved(self._homography, board=self._board,
                                                              image_shape=image_shape))
        h, w = image_shape
        moved = self._homography @ np.linalg.inv(previous) if previous is not None else None
        if isinstance(self._board, CrokinoleBoard):
            if moved is not None:
                self._empty_frame = cv2.warpPerspective(self._empty_frame, moved, (w, h),
                                                        borderMode=cv2.BORDER_REPLICATE)
            self._hole = (HoleWatch(self._pockets, empty=self._empty_frame) if self._hole is None
                          else self._hole.moved(self._pockets, empty=self._empty_frame))
            self._hole_small = self._gate.shrink(self._pockets.mouth_mask(image_shape))
            self._ditch = DitchWatch(self._homography, board=self._board, shrink=self._gate.shrink,
                                     image_shape=image_shape, empty=self._empty_frame)
        if moved is not None and self._settled_frame is not None:
            # The last settled view, moved with the board: an arm is still seen against it. Kept moved, so
            # that a second bump before the board settles again moves it on from where the first left it.
            in_view = np.ones((h, w), np.uint8) if self._settled_seen is None else self._settled_seen.view(np.uint8)
            self._settled_seen = cv2.warpPerspective(in_view, moved, (w, h)) > 0
            self._settled_frame = cv2.warpPerspective(self._settled_frame, moved, (w, h),
                                                      borderMode=cv2.BORDER_REPLICATE)
            self._gate.set_reference(self._settled_frame, seen=self._settled_seen)
            self._gate.carry_alike(old_gate, moved, image_shape)
            if self._read_frame is not None:
                self._read_frame = cv2.warpPerspective(self._read_frame, moved, (w, h),
                                                       borderMode=cv2.BORDER_REPLICATE)

    def _hole_covered(self, gate: GateReading) -> bool:
        """Whether a hand is over the 20-hole (or held still over the board): its look then is no disc in it."""
        body = self._gate.arm_body
        return gate.is_occluded or (body is not None and bool(body[self._hole_small].any()))

    def _watch(self, frame: Frame) -> AnalysisStep:
        gate = self._gate.update(frame.image, frame.t_s)
        self._pockets.update(frame.image, frame.t_s)
        if self._hole is not None and not self._hole_covered(gate):
            self._hole.update(frame.image, frame.t_s)
        if self._ditch is not None:
            self._ditch.update(self._gate.free_change, frame.t_s, frame.image)
        if self._frame_watch is not None:
            self._frame_watch.update(frame.image, frame.t_s)
        segment = self._segment
        if gate.is_moving or gate.is_occluded:
            segment.begin(frame.t_s)
            segment.free_motion.append((frame.t_s, gate.free_motion_fraction))
            segment.arm_motion.append((frame.t_s, 1.0 if gate.is_occluded
                                       else gate.motion_fraction - gate.free_motion_fraction))
            self._drop_ahead()
        else:
            segment.still(frame.t_s)
            if self.read_ahead and not gate.is_settled and frame.t_s - gate.still_since_s >= READ_AHEAD_AFTER_S:
                self._read_ahead(frame, gate.still_since_s)
        if not gate.is_new_settle:
            return AnalysisStep(frame.index, frame.t_s, True, True, homography=self._homography)
        held = self._track(frame) if self._frames_since_track else None
        if held is not None:
            self._gate.hold()  # not read: settle afresh once the board is found again
            self._drop_ahead()
            return held
        self._settled_frame, self._settled_seen = frame.image, None
        self._conclude()  # readings are concluded in order: the last read view is the one to compare with
        opening, self._opening = self._opening, None
        if opening is not None and segment.start_s is not None and not self._inferer.started:
            # Play began before the board ever settled (the video starts with a hand over it):
            # the board as first seen is the layout the first stroke changed.
            self._pending = (_Done(self._reading_of(opening.image)()),
                             opening, Motion(opening.t_s, None, ditch_discs=self._ditch_discs(opening.image)))
            self._conclude()
        hole_entries = self._hole.entries() if self._hole is not None else ()
        ditch_discs = self._ditch_discs(frame.image)
        motion = Motion(frame.t_s, None, ditch_discs=ditch_discs, still=True) if ditch_discs else None
        if segment.start_s is not None or hole_entries:
            unchanged = clearly_unchanged = changed_at = None
            if self._read_frame is not None:
                unchanged = partial(spots_unchanged, self._read_frame, frame.image, homography=self._homography)
                clearly_unchanged = partial(unchanged, clearly=True)
            if self._gate.alike_times is not None:
                changed_at = partial(spots_changed_s, self._gate.alike_times, homography=self._homography.copy())
            start_s = segment.start_s if segment.start_s is not None else hole_entries[0]
            min_motion = MIN_STRIKE_MOTION[self.game]
            strikes_s = segment.strikes_s(min_motion=min_motion, aimed=self.game == "carrom")
            # The hand lingering over the pieces it struck may hide the first frames of the first strike.
            strike_s = segment.began_s(strikes_s[0], min_motion=min_motion) if strikes_s else None
            activity = tuple(self._pockets.activity())
            last_strike_s = strikes_s[-1] if strikes_s else segment.first_rolled_s(min_motion=min_motion)
            motion = Motion(
                start_s, strike_s, pockets=activity, hole_entries=hole_entries,
                hole_full=self._hole is not None and self._hole.is_full, unchanged=unchanged,
                clearly_unchanged=clearly_unchanged,
                ditch=self._ditch.landings() if self._ditch is not None else (), ditch_discs=ditch_discs,
                ditch_changes=self._ditch.changes() if self._ditch is not None else (), hole_hides=self._hole_hides(),
                hand_after_strike=segment.hand_came_after(last_strike_s),
                hand_came_s=segment.hand_came_s(last_strike_s),
                later_strikes=tuple(strikes_s[1:]),
                unseen_strike_s=None if strikes_s else (
                    segment.faint_strike_s() if self.game == "crokinole"
                    else segment.last_hold_end_s(_last_drop_in_s(activity))),
                hole_brighter=self._hole.brighter() if self._hole is not None else (), changed_at=changed_at,
                arm_ran_in_s=segment.arm_ran_in_s(strike_s) if strike_s is not None else None,
                frame_flights=self._frame_watch.flights() if self._frame_watch is not None else ())
        self._segment = _Segment()
        self._pockets.reset()
        for watch in (self._ditch, self._hole):
            if watch is not None:
                watch.reset()
        if self._frame_watch is not None:
            self._frame_watch.reset(frame.image)
        ahead, self._ahead = self._ahead, None
        if ahead is not None and ahead.still_since_s == gate.still_since_s:
            # Nothing moved since the frame read ahead (the gate would have begun its stillness
            # afresh): that reading is this view's.
            reading = ahead.future
        elif self._reader is not None:
            reading = self._reader.submit(self._reading_of(frame.image))
        else:
            reading = _Done(self._reading_of(frame.image)())
        self._pending = (reading, frame, motion)
        if not self.read_in_background:
            self._conclude()
        return AnalysisStep(frame.index, frame.t_s, True, True, homography=self._homography)

    def _reading_of(self, image: np.ndarray) -> Callable[[], BoardReading]:
        """The reading of `image` on the board as now located, to be taken now or on the reader's thread."""
        options = {}
        if knows_colours(self._samples_lab):
            options["samples_lab"] = dict(self._samples_lab)  # couronne: the colours learnt so far name the shooter
        if self._team_lab:
            options["team_lab"] = dict(self._team_lab)  # crokinole: they find faint discs
        striker_lab = striker_colour(self._strikers_lab)
        if striker_lab is not None:
            options["striker_lab"] = striker_lab  # carrom: it tells the striker from a white lit apart
        if self.game == "carrom":
            options["with_unsure"] = True  # a pale coin struck far may show only as one (`EventInferer`)
        return partial(self.read, image, homography=self._homography.copy(), board=self._board, **options)

    def _measure_pieces(self, image: np.ndarray, reading: BoardReading) -> None:
        """Let the gate follow how faint the pieces read look against this board (a pale disc on a pale board)."""
        if not reading.pieces:
            return
        centres_px, radii_px = _spots_px(self._homography, np.array([(p.x_mm, p.y_mm) for p in reading.pieces]),
                                         np.array([p.r_mm for p in reading.pieces]))
        contrast = self._gate.set_pieces(image, centres_px, radii_px, tuple(p.kind for p in reading.pieces))
        if contrast is not None:
            self._piece_contrast = contrast

    def _hole_hides(self) -> tuple[str, ...]:
        """Crokinole: the disc colours that lie in the 20-hole unseen: the dark team's in a dark hole, else none."""
        return HIDDEN_IN_HOLE if self._hole is not None and self._hole.is_dark else ()

    def _ditch_discs(self, image: np.ndarray) -> tuple[float, ...]:
        """Crokinole: discs lying in each sector of the ditch (nothing for other games)."""
        return self._ditch.discs(image) if self._ditch is not None else ()

    def _read_ahead(self, frame: Frame, still_since_s: float) -> None:
        """Start reading `frame`, the board still since `still_since_s`, unless that stillness is being read."""
        if self._ahead is not None and self._ahead.still_since_s == still_since_s:
            return
        self._drop_ahead()
        future = self._reader.submit(self._reading_of(frame.image))
        self._ahead = _Ahead(future, still_since_s)

    def _drop_ahead(self) -> None:
        if self._ahead is not None:
            self._ahead.future.cancel()  # not started yet: never started; under way: left to finish
            self._ahead = None

    def _conclude(self) -> None:
        """Turn the reading under way (waiting for it) into observations."""
        if self._pending is None:
            return
        future, frame, motion = self._pending
        self._pending = None
        reading = future.result()
        if self._unread is not None:
            motion = self._unread.followed_by(motion)
        if reading.covered_share > MAX_COVERED_SHARE:
            self._unread = motion  # what moved counts towards the next reading
            return
        self._unread = None
        if self.game == "couronne":
            self._samples_lab = learnt_colours(self._samples_lab, reading)
        elif self.game == "crokinole":
            # Only to find faint discs of the colours seen: a lone disc teaches its colour, whatever team it was named.
            self._team_lab = learnt_team_colours(self._team_lab, reading, teams=CROKINOLE_COLOURS, min_pieces=1)
        elif self.game == "carrom":
            self._strikers_lab = learnt_striker_colours(self._strikers_lab, reading)
        self._measure_pieces(frame.image, reading)
        if self.game in STROKE_PIECES:
            pieces = _pieces_in_play(reading, self.game)
            if self._inferer.started and is_set_out(pieces, motion, start_pieces=self._start_pieces,
                                                    last_pieces=_pieces_in_play(self._last_read[0], self.game)):
                self._inferer = self._new_inferer()  # a new board: its pieces were set out, not moved by a stroke
            if not self._inferer.started:
                self._start_pieces = pieces
        self._inferer.round_ended = self.round_ended
        observations = self._inferer.settled(reading, frame.t_s, motion)
        self._last_read = (reading, frame.t_s, Motion(frame.t_s, None, ditch_discs=motion.ditch_discs if motion else ()))
        self._read_frame = frame.image
        if self._done is not None:
            observations = list(self._done.observations) + observations
        self._done = AnalysisStep(frame.index, frame.t_s, True, True, reading, tuple(observations), self._homography)


def is_set_out(pieces: int, motion: Motion | None, *, start_pieces: int, last_pieces: int) -> bool:
    """Carrom, couronne: whether a settled reading with `pieces` (the shooting one left out) shows them set out afresh
    by hand: nothing moved on its own (no stroke) since the last reading (`last_pieces`), and the board holds most of
    the `start_pieces` it held at its start again."""
    struck = motion is not None and motion.strike_s is not None
    return (not struck and pieces >= SET_OUT_MIN_SHARE * start_pieces
            and pieces >= last_pieces + SET_OUT_MIN_GAIN)


def _pieces_in_play(reading: BoardReading, game: str) -> int:
    """Carrom, couronne: the pieces on the board but the one that shoots (the striker, a shooter ring)."""
    return sum(1 for p in reading.pieces if p.kind != STROKE_PIECES[game])


class _Run(NamedTuple):
    """A run of frames in a row with free motion."""

    start_s: float
    total: float  # share of the board moved, summed over the frames
    frames: int
    end_s: float


def _runs(free_motion: deque[tuple[float, float]], *, min_motion: float) -> list[_Run]:
    """Each run of frames with at least `min_motion` of free motion."""
    runs: list[_Run] = []
    in_run = False
    for t_s, share in free_motion:
        if share < min_motion:
            in_run = False
        elif in_run:
            runs[-1] = runs[-1]._replace(total=runs[-1].total + share, frames=runs[-1].frames + 1, end_s=t_s)
        else:
            runs.append(_Run(t_s, share, 1, t_s))
            in_run = True
    return runs


def _fifteen_reach_mm(board: BoardModel) -> float:
    """Crokinole: the outer edge of the 15 line (0 for other boards)."""
    if not isinstance(board, CrokinoleBoard):
        return 0.0
    return (board.fifteen_line_diameter_mm + board.line_width_mm) / 2


def _last_drop_in_s(activity: tuple[PocketActivity, ...]) -> float | None:
    """When a pocket last stirred as a piece dropping in does (None: none did)."""
    return max((spell.peak_t_s for a in activity for spell in a.spells if spell.energy >= DROP_IN_ENERGY),
               default=None)


def _view_shift_px(a: np.ndarray, b: np.ndarray, board: BoardModel) -> float:
    """How far apart two homographies put the corners of the board's surface, at most, in pixels."""
    reach_mm = board.surface_radius_mm if isinstance(board, CrokinoleBoard) else board.half_side_mm
    corners_mm = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], float) * reach_mm
    return float(np.linalg.norm(project(a, corners_mm) - project(b, corners_mm), axis=1).max())


@dataclass(frozen=True)
class _Ahead:
    """A reading started when the board stopped, and the stillness it belongs to."""

    future: Future
    still_since_s: float


@dataclass(frozen=True)
class _Done:
    """A reading taken at once, shaped like one from the background thread."""

    value: BoardReading

    def done(self) -> bool:
        return True

    def result(self) -> BoardReading:
        return self.value


def spots_changed_s(alike: AlikeTimes, centres_mm: np.ndarray, radii_mm: np.ndarray, *,
                    homography: np.ndarray) -> np.ndarray:
    """For each piece-sized spot (board mm): when it last looked as in the settled view before it changed
    for good (NaN: it looks so still, or lies off the view)."""
    return alike.at(*_spots_px(homography, centres_mm, radii_mm))


def _spots_px(homography: np.ndarray, centres_mm: np.ndarray, radii_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Spots given in board mm as (n, 2) centres and (n,) radii in frame pixels."""
    centres_px = project(homography, centres_mm)
    edges_px = project(homography, centres_mm + np.column_stack([radii_mm, np.zeros(len(radii_mm))]))
    return centres_px, np.linalg.norm(edges_px - centres_px, axis=1)


def spots_unchanged(before: np.ndarray, after: np.ndarray, centres_mm: np.ndarray, radii_mm: np.ndarray, *,
                     homography: np.ndarray, clearly: bool = False) -> np.ndarray:
    """For each piece-sized spot (board mm): whether `after` shows there what `before` did.

    The spot in `before` is looked for in `after` a little around its place, by normalised
    correlation (a light change does not count, a nudge of a few pixels neither), and where
    found, the piece's face must show the same colours. A spot that is flat in `before`
    shows nothing to compare and counts as changed. `clearly`: only where its face changed far less
    than a pale coin come to rest there, or gone from there, changes it.
    """
    max_face_change = CLEARLY_SAME_FACE_CHANGE if clearly else SAME_FACE_CHANGE
    centres_px, radii_px = _spots_px(homography, centres_mm, radii_mm)
    result = np.zeros(len(centres_px), bool)
    h, w = before.shape[:2]
    for i, ((x, y), radius_px) in enumerate(zip(np.round(centres_px).astype(int), radii_px)):
        half, shift = int(np.ceil(1.2 * radius_px)), max(2, round(0.4 * radius_px))
        reach = half + shift
        if half < 2 or x - reach < 0 or y - reach < 0 or x + reach >= w or y + reach >= h:
            continue
        template = before[y - half:y + half + 1, x - half:x + half + 1]
        if template.std() < 4:
            continue
        window = after[y - reach:y + reach + 1, x - reach:x + reach + 1]
        _, best, _, (dx, dy) = cv2.minMaxLoc(cv2.matchTemplate(window, template, cv2.TM_CCOEFF_NORMED))
        if best < SAME_SPOT_CORRELATION:
            continue
        # The patch's shape alone may match when the piece is gone from it: a pocket's dark mouth
        # beside a coin outweighs the coin. The piece's own face must look as it did too.
        found = window[dy:dy + 2 * half + 1, dx:dx + 2 * half + 1].astype(np.float32)
        from_centre = np.hypot(*np.mgrid[-half:half + 1, -half:half + 1])
        face, around = from_centre <= SPOT_FACE_SHARE * radius_px, from_centre > radius_px
        # A light change divided out, as the board around the piece shows it.
        gain = (found[around].mean(axis=0) + 1) / (template[around].mean(axis=0) + 1)
        expected = np.minimum(template[face] * gain, 255.0)  # brighter light clips at white
        result[i] = np.abs(found[face] - expected).max(axis=1).mean() <= max_face_change
    return result
