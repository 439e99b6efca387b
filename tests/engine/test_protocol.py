"""The JSON Lines contract of ENGINE.md: ``rolls.engine.protocol`` and ``python -m rolls.engine``.

The requests use the 2d6 system, so these tests do not depend on the other systems' progress.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from rolls.engine import protocol, twod6
from rolls.engine.protocol import answer, serve

ROOT = Path(__file__).resolve().parents[2]

PARAMS = {"attribute": 7, "skill": 4, "difficulty": 15}
RESOLVE = {"system": "2d6", "op": "resolve", "params": PARAMS, "faces": [3, 2]}
ODDS = {"system": "2d6", "op": "odds", "params": PARAMS}
OPPOSED = {
    "system": "2d6",
    "op": "opposed",
    "a": {"params": PARAMS, "faces": [1, 1]},
    "b": {"params": PARAMS, "faces": [6, 6]},
}


def error_of(request: Any) -> str:
    reply = answer(request)
    assert list(reply) == ["error"], reply
    assert reply["error"].endswith((".", "?", "!")), "an error is a sentence"
    return reply["error"]


def bare_python_env() -> dict[str, str]:
    """The environment minus the virtualenv, so ``/usr/bin/env python3`` is the system one."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    if sys.prefix != sys.base_prefix:
        venv_bin = str(Path(sys.prefix) / "bin")
        path = env.get("PATH", "").split(os.pathsep)
        env["PATH"] = os.pathsep.join(entry for entry in path if entry != venv_bin)
    return env


def run_cli(stdin: str | bytes) -> subprocess.CompletedProcess[bytes]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    return subprocess.run(
        ["/usr/bin/env", "python3", "-m", "rolls.engine"],
        input=data,
        capture_output=True,
        cwd=ROOT,
        env=bare_python_env(),
        timeout=60,
        check=False,
    )


def lines_of(*requests: Any) -> str:
    return "".join(
        (request if isinstance(request, str) else json.dumps(request)) + "\n"
        for request in requests
    )


# --- answer --------------------------------------------------------------------------------------


def test_answer_resolves_a_request() -> None:
    assert answer(RESOLVE)["success_points"] == 2


def test_answer_gives_odds() -> None:
    assert set(answer(ODDS)) == {"odds", "success_points_odds"}


def test_answer_runs_an_opposed_test() -> None:
    reply = answer(OPPOSED)
    assert reply["winner"] == "b"
    assert set(reply) == {"winner", "margin", "a", "b"}


def test_a_request_that_is_not_an_object_is_an_error() -> None:
    assert error_of([1, 2]) == "Each request must be a JSON object."


def test_a_request_without_system_is_an_error() -> None:
    assert "'system'" in error_of({"op": "odds", "params": PARAMS})


def test_unknown_system_is_an_error_naming_the_known_ones() -> None:
    message = error_of({**ODDS, "system": "d20"})
    assert "Unknown system 'd20'" in message
    assert "2d6" in message


def test_unknown_op_is_an_error() -> None:
    assert "Unknown op 'roll'" in error_of({**ODDS, "op": "roll"})


def test_missing_op_is_an_error() -> None:
    assert "Unknown op None" in error_of({"system": "2d6", "params": PARAMS})


@pytest.mark.parametrize("request_", [RESOLVE, ODDS, OPPOSED])
def test_unknown_top_level_field_is_an_error(request_: dict[str, Any]) -> None:
    assert "Unknown field 'seed'" in error_of({**request_, "seed": 42})


def test_odds_with_faces_is_an_error() -> None:
    assert "takes no 'faces'" in error_of({**ODDS, "faces": [3, 2]})


def test_resolve_without_faces_is_an_error() -> None:
    assert error_of(ODDS | {"op": "resolve"}) == "'resolve' needs the rolled 'faces'."


def test_bad_params_are_an_error_sentence() -> None:
    assert error_of({**RESOLVE, "params": {"attribute": 7}}) == "'skill' is missing."


def test_more_than_two_hundred_dice_is_an_error() -> None:
    message = error_of({**RESOLVE, "faces": [1] * 201})
    assert "at most 200" in message


def test_opposed_needs_both_sides() -> None:
    request = {key: value for key, value in OPPOSED.items() if key != "b"}
    assert error_of(request) == "An opposed test needs side 'b'."


def test_opposed_side_needs_its_faces() -> None:
    request = {**OPPOSED, "a": {"params": PARAMS}}
    assert error_of(request) == "Side 'a' needs its rolled 'faces'."


def test_opposed_side_with_an_unknown_field_is_an_error() -> None:
    request = {**OPPOSED, "a": {"params": PARAMS, "faces": [1, 1], "bonus": 1}}
    assert "Unknown field 'bonus' in side 'a'" in error_of(request)


def test_opposed_on_a_system_without_opposed_tests_is_an_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A stand-in for a system without opposed tests: 2d6 with its `opposed` taken away.
    plain = types.ModuleType("plain")
    for name in ("parse_params", "parse_faces", "resolve", "odds"):
        setattr(plain, name, getattr(twod6, name))
    monkeypatch.setattr(protocol, "system_module", lambda key: plain)
    assert error_of(OPPOSED) == "The 2d6 system has no opposed tests."


# --- serve ---------------------------------------------------------------------------------------


def serve_text(text: str) -> tuple[int, list[dict[str, Any]]]:
    out = io.StringIO()
    code = serve(io.StringIO(text), out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_serve_answers_each_line_in_order() -> None:
    code, replies = serve_text(lines_of(RESOLVE, ODDS, OPPOSED))
    assert code == 0
    assert replies == [answer(RESOLVE), answer(ODDS), answer(OPPOSED)]


def test_serve_answers_a_bad_line_with_an_error_and_goes_on() -> None:
    code, replies = serve_text(lines_of(RESOLVE, "{not json", {**ODDS, "op": "x"}, RESOLVE))
    assert code == 0
    assert replies[1] == {"error": "This line is not valid JSON."}
    assert "Unknown op" in replies[2]["error"]
    assert replies[0] == replies[3] == answer(RESOLVE)


def test_serve_skips_blank_lines() -> None:
    code, replies = serve_text("\n" + lines_of(RESOLVE) + "   \n")
    assert (code, len(replies)) == (0, 1)


def test_serve_fails_when_no_line_is_json() -> None:
    code, replies = serve_text("hello\nworld\n")
    assert code == 1
    assert replies == [{"error": "This line is not valid JSON."}] * 2


# --- python -m rolls.engine with the bare system python3 -----------------------------------------


def test_cli_answers_one_line_per_request_in_order() -> None:
    run = run_cli(lines_of(RESOLVE, ODDS, OPPOSED, {**ODDS, "faces": [1, 1]}))
    assert run.returncode == 0, run.stderr
    replies = [json.loads(line) for line in run.stdout.decode().splitlines()]
    assert replies[:3] == [answer(RESOLVE), answer(ODDS), answer(OPPOSED)]
    assert "takes no 'faces'" in replies[3]["error"]
    assert len(replies) == 4


def test_cli_goes_on_after_bad_lines_and_exits_zero() -> None:
    run = run_cli(lines_of("not json", [1], {"system": "nope", "op": "odds"}, RESOLVE))
    assert run.returncode == 0, run.stderr
    replies = [json.loads(line) for line in run.stdout.decode().splitlines()]
    assert [set(reply) for reply in replies[:3]] == [{"error"}] * 3
    assert replies[3] == answer(RESOLVE)


def test_cli_survives_an_undecodable_byte() -> None:
    run = run_cli(b'{"system": "2d6", "op": "\xff"}\n' + lines_of(RESOLVE).encode())
    assert run.returncode == 0, run.stderr
    replies = [json.loads(line) for line in run.stdout.decode().splitlines()]
    assert "error" in replies[0]
    assert replies[1] == answer(RESOLVE)


def test_cli_exits_non_zero_when_no_line_is_json() -> None:
    run = run_cli("this is not\nJSON lines\n")
    assert run.returncode != 0
    assert run.stdout.decode().count('"error"') == 2


# --- Hostile lines: each costs its own line, never the run -------------------------------------


def test_cli_survives_a_deeply_nested_line() -> None:
    run = run_cli("[" * 100_000 + "\n" + lines_of(RESOLVE))
    assert run.returncode == 0, run.stderr[-300:]
    replies = [json.loads(line) for line in run.stdout.decode().splitlines()]
    assert replies[-1] == answer(RESOLVE)


def test_cli_survives_a_field_name_that_is_a_lone_surrogate() -> None:
    run = run_cli('{"system": "2d6", "op": "odds", "\\ud800": 1}\n' + lines_of(RESOLVE))
    assert run.returncode == 0, run.stderr[-300:]
    replies = [json.loads(line) for line in run.stdout.decode().splitlines()]
    assert replies[-1] == answer(RESOLVE)
