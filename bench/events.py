"""Events benchmark: simulated match clips through `analyze`, against their truth. Prints tables.

For each clip up to three runs, so that each stage's share of the errors shows:
  truth-eyes  the simulator's truth as locator and reader: settling, timing, pockets, inference alone
  reader      truth homography, the real piece reader
  full        the real locator, tracker and reader (what `boardreader analyze` does)

Per game and mode: event precision and recall (same type and piece within 0.75 s),
observations that match no true event drawn from a view taken while a hand was over the
board (`bench/hand_cover.py`), the settled readings taken so (the gate should hold them all), the
share of log entries (strokes, rounds) exactly as in the truth, of finished boards
(carrom), rounds (crokinole) or games (couronne) whose score is exact (`bench/score_units.py`),
of clips whose whole log is exact, and of clips whose score (the rules engine's result) is
exact: with `--boards 0` each clip is a whole match, and that column is the matches exact.
Speed: frames per second of each run against pure decoding of the same file, measured in the same run.
Clips are rendered once into `--cache` (reused by later runs); `--save` keeps each clip's
figures so that runs in several parts can be tabled together with `--load`.

    .venv/bin/python bench/events.py --seeds 910 911 --strokes 6 --resolution 1280x720 --cache /tmp/clips
    .venv/bin/python bench/events.py --seeds 930 931 --boards 1 --strokes 0 --resolution 960x540 --cache /tmp/clips
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.event_matching import EVENT_TYPES, unmatched_events  # noqa: E402
from bench.hand_cover import HandCover  # noqa: E402
from bench.score_units import UNIT_NAMES, units_exact  # noqa: E402
from bench.truth_playback import TruthPlayback  # noqa: E402
from boardreader.analysis_run import AnalysisRun  # noqa: E402
from vision.sources import VideoFileSource  # noqa: E402

MODES = ("truth-eyes", "reader", "full")
SCORING_KEYS = ("pocketed", "striker", "shooter_pocketed", "shooter_off_board", "off_board", "discs", "twenties")


def clip_name(*, strokes: int, boards: int) -> str:
    """How a clip is cut: '6s' (6 strokes of a first board), '1b' (a whole board), 'match'."""
    if boards == 0:
        return "match" if strokes == 0 else f"{strokes}s_match"
    if strokes == 0:
        return f"{boards}b"
    return f"{strokes}s" if boards == 1 else f"{strokes}s_{boards}b"


def simulate(game: str, seed: int, *, strokes: int, boards: int, resolution: str, difficulty: str,
             cache: Path) -> Path:
    """The clip's folder in `cache`, rendered first when it is not there yet.

    `strokes` 0: no limit; `boards` 0: the whole match (couronne plays one game in any case).
    """
    out = cache / f"{game}_{seed}_{clip_name(strokes=strokes, boards=boards)}_{resolution}_{difficulty}"
    if (out / "video.mp4").is_file():
        return out
    partial = out.with_suffix(".partial")
    cut = (["--boards", str(boards)] if boards and game != "couronne" else []) + (
        ["--strokes", str(strokes)] if strokes else [])
    subprocess.run([sys.executable, "-m", "boardreader", "simulate", "--game", game, "--seed", str(seed), *cut,
                    "--resolution", resolution, "--difficulty", difficulty, "--out", str(partial)],
                   check=True, capture_output=True)
    partial.rename(out)
    return out


def decode_fps(video: Path) -> float:
    start, frames = time.perf_counter(), 0
    for _ in VideoFileSource(video):
        frames += 1
    return frames / (time.perf_counter() - start)


def analyse(clip: Path, mode: str, out: Path) -> tuple[dict, float, list[float]]:
    truth = TruthPlayback(clip)
    options = {}
    if mode != "full":
        options["locate"] = truth.locate
    if mode == "truth-eyes":
        options["read"] = truth.read
    # The truth reader answers for the frame at hand: it reads at once; the real one in the background.
    run = AnalysisRun(truth.truth["game"], truth.truth["event_log"][0], out=out,
                      read_in_background=mode != "truth-eyes", **options)
    start = time.perf_counter()
    for frame in VideoFileSource(clip / "video.mp4"):
        truth.t_s = frame.t_s
        run.update(frame)
    summary = run.finish()
    return summary, summary["frames"] / (time.perf_counter() - start), run.readings_t_s


def log_entries(entries: list[dict]) -> list[tuple]:
    """What scores in a log: strokes' pockets and striker, or rounds' discs and 20s."""
    return [tuple(json.dumps(e.get(k), sort_keys=True) for k in SCORING_KEYS) for e in entries if e["type"] != "match"]


def score_clip(clip: Path, out: Path, readings_t_s: list[float]) -> dict:
    truth = json.loads((clip / "truth.json").read_text())
    cover = HandCover(truth)
    observed = [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]
    false, missed = unmatched_events(observed, truth["events"])
    n_observed = sum(o["type"] in EVENT_TYPES for o in observed)
    ours = log_entries([json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()])
    true_log = log_entries(truth["event_log"])
    result = json.loads((out / "score.json").read_text())
    units, units_true = units_exact(result, truth["score"])
    return {
        "true": sum(e["type"] in EVENT_TYPES for e in truth["events"]),
        "seen": n_observed,
        "matched": n_observed - len(false),
        "false": false,
        "missed": missed,
        # Drawn from a view taken while a hand was over the board (its fingertip over the frame or closer).
        "false_under_hand": sum(cover.over_board(o.get("seen_t", o["t"])) for o in false),
        "readings": len(readings_t_s),
        "readings_under_hand": sum(cover.over_board(t_s) for t_s in readings_t_s),
        "entries": len(true_log),
        "entries_exact": sum(a == b for a, b in zip(ours, true_log)),
        "units": units_true,
        "units_exact": units,
        # A clip too short for one crokinole round has nothing to score: it counts for neither.
        "log_exact": (ours == true_log) if true_log else None,
        "score_exact": (result == truth["score"]) if true_log else None,
    }


def ratio(numerator: int, denominator: int) -> str:
    return f"{numerator / denominator:.1%}" if denominator else "n/a"


def print_tables(rows: list[tuple[str, int, str, dict, float, float]], *, per_clip: bool) -> None:
    flag = {None: "n/a", True: "yes", False: "no"}
    if per_clip:
        print(f"{'game':10} {'seed':>5} {'clip':>6} {'mode':10} {'true':>5} {'seen':>5} {'match':>5} {'prec':>6}"
              f" {'recall':>6} {'hand!':>5} {'read!':>9} {'entries':>9} {'units':>7} {'log':>5} {'score':>5} {'fps':>6}"
              f" {'decode':>7} {'ratio':>6}")
        for game, seed, mode, s, fps, decoding in rows:
            print(f"{game:10} {seed:>5} {s.get('clip', '?'):>6} {mode:10} {s['true']:>5} {s['seen']:>5}"
                  f" {s['matched']:>5} {ratio(s['matched'], s['seen']):>6} {ratio(s['matched'], s['true']):>6}"
                  f" {s['false_under_hand']:>5} {s.get('readings_under_hand', 0):>4}/{s.get('readings', 0):<4}"
                  f" {s['entries_exact']:>4}/{s['entries']:<4}"
                  f" {s.get('units_exact', 0):>3}/{s.get('units', 0):<3} {flag[s['log_exact']]:>5}"
                  f" {flag[s['score_exact']]:>5} {fps:>6.1f} {decoding:>7.1f} {fps / decoding:>6.2f}")
        print()
    totals: dict[tuple[str, str, str], list] = defaultdict(list)
    for game, seed, mode, s, fps, decoding in rows:
        totals[(game, s.get("clip", "?"), mode)].append((seed, s, fps, decoding))
    print(f"{'game':10} {'clip':>6} {'mode':10} {'clips':>5} {'true':>5} {'seen':>5} {'prec':>6} {'recall':>6}"
          f" {'hand!':>5} {'read!':>9} {'entries':>7} {'units':>15} {'logs':>6} {'scores':>6} {'fps':>6}"
          f" {'ratio':>6}  seeds")
    for (game, clip, mode), items in totals.items():
        stats = [s for _, s, _, _ in items]
        n_true, n_seen = sum(s["true"] for s in stats), sum(s["seen"] for s in stats)
        matched = sum(s["matched"] for s in stats)
        logs = [s["log_exact"] for s in stats if s["log_exact"] is not None]
        scores = [s["score_exact"] for s in stats if s["score_exact"] is not None]
        units, units_true = sum(s.get("units_exact", 0) for s in stats), sum(s.get("units", 0) for s in stats)
        fps = sum(f for _, _, f, _ in items) / len(items)
        speed = sum(f / d for _, _, f, d in items) / len(items)
        print(f"{game:10} {clip:>6} {mode:10} {len(items):>5} {n_true:>5} {n_seen:>5} {ratio(matched, n_seen):>6}"
              f" {ratio(matched, n_true):>6} {sum(s['false_under_hand'] for s in stats):>5}"
              f" {sum(s.get('readings_under_hand', 0) for s in stats):>4}/{sum(s.get('readings', 0) for s in stats):<4}"
              f" {ratio(sum(s['entries_exact'] for s in stats), sum(s['entries'] for s in stats)):>7}"
              f" {ratio(units, units_true):>6} {units:>3}/{units_true:<3} {UNIT_NAMES[game][0]}"
              f" {ratio(sum(logs), len(logs)):>6} {ratio(sum(scores), len(scores)):>6} {fps:>6.1f} {speed:>6.2f}"
              f"  {seed_ranges(sorted(seed for seed, _, _, _ in items))}")
    print(f"events: same type and piece within 0.75 s; types {', '.join(EVENT_TYPES)}. hand!: false observations"
          " drawn from a view with a hand over the board (fingertip over the frame); read!: settled readings taken"
          " with a hand over the board, of all. entries: log entries exact; units: finished boards (b), rounds (r)"
          " or games (g) with the exact score; logs, scores: clips exact (clip 'match': whole matches).")


def seed_ranges(seeds: list[int]) -> str:
    """[1, 2, 3, 7] -> '1-3 7'."""
    parts: list[list[int]] = []
    for seed in seeds:
        if parts and seed == parts[-1][1] + 1:
            parts[-1][1] = seed
        else:
            parts.append([seed, seed])
    return " ".join(str(a) if a == b else f"{a}-{b}" for a, b in parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["carrom", "crokinole", "couronne"])
    parser.add_argument("--seeds", nargs="+", type=int, default=[901])
    parser.add_argument("--strokes", type=int, default=8, help="strokes or shots per clip; 0: no limit")
    parser.add_argument("--boards", type=int, default=1, help="boards or rounds per clip; 0: the whole match")
    parser.add_argument("--resolution", default="1280x720")
    parser.add_argument("--difficulty", default="medium")
    parser.add_argument("--modes", nargs="+", default=list(MODES), choices=MODES)
    parser.add_argument("--cache", type=Path, help="folder keeping rendered clips between runs (default: none)")
    parser.add_argument("--keep", type=Path, help="folder keeping each run's outputs (default: none)")
    parser.add_argument("--per-clip", action="store_true", help="also print a row per clip and mode")
    parser.add_argument("--errors", action="store_true", help="list the false and missed events")
    parser.add_argument("--save", type=Path, help="also append each clip's figures to this JSON-lines file")
    parser.add_argument("--load", type=Path, nargs="+", help="print the tables of saved figures instead of running")
    args = parser.parse_args()
    if args.load:
        rows = [tuple(json.loads(line)) for path in args.load for line in path.read_text().splitlines()]
        print_tables(rows, per_clip=args.per_clip)
        return
    if args.strokes < 0 or args.boards < 0:
        parser.error("--strokes and --boards must be 0 or more")
    rows = []
    clip_kind = clip_name(strokes=args.strokes, boards=args.boards)
    with tempfile.TemporaryDirectory() as tmp:
        cache = args.cache or Path(tmp)
        cache.mkdir(parents=True, exist_ok=True)
        outputs = args.keep or Path(tmp)
        for game in args.games:
            for seed in args.seeds:
                clip = simulate(game, seed, strokes=args.strokes, boards=args.boards, resolution=args.resolution,
                                difficulty=args.difficulty, cache=cache)
                decoding = decode_fps(clip / "video.mp4")
                for mode in args.modes:
                    out = outputs / f"{clip.name}_{mode}"
                    out.mkdir(parents=True, exist_ok=True)
                    _, fps, readings_t_s = analyse(clip, mode, out)
                    stats = score_clip(clip, out, readings_t_s) | {"clip": clip_kind}
                    rows.append((game, seed, mode, stats, fps, decoding))
                    if args.save:
                        with args.save.open("a", encoding="utf-8") as saved:
                            saved.write(json.dumps(rows[-1]) + "\n")
                    if args.errors and (stats["false"] or stats["missed"] or stats["units_exact"] < stats["units"]):
                        print(f"{game} {seed} {mode}: {stats['units_exact']}/{stats['units']} {UNIT_NAMES[game]}"
                              f" exact\n    false {stats['false']}\n    missed {stats['missed']}", flush=True)
    print_tables(rows, per_clip=args.per_clip)


if __name__ == "__main__":
    main()
