"""Events benchmark: simulated match clips through `analyze`, against their truth. Prints a table.

For each clip three runs, so that each stage's share of the errors shows:
  truth-eyes  the simulator's truth as locator and reader: settling, timing, pockets, inference alone
  reader      truth homography, the real piece reader
  full        the real locator, tracker and reader (what `boardreader analyze` does)
Speed: frames per second of the full run against pure decoding of the same file, measured in the same run.

    .venv/bin/python bench/events.py --seeds 901 902 --strokes 8 --resolution 1280x720
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.event_matching import EVENT_TYPES, match_events  # noqa: E402
from bench.truth_playback import TruthPlayback  # noqa: E402
from boardreader.analysis_run import AnalysisRun  # noqa: E402
from vision.sources import VideoFileSource  # noqa: E402

MODES = ("truth-eyes", "reader", "full")


def simulate(game: str, seed: int, *, strokes: int, resolution: str, difficulty: str, out: Path) -> Path:
    subprocess.run([sys.executable, "-m", "boardreader", "simulate", "--game", game, "--seed", str(seed),
                    "--boards", "1", "--strokes", str(strokes), "--resolution", resolution,
                    "--difficulty", difficulty, "--out", str(out)], check=True, capture_output=True)
    return out


def decode_fps(video: Path) -> float:
    start, frames = time.perf_counter(), 0
    for _ in VideoFileSource(video):
        frames += 1
    return frames / (time.perf_counter() - start)


def analyse(clip: Path, mode: str, out: Path) -> tuple[dict, float]:
    truth = TruthPlayback(clip)
    options = {}
    if mode != "full":
        options["locate"] = truth.locate
    if mode == "truth-eyes":
        options["read"] = truth.read
    run = AnalysisRun(truth.truth["game"], truth.truth["event_log"][0], out=out, **options)
    start = time.perf_counter()
    for frame in VideoFileSource(clip / "video.mp4"):
        truth.t_s = frame.t_s
        run.update(frame)
    summary = run.finish()
    return summary, summary["frames"] / (time.perf_counter() - start)


def log_entries(entries: list[dict]) -> list[tuple]:
    """What scores in a log: strokes' pockets and striker, or rounds' discs and 20s."""
    keep = ("pocketed", "striker", "shooter_pocketed", "shooter_off_board", "discs", "twenties")
    return [tuple(json.dumps(e.get(k), sort_keys=True) for k in keep) for e in entries if e["type"] != "match"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["carrom", "crokinole", "couronne"])
    parser.add_argument("--seeds", nargs="+", type=int, default=[901])
    parser.add_argument("--strokes", type=int, default=8)
    parser.add_argument("--resolution", default="1280x720")
    parser.add_argument("--difficulty", default="medium")
    parser.add_argument("--modes", nargs="+", default=list(MODES), choices=MODES)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games:
            for seed in args.seeds:
                clip = simulate(game, seed, strokes=args.strokes, resolution=args.resolution,
                                difficulty=args.difficulty, out=Path(tmp) / f"{game}_{seed}")
                truth = json.loads((clip / "truth.json").read_text())
                decoding = decode_fps(clip / "video.mp4")
                for mode in args.modes:
                    out = Path(tmp) / f"{game}_{seed}_{mode}"
                    out.mkdir()
                    summary, fps = analyse(clip, mode, out)
                    observed = [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]
                    matched, n_obs, n_true = match_events(observed, truth["events"])
                    ours = log_entries([json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()])
                    true_log = log_entries(truth["event_log"])
                    # A clip too short for one crokinole round has nothing to score: say so.
                    exact = str(ours == true_log) if true_log else "n/a"
                    rows.append((game, seed, mode, n_true, n_obs, matched,
                                 matched / n_obs if n_obs else 1.0, matched / n_true if n_true else 1.0,
                                 exact, fps, decoding))
    print(f"{'game':10} {'seed':>5} {'mode':10} {'true':>5} {'seen':>5} {'match':>5} {'prec':>6} {'recall':>6}"
          f" {'log exact':>9} {'fps':>6} {'decode':>7} {'ratio':>6}")
    for game, seed, mode, n_true, n_obs, matched, precision, recall, exact, fps, decoding in rows:
        print(f"{game:10} {seed:>5} {mode:10} {n_true:>5} {n_obs:>5} {matched:>5} {precision:>6.1%} {recall:>6.1%}"
              f" {exact:>9} {fps:>6.1f} {decoding:>7.1f} {fps / decoding:>6.2f}")
    print(f"events: same type and piece within 0.75 s; types {', '.join(EVENT_TYPES)}")


if __name__ == "__main__":
    main()
