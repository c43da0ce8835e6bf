"""Carrom rules engine (ICF Laws of Carrom, DCV queen chapter): strokes, boards, games, match.

Stroke resolution lives in `carrom_stroke`, board points in `carrom_points`; this
module runs boards into games (25 points or 8 boards, ICF 56) and games into a
best-of-three match (ICF 57), with the break order of ICF 49.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from scoring.carrom_points import (
    BoardEnd,
    LastCoinStroke,
    board_points,
    coins_and_queen,
    last_coin_end,
    ordinary_end,
)
from scoring.carrom_stroke import (
    COINS_PER_COLOUR,
    COLOURS,
    BoardState,
    Stroke,
    check_possible,
    forgo_dues,
    new_board,
    place_pending,
    resolve,
)
from scoring.engine import Engine
from scoring.errors import IllegalStrokeError, InvalidEventError
from scoring.fields import count, field, one_of

PRESETS: dict[str, int | None] = {
    "icf": 8,  # ICF 56: 8-board limit up to and including the pre-quarter-finals
    "icf-qf": None,  # ICF 56b, AICF: from the quarter-finals on, play to 25
}
GAME_TO = 25  # ICF 56a
GAMES_TO_WIN = 2  # ICF 57: best of three
BREAK_ATTEMPTS = 3  # ICF 45a/b
PASSES_TO_VOID = 6  # ICF 137: three passes by each side in a row
QueenTo = Literal["winner", "loser", "none"]


@dataclass(frozen=True)
class CarromConfig:
    preset: str
    sides: tuple[str, str]
    seat_players: tuple[str, ...]  # turn order: the turn passes to the right (ICF 49b)
    seat_sides: tuple[str, ...]
    board_limit: int | None


@dataclass(frozen=True)
class BoardRecord:
    breaker: str
    winner: str
    points: int
    base_points: int
    extra_points: int
    queen: QueenTo
    rule: str
    strokes: int
    score_after: dict[str, int]


@dataclass(frozen=True)
class GameState:
    first_breaker_seat: int
    boards: tuple[BoardRecord, ...] = ()
    void_boards: tuple[dict[str, Any], ...] = ()
    score: dict[str, int] | None = None
    winner: str | None = None
    extra_board: bool = False  # ICF 56b: the board after a tie at the limit
    extra_breaker_seat: int | None = None  # from the fresh toss (ICF 56b)


@dataclass(frozen=True)
class CarromState:
    config: CarromConfig
    games: tuple[GameState, ...]
    board: BoardState | None
    winner: str | None = None
    conceded: str | None = None


class CarromEngine(Engine[CarromState]):
    game = "carrom"
    event_types = frozenset({"stroke", "board", "foul", "forgo", "toss", "board_void", "board_lost", "concede"})

    def start(self, match: dict[str, Any]) -> CarromState:
        config = _config(match)
        game = GameState(first_breaker_seat=0, score={s: 0 for s in config.sides})
        return CarromState(config=config, games=(game,), board=_board_for(config, game))

    def is_over(self, state: CarromState) -> bool:
        return state.winner is not None

    def apply(self, state: CarromState, event: dict[str, Any]) -> CarromState:
        handler = {
            "stroke": _apply_stroke,
            "board": _apply_board_entry,
            "foul": _apply_foul,
            "forgo": _apply_forgo,
            "toss": _apply_toss,
            "board_void": _apply_board_void,
            "board_lost": _apply_board_lost,
            "concede": _apply_concede,
        }[event["type"]]
        return handler(state, event)

    def result(self, state: CarromState) -> dict[str, Any]:
        config = state.config
        games_won = {s: sum(g.winner == s for g in state.games) for s in config.sides}
        return {
            "game": "carrom",
            "preset": config.preset,
            "sides": list(config.sides),
            "winner": state.winner,
            "games_won": games_won,
            "games": [_game_result(config, g) for g in state.games],
            "live": _live(state),
        }


def _config(match: dict[str, Any]) -> CarromConfig:
    preset = one_of(match, "preset", tuple(PRESETS), default="icf")
    sides = field(match, "sides", list, default=["A", "B"])
    if len(sides) != 2 or not all(isinstance(s, str) and s for s in sides) or sides[0] == sides[1]:
        raise InvalidEventError(f"'sides' must be two different names, got {sides!r}")
    players = field(match, "players", dict, default={})
    if players:
        if set(players) != set(sides) or any(
            not isinstance(p, list) or len(p) != 2 or not all(isinstance(n, str) for n in p)
            for p in players.values()
        ):
            raise InvalidEventError("'players' must name two players for each side (doubles)")
        a, b = sides
        # ICF 27, 28: partners sit opposite, so the turn alternates between the sides.
        seat_players = (players[a][0], players[b][0], players[a][1], players[b][1])
        seat_sides = (a, b, a, b)
    else:
        seat_players = seat_sides = (sides[0], sides[1])
    return CarromConfig(preset, (sides[0], sides[1]), seat_players, seat_sides, PRESETS[preset])


def _current_game(state: CarromState) -> GameState:
    return state.games[-1]


def _breaker_seat(config: CarromConfig, game: GameState) -> int:
    if game.extra_board and game.extra_breaker_seat is not None:
        return game.extra_breaker_seat
    # ICF 49a: the break alternates board by board whoever wins; a void board is replayed.
    return (game.first_breaker_seat + len(game.boards)) % len(config.seat_sides)


def _board_for(config: CarromConfig, game: GameState) -> BoardState:
    seat = _breaker_seat(config, game)
    return new_board(seat, config.seat_sides[seat], config.sides)


def _turn_side(state: CarromState) -> str:
    return state.config.seat_sides[state.board.turn_seat]


def _other_side(config: CarromConfig, side: str) -> str:
    return config.sides[1] if side == config.sides[0] else config.sides[0]


def _side_field(state: CarromState, event: dict[str, Any], name: str = "side") -> str:
    side = field(event, name, str)
    if side not in state.config.sides:
        raise InvalidEventError(f"field {name!r} must be one of {', '.join(state.config.sides)}; got {side!r}")
    return side


def _parse_stroke(event: dict[str, Any]) -> tuple[list[str], bool, bool]:
    pocketed = field(event, "pocketed", list, default=[])
    for piece in pocketed:
        if piece not in ("white", "black", "queen"):
            raise InvalidEventError(f"'pocketed' lists white, black or queen; got {piece!r}")
    if pocketed.count("queen") > 1:
        raise InvalidEventError("the queen cannot be pocketed twice in one stroke")
    return pocketed, field(event, "striker", bool, default=False), field(event, "foul", bool, default=False)


def _apply_stroke(state: CarromState, event: dict[str, Any]) -> CarromState:
    pocketed, striker, foul = _parse_stroke(event)
    board = place_pending(state.board)
    state = replace(state, board=board)
    side = _turn_side(state)
    if "side" in event and _side_field(state, event) != side:
        # ICF 51 (playing out of turn) is a referee matter: the log must say who was due.
        raise IllegalStrokeError(f"stroke by {event['side']!r} out of turn: it is {side}'s stroke")
    own, opp = board.colour_of(side), board.colour_of(_other_side(state.config, side))
    stroke = Stroke(
        own=pocketed.count(own),
        opponent=pocketed.count(opp),
        queen="queen" in pocketed,
        striker=striker,
        improper=foul,
        touched=field(event, "touched", bool, default=True) or bool(pocketed),
        is_pass=field(event, "pass", bool, default=False),
        extra_points=count(event, "extra_points", default=0),
    )
    if stroke.is_pass and (pocketed or striker):
        raise InvalidEventError("a pass pockets nothing")
    check_possible(board, side, stroke)

    if not board.break_done and not stroke.touched and not stroke.striker and not foul:
        return _failed_break(state)
    if stroke.is_pass and board.passes + 1 >= PASSES_TO_VOID:
        return _void_board(state, "137")  # ICF 137: three passes each, the board is replayed

    view = _last_coin_view(board, side, _other_side(state.config, side), stroke)
    end = last_coin_end(view, *_scores_pv(state, side))
    if end is not None:
        winner = side if end.striker_wins else _other_side(state.config, side)
        if stroke.extra_points > end.extra_allowed:
            raise IllegalStrokeError(
                f"ICF {end.rule}: at most {end.extra_allowed} extra points on demand, got {stroke.extra_points}"
            )
        return _end_board(state, winner, end.base_points, stroke.extra_points, end.queen_to, end.rule)

    outcome = resolve(board, side, stroke)
    after = outcome.board
    for colour in COLOURS:
        if after.on_board[colour] + after.to_place[colour] == 0:
            winner = after.white_side if colour == "white" else _other_side(state.config, after.white_side)
            if stroke.extra_points:
                raise IllegalStrokeError("no extra points on demand for an ordinary board end (ICF 52)")
            return _ordinary_end(replace(state, board=after), winner)
    if stroke.extra_points:
        raise IllegalStrokeError("extra points on demand only on a stroke that ends the board (ICF 87b)")
    seats = len(state.config.seat_sides)
    next_seat = after.turn_seat if outcome.turn_continues else (after.turn_seat + 1) % seats
    return replace(state, board=replace(after, turn_seat=next_seat))


def _failed_break(state: CarromState) -> CarromState:
    board = state.board
    attempts = board.break_attempts + 1
    if attempts < BREAK_ATTEMPTS:
        return replace(state, board=replace(board, break_attempts=attempts))
    # ICF 45b: after three misses the opponent takes the break, still playing black.
    next_seat = (board.turn_seat + 1) % len(state.config.seat_sides)
    return replace(state, board=replace(board, break_attempts=0, turn_seat=next_seat))


def _last_coin_view(board: BoardState, side: str, opponent: str, stroke: Stroke) -> LastCoinStroke:
    own, opp = board.colour_of(side), board.colour_of(opponent)
    if board.queen == "covered":
        queen_before = "covered_by_striker" if board.queen_side == side else "covered_by_opponent"
    else:
        queen_before = board.queen
    return LastCoinStroke(
        own_last=stroke.own > 0 and board.on_board[own] == stroke.own,
        opponent_last=stroke.opponent > 0 and board.on_board[opp] == stroke.opponent,
        striker=stroke.striker,
        improper=stroke.improper,
        queen_pocketed=stroke.queen,
        queen_before=queen_before,
        own_left=board.on_board[own] - stroke.own,
        opponent_left=board.on_board[opp] - stroke.opponent,
    )


def _scores_pv(state: CarromState, side: str) -> tuple[int, int]:
    score = _current_game(state).score
    return score[side], score[_other_side(state.config, side)]


def _ordinary_end(state: CarromState, winner: str) -> CarromState:
    board = state.board
    loser = _other_side(state.config, winner)
    colour = board.colour_of(loser)
    queen_to: QueenTo = "none"
    if board.queen == "covered":
        queen_to = "winner" if board.queen_side == winner else "loser"  # ICF 53b/c
    # ICF 55: dues and penalties are written off, those this stroke took out included;
    # coins of the loser's that go back to the board for other reasons count as on it.
    taken_for_dues = (board.due_coins_taken or {}).get(loser, 0)
    coins = board.on_board[colour] + board.to_place[colour] - taken_for_dues
    base = ordinary_end(coins, queen_to, _current_game(state).score[winner])
    return _end_board(state, winner, base, 0, queen_to, "52")


def _end_board(state: CarromState, winner: str, base: int, extra: int, queen_to: QueenTo, rule: str) -> CarromState:
    config = state.config
    game = _current_game(state)
    points = board_points(base, extra)
    score = {**game.score, winner: game.score[winner] + points}
    record = BoardRecord(
        breaker=config.seat_players[state.board.breaker_seat],
        winner=winner,
        points=points,
        base_points=base,
        extra_points=extra,
        queen=queen_to,
        rule=rule,
        strokes=state.board.strokes + 1,
        score_after=score,
    )
    game = replace(game, boards=game.boards + (record,), score=score)
    leader = max(config.sides, key=lambda s: score[s])
    leads = score[leader] > score[_other_side(config, leader)]
    if score[winner] >= GAME_TO:
        game = replace(game, winner=winner)  # ICF 56a
    elif game.extra_board:
        game = replace(game, winner=winner)  # ICF 56b: the extra board decides
    elif config.board_limit is not None and len(game.boards) >= config.board_limit:
        if leads:
            game = replace(game, winner=leader)  # ICF 56a: the leader after 8 boards
        else:
            game = replace(game, extra_board=True)  # ICF 56b: one extra board after a toss
    return _next_board(state, game)


def _next_board(state: CarromState, game: GameState) -> CarromState:
    config = state.config
    games = state.games[:-1] + (game,)
    if game.winner is None:
        return replace(state, games=games, board=_board_for(config, game))
    wins = {s: sum(g.winner == s for g in games) for s in config.sides}
    match_winner = next((s for s in config.sides if wins[s] >= GAMES_TO_WIN), None)  # ICF 57
    if match_winner is not None:
        return replace(state, games=games, board=None, winner=match_winner)
    # ICF 49a: game 2 is opened by the side that did not open game 1, game 3 by the first again.
    next_game = GameState(first_breaker_seat=len(games) % 2, score={s: 0 for s in config.sides})
    return replace(state, games=games + (next_game,), board=_board_for(config, next_game))


def _void_board(state: CarromState, rule: str) -> CarromState:
    game = _current_game(state)
    void = {"breaker": state.config.seat_players[state.board.breaker_seat], "rule": rule,
            "strokes": state.board.strokes}
    # rules.md A5: a void board is replayed, scores nothing and does not count toward 8.
    game = replace(game, void_boards=game.void_boards + (void,))
    return replace(state, games=state.games[:-1] + (game,), board=_board_for(state.config, game))


def _apply_board_entry(state: CarromState, event: dict[str, Any]) -> CarromState:
    """A referee's board-level entry: closes the current board with the given result."""
    winner = _side_field(state, event, "winner")
    coins = count(event, "opponent_coins_left", maximum=COINS_PER_COLOUR)
    queen_to: QueenTo = one_of(event, "queen", ("winner", "loser", "none"), default="none")
    extra = count(event, "extra_points", default=0)
    base = max(1, ordinary_end(coins, queen_to, _current_game(state).score[winner]))
    return _end_board(state, winner, base, extra, queen_to, "board entry")


def _apply_foul(state: CarromState, event: dict[str, Any]) -> CarromState:
    offender = _side_field(state, event)
    kind = one_of(event, "kind", ("technical", "foul"), default="technical")
    board = place_pending(state.board)
    # ICF 63/64: one C/m penalty, taken out as soon as one is pocketed (ICF 72c).
    colour = board.colour_of(offender)
    paid = min(1, board.pocketed[colour])
    board = replace(
        board,
        pocketed={**board.pocketed, colour: board.pocketed[colour] - paid},
        to_place={**board.to_place, colour: board.to_place[colour] + paid},
        dues={**board.dues, offender: board.dues[offender] + 1 - paid},
        due_coins_taken={offender: paid},
    )
    if kind == "foul" and offender == _turn_side(state):
        # ICF 64a: a foul during or after the first stroke ends the turn.
        board = replace(board, turn_seat=(board.turn_seat + 1) % len(state.config.seat_sides))
    return replace(state, board=board)


def _apply_forgo(state: CarromState, event: dict[str, Any]) -> CarromState:
    beneficiary = _side_field(state, event)
    return replace(state, board=forgo_dues(state.board, _other_side(state.config, beneficiary)))


def _apply_toss(state: CarromState, event: dict[str, Any]) -> CarromState:
    winner = _side_field(state, event, "winner")
    choice = one_of(event, "choice", ("break", "side"), default="break")
    game = _current_game(state)
    at_match_start = len(state.games) == 1 and not game.boards and not game.void_boards
    if state.board.strokes or not (at_match_start or game.extra_board):
        raise IllegalStrokeError("a toss comes before the match or before the extra board (ICF 39, 56b)")
    # ICF 39: the winner chooses the break or a side; choosing the side gives the break away.
    breaker = winner if choice == "break" else _other_side(state.config, winner)
    seat = state.config.seat_sides.index(breaker)
    if game.extra_board:
        game = replace(game, extra_breaker_seat=seat)
        games = state.games[:-1] + (game,)
    else:
        # The side that opens game 1 sits in seat 0 of the turn order from now on.
        config = _config_opened_by(state.config, breaker)
        return CarromState(config=config, games=(game,), board=_board_for(config, game))
    return replace(state, games=games, board=_board_for(state.config, game))


def _config_opened_by(config: CarromConfig, breaker: str) -> CarromConfig:
    if config.seat_sides[0] == breaker:
        return config
    return replace(
        config,
        seat_players=config.seat_players[1:] + config.seat_players[:1],
        seat_sides=config.seat_sides[1:] + config.seat_sides[:1],
    )


def _apply_board_void(state: CarromState, event: dict[str, Any]) -> CarromState:
    rule = field(event, "rule", (int, str), default=140)
    if str(rule) not in ("137", "140", "142"):
        raise InvalidEventError(f"'rule' of a void board is 137, 140 or 142; got {rule!r}")
    return _void_board(state, str(rule))


def _apply_board_lost(state: CarromState, event: dict[str, Any]) -> CarromState:
    offender = _side_field(state, event)
    rule = str(field(event, "rule", (int, str), default=91))
    if rule not in ("51", "91", "121", "121b", "126", "126b"):
        raise InvalidEventError(f"'rule' of a lost board is 51, 91, 121b or 126b; got {rule!r}")
    board = place_pending(state.board)
    winner = _other_side(state.config, offender)
    # ICF 91/121b/126b (and 51, rules.md A4): the offender's coins on the board,
    # plus the queen's points if it is on the board; coins only once the winner has 22.
    coins = board.on_board[board.colour_of(offender)]
    queen_on_board = board.queen != "covered"
    base = max(1, coins_and_queen(coins, queen_on_board, _current_game(state).score[winner]))
    return _end_board(replace(state, board=board), winner, base, 0, "none", rule)


def _apply_concede(state: CarromState, event: dict[str, Any]) -> CarromState:
    side = _side_field(state, event)
    scope = one_of(event, "scope", ("game", "match"), default="game")
    winner = _other_side(state.config, side)
    game = replace(_current_game(state), winner=winner)  # ICF 139: a conceded game is lost
    if scope == "match":
        games = state.games[:-1] + (game,)
        return replace(state, games=games, board=None, winner=winner, conceded=side)
    return _next_board(state, game)


def _game_result(config: CarromConfig, game: GameState) -> dict[str, Any]:
    return {
        "winner": game.winner,
        "score": dict(game.score),
        "display_score": {s: min(v, GAME_TO) for s, v in game.score.items()},
        "first_breaker": config.seat_players[game.first_breaker_seat],
        "extra_board": game.extra_board,
        "boards": [
            {
                "breaker": b.breaker,
                "winner": b.winner,
                "points": b.points,
                "base_points": b.base_points,
                "extra_points": b.extra_points,
                "queen": b.queen,
                "rule": b.rule,
                "strokes": b.strokes,
                "score_after": dict(b.score_after),
            }
            for b in game.boards
        ],
        "void_boards": list(game.void_boards),
    }


def _live(state: CarromState) -> dict[str, Any]:
    config, board, game = state.config, state.board, _current_game(state)
    live: dict[str, Any] = {
        "over": state.winner is not None,
        "game": len(state.games),
        "board": len(game.boards) + 1 if board is not None else len(game.boards),
        "score": dict(game.score),
    }
    if board is None:
        return live
    sides = config.sides
    live.update(
        breaker=config.seat_players[board.breaker_seat],
        turn=config.seat_sides[board.turn_seat],
        turn_player=config.seat_players[board.turn_seat],
        colours={s: board.colour_of(s) for s in sides},
        on_board={**board.on_board, "queen": board.queen == "on_board" and not board.queen_to_place},
        to_place={**board.to_place, "queen": int(board.queen_to_place)},
        pocketed=dict(board.pocketed),
        queen=board.queen,
        queen_side=board.queen_side,
        dues=dict(board.dues),
        strokes=board.strokes,
        break_attempts=board.break_attempts,
        extra_board=game.extra_board,
    )
    return live
