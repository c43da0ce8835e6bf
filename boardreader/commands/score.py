"""`boardreader score EVENTS.jsonl`: replay an event log and print the score sheet."""

from __future__ import annotations

import argparse
import json
import sys

from boardreader.sheet import format_sheet
from scoring import EventLogError, parse_jsonl, replay


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("score", help="replay an event log through the rules engine")
    parser.add_argument("events", help="event log, one JSON object per line ('-' for stdin)")
    parser.add_argument("--format", choices=("json", "sheet"), default="json",
                        help="json (the contract of design.md) or a plain-text score sheet")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.events == "-":
        lines = sys.stdin.read().splitlines()
    else:
        with open(args.events, encoding="utf-8") as stream:
            lines = stream.read().splitlines()
    result = score_lines(lines)
    if args.format == "sheet":
        sys.stdout.write(format_sheet(result))
    else:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
    return 0


def score_lines(lines: list[str]) -> dict:
    """The score result of an event log's lines; errors name the 1-based line."""
    try:
        numbered = parse_jsonl(lines)
    except EventLogError as error:
        raise EventLogError(f"line {error.index + 1}: {error}") from None
    events = [event for _, event in numbered]
    try:
        return replay(events)
    except EventLogError as error:
        line = numbered[error.index][0] if error.index is not None and numbered else 1
        raise EventLogError(f"line {line}: {error}") from None
