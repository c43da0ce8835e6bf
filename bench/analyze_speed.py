"""Speed of `analyze` against pure decoding of the same file, side by side in one run. Prints a table.

Decoding alone and the full analysis (locate, track, gate, pockets, reads, events,
files; as `boardreader analyze` runs it, without --annotate) take turns on the same
file, `--rounds` times each; the table shows every turn (with the settled reads and
the seconds they took) and the ratio of the medians.

    .venv/bin/python bench/analyze_speed.py CLIP_DIR_OR_VIDEO --game carrom
    .venv/bin/boardreader simulate --game carrom --seed 950 --boards 1 --strokes 12 \\
        --resolution 1920x1080 --out /tmp/c1080   # a 1080p 30 fps H.264 clip to run it on
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boardreader.analysis_run import AnalysisRun, match_line_for  # noqa: E402
from vision.sources import VideoFileSource  # noqa: E402


def decode_fps(video: Path) -> float:
    start, frames = time.perf_counter(), 0
    for _ in VideoFileSource(video):
        frames += 1
    return frames / (time.perf_counter() - start)


def analyze_fps(video: Path, game: str) -> tuple[float, int, float]:
    """Frames per second of a whole analysis, the number of settled reads, seconds spent reading."""
    with tempfile.TemporaryDirectory() as out:
        run = AnalysisRun(game, match_line_for(game), out=Path(out), read_in_background=True)
        read = run.analyzer.read
        spent = [0.0, 0]

        def timed_read(*args, **kwargs):
            start = time.perf_counter()
            try:
                return read(*args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - start
                spent[1] += 1

        run.analyzer.read = timed_read
        start, frames = time.perf_counter(), 0
        for frame in VideoFileSource(video):
            run.update(frame)
            frames += 1
        run.finish()
        return frames / (time.perf_counter() - start), spent[1], spent[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("clip", type=Path, help="a video, or a `boardreader simulate` folder holding video.mp4")
    parser.add_argument("--game", required=True, choices=("carrom", "crokinole", "couronne"))
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    video = args.clip / "video.mp4" if args.clip.is_dir() else args.clip
    decoding, analysing = [], []
    print(f"{'turn':>4} {'decode fps':>10} {'analyze fps':>11} {'reads':>5} {'read s':>6}")
    for turn in range(args.rounds):
        decoding.append(decode_fps(video))
        fps, reads, read_s = analyze_fps(video, args.game)
        analysing.append(fps)
        print(f"{turn:>4} {decoding[-1]:>10.1f} {fps:>11.1f} {reads:>5} {read_s:>6.2f}")
    ratio = statistics.median(analysing) / statistics.median(decoding)
    print(f"median: decode {statistics.median(decoding):.1f} fps, analyze {statistics.median(analysing):.1f} fps,"
          f" ratio {ratio:.2f} (target >= 0.5)")


if __name__ == "__main__":
    main()
