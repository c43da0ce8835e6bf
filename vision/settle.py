"""Settle and occlusion gating: read the board only when it is still and nothing is over it.

Cheap measures on a small copy of each frame:

- motion: the share of board pixels that changed since the previous frame (in
  patches: not the thin lines a video codec's refresh redraws), or of the
  table just beyond the board, where arms reach in;
- free motion: the part of that motion in regions that do not reach the rim,
  i.e. pieces moving on their own rather than a hand (used to time a stroke).
  An even sleeve changes only at its edges as it moves: a hand reaching far in
  changes its fingertips apart from the rim. What joins them is the arm's body,
  unlike the last settled view all the way from the rim (`arm_body`);
- occlusion: the rim around the playing surface (the frame, where pieces never
  lie) changed since the last settled view in one large patch: an arm reaching
  in. A light change alters the whole rim alike and is divided out first; at
  sharp edges a pixel that matches a neighbour's colour in the settled view is
  unchanged (a view moved with the board after a bump lands a few pixels off). When
  the patch looks like the rest of the rim now and unlike it then, the arm was
  in the settled view (e.g. the video began with a hand over the board) and
  that view is replaced.
- arms on the table: the table just beyond the board (given as `approach_mask`)
  changed since the last settled view (the first frame, before any) in one
  patch as large as an arm's. Skin over a wooden frame barely shows; the
  sleeve on the table beyond does. A still patch there is an arm held still
  while aiming, not the new normal: the table's view is renewed when the
  board settles (after `occlusion_timeout_s` at the latest), and where it has
  not moved for `table_absorb_s`, longer than any arm is held still: a lamp that
  changed the table while play went on, the board never still long enough to
  settle. A piece knocked onto the table, or thin edges left by a shaken camera,
  are not arms.
- when each spot changed: per pixel, the last moving frame at which it still
  looked as in the last settled view, and the last at which it did not
  (`alike_times`). A piece put down or taken up by hand changes its spot for
  good when the hand comes over it; an arm that passed over it before and left
  it as it was does not count.

A slow piece changes little from frame to frame, so the still board is also compared
with its view when the stillness began. That comparison follows the pieces' contrast
against this board (`set_pieces`): a pale disc sliding on a pale board, or lifted off
it, changes its pixels by less than `pixel_change`, and the stillness must not outlast it.

A board counts as settled once it has been still and unoccluded for `settle_s`;
the first such frame is the one to read. A change of the rim that stays perfectly
still for `occlusion_timeout_s` is taken as the new normal (a moved lamp, a cup
put on the frame) and no longer holds the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import cv2
import numpy as np


RIM_SAMPLE_STEP = 7
SPECK_KERNEL = np.ones((3, 3), np.uint8)  # opening away changes thinner than this (edges of a shaken view)


@dataclass(frozen=True)
class SettleSettings:
    """Thresholds of the gate; data, not code (a table profile may override them)."""

    work_width_px: int = 192  # size of the small copy when no board mask is given
    work_board_px: int = 240  # with a mask: the board's larger side in the small copy (a coin ~ 10 px)
    pixel_change: int = 10  # a pixel changed when one of its colour channels moved this much
    # Since the stillness began, a pixel changed by this share of the faintest pieces' contrast against the
    # board around them (`SettleGate.set_pieces`) changed, though never by less than `faint_change` (the
    # video's own noise at a key frame redraws textured wood by up to about 8) nor more than `pixel_change`.
    contrast_share: float = 0.5
    faint_change: int = 5
    moving_fraction: float = 0.0015  # share of board pixels changed between frames that is motion
    settle_s: float = 0.3  # still for this long before a read
    rim_width_fraction: float = 0.05  # default rim: a ring this wide (share of the board's size) outside it
    arm_rim_fraction: float = 0.01  # a changed patch this big (share of the rim) is an arm
    occlusion_timeout_s: float = 1.5
    # More of the board unlike the settled view, reaching its rim, than arms cover (two, to the centre
    # of a carrom board) is a changed light or camera: no arm's outline to tell motion by.
    max_arm_share: float = 0.3
    rim_absorb_s: float = 1.0  # a changed rim pixel unchanged from frame to frame this long is the new normal
    table_absorb_s: float = 3.0  # ... a changed table pixel (longer than the occlusion timeout: arms rest there)
    # A changed patch of the table beyond the board this big (share of the playing surface, about
    # 3000 mm^2 on a carrom board: twice a striker, half an arm 100 mm in) is an arm.
    arm_table_fraction: float = 0.006
    # A table whose typical colour has no channel this bright is dim: a sleeve differs from it by
    # less, and the change that counts shrinks in proportion (to half at most).
    dim_table_level: int = 100


@dataclass(frozen=True)
class AlikeTimes:
    """Per pixel of the gate's small view, over one movement: the last moving frame at which it looked as in
    the settled view before it, and the last at which it did not (`SettleGate.alike_times`)."""

    spot_s: np.ndarray  # (h, w, 2) float32: last alike, last unlike
    from_s: float  # the settle they count from: a pixel never alike while the board moved tells nothing
    last_s: float  # the last moving frame looked at: a pixel still alike then never changed for good
    origin_px: tuple[float, float]  # (x, y) of the full frame where the small view begins
    scale: float  # small-view pixels per full-frame pixel

    def at(self, centres_px: np.ndarray, radii_px: np.ndarray) -> np.ndarray:
        """For each spot ((n, 2) centres and (n,) radii, full-frame pixels): when it changed for good, the
        median over its middle: when it last looked as in the settled view. One that looks so again (a
        piece put down on print of its own colour) changed when a hand last covered it. NaN where nothing
        changed it, or it never looked so while the board moved (a spot under a lamp tells nothing), or it
        lies off the view."""
        h, w = self.spot_s.shape[:2]
        result = np.full(len(centres_px), np.nan)
        for i, ((x, y), radius_px) in enumerate(zip(centres_px, radii_px)):
            cx, cy = (x - self.origin_px[0]) * self.scale, (y - self.origin_px[1]) * self.scale
            reach = max(1.0, 0.6 * radius_px * self.scale)
            left, top = int(np.floor(cx - reach)), int(np.floor(cy - reach))
            right, bottom = int(np.ceil(cx + reach)) + 1, int(np.ceil(cy + reach)) + 1
            if left < 0 or top < 0 or right > w or bottom > h:
                continue
            yy, xx = np.mgrid[top:bottom, left:right]
            middle = self.spot_s[top:bottom, left:right][np.hypot(xx - cx, yy - cy) <= reach]
            if not len(middle):
                continue
            alike_s, unlike_s = np.median(middle, axis=0)
            when = alike_s if alike_s < self.last_s else unlike_s
            result[i] = when if self.from_s < when < self.last_s else np.nan
        return result


@dataclass(frozen=True)
class GateReading:
    """What the gate says about one frame."""

    t_s: float
    motion_fraction: float
    is_moving: bool
    is_occluded: bool  # an arm is in while the board is still (not looked at while it moves)
    is_settled: bool
    is_new_settle: bool  # the first settled frame after movement: read this one
    free_motion_fraction: float = 0.0
    still_since_s: float | None = None  # when the board's present stillness began (None while it moves)


class SettleGate:
    """Per-frame motion and occlusion measure; `update(image, t_s)` -> `GateReading`.

    Parameters
    ----------
    board_mask : (H, W) bool ndarray, optional
        The playing surface in the full frame; the whole frame when omitted.
    rim_mask : (H, W) bool ndarray, optional
        Where only arms appear (the board's frame, beyond any ditch); by default a
        ring just outside `board_mask` (or the frame's border without a mask).
    approach_mask : (H, W) bool ndarray, optional
        The table just beyond the board's outer edge; not watched when omitted.
    settings : SettleSettings
    """

    def __init__(self, board_mask: np.ndarray | None = None, rim_mask: np.ndarray | None = None,
                 settings: SettleSettings = SettleSettings(), approach_mask: np.ndarray | None = None):
        self.settings = settings
        self._full_mask = board_mask
        self._full_rim = rim_mask
        self._full_table = approach_mask
        self._table: np.ndarray | None = None  # the table beyond the board in the small view (uint8 mask)
        self._table_sample = np.empty(0, int)
        self._table_reference: np.ndarray | None = None  # the table as last seen settled (or first seen)
        self._table_level: np.ndarray | None = None
        self._table_bounds: _RegionBounds | None = None
        self._work_scale: float | None = None
        self._crop: tuple[slice, slice] | None = None  # the part of the frame the gate looks at
        self._block = 1  # the whole factor it is first shrunk by
        self._mask: np.ndarray | None = None
        self._rim: np.ndarray | None = None
        self._board_px = 1
        self._rim_px = 0
        self._previous: np.ndarray | None = None
        self._small_size: tuple[int, int] | None = None  # (w, h) of the small view
        # Changed pixels of the small view not connected to the rim (pieces moving on their own)
        # in the last frame, when it moved; None otherwise.
        self.free_change: np.ndarray | None = None
        # The parts of the small view an arm covers, body and all, in the last frame, when it moved; None otherwise.
        self.arm_body: np.ndarray | None = None
        # Over the movement that ended at the last new settle: when each spot changed for good (None: not known).
        self.alike_times: AlikeTimes | None = None
        self._reference: np.ndarray | None = None  # the last settled view
        self._reference_level: np.ndarray | None = None  # the typical colour of its rim
        self._reference_bounds: _RegionBounds | None = None  # its `_edge_bounds` on the rim
        self._changed_at_s: np.ndarray | None = None  # per small pixel: when it last changed between frames
        self._moved_at_s: np.ndarray | None = None  # ... in a patch (not a key frame's thin lines or a speck)
        # Per small pixel: the last moving frame at which it looked as in the last settled view, and the last at
        # which it did not (`AlikeTimes`); None before the first settle. A view moved with the board takes it on.
        self._spot_s: np.ndarray | None = None
        self._alike_from_s = self._alike_last_s = 0.0  # the settle it counts from, and the last frame marked
        self._alike_level: np.ndarray | None = None  # the typical colour of the board in that settled view
        self._board_sample = np.empty(0, int)
        self._still_since_s: float | None = None
        self._still_start: np.ndarray | None = None
        self._still_start_level: np.ndarray | None = None  # the typical colour of the board then
        self._settled = False
        self._drift_change = settings.pixel_change  # a pixel changed since the stillness began (`set_pieces`)

    def update(self, image: np.ndarray, t_s: float) -> GateReading:
        """Measure one BGR frame taken at `t_s` seconds."""
        small = self._small(image)
        if self._mask is None:
            self._prepare_masks(small.shape[:2])
        s = self.settings
        board_px = self._board_px
        self.free_change = self.arm_body = None
        if self._previous is None:
            motion, free_motion = 1.0, 0.0  # nothing to compare with: not yet known to be still
            self._changed_at_s = np.full(small.shape[:2], t_s, np.float32)
            self._moved_at_s = self._changed_at_s.copy()
            if self._table_reference is None:
                # The first sight stands for the settled table until there is one: an arm that reaches
                # in and aims before the board ever settled is seen too.
                self._set_table_reference(small)
        else:
            changed = _channel_change(small, self._previous) > s.pixel_change
            self._changed_at_s[changed] = t_s
            solid = _solid(changed)
            self._moved_at_s[solid] = t_s
            motion = np.count_nonzero(solid & self._mask) / board_px
            if self._table is not None and motion <= s.moving_fraction:
                # An arm moving on the table next to the board is no still board: it is reaching in.
                motion = max(motion, np.count_nonzero(solid & self._table.view(bool)) / board_px)
            free_motion = 0.0
            if motion > s.moving_fraction:
                unlike = self._unlike_settled(small)
                free_motion = self._free_motion(changed, unlike, board_px)
                self._note_alike(small, unlike, t_s)
        self._previous = small
        is_moving = motion > s.moving_fraction
        if is_moving:
            self._still_since_s = None
            self._settled = False
            # While the board moves it is held anyway: whether an arm is in need not be looked at.
            return GateReading(t_s, motion, True, False, False, False, free_motion)
        if self._still_since_s is None or self._drifted(small, board_px):
            # A slow piece changes little from frame to frame but adds up over the still period.
            self._still_since_s, self._still_start = t_s, small
            self._still_start_level = _level(small, self._board_sample)
        still_s = t_s - self._still_since_s
        if still_s < s.occlusion_timeout_s and self._arm_in(small, t_s):
            self._settled = False
            return GateReading(t_s, motion, False, True, False, False, still_since_s=self._still_since_s)
        is_settled = still_s >= s.settle_s - 1e-9
        is_new = is_settled and not self._settled
        if is_new:
            self.alike_times = self._alike_snapshot()
            self._set_reference(small)
            self._spot_s = np.full((*small.shape[:2], 2), t_s, np.float32)
            self._alike_from_s = self._alike_last_s = t_s
            self._alike_level = _level(small, self._board_sample)
        self._settled = is_settled
        return GateReading(t_s, motion, False, False, is_settled, is_new, still_since_s=self._still_since_s)

    def hold(self) -> None:
        """The settled frame could not be used (e.g. the board moved): count the stillness afresh."""
        self._still_since_s = None
        self._settled = False

    def set_reference(self, image: np.ndarray, *, seen: np.ndarray | None = None) -> None:
        """Take `image` (a full frame) as the last settled view, e.g. the old one moved with the board.

        `seen` (a bool mask of the frame) is where `image` shows what was in view (the rest of an
        old view moved is made up); the table is watched only there until the board settles again.
        """
        small = self._small(image)
        if self._mask is None:
            self._prepare_masks(small.shape[:2])
        self._set_reference(small)
        if seen is not None and self._table is not None:
            self._table = self._table & cv2.erode(self.shrink(seen).view(np.uint8), SPECK_KERNEL)
            self._table_bounds = self._edge_bounds(self._table_reference, self._table)

    def set_pieces(self, image: np.ndarray, centres_px: np.ndarray, radii_px: np.ndarray,
                   kinds: tuple[str, ...]) -> float | None:
        """Measure the pieces read in `image` (a full frame) against the board around them.

        The change that counts since the stillness began follows the faintest kind: a share
        (`contrast_share`) of its typical contrast, in the gate's small view. Nothing changes
        when no piece lies clear of the view's edge.

        Parameters
        ----------
        image : (H, W, 3) uint8 ndarray
        centres_px : (n, 2) float ndarray
            The pieces' centres in the frame.
        radii_px : (n,) float ndarray
        kinds : the pieces' kinds, one each.

        Returns
        -------
        float or None
            The faintest kind's contrast (largest colour channel difference of the typical face
            and the board around it), or None where no piece could be measured.
        """
        small = self._small(image)
        if self._mask is None:
            self._prepare_masks(small.shape[:2])
        rows, columns = self._crop
        scale = np.array([self._small_size[0] / (columns.stop - columns.start),
                          self._small_size[1] / (rows.stop - rows.start)])
        centres = (np.asarray(centres_px, float).reshape(-1, 2) - (columns.start, rows.start)) * scale
        radii = np.asarray(radii_px, float) * scale.mean()
        by_kind: dict[str, list[float]] = {}
        for kind, contrast in zip(kinds, _contrasts(small, centres, radii)):
            if contrast is not None:
                by_kind.setdefault(kind, []).append(contrast)
        if not by_kind:
            return None
        faintest = min(float(np.median(values)) for values in by_kind.values())
        self.follow_contrast(faintest)
        return faintest

    def follow_contrast(self, contrast: float) -> None:
        """Count a change since the stillness began as `set_pieces` does, for pieces of this `contrast`."""
        s = self.settings
        self._drift_change = int(np.clip(round(s.contrast_share * contrast), s.faint_change, s.pixel_change))

    def _fix_view(self, shape: tuple[int, ...]) -> None:
        """Where the gate looks in frames of `shape` and how small it makes that part."""
        self._work_scale = self._scale(shape)
        # Shrinking by a whole factor averages blocks on a fast path: the part looked at is trimmed
        # to whole blocks (a few pixels at its far edges).
        self._block = max(1, int(1 / self._work_scale)) if self._work_scale < 0.5 else 1
        rows, columns = self._crop_box(shape[:2])
        h, w = ((part.stop - part.start) // self._block * self._block for part in (rows, columns))
        self._crop = (slice(rows.start, rows.start + h), slice(columns.start, columns.start + w))
        self._small_size = (max(1, round(w * self._work_scale)), max(1, round(h * self._work_scale)))

    def _small(self, image: np.ndarray) -> np.ndarray:
        if self._work_scale is None:
            self._fix_view(image.shape)
        part = image[self._crop]
        interpolation = cv2.INTER_AREA
        if self._block > 1:
            # Area averaging at an arbitrary scale is slow: average whole blocks first, then shrink the
            # rest of the way bilinearly.
            part = _block_means(part, self._block)
            interpolation = cv2.INTER_LINEAR
        # Colour, not grey: a white coin on a cream board differs more in blue than in brightness.
        return cv2.GaussianBlur(cv2.resize(part, self._small_size, interpolation=interpolation), (3, 3), 0)

    def _crop_box(self, shape: tuple[int, int]) -> tuple[slice, slice]:
        """The board and its rim with a margin: the rest of the frame is never looked at."""
        if self._full_mask is None:
            return slice(0, shape[0]), slice(0, shape[1])
        seen = self._full_mask if self._full_rim is None else (self._full_mask | self._full_rim)
        ys, xs = np.nonzero(seen)
        margin = max(8, round(0.15 * max(xs.max() - xs.min(), ys.max() - ys.min())))
        top, bottom, left, right = ys.min() - margin, ys.max() + margin, xs.min() - margin, xs.max() + margin
        if self._full_table is not None and self._full_table.any():
            ys, xs = np.nonzero(self._full_table)  # the table beyond, without a margin of its own
            top, bottom = min(top, ys.min()), max(bottom, ys.max())
            left, right = min(left, xs.min()), max(right, xs.max())
        return (slice(max(0, top), min(shape[0], bottom + 1)), slice(max(0, left), min(shape[1], right + 1)))

    def _scale(self, image_shape: tuple[int, ...]) -> float:
        if self._full_mask is None or not self._full_mask.any():
            return min(1.0, self.settings.work_width_px / image_shape[1])
        ys, xs = np.nonzero(self._full_mask)
        board_px = max(xs.max() - xs.min(), ys.max() - ys.min()) + 1
        return min(1.0, self.settings.work_board_px / board_px)

    def _prepare_masks(self, shape: tuple[int, int]) -> None:
        shrink = self.shrink
        mask = np.ones(shape, bool) if self._full_mask is None else shrink(self._full_mask)
        band = max(2, round(self.settings.rim_width_fraction * np.sqrt(mask.sum())))
        if self._full_rim is not None:
            rim = shrink(self._full_rim)
        elif self._full_mask is None:
            rim = np.zeros(shape, bool)
            rim[:band], rim[-band:], rim[:, :band], rim[:, -band:] = True, True, True, True
            mask &= ~rim
        else:
            rim = (cv2.dilate(mask.astype(np.uint8), np.ones((2 * band + 1, 2 * band + 1), np.uint8)) > 0) & ~mask
        self._mask, self._rim = mask, rim
        self._board_px = max(1, int(np.count_nonzero(mask)))
        self._rim_px = int(np.count_nonzero(rim))
        # The light level of the rim is judged on a sample of its pixels: a median of all is slow.
        self._rim_sample = np.flatnonzero(rim)[::RIM_SAMPLE_STEP]
        self._board_sample = np.flatnonzero(mask)[::RIM_SAMPLE_STEP]
        table = shrink(self._full_table) & ~mask & ~rim if self._full_table is not None else None
        if table is not None and table.any():  # a board filling the picture leaves no table to watch
            self._table = self._table_all = table.view(np.uint8)  # all of it, and the part watched now
            self._table_sample = np.flatnonzero(table)[::RIM_SAMPLE_STEP]

    def _drifted(self, small: np.ndarray, board_px: int) -> bool:
        """Whether the view changed since the stillness began, its light divided out: a lamp warming up or
        the camera's exposure catching up brightens the whole board a little each frame, and a board
        never settling through it would join the next stroke to the last."""
        if not self._changed_since_still(small, self._still_start, board_px):
            return False  # most still frames: no need to look at the light
        start = _relit(self._still_start, self._still_start_level, _level(small, self._board_sample))
        return self._changed_since_still(small, start, board_px)

    def _changed_since_still(self, small: np.ndarray, start: np.ndarray, board_px: int) -> bool:
        changed = _solid(_channel_change(small, start) > self._drift_change) & self._mask
        return np.count_nonzero(changed) / board_px > self.settings.moving_fraction

    def _unlike_settled(self, small: np.ndarray) -> np.ndarray | None:
        """The pixels of a view unlike the last settled one, in patches (None before the board first settled)."""
        if self._reference is None:
            return None
        return _solid(_channel_change(small, self._reference) > self.settings.pixel_change)

    def _free_motion(self, changed: np.ndarray, unlike: np.ndarray | None, board_px: int) -> float:
        """Share of the board changed in regions that do not reach the rim, nor an arm's body: moving pieces.

        An arm's sleeve or skin looks the same from frame to frame inside its outline: only its
        edges change as it moves. A hand reaching far in (to the centre, to put a piece back or
        take one out of the hole) changes its fingers apart from where it crosses the rim. What
        joins them is its body, unlike the settled board all along.
        """
        body = self.arm_body = self._arm_body(unlike, board_px)
        joined = changed | body if body is not None else changed
        count, labels = cv2.connectedComponents(joined.view(np.uint8), connectivity=8)
        touching_rim = np.zeros(count, bool)
        touching_rim[labels[self._rim & joined]] = True
        touching_rim[0] = True  # the unchanged background
        self.free_change = changed & ~touching_rim[labels]
        return np.count_nonzero(self._mask & self.free_change) / board_px

    def _arm_body(self, unlike: np.ndarray | None, board_px: int) -> np.ndarray | None:
        """The parts unlike the last settled view that reach the rim: arms in, body and all (None: not known).

        None before the board first settled, and where most of the board is unlike it: the light
        or the camera changed, which says nothing about arms.
        """
        if unlike is None:
            return None
        count, labels = cv2.connectedComponents(unlike.view(np.uint8), connectivity=8)
        reaching = np.zeros(count, bool)
        reaching[labels[self._rim & unlike]] = True
        reaching[0] = False
        body = reaching[labels]
        if np.count_nonzero(body & self._mask) > self.settings.max_arm_share * board_px:
            return None
        return body

    def _note_alike(self, small: np.ndarray, unlike: np.ndarray | None, t_s: float) -> None:
        """Mark the pixels of a moving frame that look as in the settled view (`unlike` it: the rest), its light
        divided out (a lamp or the camera's exposure changing as a hand comes in changes no spot for good)."""
        if self._spot_s is None or unlike is None:
            return
        level = _level(small, self._board_sample)
        if not np.array_equal(level, self._alike_level):
            reference = _relit(self._reference, self._alike_level, level)
            unlike = _solid(_channel_change(small, reference) > self.settings.pixel_change)
        self._spot_s[..., 0][~unlike] = t_s
        self._spot_s[..., 1][unlike] = t_s
        self._alike_last_s = t_s

    def carry_alike(self, old: SettleGate, moved: np.ndarray, image_shape: tuple[int, int]) -> None:
        """Take on when each spot changed from the gate of the view before the board moved (`moved`: that
        view's frame pixels to this one's), so that a bump or a re-fit under a hand loses none of it."""
        if old._spot_s is None:
            return
        h, w = image_shape
        rows, columns = old._crop
        full = np.full((h, w, 2), np.nan, np.float32)
        full[rows, columns] = cv2.resize(old._spot_s, (columns.stop - columns.start, rows.stop - rows.start),
                                         interpolation=cv2.INTER_NEAREST)
        full = cv2.warpPerspective(full, moved, (w, h), flags=cv2.INTER_NEAREST, borderValue=np.nan)
        if self._crop is None:
            self._fix_view(image_shape)
        self._spot_s = cv2.resize(full[self._crop], self._small_size, interpolation=cv2.INTER_NEAREST)
        self._alike_from_s, self._alike_last_s, self._alike_level = old._alike_from_s, old._alike_last_s, old._alike_level

    def _alike_snapshot(self) -> AlikeTimes | None:
        if self._spot_s is None:
            return None
        origin_px = (float(self._crop[1].start), float(self._crop[0].start))
        scale = self._small_size[0] / (self._crop[1].stop - self._crop[1].start)
        # Not copied: the gate starts a fresh record at this settle and never writes to this one again.
        return AlikeTimes(self._spot_s, self._alike_from_s, self._alike_last_s, origin_px, scale)

    def shrink(self, mask: np.ndarray) -> np.ndarray:
        """A full-frame mask in the gate's small view (the frame of `free_change`)."""
        if self._crop is None:
            self._fix_view(mask.shape)
        part = mask[self._crop].astype(np.uint8)
        return cv2.resize(part, self._small_size, interpolation=cv2.INTER_NEAREST) > 0

    def _arm_in(self, small: np.ndarray, t_s: float) -> bool:
        """An arm reaches in: seen on the board's rim, or on the table beyond it."""
        return self._arm_in_rim(small, t_s) or self._arm_on_table(small, t_s)

    def _arm_on_table(self, small: np.ndarray, t_s: float) -> bool:
        """One arm-sized patch of the table just beyond the board changed since the settled view."""
        if self._table_reference is None or self._table_sample.size == 0:
            return False
        needed = self.settings.arm_table_fraction * self._board_px
        patch, level = self._changed_since(small, self._table_bounds, self._table_level, self._table_sample,
                                           dim_aware=True)
        if cv2.countNonZero(patch) < needed:
            return False
        # Table pixels that differ but have not changed from frame to frame for longer than any arm is held
        # still (the occlusion timeout lets such an arm be) are the new normal: a lamp that changed how
        # the table or the floor beyond it looks, while play went on and the board never stayed still
        # long enough to settle.
        stale = patch.view(bool) & (t_s - self._moved_at_s >= self.settings.table_absorb_s)
        if stale.any():
            # Taken into the reference as they would have looked in its light (the light change is divided out).
            gain = (level + 1) / (self._table_level + 1)
            reference = self._table_reference.copy()
            reference[stale] = np.clip(small[stale] / gain, 0, 255).astype(np.uint8)
            self._table_reference = reference
            self._table_bounds = self._edge_bounds(reference, self._table)
            patch, level = self._changed_since(small, self._table_bounds, self._table_level, self._table_sample,
                                               dim_aware=True)
            if cv2.countNonZero(patch) < needed:
                return False
        changed = _largest_patch(cv2.morphologyEx(patch, cv2.MORPH_OPEN, SPECK_KERNEL), needed)
        if changed is None:
            return False
        # As on the rim: the arm was in the view the table is compared with (the first sight, taken
        # before any settle).
        if _in_reference(small, self._table_reference, changed, level, self._table_level):
            self._set_table_reference(small)
            return False
        return True

    def _arm_in_rim(self, small: np.ndarray, t_s: float) -> bool:
        """One large patch of the rim changed since the last settled view (light change divided out)."""
        if self._reference is None or not self._rim_px:
            return False
        patch, level = self._rim_change(small)
        needed = self.settings.arm_rim_fraction * self._rim_px
        if cv2.countNonZero(patch) < needed:
            return False  # too few changed pixels for any one patch to be an arm
        # Rim pixels that differ but have not changed from frame to frame for a while are the new
        # normal (a view settled with an arm in it, a disc set down on the frame): arms move.
        stale = patch.view(bool) & (t_s - self._changed_at_s >= self.settings.rim_absorb_s)
        if stale.any():
            reference = self._reference.copy()
            reference[stale] = small[stale]
            self._set_rim_reference(reference)
            patch, level = self._rim_change(small)
            if cv2.countNonZero(patch) < needed:
                return False
        changed = _largest_patch(patch, needed)
        if changed is None:
            return False
        # Which view has the arm? A view settled with an arm in it (a video starting mid-stroke) is
        # replaced, not obeyed.
        if _in_reference(small, self._reference, changed, level, self._reference_level):
            self._set_rim_reference(small)
            return False
        return True

    def _rim_change(self, small: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The rim pixels that differ from the last settled view (uint8 mask), and the rim's colour now."""
        return self._changed_since(small, self._reference_bounds, self._reference_level, self._rim_sample)

    def _changed_since(self, small: np.ndarray, bounds: _RegionBounds, reference_level: np.ndarray,
                       sample: np.ndarray, *, dim_aware: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """The pixels of a region (a uint8 mask of the view) that differ from a reference view (its
        `_edge_bounds` there), a light change divided out (the region's typical colour, from its
        `sample`, then and now), and that colour now."""
        level = _level(small, sample)
        darkest, lightest = (_relit(bound, reference_level, level) for bound in (bounds.darkest, bounds.lightest))
        # Only the region's own pixels are compared (a fifth of the view or less), as a column of colours.
        pixels = np.take(small.reshape(-1, 3), bounds.where, axis=0).reshape(-1, 1, 3)
        beyond = cv2.max(cv2.subtract(pixels, lightest), cv2.subtract(darkest, pixels))
        limit = 2 * self.settings.pixel_change
        if dim_aware:
            limit *= float(np.clip(level.max() / self.settings.dim_table_level, 0.5, 1.0))
        patch = np.zeros(small.shape[:2], np.uint8)
        patch.reshape(-1)[bounds.where[_largest_channel(beyond).reshape(-1) > limit]] = 1
        return patch, level

    def _edge_bounds(self, reference: np.ndarray, region: np.ndarray) -> _RegionBounds:
        """The darkest and lightest each pixel of `region` (a mask) may be and still match `reference`.

        A view moved with the board (a bump) lies a pixel off at sharp edges: there a pixel
        matches when it lies within the colours next to it. Elsewhere only its own colour
        matches, so that a dim sleeve on a grainy table still differs.
        """
        darkest, lightest = cv2.erode(reference, SPECK_KERNEL), cv2.dilate(reference, SPECK_KERNEL)
        flat = (_largest_channel(cv2.subtract(lightest, darkest)) <= 2 * self.settings.pixel_change).view(np.uint8)
        cv2.copyTo(reference, flat, darkest)
        cv2.copyTo(reference, flat, lightest)
        where = np.flatnonzero(region)
        return _RegionBounds(where, *(np.take(bound.reshape(-1, 3), where, axis=0).reshape(-1, 1, 3)
                                      for bound in (darkest, lightest)))

    def _set_reference(self, small: np.ndarray) -> None:
        self._set_rim_reference(small)
        self._set_table_reference(small)

    def _set_rim_reference(self, small: np.ndarray) -> None:
        self._reference = small
        self._reference_level = _level(small, self._rim_sample)
        self._reference_bounds = self._edge_bounds(small, self._rim)  # once per view: the rim is compared every frame

    def _set_table_reference(self, small: np.ndarray) -> None:
        if self._table is not None:
            self._table = self._table_all
            self._table_reference = small
            self._table_level = _level(small, self._table_sample)
            self._table_bounds = self._edge_bounds(small, self._table)



class _RegionBounds(NamedTuple):
    """The darkest and lightest colours that match a reference view at a region's pixels (flat indices
    `where` into the view), each an (n, 1, 3) column in that order."""

    where: np.ndarray
    darkest: np.ndarray
    lightest: np.ndarray


def _contrasts(small: np.ndarray, centres: np.ndarray, radii: np.ndarray) -> list[float | None]:
    """Per piece (centre and radius in the small view): the largest channel difference of its face's mean
    colour and the board's around it (median of a ring beyond its edge); None where that lies off the view."""
    h, w = small.shape[:2]
    result: list[float | None] = []
    for (x, y), radius in zip(centres, radii):
        reach = int(np.ceil(1.8 * radius)) + 1
        top, left = int(round(y)) - reach, int(round(x)) - reach
        if radius < 1 or top < 0 or left < 0 or top + 2 * reach >= h or left + 2 * reach >= w:
            result.append(None)
            continue
        patch = small[top:top + 2 * reach + 1, left:left + 2 * reach + 1].astype(np.float32)
        yy, xx = np.mgrid[top:top + 2 * reach + 1, left:left + 2 * reach + 1]
        distance = np.hypot(xx - x, yy - y)
        # Clear of the edge's blur on both sides.
        face, ring = patch[distance <= 0.6 * radius], patch[(distance >= 1.3 * radius) & (distance <= 1.8 * radius)]
        if not len(face) or not len(ring):
            result.append(None)
            continue
        result.append(float(np.abs(face.mean(axis=0) - np.median(ring, axis=0)).max()))
    return result


def _block_means(image: np.ndarray, block: int) -> np.ndarray:
    """The mean colour of each `block` x `block` square of an image whose sides are whole blocks.

    OpenCV's area shrink is fast only when it halves: other whole factors take a box blur anchored
    at its corner, read at each square's corner (the same means, at about half the cost).
    """
    while block % 2 == 0:
        image = cv2.resize(image, (image.shape[1] // 2, image.shape[0] // 2), interpolation=cv2.INTER_AREA)
        block //= 2
    if block == 1:
        return image
    return cv2.resize(cv2.blur(image, (block, block), anchor=(0, 0)),
                      (image.shape[1] // block, image.shape[0] // block), interpolation=cv2.INTER_NEAREST)


def _level(small: np.ndarray, sample: np.ndarray) -> np.ndarray:
    """The typical colour of a region (the rim, the table) in a small view: the median of a sample of its pixels."""
    pixels = small.reshape(-1, 3)[sample]
    if not len(pixels):
        return np.full(3, np.nan)
    # Counted, not sorted: the gate asks this of most frames, and a histogram of bytes is cheap.
    below = np.cumsum([np.bincount(channel, minlength=256) for channel in pixels.T], axis=1)
    middle = np.stack([np.argmax(below > (len(pixels) - 1) // 2, axis=1), np.argmax(below > len(pixels) // 2, axis=1)])
    return middle.mean(axis=0)


def _largest_patch(patch: np.ndarray, needed_px: float) -> np.ndarray | None:
    """The largest connected patch of a uint8 mask (a bool mask), when it has `needed_px` pixels."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(patch, connectivity=8)
    if count < 2 or stats[1:, cv2.CC_STAT_AREA].max() < needed_px:
        return None
    return labels == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))


def _in_reference(small: np.ndarray, reference: np.ndarray, where: np.ndarray, level: np.ndarray,
                  reference_level: np.ndarray) -> bool:
    """Whether a patch that differs was the reference's doing: it looks like the rest of its region
    now (typical colour `level`) and unlike it then (`reference_level`)."""
    return _unlike(small, where, level) < 0.5 * _unlike(reference, where, reference_level)


def _unlike(small: np.ndarray, where: np.ndarray, level: np.ndarray) -> float:
    """How far the pixels of a small view at `where` are from a region's typical colour (mean largest channel difference)."""
    return float(np.abs(small[where].astype(np.float32) - level).max(axis=1).mean())


def _relit(view: np.ndarray, level: np.ndarray, new_level: np.ndarray) -> np.ndarray:
    """A BGR view whose region of typical colour `level` is brought to `new_level` (a light change divided out)."""
    if np.array_equal(level, new_level):
        return view
    return _scaled(view, (new_level + 1) / (level + 1))


def _scaled(small: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """A BGR view with each channel multiplied by its gain, rounded and clipped as cv2.multiply does."""
    table = np.clip(np.rint(np.arange(256, dtype=np.float64)[:, None] * gain), 0, 255).astype(np.uint8)
    return cv2.LUT(small, table.reshape(256, 1, 3))


def _solid(changed: np.ndarray) -> np.ndarray:
    """The changed pixels (bool mask) in patches at least 3 pixels across.

    A video codec's periodic full refresh (a key frame) redraws every edge a little
    differently: thin lines of change all over a still board, which are not motion.
    """
    return cv2.morphologyEx(changed.view(np.uint8), cv2.MORPH_OPEN, SPECK_KERNEL).view(bool)


def _channel_change(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per pixel, the largest change of any colour channel between two BGR views."""
    return _largest_channel(cv2.absdiff(a, b))


def _largest_channel(difference: np.ndarray) -> np.ndarray:
    """Per pixel, the largest of a BGR difference's three channels."""
    blue, green, red = cv2.split(difference)
    return cv2.max(cv2.max(blue, green), red)
