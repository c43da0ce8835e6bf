"""A score sheet for people: the `score` result laid out as plain-text tables."""

from __future__ import annotations

from typing import Any


def format_sheet(result: dict[str, Any]) -> str:
    """Render a `score` result (design.md, "Event log") as a plain-text score sheet."""
    game = result["game"]
    lines = [f"{game} — winner: {result.get('winner') or 'match in progress'}"]
    if game == "couronne":
        lines.append(f"rings left: {_pairs(result.get('rings_left', {}))}")
        return "\n".join(lines) + "\n"
    for number, played in enumerate(result.get("games", []), start=1):
        lines.append("")
        points = f"  points: {_pairs(played['points'])}" if "points" in played else ""
        lines.append(f"game {number}: {_pairs(played.get('score', {}))}{points}"
                     f"  winner: {played.get('winner') or '-'}")
        if game == "carrom":
            lines += _table(
                ("board", "breaker", "winner", "points", "queen", "rule", "score"),
                [(i, b["breaker"], b["winner"], b["points"], b["queen"], b["rule"], _pairs(b["score_after"]))
                 for i, b in enumerate(played["boards"], start=1)],
            )
        else:
            lines += _table(
                ("round", "raw", "points", "twenties"),
                [(i, _pairs(r["raw"]), _pairs(r["points"]), _pairs(r.get("twenties", {})))
                 for i, r in enumerate(played.get("rounds", []), start=1)],
            )
    return "\n".join(lines) + "\n"


def _pairs(values: dict[str, Any]) -> str:
    return " : ".join(f"{side} {value}" for side, value in values.items())


def _table(header: tuple[str, ...], rows: list[tuple[Any, ...]]) -> list[str]:
    cells = [tuple(str(c) for c in header)] + [tuple(str(c) for c in row) for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    return ["  " + "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in cells]
