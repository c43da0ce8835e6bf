"""Scoring observations against truth events: a match is the same type and piece within a time window."""

from __future__ import annotations

from typing import Any

WINDOW_S = 0.75  # design.md: an observation matches a true event of the same type and piece within 0.75 s
EVENT_TYPES = ("shot", "pocketed", "sunk_20", "off_board", "placed")


def match_events(observed: list[dict[str, Any]], truth: list[dict[str, Any]], *,
                 window_s: float = WINDOW_S) -> tuple[int, int, int]:
    """(matched, observed, true) counts; each true event is matched at most once, nearest in time first."""
    truth = [e for e in truth if e["type"] in EVENT_TYPES]
    observed = [o for o in observed if o["type"] in EVENT_TYPES]
    pairs = sorted(
        (abs(o["t"] - e["t"]), i, j)
        for i, o in enumerate(observed)
        for j, e in enumerate(truth)
        if o["type"] == e["type"] and o.get("piece") == e.get("piece") and abs(o["t"] - e["t"]) <= window_s
    )
    used_o, used_t = set(), set()
    for _, i, j in pairs:
        if i not in used_o and j not in used_t:
            used_o.add(i)
            used_t.add(j)
    return len(used_o), len(observed), len(truth)
