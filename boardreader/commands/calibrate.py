"""`boardreader calibrate table|camera`: set a table up once, or calibrate a camera's lens.

- ``calibrate table FRAME --game G --out TABLE.json``: find the board in a first
  frame and store its homography, model, colour samples and a thumbnail.
- ``calibrate camera IMAGES... --out CAMERA.json``: intrinsics and lens
  distortion from photos of a ChArUco board.
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from calibration.geometry import GAMES
from calibration.intrinsics import CameraIntrinsics, CharucoSpec, calibrate_camera
from calibration.profile import build_profile
from vision.frames import image_size, load_image
from vision.homography import normalised
from vision.localise import locate_board

WORKING_SIDE_PX = 2048


class CalibrateError(ValueError):
    """The calibration could not be made from the given input."""


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("calibrate", help="table profile from a first frame, or camera intrinsics")
    kinds = parser.add_subparsers(dest="kind", required=True)

    table = kinds.add_parser("table", help="find the board in a first frame and save a table profile")
    table.add_argument("frame", help="image of the table with its board")
    table.add_argument("--game", required=True, choices=GAMES)
    table.add_argument("--model", action="append", help="board model to try (repeatable); default: all of the game")
    table.add_argument("--piece", action="append", default=[], metavar="KIND=X_MM,Y_MM",
                       help="sample a piece's colour where it lies (repeatable)")
    table.add_argument("--camera", default="",
                       help="camera intrinsics JSON: the frame is undistorted first, and the path recorded in the profile")
    table.add_argument("--out", required=True, help="profile JSON to write")
    table.set_defaults(run=run_table)

    camera = kinds.add_parser("camera", help="camera intrinsics from ChArUco board images")
    camera.add_argument("images", nargs="+", help="photos of the ChArUco board from several angles")
    camera.add_argument("--squares", default="7x5", help="squares across x down (default 7x5)")
    camera.add_argument("--square-mm", type=float, default=40.0)
    camera.add_argument("--marker-mm", type=float, default=30.0)
    camera.add_argument("--dictionary", default="DICT_5X5_100")
    camera.add_argument("--out", required=True, help="camera JSON to write")
    camera.set_defaults(run=run_camera)


def _pieces(specs: list[str]) -> dict[str, tuple[float, float]]:
    pieces = {}
    for spec in specs:
        try:
            kind, where = spec.split("=", 1)
            x, y = (float(v) for v in where.split(","))
        except ValueError:
            raise CalibrateError(f"--piece {spec!r}: expected KIND=X_MM,Y_MM") from None
        pieces[kind] = (x, y)
    return pieces


def run_table(args: argparse.Namespace) -> int:
    pieces = _pieces(args.piece)
    intrinsics = CameraIntrinsics.load(args.camera) if args.camera else None
    full = load_image(args.frame)
    image = load_image(args.frame, max_side_px=WORKING_SIDE_PX) if max(full.shape[:2]) > WORKING_SIDE_PX else full
    location = locate_board(image, game=args.game, models=args.model, intrinsics=intrinsics)
    if intrinsics is not None:
        # the homography is for the undistorted frame: sample the profile's colours there too
        full = intrinsics.undistort_image(full)
    if not location.found:
        raise CalibrateError(f"{args.frame}: no {args.game} board found ({location.reason})")
    full_width, _ = image_size(args.frame)
    scale = full_width / image.shape[1]
    homography = normalised(np.diag([scale, scale, 1.0]) @ location.homography)
    profile = build_profile(full, homography, game=location.game, model=location.model, pieces_mm=pieces,
                            reference_image=args.frame, camera=args.camera)
    profile.save(args.out)
    json.dump({"out": args.out, "board": location.to_json()}, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


def run_camera(args: argparse.Namespace) -> int:
    try:
        squares_x, squares_y = (int(v) for v in args.squares.lower().split("x"))
    except ValueError:
        raise CalibrateError(f"--squares {args.squares!r}: expected e.g. 7x5") from None
    spec = CharucoSpec(squares_x, squares_y, args.square_mm, args.marker_mm, args.dictionary)
    images = [load_image(path) for path in args.images]
    intrinsics = calibrate_camera(images, spec=spec)
    intrinsics.save(args.out)
    json.dump({"out": args.out, **intrinsics.to_json()}, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0
