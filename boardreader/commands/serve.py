"""`boardreader serve [--host] [--port] [--db URL]`: the HTTP service under uvicorn."""

from __future__ import annotations

import argparse


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("serve", help="run the HTTP service (matches, live feed, overlay, referee console)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--db", help="SQLAlchemy URL (default: BOARDREADER_DB_URL, else sqlite:///boardreader.db)")
    parser.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from service.config import Settings
    from service.main import create_app

    if not 0 < args.port < 65536:
        raise ValueError(f"--port must be 1..65535, got {args.port}")
    settings = Settings(db_url=args.db) if args.db else Settings()
    uvicorn.run(create_app(settings), host=args.host, port=args.port, log_level=args.log_level)
    return 0
