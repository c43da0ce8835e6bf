"""`boardreader read IMAGE --game G`: find the board, read every piece on it, print the `read` JSON (design.md).

A table profile (``--profile TABLE.json``) may name the board ``model``, give a
fallback ``homography`` (board mm -> image px) for a fixed camera, and give
``piece_colours_bgr`` ({kind: [b, g, r]}) to classify pieces by the table's own
colour samples.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from boardreader.cli import CommandError
from calibration.geometry import GAMES, available_models, load_board
from vision.board_location import BoardLocation
from vision.frames import load_image
from vision.pieces import KINDS, BoardReading

WORKING_SIDE_PX = 2560
"""Larger photos are decoded at a reduced scale: the pieces stay tens of pixels wide."""


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("read", help="read every piece on a board photo and score it")
    parser.add_argument("image", help="photo or frame of the board (JPEG, PNG, ...)")
    parser.add_argument("--game", required=True, help=f"one of {', '.join(GAMES)}")
    parser.add_argument("--profile", help="table profile JSON (board model, homography, colour samples)")
    parser.add_argument("--annotate", help="write the photo with each piece, its class and zone drawn to this PNG")
    parser.set_defaults(run=run)


def load_profile(path: str, *, game: str) -> dict:
    """The parts of a table profile `read` uses, checked."""
    try:
        profile = json.loads(Path(path).read_text())
    except json.JSONDecodeError as error:
        raise CommandError(f"--profile {path}: not valid JSON ({error.msg} at line {error.lineno})") from None
    if not isinstance(profile, dict):
        raise CommandError(f"--profile {path}: expected a JSON object")
    if "game" in profile and profile["game"] != game:
        raise CommandError(f"--profile {path} is for {profile['game']}, not {game}")
    model = profile.get("model")
    if model is not None and model not in available_models(game):
        raise CommandError(f"--profile {path}: unknown {game} board model {model!r}")
    homography = profile.get("homography")
    if homography is not None:
        h = np.asarray(homography, dtype=float)
        if h.shape != (3, 3) or not np.all(np.isfinite(h)):
            raise CommandError(f"--profile {path}: homography must be a 3x3 matrix of numbers")
    colours = profile.get("piece_colours_bgr") or {}
    for kind, bgr in colours.items():
        if kind not in KINDS[game] or len(bgr) != 3:
            raise CommandError(f"--profile {path}: bad colour sample {kind!r}: {bgr!r}")
    return {"model": model, "homography": homography, "piece_colours_bgr": colours}


def _locate(image: np.ndarray, *, game: str, profile: dict) -> BoardLocation:
    from vision.localise import locate_board

    models = [profile["model"]] if profile.get("model") else None
    location = locate_board(image, game=game, models=models)
    if not location.found and profile.get("homography") is not None:
        model = profile.get("model") or location.model
        return BoardLocation(found=True, game=game, model=model, homography=np.asarray(profile["homography"], float),
                             confidence=0.5, reason="")
    return location


def reading_document(game: str, location: BoardLocation, reading: BoardReading | None) -> dict:
    """The `read` output: game, board, pieces, counts and (crokinole) round score."""
    document = {"game": game, "board": location.to_json()}
    document.update((reading or BoardReading(game)).to_json())
    return document


def run(args: argparse.Namespace) -> int:
    if args.game not in GAMES:
        raise CommandError(f"--game must be one of {', '.join(GAMES)}, got {args.game!r}")
    profile = load_profile(args.profile, game=args.game) if args.profile else {}
    image = load_image(args.image, max_side_px=WORKING_SIDE_PX)
    location = _locate(image, game=args.game, profile=profile)
    reading = None
    if location.found:
        from vision.pieces_read import lab_of_bgr, read_pieces

        samples = {kind: lab_of_bgr(bgr) for kind, bgr in profile.get("piece_colours_bgr", {}).items()}
        reading = read_pieces(image, homography=location.homography, board=load_board(args.game, location.model),
                              samples_lab=samples or None, look_in_hole=True)
    document = reading_document(args.game, location, reading)
    if args.annotate:
        import cv2

        from vision.annotate_pieces import annotate_reading

        drawn = annotate_reading(image, document, homography=location.homography) if location.found else image
        if not cv2.imwrite(str(args.annotate), drawn):
            raise CommandError(f"--annotate {args.annotate}: could not write the image")
    json.dump(document, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0
