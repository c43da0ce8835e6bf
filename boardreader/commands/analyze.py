"""`boardreader analyze VIDEO --game G --out DIR`: a recorded match in, events and the score out."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tqdm import tqdm

from boardreader.analysis_run import AnalysisRun, match_line_for
from vision.sources import SourceError, open_source


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("analyze", help="turn a match video into events, a score and a report")
    parser.add_argument("video", help="video file, image folder, camera index or stream URL")
    parser.add_argument("--game", required=True, choices=("carrom", "crokinole", "couronne"))
    parser.add_argument("--out", required=True, help="folder for events.jsonl, log.jsonl, score.json")
    parser.add_argument("--match", help="match line as JSON (default: the game's standard match)")
    parser.add_argument("--annotate", action="store_true", help="also write annotated.mp4")
    parser.add_argument("--report", action="store_true", help="also write report.html with plots")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        match = json.loads(args.match) if args.match else match_line_for(args.game)
    except json.JSONDecodeError as error:
        raise ValueError(f"--match is not valid JSON: {error.msg}") from None
    source = open_source(args.video)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    analysis = AnalysisRun(args.game, match, out=out, annotate=args.annotate, read_in_background=True)
    total = getattr(source, "report").expected_frames
    with tqdm(total=total, unit="frame", disable=None, file=sys.stderr, desc=Path(args.video).name) as bar:
        try:
            for frame in source:
                analysis.update(frame)
                bar.update(1)
        except SourceError as error:
            analysis.fault = str(error)
    summary = analysis.finish(report=args.report)
    summary["ended_early"] = source.report.ended_early or analysis.fault
    json.dump(summary, sys.stdout, indent=2)
    sys.stdout.write("\n")
    if not summary["board_found"]:
        raise ValueError(f"no {args.game} board found in {args.video}; empty results written to {out}")
    if summary["ended_early"]:
        raise ValueError(f"{summary['ended_early']}; what was seen before is kept in {out}")
    return 0
