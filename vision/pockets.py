"""Watch the pockets (and the crokinole 20-hole) for pieces going in while the board moves.

A settled board says that a piece is gone; the pockets say where and when it
went. Each frame, the share of pixels that changed around each pocket (its mouth
and the ring a piece crosses on the way in) is recorded. When a wider ring
around that changed a lot too, an arm is reaching across and only the excess
counts: a piece dropping in lights up the inner ring, an arm both. A vanished
piece is assigned to the pocket that was busy, at the time it was busiest. A
few small patches per frame: a fraction of a millisecond.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.geometry import BoardModel, CrokinoleBoard
from vision.homography import project

WATCH_SCALE = 2.2  # watch this far around the pocket's centre (in pocket radii): pieces cross it going in
AROUND_SCALE = 3.6  # the wider ring, compared against, reaches this far
ARM_SHARE = 0.25  # a wider ring changed this much has an arm across it, not a piece
PIXEL_CHANGE = 20  # a pixel changed when a colour channel moved this much
BUSY_SHARE = 0.01  # share of the watched pixels changed in a frame (beyond the wider ring's) that is a piece
DITCH_SECTORS = 24  # the crokinole ditch is watched in this many sectors ...
DITCH_LANDING_SHARE = 0.05  # ... a share of a sector's pixels changing on their own is a disc landing there
DITCH_MAX_SPELLS = 2000  # spells of motion in the ditch kept between settled views (a crowd in view: the last ones)
DITCH_APPROACH_MM = 20.0  # ... from this far inside the surface's edge to the ditch's outer edge
DITCH_EDGE_MM = 4.0
DITCH_SAMPLE_STEP = 4  # any change of the ditch is looked for on every this many of its pixels  # lying discs are counted this far clear of the ditch's edges
DITCH_DISC_CHANGE = 40  # a ditch pixel this far from its empty look (largest channel change) shows a disc
EDGE_BAND_FRACTION = 0.03  # a surface cut by the picture's edge is watched for arms this deep (share of the picture)
SPELL_GAP_S = 0.3  # a pocket not busy for this long ends a spell of it busy: the next piece dropping in is another
# A spell whose change fell to this share of its peak and rose again by as much had pieces drop in one after another
# (a striker following a coin in: simulated carrom clips 5202, 5205 and 5209 at 1080p).
BURST_DIP = 0.7
# A spell whose change never came back above this share of its peak ended as a piece dropping in; a piece passing by
# falls off as it rose. Simulated carrom clips 5202-5211 at 1080p and 5212-5216 at 960x540: the spells of strikers
# that dropped in alone came back to at most 0.19 of their peak (4), those of strikers passing by to 0.51 or more (12).
DROPPED_TAIL = 0.35
MAX_SPELLS = 64  # spells kept per pocket between settled views (a crowd in view: the last ones)
GLOBAL_POCKETS = 3  # this many pockets changing in the same frame is the board bumped or the light, not pieces
MOUTH_SHARE = 0.8  # a pocket's mouth: inside this share of its radius (clear of its rim)
# Mean colour change of the 20-hole's mouth from its empty look (in that look's light) that means something lies in it.
HOLE_CHANGE = 30
HOLE_DARK = 60  # an empty 20-hole whose brightest channel is at most this is dark: a dark disc lies in it unseen
HOLE_STEADY_S = 0.2  # the hole looks full (or empty) this long before that counts: a disc rolling over it is quicker
HOLE_PASS_S = 0.5  # a hole that looked full for less than this before looking empty again had a disc creep across it
# Arms are watched on the table this far beyond the board's outer edge too: every arm over the board
# crosses it, and a sleeve on the table is plain to see where skin over a wooden frame is not.
APPROACH_MM = 100.0


@dataclass(frozen=True)
class PocketSpell:
    """One spell of a pocket busy: frames busy with less than `SPELL_GAP_S` between them.

    Its shape tells a piece dropping in from one passing by: a piece that drops in is gone at once, and the change
    ends at its peak; one that passes enters and leaves the watched ring, and the change falls as slowly as it rose.
    """

    peak_t_s: float  # when it changed most
    energy: float  # sum over its frames of the changed share above BUSY_SHARE
    peak: float = 0.0  # the changed share of its busiest frame
    tail: float = 0.0  # the largest changed share of a frame after the last one as busy
    bursts: int = 1  # rises of the change after a fall (`BURST_DIP`): pieces dropping in one after another

    @property
    def ended_at_peak(self) -> bool:
        """Whether the change stopped at its peak, as a piece dropping in makes it (`DROPPED_TAIL`)."""
        return self.tail <= DROPPED_TAIL * self.peak


@dataclass(frozen=True)
class PocketActivity:
    """How busy one pocket was over a stretch of frames."""

    pocket: int
    energy: float  # sum over frames of the changed share above BUSY_SHARE
    peak_t_s: float | None  # when it changed most (None unless busy)
    glimpse_t_s: float | None = None  # when it changed most, however little (a pale coin dropping in barely shows)
    # Each spell it was busy, in order (the last MAX_SPELLS): pieces dropping in at different times, a striker
    # lifted off its mouth by a hand before a strike.
    spells: tuple[PocketSpell, ...] = ()


def pocket_centres_mm(board: BoardModel) -> tuple[tuple[float, float], ...]:
    """Pocket centres (0-3 counter-clockwise from the first player's left); crokinole: the 20-hole."""
    if isinstance(board, CrokinoleBoard):
        return ((0.0, 0.0),)
    return board.pocket_centres_mm()


def pocket_radius_mm(board: BoardModel) -> float:
    if isinstance(board, CrokinoleBoard):
        return board.hole_diameter_mm / 2
    return board.pocket_diameter_mm / 2


class PocketWatch:
    """Per-frame share of changed pixels around each pocket, kept since the last `reset`.

    Parameters
    ----------
    homography : (3, 3) ndarray
        Board mm -> image px.
    board : BoardModel
    image_shape : (H, W) of the frames.
    """

    def __init__(self, homography: np.ndarray, *, board: BoardModel, image_shape: tuple[int, int]):
        centres_mm = np.array(pocket_centres_mm(board), float)
        radius_mm = pocket_radius_mm(board)
        centres_px = project(homography, centres_mm)
        edge_px = project(homography, centres_mm + [radius_mm, 0.0])
        radii_px = np.maximum(2.0, np.linalg.norm(edge_px - centres_px, axis=1))
        h, w = image_shape
        self._windows = []
        self._sizes: list[tuple[int, int]] = []  # pixels watched and around, per pocket
        self._mouths: list[np.ndarray] = []
        for (cx, cy), r in zip(centres_px, radii_px):
            inner, outer = r * WATCH_SCALE, r * AROUND_SCALE
            x0, y0 = max(0, int(cx - outer)), max(0, int(cy - outer))
            x1, y1 = min(w, int(np.ceil(cx + outer)) + 1), min(h, int(np.ceil(cy + outer)) + 1)
            yy, xx = np.mgrid[y0:y1, x0:x1]
            d2 = (xx - cx) ** 2 + (yy - cy) ** 2
            watched, around = d2 <= inner**2, (d2 > inner**2) & (d2 <= outer**2)
            self._windows.append((slice(y0, y1), slice(x0, x1), watched.astype(np.uint8), around.astype(np.uint8)))
            self._sizes.append((int(np.count_nonzero(watched)), int(np.count_nonzero(around))))
            self._mouths.append(d2 <= (MOUTH_SHARE * r) ** 2)
        self._previous: list[np.ndarray | None] = [None] * len(self._windows)
        # Running sums, not a history: memory stays flat however long the board moves.
        self._energy = np.zeros(len(self._windows))
        self._peak = np.full(len(self._windows), -1.0)
        self._peak_t_s: list[float | None] = [None] * len(self._windows)
        self._spells: list[deque[PocketSpell]] = [deque(maxlen=MAX_SPELLS) for _ in self._windows]
        self._spell_peak = np.zeros(len(self._windows))  # the largest change of each pocket's last spell ...
        self._spell_end_s = np.full(len(self._windows), -np.inf)  # ... and its last busy frame
        self._burst_peak = np.zeros(len(self._windows))  # the largest change of its last burst ...
        self._burst_trough = np.full(len(self._windows), np.inf)  # ... and the least since (inf: still rising)

    def update(self, image: np.ndarray, t_s: float) -> None:
        """Record the change around each pocket since the previous frame."""
        changes, raw = [], []
        for i, ((rows, cols, watched, around), (n_watched, n_around)) in enumerate(zip(self._windows, self._sizes)):
            patch = image[rows, cols].copy()
            previous = self._previous[i]
            if previous is None or previous.shape != patch.shape or not n_watched:
                changes.append(0.0)
                raw.append(0.0)
            else:
                blue, green, red = cv2.split(cv2.absdiff(patch, previous))
                changed = (cv2.max(cv2.max(blue, green), red) > PIXEL_CHANGE).view(np.uint8)
                beyond = cv2.countNonZero(changed & around) / n_around if n_around else 0.0
                inside = cv2.countNonZero(changed & watched) / n_watched
                raw.append(inside)
                changes.append(inside if beyond < ARM_SHARE else max(0.0, inside - beyond))
            self._previous[i] = patch
        if sum(change > BUSY_SHARE for change in raw) >= GLOBAL_POCKETS:
            return  # the whole picture moved (a bump before the tracker caught it) or the light changed
        for i, change in enumerate(changes):
            self._energy[i] += max(0.0, change - BUSY_SHARE)
            if change > self._peak[i]:
                self._peak[i], self._peak_t_s[i] = change, t_s
            if change > BUSY_SHARE:
                self._add_to_spell(i, change, t_s)

    def _add_to_spell(self, pocket: int, change: float, t_s: float) -> None:
        spells = self._spells[pocket]
        last = spells[-1] if spells else None
        if last is None or t_s - self._spell_end_s[pocket] > SPELL_GAP_S:
            spells.append(PocketSpell(t_s, change - BUSY_SHARE, peak=change))
            self._spell_peak[pocket] = self._burst_peak[pocket] = change
            self._burst_trough[pocket] = np.inf
        else:
            peak_t_s, tail = last.peak_t_s, max(last.tail, change)
            if change > self._spell_peak[pocket]:
                peak_t_s, self._spell_peak[pocket] = t_s, change
            if change >= self._spell_peak[pocket]:  # the tail follows the last frame as busy as the peak
                tail = 0.0
            spells[-1] = PocketSpell(peak_t_s, last.energy + change - BUSY_SHARE, peak=float(self._spell_peak[pocket]),
                                     tail=tail, bursts=last.bursts + self._burst(pocket, change))
        self._spell_end_s[pocket] = t_s

    def _burst(self, pocket: int, change: float) -> int:
        """1 when `change` begins a new burst of the pocket's spell (fell by `BURST_DIP`, rose as much), else 0."""
        peak, trough = self._burst_peak[pocket], self._burst_trough[pocket]
        if change < min(peak, trough):
            self._burst_trough[pocket] = change
        elif trough <= BURST_DIP * peak and change * BURST_DIP >= trough:
            self._burst_peak[pocket], self._burst_trough[pocket] = change, np.inf
            return 1
        elif change > peak:
            self._burst_peak[pocket], self._burst_trough[pocket] = change, np.inf
        return 0

    def moved(self, homography: np.ndarray, *, board: BoardModel, image_shape: tuple[int, int]) -> PocketWatch:
        """This watch for a new view of the board (bumped): the activity so far is kept."""
        watch = PocketWatch(homography, board=board, image_shape=image_shape)
        watch._energy, watch._peak, watch._peak_t_s = self._energy.copy(), self._peak.copy(), list(self._peak_t_s)
        watch._spells = [deque(b, maxlen=MAX_SPELLS) for b in self._spells]
        watch._spell_peak, watch._spell_end_s = self._spell_peak.copy(), self._spell_end_s.copy()
        watch._burst_peak, watch._burst_trough = self._burst_peak.copy(), self._burst_trough.copy()
        return watch

    def mouth(self, image: np.ndarray, pocket: int = 0) -> np.ndarray:
        """The pixels (n, 3) inside a pocket's own rim, e.g. to see a disc lying in the 20-hole."""
        rows, cols, _, _ = self._windows[pocket]
        return image[rows, cols][self._mouths[pocket]].astype(np.int16)

    def mouth_mask(self, image_shape: tuple[int, int], pocket: int = 0) -> np.ndarray:
        """A full-frame bool mask of the pixels `mouth` takes."""
        rows, cols, _, _ = self._windows[pocket]
        mask = np.zeros(image_shape, bool)
        mask[rows, cols] = self._mouths[pocket]
        return mask

    def surround(self, image: np.ndarray, pocket: int = 0) -> np.ndarray:
        """The pixels (n, 3) of the board in the wider ring around a pocket (its light, pieces aside)."""
        rows, cols, _, around = self._windows[pocket]
        return image[rows, cols][around > 0].astype(np.int16)

    def reset(self) -> None:
        """Forget the activity so far (call after each settled reading)."""
        self._energy[:] = 0.0
        self._peak[:] = -1.0
        self._peak_t_s = [None] * len(self._windows)
        for spells in self._spells:
            spells.clear()

    def activity(self) -> list[PocketActivity]:
        """Energy, peak time and spells busy of each pocket since the last reset."""
        return [PocketActivity(i, float(energy), self._peak_t_s[i] if energy > 0 else None,
                               self._peak_t_s[i] if self._peak[i] > 0 else None, tuple(self._spells[i]))
                for i, energy in enumerate(self._energy)]


class HoleWatch:
    """Crokinole: when a disc came to lie in the 20-hole, from the hole's look against its empty look.

    Each frame the hole's mouth is compared with the empty hole, in the light of the board
    around it now (the light changes during a match); a hole that goes from
    looking empty to looking full, and stays so for `HOLE_STEADY_S`, took a disc at the
    start of that stretch, unless it looks empty again within `HOLE_PASS_S` of it (a disc
    crept across). A full look that changes by as much again, as lastingly, is when the disc
    came: the first only just looked full. Every such entry since the last `reset` is kept,
    so a 20 taken out of the hole before the board settles is still seen, with whether the filled hole
    looked brighter than empty: a disc lighter than the hole came in (which colour it was,
    when two discs vanished at once). A disc lying over the mouth (a leaner) also fills it:
    the reading tells that apart.

    Parameters
    ----------
    pockets : PocketWatch
        The board's pocket watch (for crokinole, pocket 0 is the hole).
    empty : (H, W, 3) uint8 ndarray
        A frame with the hole empty, in the current view (e.g. the first frame of the round).
    """

    def __init__(self, pockets: PocketWatch, *, empty: np.ndarray):
        self._pockets = pockets
        self._empty = pockets.mouth(empty)
        self._empty_light = self._light(empty)
        self._gain = np.ones(3)  # the light now against the empty look's, per channel
        self.holding = False
        self.is_full = False
        self._since_s: float | None = None  # when the look last turned from what `holding` says
        self._entry_change = 0.0  # how far the look had changed when the last entry was noted
        self._deeper_since_s: float | None = None  # when a full look began changing as much again
        self._entries: list[float] = []
        self._brighter: list[bool] = []  # per entry: the filled hole looked brighter than empty

    def moved(self, pockets: PocketWatch, *, empty: np.ndarray) -> HoleWatch:
        """This watch for a new view of the board (bumped): what it saw so far is kept."""
        watch = HoleWatch(pockets, empty=empty)
        watch.holding, watch.is_full = self.holding, self.is_full
        watch._entries, watch._brighter = list(self._entries), list(self._brighter)
        watch._entry_change = self._entry_change
        return watch

    def update(self, image: np.ndarray, t_s: float) -> None:
        """Compare the hole with its empty look; note an entry once a filled look has lasted."""
        mouth = self._pockets.mouth(image)
        if mouth.shape != self._empty.shape or not len(mouth):
            return
        self._gain = self._light(image) / self._empty_light
        expected = np.minimum(self._empty * self._gain, 255.0)
        # The change in the empty look's light: a disc deep in the hole's shade under a dimmer lamp
        # differs from the hole by as little as the light is dimmer.
        change = (mouth - expected) / self._gain
        level = float(np.abs(change).max(axis=1).mean())
        self.is_full = level > HOLE_CHANGE
        if self.is_full == self.holding:
            self._since_s = None
            if self.holding and self._entries:
                self._retime_entry(level, change, t_s)
            return
        if self._since_s is None:
            self._since_s = t_s
        if t_s - self._since_s >= HOLE_STEADY_S - 1e-9:
            self.holding = self.is_full
            if self.holding:
                self._entries.append(self._since_s)
                self._brighter.append(float(change.mean()) > 0)
                self._entry_change, self._deeper_since_s = level, None
            elif self._entries and self._since_s - self._entries[-1] < HOLE_PASS_S:
                # Full for less time than a disc ever lies in it: one crept across the mouth.
                self._entries.pop()
                self._brighter.pop()
            self._since_s = None

    def _retime_entry(self, level: float, change: np.ndarray, t_s: float) -> None:
        """A full look changed by as much again, lastingly: the last entry came then, as it looks now.

        What filled it first only just looked so (simulated clip 5132 at 9.7 s: the shooter's reach changed the look
        from 26 to 34 as the disc was set down; it fell in 1.3 s later, to 116).
        """
        if level - self._entry_change <= HOLE_CHANGE:
            self._deeper_since_s = None
            return
        if self._deeper_since_s is None:
            self._deeper_since_s = t_s
        if t_s - self._deeper_since_s >= HOLE_STEADY_S - 1e-9:
            self._entries[-1], self._brighter[-1] = self._deeper_since_s, float(change.mean()) > 0
            self._entry_change, self._deeper_since_s = level, None

    def _light(self, image: np.ndarray) -> np.ndarray:
        """The board's colour around the hole (per channel, never 0); an even grey where none is in view."""
        around = self._pockets.surround(image)
        return np.median(around, axis=0) + 1.0 if len(around) else np.ones(3)

    @property
    def is_dark(self) -> bool:
        """Whether the empty hole looks dark, in the light now (a dark disc in it, deep in its shade, leaves it so)."""
        return bool(len(self._empty)) and float((np.median(self._empty, axis=0) * self._gain).max()) <= HOLE_DARK

    def entries(self) -> tuple[float, ...]:
        """When a disc came to lie in the hole, each time since the last reset."""
        return tuple(self._entries)

    def brighter(self) -> tuple[bool, ...]:
        """Per entry: whether the filled hole looked brighter than empty (the disc is lighter than the hole)."""
        return tuple(self._brighter)

    def reset(self) -> None:
        self._entries, self._brighter = [], []


class DitchWatch:
    """Crokinole: discs that went into the ditch, and when they landed there.

    Two measures. Per frame, the free motion seen in each sector of the ditch and the
    surface's edge beside it (not under an arm: the gate's free change): every spell of it is kept, since a hand passing over
    a sector before the shot must not hide the landing that comes after. At a settled
    view, how many discs lie in each sector: the ditch compared with its empty look (the
    first sight of the board). A disc that arrives at a settle was knocked off (or put
    there by hand); when it came is the last spell of motion in its sector.

    Parameters
    ----------
    homography : (3, 3) ndarray
        Board mm -> image px.
    board : CrokinoleBoard
    shrink : callable
        A full-frame mask into the small view the free change is measured in (`SettleGate.shrink`).
    image_shape : (H, W) of the frames.
    empty : (H, W, 3) uint8 ndarray, optional
        A frame with the ditch empty, in the current view; without one, discs lying there are not counted.
    """

    def __init__(self, homography: np.ndarray, *, board: CrokinoleBoard, shrink, image_shape: tuple[int, int],
                 empty: np.ndarray | None = None):
        angles = np.linspace(0, 2 * np.pi, DITCH_SECTORS + 1)
        inner, outer = board.surface_radius_mm, board.surface_radius_mm + board.ditch_width_mm
        self._angles = (angles[:-1] + angles[1:]) / 2
        labels = None
        full_labels = np.full(image_shape, DITCH_SECTORS, np.intp)
        for sector, (a0, a1) in enumerate(zip(angles[:-1], angles[1:])):
            arc = np.linspace(a0, a1, 8)
            # Motion is watched from just inside the surface's edge: a disc entering the ditch
            # touches the frame beside it, which makes its change an arm's, not free.
            outline = np.concatenate([np.column_stack([np.cos(arc), np.sin(arc)]) * (inner - DITCH_APPROACH_MM),
                                      np.column_stack([np.cos(arc[::-1]), np.sin(arc[::-1])]) * outer])
            small = shrink(_fill(project(homography, outline), image_shape))
            if labels is None:
                labels = np.full(small.shape, DITCH_SECTORS, np.intp)
            labels[small] = sector
            # Lying discs are counted clear of the ditch's edges, which a slight parallax shifts.
            lying = np.concatenate([np.column_stack([np.cos(arc), np.sin(arc)]) * (inner + DITCH_EDGE_MM),
                                    np.column_stack([np.cos(arc[::-1]), np.sin(arc[::-1])]) * (outer - DITCH_EDGE_MM)])
            full_labels[_fill(project(homography, lying), image_shape)] = sector
        self._labels = labels
        sizes = np.bincount(labels.ravel(), minlength=DITCH_SECTORS + 1)[:DITCH_SECTORS]
        self._min_px = np.maximum(2, DITCH_LANDING_SHARE * sizes)
        self._active = np.zeros(DITCH_SECTORS, bool)
        self._spells: deque[tuple[float, int]] = deque(maxlen=DITCH_MAX_SPELLS)
        where = np.flatnonzero(full_labels.ravel() < DITCH_SECTORS)
        self._pixels = where[np.argsort(full_labels.ravel()[where], kind="stable")]
        self._sector_of_pixel = full_labels.ravel()[self._pixels]
        self._sector_px = np.bincount(self._sector_of_pixel, minlength=DITCH_SECTORS).astype(float)
        sector_mm2 = np.pi * ((outer - DITCH_EDGE_MM) ** 2 - (inner + DITCH_EDGE_MM) ** 2) / DITCH_SECTORS
        self._disc_share = np.pi * (board.disc_diameter_mm / 2) ** 2 / sector_mm2
        self._empty = None if empty is None else self._ring(empty)
        # Any change of the ditch itself (arms too), on a sample of its pixels: a disc put there by hand
        # touches the frame beside it, so its change is never free.
        self._sample = self._pixels[::DITCH_SAMPLE_STEP]
        self._sample_sector = self._sector_of_pixel[::DITCH_SAMPLE_STEP]
        self._sample_min_px = np.maximum(2, DITCH_LANDING_SHARE * np.bincount(self._sample_sector,
                                                                              minlength=DITCH_SECTORS))
        self._previous_sample: np.ndarray | None = None
        self._changing = np.zeros(DITCH_SECTORS, bool)
        self._changes: deque[tuple[float, int]] = deque(maxlen=DITCH_MAX_SPELLS)

    def _ring(self, image: np.ndarray) -> np.ndarray:
        return image.reshape(-1, image.shape[2])[self._pixels].astype(np.float32)

    def update(self, free_change: np.ndarray | None, t_s: float, image: np.ndarray | None = None) -> None:
        """Record the sectors where something moved on its own in this frame (the gate's `free_change`),
        and, given the frame (`image`), where the ditch changed at all."""
        if image is not None:
            sample = image.reshape(-1, image.shape[2])[self._sample].astype(np.int16)
            if self._previous_sample is not None:
                changed = np.abs(sample - self._previous_sample).max(axis=1) > PIXEL_CHANGE
                counts = np.bincount(self._sample_sector[changed], minlength=DITCH_SECTORS)
                changing = counts >= self._sample_min_px
                for sector in np.flatnonzero(changing & ~self._changing):
                    self._changes.append((t_s, int(sector)))
                self._changing = changing
            self._previous_sample = sample
        if free_change is None:
            self._active[:] = False
            return
        counts = np.bincount(self._labels[free_change], minlength=DITCH_SECTORS + 1)[:DITCH_SECTORS]
        active = counts >= self._min_px
        for sector in np.flatnonzero(active & ~self._active):
            self._spells.append((t_s, int(sector)))
        self._active = active

    def landings(self) -> tuple[tuple[float, float], ...]:
        """(t_s, angle in radians on the board) of each spell of motion in a sector since the last reset."""
        return tuple((t_s, float(self._angles[sector])) for t_s, sector in self._spells)

    def changes(self) -> tuple[tuple[float, float], ...]:
        """(t_s, angle) of each spell of any change of the ditch in a sector (arms too) since the last reset."""
        return tuple((t_s, float(self._angles[sector])) for t_s, sector in self._changes)

    def discs(self, image: np.ndarray) -> tuple[float, ...]:
        """How many discs lie in each sector of the ditch in `image` (fractions: a disc across two sectors).

        Pixels unlike the empty ditch, once each sector's light is divided out (the median
        of a sector is its ditch, since a disc covers a small share of it), over a disc's
        share of the sector. Empty when no empty look was given.
        """
        if self._empty is None:
            return ()
        now = self._ring(image)
        bounds = np.concatenate([[0], np.cumsum(self._sector_px).astype(int)])
        changed = np.zeros(DITCH_SECTORS)
        for sector in range(DITCH_SECTORS):
            part, empty = now[bounds[sector]:bounds[sector + 1]], self._empty[bounds[sector]:bounds[sector + 1]]
            if not len(part):
                continue
            gain = (np.median(part, axis=0) + 1) / (np.median(empty, axis=0) + 1)
            unlike = np.abs(part - np.minimum(empty * gain, 255)).max(axis=1) > DITCH_DISC_CHANGE
            changed[sector] = np.count_nonzero(unlike) / len(part)
        return tuple(float(v) for v in changed / self._disc_share)

    def reset(self) -> None:
        self._spells.clear()
        self._changes.clear()


def board_masks(homography: np.ndarray, *, board: BoardModel, image_shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The playing surface and the rim (where only arms appear) as image masks.

    The rim is the board's frame: for crokinole beyond the ditch, where discs fly.
    """
    if isinstance(board, CrokinoleBoard):
        inner_mm = board.surface_radius_mm
        rim_from_mm = inner_mm + board.ditch_width_mm
        rim_to_mm = rim_from_mm + board.frame_width_mm
        angles = np.linspace(0, 2 * np.pi, 96, endpoint=False)
        ring = np.column_stack([np.cos(angles), np.sin(angles)])
        outlines = [ring * inner_mm, ring * rim_from_mm, ring * rim_to_mm]
    else:
        h = board.half_side_mm
        square = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], float)
        outlines = [square * h, square * h, square * (h + board.frame_width_mm)]
    surface, rim_inner, rim_outer = (_fill(project(homography, o), image_shape) for o in outlines)
    return surface, (rim_outer & ~rim_inner) | _edge_band(surface, image_shape)


def approach_mask(homography: np.ndarray, *, board: BoardModel, image_shape: tuple[int, int]) -> np.ndarray:
    """The table around the board, `APPROACH_MM` deep beyond its outer edge, as an image mask.

    Arms reaching in cross it; a piece knocked off onto it is far smaller than an arm.
    """
    if isinstance(board, CrokinoleBoard):
        outer_mm = board.surface_radius_mm + board.ditch_width_mm + board.frame_width_mm
        angles = np.linspace(0, 2 * np.pi, 96, endpoint=False)
        shape = np.column_stack([np.cos(angles), np.sin(angles)])
    else:
        outer_mm = board.half_side_mm + board.frame_width_mm
        shape = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], float)
    inner, outer = (_fill(project(homography, shape * r_mm), image_shape)
                    for r_mm in (outer_mm, outer_mm + APPROACH_MM))
    return outer & ~inner


def _edge_band(surface: np.ndarray, image_shape: tuple[int, int]) -> np.ndarray:
    """The surface along the picture's edge: where the frame is out of view, arms come in there."""
    band_px = max(2, round(EDGE_BAND_FRACTION * min(image_shape)))
    inner = np.zeros(image_shape, bool)
    inner[band_px:-band_px, band_px:-band_px] = True
    return surface & ~inner


def _fill(points_px: np.ndarray, image_shape: tuple[int, int]) -> np.ndarray:
    mask = np.zeros(image_shape, np.uint8)
    cv2.fillPoly(mask, [np.round(points_px).astype(np.int32)], 1)
    return mask > 0
