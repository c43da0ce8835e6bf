"""Boards, rounds and games compared between an observed and a true rules-engine result."""

import json
from pathlib import Path

import pytest

from bench.score_units import score_units, units_exact
from scoring.replay import replay

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example_log(game):
    return [json.loads(line) for line in (EXAMPLES / f"{game}_match.jsonl").read_text().splitlines() if line.strip()]


@pytest.mark.parametrize("game", ["carrom", "crokinole", "couronne"])
def test_a_result_matches_itself_unit_by_unit_and_a_log_cut_short_has_fewer_units(game):
    log = example_log(game)
    truth = replay(log)
    assert units_exact(truth, truth) == (len(score_units(truth)),) * 2
    assert len(score_units(truth)) >= 1
    assert len(score_units(replay(log[:1]))) == 0


def test_a_crokinole_round_with_one_disc_wrong_is_not_exact_and_the_others_are():
    log = example_log("crokinole")
    truth = replay(log)
    rounds = [i for i, e in enumerate(log) if e["type"] == "round"]
    assert len(rounds) >= 2
    wrong = [dict(e) for e in log]
    first = wrong[rounds[0]]
    side = next(s for s, discs in first["discs"].items() if discs)
    first["discs"] = {**first["discs"], side: first["discs"][side][1:]}
    exact, total = units_exact(replay(wrong), truth)
    assert total == len(rounds) and exact < total


def test_a_carrom_board_is_judged_by_its_score_not_its_stroke_count():
    truth = replay(example_log("carrom"))
    board = truth["games"][0]["boards"][0]
    counted = json.loads(json.dumps(truth))
    counted["games"][0]["boards"][0] = {**board, "strokes": board["strokes"] + 1}
    assert units_exact(counted, truth)[0] == units_exact(truth, truth)[0]
    counted["games"][0]["boards"][0] = {**board, "points": board["points"] + 1}
    assert units_exact(counted, truth)[0] == units_exact(truth, truth)[0] - 1
