"""Rendering speed of the simulator's camera: one still per game and a 10 s clip.

Run: ``.venv/bin/python bench/film_speed.py [--resolution 1920x1080] [--seconds 10] [--fps 30]``
Prints a table of wall-clock seconds and CPU seconds (this process and the encoder
it starts; on a shared machine the wall clock depends on the other users).
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from calibration.geometry import load_board
from simulation.film import film_still, film_video
from simulation.scene import PieceState, SceneFrame, Shot, Timeline


def carrom_timeline(board, *, seconds: float, fps: float) -> Timeline:
    """Coins in the centre, the striker shot across the board every 2.5 s (a hand for each shot)."""
    r = board.coin_diameter_mm / 2
    coins = [PieceState(0, "queen", 0.0, 0.0, r)]
    for ring in (1, 2):
        for i in range(6 * ring):
            a = 2 * math.pi * i / (6 * ring)
            coins.append(PieceState(len(coins), "white" if len(coins) % 2 else "black", 2 * r * ring * math.cos(a), 2 * r * ring * math.sin(a), r))
    base_y = -(board.half_side_mm - board.base_line_inset_mm - board.base_line_gap_mm / 2)
    shots = tuple(Shot("south", t, t + 1.0, t + 1.8, 0.0, base_y) for t in np.arange(0.2, seconds - 1.8, 2.5))
    frames = []
    for k in range(int(seconds * fps)):
        t = k / fps
        y, vy, status = base_y, 0.0, "board"
        for shot in shots:
            if shot.t_strike_s <= t < shot.t_strike_s + 0.6:
                vy = 1200.0 * (1 - (t - shot.t_strike_s) / 0.6)
                y = base_y + 1200.0 * (t - shot.t_strike_s) * (1 - (t - shot.t_strike_s) / 1.2)
                status = "moving"
        striker = PieceState(99, "striker", 0.0, y, board.striker_diameter_mm / 2, status=status, vy_mm_s=vy)
        frames.append(SceneFrame(t, tuple(coins) + (striker,)))
    return Timeline(game="carrom", board_model=board.model, fps=fps, frames=tuple(frames), shots=shots)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--resolution", default="1920x1080")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--fps", type=float, default=30.0)
    parser.add_argument("--difficulty", default="medium")
    args = parser.parse_args()
    w, h = (int(v) for v in args.resolution.split("x"))
    rows = []

    def cpu_s() -> float:
        t = os.times()
        return t.user + t.system + t.children_user + t.children_system

    for game in ("carrom", "crokinole", "couronne"):
        board = load_board(game)
        t0, c0 = time.perf_counter(), cpu_s()
        film_still(SceneFrame(0.0, ()), board=board, seed=1, difficulty=args.difficulty, resolution=(w, h))
        rows.append((f"still {game}", args.resolution, time.perf_counter() - t0, cpu_s() - c0))
    board = load_board("carrom")
    timeline = carrom_timeline(board, seconds=args.seconds, fps=args.fps)
    with tempfile.TemporaryDirectory() as tmp:
        t0, c0 = time.perf_counter(), cpu_s()
        film_video(timeline, board=board, seed=1, difficulty=args.difficulty, resolution=(w, h), out_path=Path(tmp) / "clip.mp4")
        rows.append((f"video carrom {args.seconds:g} s @ {args.fps:g} fps", args.resolution, time.perf_counter() - t0, cpu_s() - c0))
    print(f"{'what':<34} {'resolution':<11} {'wall s':>8} {'cpu s':>8}")
    for what, res, wall, cpu in rows:
        print(f"{what:<34} {res:<11} {wall:8.2f} {cpu:8.2f}")


if __name__ == "__main__":
    main()
