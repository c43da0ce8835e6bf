"""The analysis report: the score sheet and plots of a match, as one HTML page with PNG figures."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

from boardreader.sheet import format_sheet  # noqa: E402
from vision.events import Observation  # noqa: E402

EVENT_ROWS = ("shot", "pocketed", "sunk_20", "off_board", "placed")


def write_report(out: Path, *, result: dict[str, Any], observations: list[Observation], duration_s: float) -> Path:
    """Write report.html (+ progression.png, timeline.png, pockets.png) into `out`; returns the page."""
    figures = [
        _progression(out / "progression.png", result),
        _timeline(out / "timeline.png", observations, duration_s),
        _pockets(out / "pockets.png", observations),
    ]
    images = "\n".join(f'<figure><img src="{p.name}" alt="{p.stem}"><figcaption>{p.stem}</figcaption></figure>'
                       for p in figures if p is not None)
    review = [o for o in observations if o.needs_review]
    page = out / "report.html"
    page.write_text(
        "<!doctype html><html><head><meta charset='utf-8'><title>boardreader report</title>"
        "<style>body{font-family:sans-serif;max-width:960px;margin:2em auto}img{max-width:100%}"
        "pre{background:#f4f4f4;padding:1em}</style></head><body>"
        f"<h1>{html.escape(result['game'])}: {html.escape(str(result.get('winner') or 'no winner yet'))}</h1>"
        f"<h2>Score sheet</h2><pre>{html.escape(format_sheet(result))}</pre>"
        f"<h2>Plots</h2>{images}"
        f"<h2>Held for review</h2><p>{len(review)} of {len(observations)} observations.</p>"
        "</body></html>\n",
        encoding="utf-8",
    )
    return page


def _progression(path: Path, result: dict[str, Any]) -> Path | None:
    """Score after each board (carrom) or round (crokinole), per game."""
    games = result.get("games") or []
    if not games:
        return None
    fig, ax = plt.subplots(figsize=(8, 3.5))
    for number, game in enumerate(games, start=1):
        if "boards" in game:
            steps = [b["score_after"] for b in game["boards"]]
        else:
            steps, total = [], {}
            for rnd in game.get("rounds", []):
                total = {s: total.get(s, 0) + v for s, v in rnd["points"].items()}
                steps.append(total)
        for side in (steps[0] if steps else {}):
            ax.plot(range(1, len(steps) + 1), [s[side] for s in steps], marker="o", label=f"game {number} {side}")
    ax.set_xlabel("board" if result["game"] == "carrom" else "round")
    ax.set_ylabel("score")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize="small")
    return _save(fig, path)


def _timeline(path: Path, observations: list[Observation], duration_s: float) -> Path:
    fig, ax = plt.subplots(figsize=(8, 2.5))
    for row, kind in enumerate(EVENT_ROWS):
        times = [o.t_s for o in observations if o.type == kind]
        ax.scatter(times, [row] * len(times), s=12, label=kind)
    ax.set_yticks(range(len(EVENT_ROWS)), EVENT_ROWS)
    ax.set_xlim(0, max(duration_s, 1.0))
    ax.set_xlabel("time (s)")
    return _save(fig, path)


def _pockets(path: Path, observations: list[Observation]) -> Path | None:
    """Pieces pocketed per pocket (0-3 counter-clockwise from the first player's left)."""
    pocketed = [o for o in observations if o.type == "pocketed" and o.pocket is not None]
    if not pocketed:
        return None
    kinds = sorted({o.piece for o in pocketed})
    fig, ax = plt.subplots(figsize=(5, 3))
    bottom = [0, 0, 0, 0]
    for kind in kinds:
        counts = [sum(o.pocket == p and o.piece == kind for o in pocketed) for p in range(4)]
        ax.bar(range(4), counts, bottom=bottom, label=kind)
        bottom = [b + c for b, c in zip(bottom, counts)]
    ax.set_xticks(range(4))
    ax.set_xlabel("pocket")
    ax.legend(fontsize="small")
    return _save(fig, path)


def _save(fig, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
