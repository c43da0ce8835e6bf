"""Memory of `analyze` over a long video: a clip played again and again as one long input. Prints a table.

The frames of the clip are fed through the whole analysis (locator, tracker, gate,
pockets, reader, inference, recorder, files) over and over with time running on,
as one video of `--minutes` minutes. The process's resident memory is printed
every `--every-s` seconds of video, with the slope after the first minute and what
that slope would add over two hours.

    .venv/bin/python bench/analyze_memory.py sample_images/demo/carrom/video.mp4 --game carrom --minutes 5
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boardreader.analysis_run import AnalysisRun, match_line_for  # noqa: E402
from vision.sources import Frame, VideoFileSource  # noqa: E402


def resident_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def looped(video: Path, *, duration_s: float) -> Iterator[Frame]:
    """The clip's frames again and again, indexes and times running on, for `duration_s` seconds."""
    index, offset_s = 0, 0.0
    while True:
        last_t_s = 0.0
        for frame in VideoFileSource(video):
            t_s = offset_s + frame.t_s
            if t_s >= duration_s:
                return
            yield Frame(index, t_s, frame.image)
            index += 1
            last_t_s = frame.t_s
        offset_s += last_t_s + 1 / 30


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("video", type=Path)
    parser.add_argument("--game", required=True, choices=("carrom", "crokinole", "couronne"))
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--every-s", type=float, default=30.0)
    args = parser.parse_args()
    samples: list[tuple[float, float]] = []
    print(f"{'video s':>8} {'frames':>7} {'RSS MB':>7} {'observations':>12} {'wall s':>7}")
    with tempfile.TemporaryDirectory() as out:
        run = AnalysisRun(args.game, match_line_for(args.game), out=Path(out), read_in_background=True)
        start, next_s = time.perf_counter(), 0.0
        for frame in looped(args.video, duration_s=args.minutes * 60):
            run.update(frame)
            if frame.t_s >= next_s:
                samples.append((frame.t_s, resident_mb()))
                print(f"{frame.t_s:>8.0f} {run.frames:>7} {samples[-1][1]:>7.1f} {len(run.observations):>12}"
                      f" {time.perf_counter() - start:>7.0f}", flush=True)
                next_s += args.every_s
        run.finish()
    later = np.array([s for s in samples if s[0] >= 60.0])
    if len(later) >= 2:
        slope_mb_per_h = float(np.polyfit(later[:, 0], later[:, 1], 1)[0]) * 3600
        print(f"slope after the first minute: {slope_mb_per_h:+.1f} MB per hour of video;"
              f" over two hours: {2 * slope_mb_per_h:+.1f} MB (extrapolated from {args.minutes:g} min)")


if __name__ == "__main__":
    main()
