"""The browser pages: the match list, the stream overlay and the referee console (plain HTML + JS from static/)."""

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse

from service import store
from service.deps import DbDep, MatchId

router = APIRouter(include_in_schema=False)

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"


def _page(name: str) -> HTMLResponse:
    return HTMLResponse((STATIC_DIR / name).read_text(encoding="utf-8"), headers={"Cache-Control": "no-cache"})


@router.get("/")
def index() -> HTMLResponse:
    """The match list, with links to each console and overlay, and a form to start a match."""
    return _page("index.html")


@router.get("/overlay/{match_id}")
def overlay(match_id: MatchId, db: DbDep,
            delay: Annotated[float, Query(ge=0, le=600, description="seconds to hold each change")] = 0.0) -> HTMLResponse:
    """The OBS browser source; the page reads `delay` from its own URL."""
    store.load_log(db, match_id)
    return _page("overlay.html")


@router.get("/referee/{match_id}")
def referee(match_id: MatchId, db: DbDep) -> HTMLResponse:
    store.load_log(db, match_id)
    return _page("referee.html")
