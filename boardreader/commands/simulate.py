"""`boardreader simulate`: play a synthetic match (or one still) and film it, with exact ground truth.

Writes DIR/video.mp4 (or DIR/image.png with --still), DIR/truth.json and, for a
video, DIR/frames.jsonl (every piece at every frame). The same seed gives
byte-identical truth. Prints a JSON summary of what it wrote.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from boardreader.cli import CommandError
from calibration.geometry import DEFAULT_MODELS, GAMES, available_models, load_board
from simulation import truth
from simulation.play_carrom import play_carrom
from simulation.play_couronne import play_couronne
from simulation.play_crokinole import play_crokinole
from simulation.play_still import still_scene
from simulation.scene import Timeline

DIFFICULTIES = ("clean", "easy", "medium", "hard")
MAX_SEED = 2**63 - 1


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("simulate", help="play and film a synthetic match with ground truth")
    # Values are checked in run(), so that a bad one is reported as one line, exit 2.
    parser.add_argument("--game", required=True, help=f"one of {', '.join(GAMES)}")
    parser.add_argument("--seed", required=True, help="integer >= 0; the same seed gives the same output")
    parser.add_argument("--out", required=True, help="output folder (created if missing)")
    parser.add_argument("--still", action="store_true", help="one settled board mid-game as DIR/image.png")
    parser.add_argument("--boards", help="carrom boards, crokinole rounds or couronne games (default: a whole match)")
    parser.add_argument("--strokes", help="stop after this many strokes or shots in all (for short clips)")
    parser.add_argument("--difficulty", default="medium", help=f"one of {', '.join(DIFFICULTIES)} (default medium)")
    parser.add_argument("--resolution", default="1920x1080", help="WIDTHxHEIGHT in pixels (default 1920x1080)")
    parser.add_argument("--fps", default="30", help="frames per second of the video (default 30)")
    parser.add_argument("--model", help="board model (default: the game's standard board)")
    parser.add_argument("--truth-only", action="store_true", help="write the ground truth without rendering")
    parser.set_defaults(run=run)


def _integer(name: str, text: str | None, *, minimum: int, maximum: int = MAX_SEED) -> int | None:
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        raise CommandError(f"--{name} must be an integer, got {text!r}") from None
    if not minimum <= value <= maximum:
        raise CommandError(f"--{name} must be between {minimum} and {maximum}, got {value}")
    return value


def parse_resolution(text: str) -> tuple[int, int]:
    """'1920x1080' -> (1920, 1080); each side 16 to 7680 pixels."""
    match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not match:
        raise CommandError(f"--resolution must look like 1920x1080, got {text!r}")
    width, height = int(match.group(1)), int(match.group(2))
    if not (16 <= width <= 7680 and 16 <= height <= 7680):
        raise CommandError(f"--resolution sides must be 16 to 7680 pixels, got {width}x{height}")
    return width, height


def _fps(text: str) -> float:
    try:
        fps = float(text)
    except ValueError:
        raise CommandError(f"--fps must be a number, got {text!r}") from None
    if not 1 <= fps <= 240:
        raise CommandError(f"--fps must be between 1 and 240, got {text}")
    return fps


def run(args: argparse.Namespace) -> int:
    if args.game not in GAMES:
        raise CommandError(f"--game must be one of {', '.join(GAMES)}, got {args.game!r}")
    if args.difficulty not in DIFFICULTIES:
        raise CommandError(f"--difficulty must be one of {', '.join(DIFFICULTIES)}, got {args.difficulty!r}")
    model = args.model or DEFAULT_MODELS[args.game]
    if model not in available_models(args.game):
        raise CommandError(f"--model {model!r} is not a {args.game} board; have {', '.join(available_models(args.game))}")
    seed = _integer("seed", args.seed, minimum=0)
    boards = _integer("boards", args.boards, minimum=1, maximum=100)
    strokes = _integer("strokes", args.strokes, minimum=1, maximum=100_000)
    if args.game == "couronne" and boards not in (None, 1):
        raise CommandError("--boards for couronne counts games, and a couronne match is one game: use 1")
    resolution = parse_resolution(args.resolution)
    fps = _fps(args.fps)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise CommandError(f"--out {str(out)!r} exists and is not a folder")
    out.mkdir(parents=True, exist_ok=True)
    board = load_board(args.game, model)

    if args.still:
        summary = _still(board, seed=seed, out=out, difficulty=args.difficulty, resolution=resolution,
                         render=not args.truth_only)
    else:
        timeline = play(board, seed=seed, fps=fps, boards=boards, strokes=strokes)
        summary = _video(timeline, board, seed=seed, out=out, difficulty=args.difficulty, resolution=resolution,
                         render=not args.truth_only)
    json.dump(summary, sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")
    return 0


def play(board, *, seed: int, fps: float, boards: int | None = None, strokes: int | None = None) -> Timeline:
    """The timeline of a simulated match of the board's game."""
    if board.game == "carrom":
        return play_carrom(board, seed=seed, fps=fps, boards=boards, max_strokes=strokes)
    if board.game == "crokinole":
        return play_crokinole(board, seed=seed, fps=fps, rounds=boards, max_shots=strokes)
    return play_couronne(board, seed=seed, fps=fps, max_strokes=strokes)


def _still(board, *, seed: int, out: Path, difficulty: str, resolution: tuple[int, int],
           render: bool) -> dict[str, Any]:
    timeline, cases = still_scene(board, seed=seed)
    summary: dict[str, Any] = {"game": board.game, "seed": seed, "out": str(out)}
    homography = None
    if render:
        import cv2

        from simulation.film import film_still

        image, homography = film_still(timeline.frames[-1], board=board, seed=seed, difficulty=difficulty,
                                       resolution=resolution)
        image_path = out / "image.png"
        if not cv2.imwrite(str(image_path), image):
            raise OSError(f"could not write {image_path}")
        summary["image"] = str(image_path)
    document = truth.still_truth(timeline, board, seed=seed, homography=homography,
                                 extra={"hard_cases": cases, "difficulty": difficulty,
                                        "resolution": list(resolution)})
    summary["truth"] = str(truth.write_truth(out, document))
    summary["pieces"] = len(document["pieces"])
    return summary


def _video(timeline: Timeline, board, *, seed: int, out: Path, difficulty: str, resolution: tuple[int, int],
           render: bool) -> dict[str, Any]:
    summary: dict[str, Any] = {"game": board.game, "seed": seed, "out": str(out)}
    film = None
    if render:
        from simulation.film import film_video

        video_path = out / "video.mp4"
        film = film_video(timeline, board=board, seed=seed, difficulty=difficulty, resolution=resolution,
                          out_path=video_path)
        summary["video"] = str(video_path)
    document = truth.video_truth(timeline, seed=seed, film=film)
    document.update({"difficulty": difficulty, "resolution": list(resolution)})
    summary["truth"] = str(truth.write_truth(out, document))
    summary["frames_file"] = str(truth.write_frames(out, timeline))
    summary["frames"] = len(timeline.frames)
    summary["strokes"] = len(timeline.shots)
    summary["duration_s"] = document["duration_s"]
    return summary
