"""Simulation speed: whole matches per game and seed, without rendering.

Prints a table: whether the match reached its end, how many boards (carrom),
rounds (crokinole) or games (couronne) it had, strokes, seconds of play, CPU
seconds and seconds of play per CPU second.

    .venv/bin/python bench/simulate_speed.py [--seeds 1 2 3] [--fps 30]
"""

from __future__ import annotations

import argparse
import time

from boardreader.commands.simulate import play
from calibration.geometry import GAMES, load_board


def _units(timeline) -> int:
    if timeline.game == "carrom":
        return sum(len(game["boards"]) for game in timeline.score.get("games", []))
    if timeline.game == "crokinole":
        return sum(e["type"] == "round" for e in timeline.event_log)
    return 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--fps", type=float, default=30.0)
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    args = parser.parse_args()
    header = f"{'game':10} {'seed':>4} {'winner':>7} {'units':>5} {'strokes':>7} {'play s':>8} {'cpu s':>7} {'play/cpu':>8}"
    print(header)
    print("-" * len(header))
    for game in args.games:
        board = load_board(game)
        for seed in args.seeds:
            start = time.process_time()
            timeline = play(board, seed=seed, fps=args.fps)
            cpu_s = time.process_time() - start
            play_s = timeline.frames[-1].t_s if timeline.frames else 0.0
            winner = timeline.score.get("winner")
            print(f"{game:10} {seed:>4} {str(winner):>7} {_units(timeline):>5} {len(timeline.shots):>7} "
                  f"{play_s:>8.0f} {cpu_s:>7.1f} {play_s / cpu_s:>8.0f}")


if __name__ == "__main__":
    main()
