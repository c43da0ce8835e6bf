"""Settle and occlusion gating: read the board only when it is still and nothing is over it.

Cheap measures on a small copy of each frame:

- motion: the share of board pixels that changed since the previous frame;
- free motion: the part of that motion in regions that do not reach the rim,
  i.e. pieces moving on their own rather than a hand (used to time a stroke);
- occlusion: the rim around the playing surface (the frame and the table just
  beyond it, where pieces never lie) changed since the last settled view (the
  first frame, before any) in one large change that reaches in across it: an arm.
  A light change is divided out first, by a tone curve through the rim's dark
  and bright tones. A change that holds still everywhere (the view settled with
  an arm in it, a cup put on the frame) becomes the new normal after a while.

A board counts as settled once it has been still and unoccluded for `settle_s`;
the first such frame is the one to read. A change of the rim that stays perfectly
still for `occlusion_timeout_s` is taken as the new normal (a moved lamp, a cup
put on the frame) and no longer holds the board.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


RIM_SAMPLE_STEP = 7
ARM_JOIN_KERNEL = np.ones((5, 5), np.uint8)
RIM_SHARE_OF_ARM = 0.2  # an arm's patch has this share of `arm_rim_fraction` in the rim (the rest may be over the board)
TONE_KNOT_GAP = 8.0  # two rim tones this close in a channel set one point of its tone curve


@dataclass(frozen=True)
class SettleSettings:
    """Thresholds of the gate; data, not code (a table profile may override them)."""

    work_width_px: int = 192  # size of the small copy when no board mask is given
    work_board_px: int = 240  # with a mask: the board's larger side in the small copy (a coin ~ 10 px)
    pixel_change: int = 10  # a pixel changed when one of its colour channels moved this much
    moving_fraction: float = 0.0015  # share of board pixels changed between frames that is motion
    settle_s: float = 0.3  # still for this long before a read
    rim_width_fraction: float = 0.05  # default rim: a ring this wide (share of the board's size) outside it
    arm_rim_fraction: float = 0.01  # a changed patch this big (share of the rim) is an arm
    occlusion_timeout_s: float = 1.5
    rim_absorb_s: float = 1.0  # a changed rim pixel unchanged from frame to frame this long is the new normal


@dataclass(frozen=True)
class GateReading:
    """What the gate says about one frame."""

    t_s: float
    motion_fraction: float
    is_moving: bool
    is_occluded: bool
    is_settled: bool
    is_new_settle: bool  # the first settled frame after movement: read this one
    free_motion_fraction: float = 0.0


class SettleGate:
    """Per-frame motion and occlusion measure; `update(image, t_s)` -> `GateReading`.

    Parameters
    ----------
    board_mask : (H, W) bool ndarray, optional
        The playing surface in the full frame; the whole frame when omitted.
    rim_mask : (H, W) bool ndarray, optional
        Where only arms appear (the board's frame, beyond any ditch); by default a
        ring just outside `board_mask` (or the frame's border without a mask).
    settings : SettleSettings
    """

    def __init__(self, board_mask: np.ndarray | None = None, rim_mask: np.ndarray | None = None,
                 settings: SettleSettings = SettleSettings()):
        self.settings = settings
        self._full_mask = board_mask
        self._full_rim = rim_mask
        self._work_scale: float | None = None
        self._crop: tuple[slice, slice] | None = None  # the part of the frame the gate looks at
        self._mask: np.ndarray | None = None
        self._rim: np.ndarray | None = None
        self._board_px = 1
        self._rim_px = 0
        self._previous: np.ndarray | None = None
        self._small_size: tuple[int, int] | None = None  # (w, h) of the small view
        # Changed pixels of the small view not connected to the rim (pieces moving on their own)
        # in the last frame, when it moved; None otherwise.
        self.free_change: np.ndarray | None = None
        self._reference: np.ndarray | None = None  # the last settled view
        # The rim's pixels in two tones (a dark frame, a bright table, say), each with its own light
        # level: per small pixel, whether it is of the bright tone in the reference; per tone, its colour.
        self._bright: np.ndarray | None = None
        self._reference_levels: np.ndarray | None = None
        self._changed_at_s: np.ndarray | None = None  # per small pixel: when it last changed between frames
        self._still_since_s: float | None = None
        self._still_start: np.ndarray | None = None
        self._settled = False

    def update(self, image: np.ndarray, t_s: float) -> GateReading:
        """Measure one BGR frame taken at `t_s` seconds."""
        small = self._small(image)
        if self._mask is None:
            self._prepare_masks(small.shape[:2])
        s = self.settings
        board_px = self._board_px
        self.free_change = None
        if self._previous is None:
            motion, free_motion = 1.0, 0.0  # nothing to compare with: not yet known to be still
            self._changed_at_s = np.full(small.shape[:2], t_s, np.float32)
            if self._reference is None:
                # The first sight stands for the settled view until there is one: an arm that
                # reaches in and holds still before the board ever settled is seen too (and one
                # in this first view is replaced once it leaves, as below).
                self._set_reference(small)
        else:
            changed = self._changed(small, self._previous)
            self._changed_at_s[changed] = t_s
            motion = np.count_nonzero(changed & self._mask) / board_px
            free_motion = self._free_motion(changed, board_px) if motion > s.moving_fraction else 0.0
        self._previous = small
        is_moving = motion > s.moving_fraction
        if is_moving:
            self._still_since_s = None
            self._settled = False
            return GateReading(t_s, motion, True, self._arm_in_rim(small, t_s), False, False, free_motion)
        if self._still_since_s is None or self._drifted(small, board_px):
            # A slow piece changes little from frame to frame but adds up over the still period.
            self._still_since_s, self._still_start = t_s, small
        still_s = t_s - self._still_since_s
        if still_s < s.occlusion_timeout_s and self._arm_in_rim(small, t_s):
            self._settled = False
            return GateReading(t_s, motion, False, True, False, False)
        is_settled = still_s >= s.settle_s - 1e-9
        is_new = is_settled and not self._settled
        if is_new:
            self._set_reference(small)
        self._settled = is_settled
        return GateReading(t_s, motion, False, False, is_settled, is_new)

    def hold(self) -> None:
        """The settled frame could not be used (e.g. the board moved): count the stillness afresh."""
        self._still_since_s = None
        self._settled = False

    def set_reference(self, image: np.ndarray) -> None:
        """Take `image` (a full frame) as the last settled view, e.g. the old one moved with the board."""
        small = self._small(image)
        if self._mask is None:
            self._prepare_masks(small.shape[:2])
        self._set_reference(small)

    def _fix_view(self, shape: tuple[int, ...]) -> None:
        """Where the gate looks in frames of `shape` and how small it makes that part."""
        self._work_scale = self._scale(shape)
        self._crop = self._crop_box(shape[:2])
        h, w = (part.stop - part.start for part in self._crop)
        self._small_size = (max(1, round(w * self._work_scale)), max(1, round(h * self._work_scale)))

    def _small(self, image: np.ndarray) -> np.ndarray:
        if self._work_scale is None:
            self._fix_view(image.shape)
        part = image[self._crop]
        size = self._small_size
        if self._work_scale < 0.5:
            factor = max(2, round(0.5 / self._work_scale))
            # Area averaging at an arbitrary scale is slow: shrink bilinearly (each sample mixes
            # 2x2 pixels) to `factor` times the size, then average blocks on the fast integer path.
            part = cv2.resize(part, (factor * size[0], factor * size[1]), interpolation=cv2.INTER_LINEAR)
        # Colour, not grey: a white coin on a cream board differs more in blue than in brightness.
        return cv2.GaussianBlur(cv2.resize(part, size, interpolation=cv2.INTER_AREA), (3, 3), 0)

    def _crop_box(self, shape: tuple[int, int]) -> tuple[slice, slice]:
        """The board and its rim with a margin: the rest of the frame is never looked at."""
        if self._full_mask is None:
            return slice(0, shape[0]), slice(0, shape[1])
        seen = self._full_mask if self._full_rim is None else (self._full_mask | self._full_rim)
        ys, xs = np.nonzero(seen)
        margin = max(8, round(0.15 * max(xs.max() - xs.min(), ys.max() - ys.min())))
        return (slice(max(0, ys.min() - margin), min(shape[0], ys.max() + margin + 1)),
                slice(max(0, xs.min() - margin), min(shape[1], xs.max() + margin + 1)))

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
        self._rim_u8 = rim.view(np.uint8)
        # The light level of the rim is judged on a sample of its pixels: a median of all is slow.
        self._rim_sample = np.flatnonzero(rim)[::RIM_SAMPLE_STEP]

    def _drifted(self, small: np.ndarray, board_px: int) -> bool:
        changed = self._changed(small, self._still_start) & self._mask
        return np.count_nonzero(changed) / board_px > self.settings.moving_fraction

    def _changed(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return _channel_change(a, b) > self.settings.pixel_change

    def _free_motion(self, changed: np.ndarray, board_px: int) -> float:
        """Share of the board changed in regions that do not reach the rim: moving pieces."""
        count, labels = cv2.connectedComponents(changed.astype(np.uint8), connectivity=8)
        touching_rim = np.zeros(count, bool)
        touching_rim[labels[self._rim & changed]] = True
        touching_rim[0] = True  # the unchanged background
        self.free_change = ~touching_rim[labels]
        return np.count_nonzero(self._mask & self.free_change) / board_px

    def shrink(self, mask: np.ndarray) -> np.ndarray:
        """A full-frame mask in the gate's small view (the frame of `free_change`)."""
        if self._crop is None:
            self._fix_view(mask.shape)
        part = mask[self._crop].astype(np.uint8)
        return cv2.resize(part, self._small_size, interpolation=cv2.INTER_NEAREST) > 0

    def _arm_in_rim(self, small: np.ndarray, t_s: float) -> bool:
        """One large patch of the rim changed since the last settled view (light change divided out)."""
        if self._reference is None or not self._rim_px:
            return False
        changed = self._change(small)
        patch = changed & self._rim_u8
        needed = self.settings.arm_rim_fraction * self._rim_px
        if cv2.countNonZero(patch) < RIM_SHARE_OF_ARM * needed:
            return False  # too few changed pixels in the rim for any arm
        # A patch of the rim that differs but has not changed from frame to frame for a while is the
        # new normal (a view settled with an arm in it, a disc set down on the frame): arms move.
        # Not a patch still in itself but part of a change that moves elsewhere: a sleeve sliding
        # in looks the same in the rim all along, while its hand moves over the board.
        count, labels = cv2.connectedComponents(cv2.dilate(changed, ARM_JOIN_KERNEL), connectivity=8)
        recent = changed.view(bool) & (t_s - self._changed_at_s < self.settings.rim_absorb_s)
        moving = np.zeros(count, bool)
        moving[labels[recent]] = True
        moving[0] = True  # what did not change
        stale = patch.view(bool) & ~moving[labels]
        if stale.any():
            self._reference = self._reference.copy()
            self._reference[stale] = small[stale]
            self._set_reference(self._reference)
            changed = self._change(small)
            patch = changed & self._rim_u8
            if cv2.countNonZero(patch) < RIM_SHARE_OF_ARM * needed:
                return False
            count, labels = cv2.connectedComponents(cv2.dilate(changed, ARM_JOIN_KERNEL), connectivity=8)
        # An arm is one change reaching in across the rim (its parts a few pixels apart joined: skin
        # over a frame of its colour splits it), large in all, and not just grazing the rim.
        size = np.bincount(labels[changed.view(bool)], minlength=count)
        in_rim = np.bincount(labels[patch.view(bool)], minlength=count)
        return bool(np.any((size[1:] >= needed) & (in_rim[1:] >= RIM_SHARE_OF_ARM * needed)))

    def _change(self, small: np.ndarray) -> np.ndarray:
        """The pixels (uint8 mask) that differ from the last settled view, the light's change divided out."""
        levels = self._rim_levels(small)
        expected = cv2.merge([cv2.LUT(channel, _tone_curve(self._reference_levels[:, c], levels[:, c]))
                              for c, channel in enumerate(cv2.split(self._reference))])
        return (_channel_change(small, expected) > 2 * self.settings.pixel_change).view(np.uint8)

    def _set_reference(self, small: np.ndarray) -> None:
        self._reference = small
        grey = small.max(axis=2)
        # A light change scales a bright table and a dark frame differently (bright pixels clip):
        # the rim's two tones set a tone curve, which the pixels between them (edges) follow too.
        self._bright = grey > np.median(grey.ravel()[self._rim_sample])
        self._reference_levels = self._rim_levels(small)

    def _rim_levels(self, small: np.ndarray) -> np.ndarray:
        """(2, 3): the colour of the rim's dark and bright tones in a small view (medians of a sample)."""
        sample = small.reshape(-1, 3)[self._rim_sample]
        bright = self._bright.ravel()[self._rim_sample]
        return np.array([np.median(sample[bright == tone], axis=0) if np.any(bright == tone)
                         else np.median(sample, axis=0) for tone in (False, True)])


def _tone_curve(before: np.ndarray, now: np.ndarray) -> np.ndarray:
    """A 256-entry uint8 lookup of a channel's value before to now, through the two tones' levels.

    Either tone may be the brighter in a channel (an orange frame on a blue table); tones of
    about the same value before make one knot.
    """
    knots = sorted(zip(before.astype(float), now.astype(float)))
    if knots[1][0] - knots[0][0] < TONE_KNOT_GAP:
        knots = [(float(np.mean(before)), float(np.mean(now)))]
    xs, ys = [0.0] + [x for x, _ in knots], [0.0] + [y for _, y in knots]
    last_x, last_y = knots[-1]
    if last_x < 255.0:
        xs.append(255.0)
        ys.append(last_y + (255.0 - last_x) * (last_y + 1) / (last_x + 1))  # beyond the brighter tone, its gain
    return np.clip(np.round(np.interp(np.arange(256), xs, ys)), 0, 255).astype(np.uint8)


def _channel_change(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per pixel, the largest change of any colour channel between two BGR views."""
    blue, green, red = cv2.split(cv2.absdiff(a, b))
    return cv2.max(cv2.max(blue, green), red)
