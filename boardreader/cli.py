"""The `boardreader` command line: one subcommand per module in `boardreader.commands`.

Contract (design.md): data as JSON on stdout, nothing but errors on stderr,
exit 0 on success and 2 on bad input with one line naming the problem.
"""

from __future__ import annotations

import argparse
import importlib
import sys

SUBCOMMANDS = ("score", "serve", "simulate", "calibrate", "locate", "read", "analyze")
EXIT_BAD_INPUT = 2


class CommandError(ValueError):
    """Bad input to a command: reported as one line on stderr, exit 2."""


def build_parser(commands: tuple[str, ...] = SUBCOMMANDS) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="boardreader", description=__doc__.splitlines()[0])
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in commands:
        module = importlib.import_module(f"boardreader.commands.{name}")
        module.add_parser(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # Importing only the command asked for keeps `serve` and `score` from paying
    # for the video and plotting libraries of the others.
    chosen = (argv[0],) if argv and argv[0] in SUBCOMMANDS else SUBCOMMANDS
    args = build_parser(chosen).parse_args(argv)
    try:
        return args.run(args)
    except ValueError as error:
        # Every input error of ours is a ValueError subclass (style: typed errors).
        print(f"boardreader {args.command}: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as error:
        print(f"boardreader {args.command}: {error.strerror or error}: {error.filename or ''}".rstrip(": "), file=sys.stderr)
        return EXIT_BAD_INPUT
