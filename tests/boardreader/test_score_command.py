"""`boardreader score` through the real command line: output shapes and bad input."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MATCH = '{"type": "match", "game": "carrom", "preset": "icf", "sides": ["A", "B"]}'


def run_score(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "boardreader", "score", *args],
        input=stdin, capture_output=True, text=True, timeout=60,
    )


def test_example_match_replays_to_the_contract_shape():
    done = run_score(str(EXAMPLES / "carrom_match.jsonl"))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    result = json.loads(done.stdout)
    assert result["game"] == "carrom" and result["winner"] in ("Asha", "Ben")
    board = result["games"][0]["boards"][0]
    assert {"breaker", "winner", "points", "score_after"} <= board.keys()
    assert {"winner", "score", "boards"} <= result["games"][0].keys()


def test_stdin_and_sheet_format():
    log = "\n".join([MATCH, '{"type": "board", "winner": "B", "opponent_coins_left": 4, "queen": "winner"}'])
    done = run_score("-", "--format", "sheet", stdin=log)
    assert done.returncode == 0, done.stderr
    assert "B 7" in done.stdout


@pytest.mark.parametrize(
    ("lines", "line_no", "words"),
    [
        ([MATCH, "{not json"], 2, "bad JSON"),
        ([MATCH, '{"type": "shot"}'], 2, "unknown event type 'shot'"),
        ([MATCH, '{"type": "stroke", "pocketed": "white"}'], 2, "'pocketed' must be a list"),
        ([MATCH, '{"type": "stroke", "striker": "yes"}'], 2, "'striker' must be true or false"),
        ([MATCH, "", '{"type": "stroke", "pocketed": ["white", "white", "white", "white", "white",'
          ' "white", "white", "white", "white", "white"]}'], 3, "only 9 white"),
        (['{"type": "stroke"}'], 1, "first event must be the match line"),
        (['{"type": "match", "game": "chess"}'], 1, "unknown game 'chess'"),
        ([MATCH, '{"type": "void", "target": "nope"}'], 2, "unknown event id 'nope'"),
        ([MATCH, "[1, 2]"], 2, "JSON object"),
        ([], 1, "empty event log"),
    ],
)
def test_bad_input_exits_2_with_one_line_naming_the_line(tmp_path, lines, line_no, words):
    path = tmp_path / "events.jsonl"
    path.write_text("\n".join(lines) + "\n")
    done = run_score(str(path))
    assert done.returncode == 2
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1
    assert f"line {line_no}:" in done.stderr and words in done.stderr
    assert "Traceback" not in done.stderr


def test_event_after_the_match_ended(tmp_path):
    lines = [MATCH] + [
        json.dumps({"type": "board", "winner": "A", "opponent_coins_left": points})
        for points in (9, 9, 7, 9, 9, 7)
    ] + ['{"type": "stroke", "pocketed": []}']
    path = tmp_path / "events.jsonl"
    path.write_text("\n".join(lines))
    done = run_score(str(path))
    assert done.returncode == 2
    assert "line 8:" in done.stderr and "after the match ended" in done.stderr


def test_missing_file_is_a_clear_error(tmp_path):
    done = run_score(str(tmp_path / "absent.jsonl"))
    assert done.returncode == 2
    assert "absent.jsonl" in done.stderr and "Traceback" not in done.stderr
