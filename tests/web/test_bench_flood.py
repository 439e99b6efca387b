"""The flood benchmark's arguments, requests and report, without starting a server (a run takes
minutes: ``make bench-flood``). Its figures are never asserted.
"""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from urllib.parse import parse_qs

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def flood():
    """bench/flood.py as a module; it puts bench/ on the path to import live_table, which is
    undone afterwards."""
    path, modules = list(sys.path), set(sys.modules)
    spec = importlib.util.spec_from_file_location("bench_flood", ROOT / "bench" / "flood.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their own module up
    spec.loader.exec_module(module)
    yield module
    sys.path[:] = path
    for name in set(sys.modules) - modules:
        del sys.modules[name]


def refusal(flood, capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as exited:
        flood.parse_args(list(argv))
    assert exited.value.code == 2
    return capsys.readouterr().err


def test_the_defaults_are_the_issues_flood_against_200_quiet_rolls(flood):
    args = flood.parse_args([])
    assert (args.connections, args.npcs, args.rolls, args.rounds) == (4, 300, 200, 2)
    assert args.before is None
    assert args.costs


def test_a_quiet_player_faster_than_the_real_roll_budget_is_refused(flood, capsys):
    assert "--interval under 0.2 s would have the quiet player refused by the real roll budget" in (
        refusal(flood, capsys, "--interval", "0.1")
    )


def test_the_flood_may_send_one_kind_alone_but_no_kind_it_does_not_know(flood, capsys):
    assert flood.parse_args(["--kinds", "order"]).kinds == ["order"]
    assert "--kinds takes some of chat, table, import, order" in refusal(
        flood, capsys, "--kinds", "order,roll"
    )


def test_a_tree_without_a_project_is_refused(flood, capsys, tmp_path):
    assert f"--tree {tmp_path} holds no manage.py" in refusal(
        flood, capsys, "--tree", str(tmp_path)
    )


def test_the_servers_get_none_of_the_budgets_live_table_lifts(flood):
    env = flood.real_limits(flood.live_table.app_env(DATABASE_URL="sqlite:///x.sqlite3"))
    assert not [key for key in env if key.endswith("_LIMIT") or key.startswith("SOCKET_FRAME_")]
    assert (env["DATABASE_URL"], env["DEBUG"]) == ("sqlite:///x.sqlite3", "0")


def test_the_trees_take_turns_and_abba_puts_after_first_every_other_round(flood, tmp_path):
    args = flood.parse_args(["--rounds", "2", "--abba"])
    assert [(side, n) for side, n, _tree in flood.sides(args, tmp_path)] == [
        ("before", 1), ("after", 1), ("after", 2), ("before", 2),
    ]  # fmt: skip
    assert [side for side, _n, _tree in flood.sides(args, None)] == ["after", "after"]


@pytest.fixture(scope="module")
def requests(flood):
    return flood.Requests(8000, "cookie", 7, [11, 12, 13])


def body(raw: bytes) -> bytes:
    return raw.split(b"\r\n\r\n", 1)[1]


def test_the_turn_order_gives_1d20_to_every_npc_with_a_fresh_key(requests):
    first, second = (parse_qs(body(requests.make("order")).decode()) for _ in range(2))
    assert {name: first[name] for name in ("npc-11", "npc-12", "npc-13")} == dict.fromkeys(
        ("npc-11", "npc-12", "npc-13"), ["1d20"]
    )
    assert first["key"] != second["key"]


def test_the_chat_and_the_turn_order_are_sent_as_htmx_the_plain_forms_are_not(requests):
    kinds = ("chat", "table", "import", "order")
    htmx = {kind: b"HX-Request: true" in requests.make(kind) for kind in kinds}
    assert htmx == {"chat": True, "table": False, "import": False, "order": True}


def test_the_import_posts_about_60_kb_of_json_whose_sheet_is_refused(flood, requests):
    raw = requests.make("import")
    assert b"POST /c/7/characters/import/ HTTP/1.1" in raw
    document = json.loads(flood.import_document())
    assert 59 * 1024 <= len(body(raw)) <= 61 * 1024
    assert document["data"]["attributes"]["BUDOWA"] == 99


def test_statuses_read_most_frequent_first(flood):
    assert flood.statuses({"200": 38, "429": 5210, "422": 38}) == "429 x 5,210, 200 x 38, 422 x 38"
    assert flood.statuses({}) == "none"


def phase(flood, latencies: list[float], server_cpu: float = 50.0, load: float = 1.0):
    step = flood.Step("embedded", 1, 6, 4.0, server_cpu=server_cpu, machine_cpu=60.0)
    step.latencies, step.rolls, step.seconds = latencies, len(latencies) // 5, 10.0
    step.expected = step.received = len(latencies)
    return flood.Phase(step, load)


def a_round(flood, side: str, number: int, quiet_ms: float, flooded_ms: float):
    run = flood.Round(side, number, f"/trees/{side}", npcs=300)
    run.quiet = phase(flood, [quiet_ms] * 10)
    run.flooded = phase(flood, [flooded_ms] * 10, server_cpu=95.0, load=3.5)
    run.answered = {"chat": {"429": 900, "200": 20}, "order": {"429": 880}}
    run.flood_seconds = 10.0
    run.written = {"entries": {"chat": 20}, "characters": 0, "tables": 0}
    run.costs = [
        flood.Cost("chat", "until refused", {"200": 20}, 1.0, 0.4),
        flood.Cost("chat", "refused", {"429": 900}, 9.0, 0.9),
    ]
    return run


def cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def test_the_report_gives_each_round_its_latencies_ratio_and_flood(flood):
    text = flood.report([a_round(flood, "before", 1, 10.0, 600.0),
                         a_round(flood, "after", 1, 10.0, 15.0)])  # fmt: skip
    rows = [cells(line) for line in text.splitlines() if line.startswith("| 1 |")]
    assert [row[:8] for row in rows[:2]] == [
        ["1", "before", "300", "10.0 / 10.0", "600.0 / 600.0", "60.0x", "180", "20"],
        ["1", "after", "300", "10.0 / 10.0", "15.0 / 15.0", "1.5x", "180", "20"],
    ]
    assert "the flood's answers: chat 429 x 900, 200 x 20; order 429 x 880." in text
    assert "It wrote 20 log entries (chat x 20), 0 characters, 0 random tables" in text


def test_the_report_gives_each_sides_median_ratio_over_its_rounds(flood):
    rounds = [a_round(flood, "after", n, 10.0, flooded) for n, flooded in
              [(1, 12.0), (2, 30.0), (3, 18.0)]]  # fmt: skip
    assert (
        "Flooded / quiet p50, after: 1.8x (medians 18.0 / 10.0 ms; each round 1.2x, 3.0x, 1.8x)."
        in flood.report(rounds)
    )


def test_the_costs_give_cpu_per_request_until_refused_and_once_refused(flood):
    text = flood.cost_report([a_round(flood, "after", 1, 10.0, 15.0)])
    chat = next(cells(line) for line in text.splitlines() if "| chat |" in line)
    assert chat[4:] == ["20.0 ms (20/s: 200 x 20)", "1.0 ms (100/s: 429 x 900)"]
    table = next(cells(line) for line in text.splitlines() if "| table |" in line)
    assert table[4:] == ["-", "-"]


def test_a_round_that_failed_is_reported_and_left_out_of_the_medians(flood):
    failed = flood.Round("before", 1, "/trees/before", error="set-up failed")
    text = flood.report([failed, a_round(flood, "after", 1, 10.0, 20.0)])
    assert "| 1 | before | - | failed: set-up failed |" in text
    assert "Flooded / quiet p50, before" not in text
    assert math.isclose(a_round(flood, "after", 1, 10.0, 20.0).ratio, 2.0)
