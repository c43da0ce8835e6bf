"""Scoring observations against truth events: a match is the same type and piece within a time window."""

from __future__ import annotations

from typing import Any

WINDOW_S = 0.75  # design.md: an observation matches a true event of the same type and piece within 0.75 s
EVENT_TYPES = ("shot", "pocketed", "sunk_20", "off_board", "placed")


def match_events(observed: list[dict[str, Any]], truth: list[dict[str, Any]], *,
                 window_s: float = WINDOW_S) -> tuple[int, int, int]:
    """(matched, observed, true) counts; each true event is matched at most once, nearest in time first."""
    false, missed = unmatched_events(observed, truth, window_s=window_s)
    n_observed = sum(o["type"] in EVENT_TYPES for o in observed)
    return n_observed - len(false), n_observed, sum(e["type"] in EVENT_TYPES for e in truth)


def unmatched_events(observed: list[dict[str, Any]], truth: list[dict[str, Any]], *,
                     window_s: float = WINDOW_S) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(observations matching no true event, true events no observation matched), as `match_events` pairs them."""
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
    return ([o for i, o in enumerate(observed) if i not in used_o],
            [e for j, e in enumerate(truth) if j not in used_t])
