"""`boardreader locate IMAGE --game G`: find the board and print where it is (a debugging aid)."""

from __future__ import annotations

import argparse
import json
import sys

import cv2
import numpy as np

from calibration.geometry import GAMES
from calibration.intrinsics import CameraIntrinsics
from vision.board_annotate import annotate_board
from vision.frames import image_size, load_image
from vision.homography import normalised
from vision.localise import locate_board

WORKING_SIDE_PX = 2048


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("locate", help="find the board in an image and print its homography")
    parser.add_argument("image", help="image file")
    parser.add_argument("--game", required=True, choices=GAMES)
    parser.add_argument("--model", action="append", help="board model to try (repeatable); default: all of the game")
    parser.add_argument("--annotate", metavar="OUT.png", help="write the image with the fitted board drawn on it")
    parser.add_argument("--camera", metavar="CAMERA.json",
                        help="camera intrinsics (boardreader calibrate camera): undistort before fitting")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    intrinsics = CameraIntrinsics.load(args.camera) if args.camera else None
    image = load_image(args.image, max_side_px=WORKING_SIDE_PX)
    location = locate_board(image, game=args.game, models=args.model, intrinsics=intrinsics)
    board = location.to_json()
    full_width, _ = image_size(args.image)
    if location.found and full_width != image.shape[1]:
        # located on a reduced copy: express the homography in the file's own pixels
        scale = full_width / image.shape[1]
        board["homography"] = normalised(np.diag([scale, scale, 1.0]) @ location.homography).tolist()
    shown = intrinsics.undistort_image(image) if intrinsics is not None else image
    if args.annotate and not cv2.imwrite(args.annotate, annotate_board(shown, location)):
        raise ValueError(f"cannot write {args.annotate}")
    json.dump({"game": args.game, "board": board}, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0
