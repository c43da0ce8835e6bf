"""One module per subcommand, each with `add_parser(subparsers)` and `run(args) -> int`."""
