"""Settle and occlusion gating: read the board only when it is still and nothing is over it.

Cheap measures on a small grey copy of each frame: the share of board pixels that
changed since the previous frame (motion), and a large region changed since the
last settled view that crosses the board's edge (an arm reaching in: pieces stay
on the board, arms come from outside). A board counts as settled once it has been
still for `settle_s`; the frame where that happens is the one to read. A change
across the edge that stays perfectly still for `occlusion_timeout_s` is not an
arm (a light change, a disc in the ditch) and no longer holds the board.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class SettleSettings:
    """Thresholds of the gate; data, not code (a table profile may override them)."""

    work_width_px: int = 192
    pixel_change_grey: int = 14  # a pixel changed when its grey level moved this much
    moving_fraction: float = 0.0015  # share of board pixels changed between frames that is motion
    settle_s: float = 0.3  # still for this long before a read
    edge_band_fraction: float = 0.04  # width of the bands either side of the board's edge, share of its size
    arm_fraction: float = 0.015  # a changed region this big (share of the board) across the edge is an arm
    occlusion_timeout_s: float = 1.5


@dataclass(frozen=True)
class GateReading:
    """What the gate says about one frame."""

    t_s: float
    motion_fraction: float
    is_moving: bool
    is_occluded: bool
    is_settled: bool
    is_new_settle: bool  # the first settled frame after movement: read this one


class SettleGate:
    """Per-frame motion and occlusion measure; `update(frame)` -> `GateReading`.

    Parameters
    ----------
    board_mask : (H, W) bool ndarray, optional
        Pixels of the board in the full frame; the whole frame when omitted.
    settings : SettleSettings
    """

    def __init__(self, board_mask: np.ndarray | None = None, settings: SettleSettings = SettleSettings()):
        self.settings = settings
        self._full_mask = board_mask
        self._mask: np.ndarray | None = None
        self._inside_band: np.ndarray | None = None
        self._outside_band: np.ndarray | None = None
        self._previous: np.ndarray | None = None
        self._reference: np.ndarray | None = None  # the last settled view
        self._still_since_s: float | None = None
        self._settled = False

    def _small(self, image: np.ndarray) -> np.ndarray:
        h, w = image.shape[:2]
        scale = self.settings.work_width_px / w
        size = (self.settings.work_width_px, max(1, round(h * scale)))
        grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
        return cv2.GaussianBlur(cv2.resize(grey, size, interpolation=cv2.INTER_AREA), (3, 3), 0)

    def _prepare_masks(self, shape: tuple[int, int]) -> None:
        if self._full_mask is None:
            mask = np.ones(shape, bool)
            band = max(2, round(self.settings.edge_band_fraction * np.sqrt(mask.sum())))
            # The frame's own border band stands in for the outside of the board.
            mask[:band], mask[-band:], mask[:, :band], mask[:, -band:] = False, False, False, False
        else:
            mask = cv2.resize(self._full_mask.astype(np.uint8), shape[::-1], interpolation=cv2.INTER_NEAREST) > 0
        band = max(2, round(self.settings.edge_band_fraction * np.sqrt(mask.sum())))
        kernel = np.ones((2 * band + 1, 2 * band + 1), np.uint8)
        inner = cv2.erode(mask.astype(np.uint8), kernel) > 0
        outer = cv2.dilate(mask.astype(np.uint8), kernel) > 0
        self._inside_band, self._outside_band = mask & ~inner, outer & ~mask
        self._mask = mask

    def update(self, image: np.ndarray, t_s: float) -> GateReading:
        """Measure one frame (BGR or grey, any size) taken at `t_s` seconds."""
        small = self._small(image)
        if self._mask is None or self._mask.shape != small.shape:
            self._prepare_masks(small.shape)
        s = self.settings
        board_px = max(1, int(self._mask.sum()))
        if self._previous is None:
            motion = 1.0  # nothing to compare with: not yet known to be still
        else:
            changed = cv2.absdiff(small, self._previous) > s.pixel_change_grey
            motion = float((changed & self._mask).sum()) / board_px
        self._previous = small
        is_moving = motion > s.moving_fraction
        if is_moving:
            self._still_since_s = None
            self._settled = False
            return GateReading(t_s, motion, True, self._arm_over_board(small, board_px), False, False)
        if self._still_since_s is None:
            self._still_since_s = t_s
        still_s = t_s - self._still_since_s
        is_occluded = still_s < s.occlusion_timeout_s and self._arm_over_board(small, board_px)
        if is_occluded:
            self._settled = False
            return GateReading(t_s, motion, False, True, False, False)
        is_settled = still_s >= s.settle_s - 1e-9
        is_new = is_settled and not self._settled
        if is_new:
            self._reference = small
        self._settled = is_settled
        return GateReading(t_s, motion, False, False, is_settled, is_new)

    def _arm_over_board(self, small: np.ndarray, board_px: int) -> bool:
        """A large region changed since the last settled view, on both sides of the board's edge."""
        if self._reference is None:
            return False
        changed = cv2.absdiff(small, self._reference) > self.settings.pixel_change_grey
        # The board's edge blurs into the frame in a small image: close that one-pixel seam.
        changed = cv2.dilate(changed.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        _, labels, stats, _ = cv2.connectedComponentsWithStats(changed.astype(np.uint8), connectivity=8)
        crossing = np.intersect1d(labels[self._inside_band & changed], labels[self._outside_band & changed])
        min_area = self.settings.arm_fraction * board_px
        return any(stats[label, cv2.CC_STAT_AREA] >= min_area for label in crossing if label != 0)
