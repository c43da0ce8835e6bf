"""What reading a board produces: the pieces on the playing surface, classified and (crokinole) scored."""

from __future__ import annotations

from dataclasses import dataclass, field

from vision.detect_occluders import Cover

KINDS: dict[str, tuple[str, ...]] = {
    "carrom": ("white", "black", "queen", "striker"),
    "crokinole": ("light", "dark"),
    "couronne": ("pink", "blue", "shooter"),
}


@dataclass(frozen=True)
class Piece:
    """One piece on the playing surface.

    Attributes
    ----------
    kind : str
        One of ``KINDS[game]``.
    x_mm, y_mm : float
        Centre in board millimetres.
    r_mm : float
        Measured radius.
    confidence : float
        0..1: how clearly the rim was seen and how clearly the class was decided.
    zone : int or None
        Crokinole only: 15, 10, 5 or 0.
    needs_review : bool
        Crokinole: within the measurement tolerance of a line, or leaning over the hole.
    line_clearance_mm : float or None
        Crokinole: gap between the disc's edge and the nearest line's edge (negative: touching).
    """

    kind: str
    x_mm: float
    y_mm: float
    r_mm: float
    confidence: float
    zone: int | None = None
    needs_review: bool = False
    line_clearance_mm: float | None = None

    def to_json(self) -> dict:
        record = {
            "kind": self.kind,
            "x_mm": round(self.x_mm, 1),
            "y_mm": round(self.y_mm, 1),
            "r_mm": round(self.r_mm, 1),
        }
        if self.zone is not None:
            record["zone"] = self.zone
            record["line_clearance_mm"] = round(self.line_clearance_mm, 2)
        record["needs_review"] = self.needs_review
        record["confidence"] = round(self.confidence, 3)
        return record


@dataclass(frozen=True)
class BoardReading:
    """Everything read from one frame.

    Attributes
    ----------
    game : str
    pieces : tuple of Piece
        Only pieces on the playing surface (not in pockets, the 20-hole, the ditch or off the board).
    twenties : dict of str to int
        Crokinole: discs seen lying flat in the 20-hole, by team (only the top one can be seen).
    review_tolerance_mm : float
        Crokinole: a disc whose edge is this close to a line's edge is flagged for review.
    hidden_share : float
        Share of the playing surface that could not be read (covered by a hand or out of the frame).
    occluded : tuple of Cover
        Where something above the board (a hand, an arm, a gantry) hides the surface: pieces under it
        are unknown, neither invented nor reported gone.
    colours_lab : dict of str to tuple of float
        The median 8-bit Lab colour of each kind's pieces as read (a video learns the table's colours from them).
    unsure : tuple of Piece
        Carrom, when asked for: coin-sized circles not taken for pieces (`unsure_coins`), named as pieces would be,
        their confidence the share of the rim seen. Not part of the `read` output.
    """

    game: str
    pieces: tuple[Piece, ...] = ()
    twenties: dict[str, int] = field(default_factory=dict)
    review_tolerance_mm: float = 0.0
    hidden_share: float = 0.0
    occluded: tuple[Cover, ...] = ()
    colours_lab: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    unsure: tuple[Piece, ...] = ()

    @property
    def covered_share(self) -> float:
        """Share of the playing surface hidden by something above it (not by the frame's edge)."""
        return min(1.0, sum(cover.share for cover in self.occluded))

    def counts(self) -> dict[str, int]:
        """Pieces on the surface by kind, every kind of the game present (zero included)."""
        return {kind: sum(p.kind == kind for p in self.pieces) for kind in KINDS[self.game]}

    def round_score(self) -> dict[str, int]:
        """Crokinole: the zone values on the surface per team, plus 20 for each disc seen in the hole."""
        return {
            kind: sum(p.zone or 0 for p in self.pieces if p.kind == kind) + 20 * self.twenties.get(kind, 0)
            for kind in KINDS["crokinole"]
        }

    def to_json(self) -> dict:
        """The ``pieces``, ``counts`` and (crokinole) ``round_score`` parts of the `read` output."""
        document: dict = {
            "pieces": [p.to_json() for p in self.pieces],
            "counts": self.counts(),
        }
        if self.game == "crokinole":
            document["round_score"] = self.round_score()
            document["twenties"] = {kind: self.twenties.get(kind, 0) for kind in KINDS["crokinole"]}
            document["review_tolerance_mm"] = self.review_tolerance_mm
        document["hidden_share"] = round(self.hidden_share, 3)
        document["occluded"] = [cover.to_json() for cover in self.occluded]
        return document
