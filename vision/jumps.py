"""Watch a square board's frame for pieces jumping off over it while the board moves.

A piece that jumps a cushion flies over the frame and off the table; one that drops
into a corner pocket never crosses the frame. Each frame, the share of points that
changed in each stretch of the frame (clear of the cushion line) is measured, and
every spell of a stretch changing is kept with its time and place until the next
`reset`. An arm crosses the frame too, but its body lies on the table beyond: a
spell that begins with the table beyond that stretch unlike the settled view is an
arm's, and not kept. Which spell was a piece's is for the event inference to say (a
piece gone beside a pocket, the frame crossed beside that pocket as it went).
"""

from __future__ import annotations

from collections import deque

import cv2
import numpy as np

from calibration.geometry import BoardModel
from vision.homography import project
from vision.pockets import PIXEL_CHANGE

FRAME_STRETCHES = 8  # each side of the frame is watched in this many stretches
STRETCHES = 4 * FRAME_STRETCHES
# Watched from this far beyond the cushion line: a piece rolling along the cushion or into a corner pocket,
# drawn outward by parallax and smeared by its speed, stays clear of it.
FRAME_CLEAR_MM = 20.0
# The table beyond the frame is compared with the settled view this deep: an arm across the frame lies on it.
TABLE_DEPTH_MM = 40.0
ARM_SHARE = 0.15  # a stretch of that table with this share of its points unlike the settled view has an arm on it
FLIGHT_SHARE = 0.08  # a stretch with this share of its points changed since the frame before has something over it
# A point of the frame changed when a colour channel moved this much: less than on the board (`PIXEL_CHANGE`), since
# a dark piece flying over a dark frame, smeared by its speed, differs from it by little more.
FLIGHT_CHANGE = 12
GRID_MM = 4.0  # the frame is compared at points this far apart (as many at any resolution: a ring covers ~50)
MAX_FLIGHTS = 2000  # spells kept between settled views (a crowd in view: the last ones)
# This share of all stretches changing in one frame is the board bumped or the light changed, not a piece.
GLOBAL_SHARE = 0.2
# A piece over the frame, smeared by its speed, changes at most this many stretches in a row (a stretch is a quarter
# of a side, three rings wide); more in a row is a hand or its shadow reaching over (simulated couronne clip 5107 at
# 110.5 s: three stretches of the east side at once as a ring dropped into a pocket there).
PIECE_STRETCHES = 2


class FrameWatch:
    """Spells of change over each stretch of a square board's frame, kept since the last `reset`.

    Parameters
    ----------
    homography : (3, 3) ndarray
        Board mm -> image px.
    board : BoardModel
        A square board (carrom, couronne).
    image_shape : (H, W) of the frames.
    """

    def __init__(self, homography: np.ndarray, *, board: BoardModel, image_shape: tuple[int, int]):
        half, outer = board.half_side_mm, board.half_side_mm + board.frame_width_mm
        self._frame, self._frame_stretch = _band(homography, half, half + FRAME_CLEAR_MM, outer, image_shape)
        self._table, self._table_stretch = _band(homography, half, outer, outer + TABLE_DEPTH_MM, image_shape)
        self._min_points = _least(self._frame_stretch, FLIGHT_SHARE)
        self._min_arm_points = _least(self._table_stretch, ARM_SHARE)
        stretch_mm = 2 * half / FRAME_STRETCHES
        middle_mm = half + (FRAME_CLEAR_MM + board.frame_width_mm) / 2
        self._centres_mm = np.array([out_dir * middle_mm + along_dir * (-half + (k + 0.5) * stretch_mm)
                                     for along_dir, out_dir in _SIDES for k in range(FRAME_STRETCHES)])
        self._previous: np.ndarray | None = None
        self._table_settled: np.ndarray | None = None  # the table beyond the frame in the settled view
        self._active = np.zeros(STRETCHES, bool)
        self._spells: deque[tuple[float, int]] = deque(maxlen=MAX_FLIGHTS)

    def moved(self, homography: np.ndarray, *, board: BoardModel, image_shape: tuple[int, int]) -> FrameWatch:
        """This watch for a new view of the board (bumped): the spells so far are kept."""
        watch = FrameWatch(homography, board=board, image_shape=image_shape)
        watch._spells = deque(self._spells, maxlen=MAX_FLIGHTS)
        return watch

    def update(self, image: np.ndarray, t_s: float) -> None:
        """Note the stretches where something began to cross the frame in this frame, with no arm beyond them."""
        pixels = image.reshape(-1, image.shape[2])
        sample = np.take(pixels, self._frame, axis=0)
        previous, self._previous = self._previous, sample
        if self._table_settled is None:
            self._table_settled = np.take(pixels, self._table, axis=0)
        if previous is None:
            return
        changed = _changed(sample, previous, FLIGHT_CHANGE)
        active = _counts(changed, self._frame_stretch) >= self._min_points
        if active.mean() >= GLOBAL_SHARE:
            active[:] = False
        starting = np.flatnonzero(active & ~self._active)
        self._active = active
        if not len(starting):
            return
        table = np.take(pixels, self._table, axis=0)
        arms = _counts(_changed(table, self._table_settled, PIXEL_CHANGE), self._table_stretch) >= self._min_arm_points
        # Fingers reach a little sideways of where the arm lies across the table: its stretch and those beside it.
        arms = arms | np.roll(arms, 1) | np.roll(arms, -1)
        wide = _in_runs_longer(active, PIECE_STRETCHES)
        self._spells.extend((t_s, int(stretch)) for stretch in starting if not (arms[stretch] or wide[stretch]))

    def flights(self) -> tuple[tuple[float, float, float], ...]:
        """(t_s, x_mm, y_mm) of each spell of a stretch of the frame changing since the last reset, with no arm
        on the table beyond it: where something crossed the frame (a piece jumping off)."""
        return tuple((t_s, *map(float, self._centres_mm[stretch])) for t_s, stretch in self._spells)

    def reset(self, settled: np.ndarray | None = None) -> None:
        """Forget the spells so far (call at each settled view, given: the table beyond is compared with it;
        without it, with the next frame)."""
        self._spells.clear()
        self._table_settled = None if settled is None else np.take(settled.reshape(-1, settled.shape[2]),
                                                                    self._table, axis=0)


# Each side (counter-clockwise from the first player's, south: y < 0) as its direction along, from the
# corner it starts at, and its direction outward.
_SIDES = tuple((np.array(along, float), np.array((along[1], -along[0]), float))
               for along in ((1, 0), (0, 1), (-1, 0), (0, -1)))


def _band(homography: np.ndarray, half_mm: float, from_mm: float, to_mm: float,
          image_shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The image points (flat pixel indices) of a band round the board from `from_mm` to `to_mm` off its
    centre, `GRID_MM` apart, and the stretch of each (those out of the picture left out)."""
    stretch_mm = 2 * half_mm / FRAME_STRETCHES
    along, across = (g.ravel() for g in np.meshgrid(np.arange(-half_mm + GRID_MM / 2, half_mm, GRID_MM),
                                                     np.arange(from_mm + GRID_MM / 2, to_mm, GRID_MM)))
    stretch = np.minimum((along + half_mm) // stretch_mm, FRAME_STRETCHES - 1).astype(np.intp)
    points = np.concatenate([along[:, None] * along_dir + across[:, None] * out_dir for along_dir, out_dir in _SIDES])
    labels = np.concatenate([side * FRAME_STRETCHES + stretch for side in range(len(_SIDES))])
    h, w = image_shape
    px = np.round(project(homography, points)).astype(np.intp)
    seen = (px[:, 0] >= 0) & (px[:, 0] < w) & (px[:, 1] >= 0) & (px[:, 1] < h)
    return px[seen, 1] * w + px[seen, 0], labels[seen]


def _least(stretch_of_point: np.ndarray, share: float) -> np.ndarray:
    """Per stretch, the points that must change for `share` of it (never met by a stretch out of view)."""
    sizes = _counts(np.ones(len(stretch_of_point), bool), stretch_of_point)
    return np.where(sizes > 0, np.maximum(2, share * sizes), np.inf)


def _changed(a: np.ndarray, b: np.ndarray, change: int) -> np.ndarray:
    """Points (n, 3) whose colour moved by more than `change` in some channel."""
    if not len(a):
        return np.zeros(0, bool)  # the frame out of the picture (a board cut by its edge)
    difference = cv2.absdiff(a, b)
    return np.maximum(np.maximum(difference[:, 0], difference[:, 1]), difference[:, 2]) > change


def _counts(changed: np.ndarray, stretch_of_point: np.ndarray) -> np.ndarray:
    """Per stretch, how many of its points are `changed`."""
    return np.bincount(stretch_of_point[changed], minlength=STRETCHES)


def _in_runs_longer(active: np.ndarray, most: int) -> np.ndarray:
    """True for the active stretches in a run of more than `most` active ones in a row, round the corners too."""
    # Where a window of most + 1 stretches is all active, and every stretch such a window covers.
    full = np.logical_and.reduce([np.roll(active, -k) for k in range(most + 1)])
    return np.logical_or.reduce([np.roll(full, k) for k in range(most + 1)])
