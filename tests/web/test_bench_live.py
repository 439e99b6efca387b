"""The live-table benchmark runs end to end at a tiny load and cleans up after itself.

Only that it completes, loses nothing and prints its table: its figures are never asserted.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TINY = ["--tables", "2", "--players", "2", "--rate", "2", "--seconds", "3", "--warmup", "1",
        "--settle", "0", "--drain", "5", "--modes", "embedded,floor,django"]  # fmt: skip


@pytest.fixture(scope="module")
def bench() -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "bench/live_table.py", *TINY],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def row(output: str, mode: str) -> list[str]:
    line = next(line for line in output.splitlines() if line.startswith(f"| {mode} |"))
    return [cell.strip() for cell in line.strip("|").split("|")]


def test_the_benchmark_completes_with_a_zero_exit_status(bench):
    assert bench.returncode == 0, bench.stderr[-2000:]


def test_it_prints_the_figures_table_with_a_row_per_mode(bench):
    assert "| mode | sockets | rolls/s target / held |" in bench.stdout
    assert [row(bench.stdout, mode)[:2] for mode in ("floor", "django", "embedded")] == [
        ["floor", "6"],
        ["django", "6"],
        ["embedded", "6"],
    ]


@pytest.mark.parametrize("mode", ["floor", "django", "embedded"])
def test_every_expected_delivery_arrives(bench, mode):
    expected, received, lost = (int(n) for n in row(bench.stdout, mode)[3].split(" / "))
    assert expected > 0
    assert (received, lost) == (expected, 0)


def test_the_temporary_database_is_removed_afterwards(bench):
    folder = re.search(r"temporary files \(database, server logs\) in (\S+)", bench.stderr).group(1)
    assert not Path(folder).exists()


def test_the_servers_run_the_benchmarks_own_tree_by_default(bench):
    assert f"Servers run {ROOT}" in bench.stdout


def test_a_tree_without_a_project_is_refused(tmp_path):
    done = subprocess.run(
        [sys.executable, "bench/live_table.py", "--tree", str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert f"--tree {tmp_path} holds no manage.py" in done.stderr


def bench_script(name: str):
    """bench/<name>.py as a module (bench/ is scripts, not a package), for as long as the
    generator runs."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their own module up
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


@pytest.fixture(scope="module")
def compare():
    yield from bench_script("compare")


def test_the_comparison_reads_a_runs_figures_from_the_benchmarks_output(bench, compare):
    run = compare.parsed(compare.Run("embedded", "after", 1, 0), bench.stdout)
    assert run.cpu_ms > 0
    assert (run.held.split(" / ")[0], run.lost) == ("2", "0")


def test_the_comparison_prints_each_sides_median_cpu_per_roll_and_the_change(compare):
    runs = [
        compare.Run("embedded", side, number, 0, cpu_ms=cpu)
        for side, number, cpu in [("before", 1, 20.0), ("after", 1, 15.0), ("before", 2, 22.0),
                                  ("after", 2, 16.0), ("before", 3, 30.0), ("after", 3, 14.0)]
    ]  # fmt: skip
    assert (
        "- embedded: server CPU per roll, median, before 22.0 ms (20.0, 22.0, 30.0), "
        "after 15.0 ms (15.0, 16.0, 14.0): -32 %." in compare.report(runs, "main", "here")
    )


def test_a_base_revision_is_exported_for_the_run_and_removed_afterwards(compare):
    with compare.base_tree("HEAD") as tree:
        assert (tree / "manage.py").is_file()
        assert (tree / "bench" / "live_table.py").is_file()
    assert not tree.exists()


def test_the_comparison_alternates_the_trees_and_with_abba_swaps_every_other_round(
    compare, monkeypatch, tmp_path
):
    order = []

    def measure(mode, side, number, tree, passed):
        order.append((mode, side))
        return compare.Run(mode, side, number, 0, cpu_ms=10.0)

    monkeypatch.setattr(compare, "measure", measure)
    assert compare.main([str(tmp_path), "--modes", "embedded", "--rounds", "2"]) == 0
    assert compare.main([str(tmp_path), "--modes", "pubsub", "--rounds", "2", "--abba"]) == 0
    assert order == [
        ("embedded", "before"), ("embedded", "after"), ("embedded", "before"),
        ("embedded", "after"),
        ("pubsub", "before"), ("pubsub", "after"), ("pubsub", "after"), ("pubsub", "before"),
    ]  # fmt: skip


@pytest.fixture(scope="module")
def sequential() -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "bench/live_table.py", "--sequential", "--sequential-rolls", "3",
         "--drain", "5", "--modes", "floor,embedded"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_the_sequential_run_completes_and_loses_nothing(sequential):
    assert sequential.returncode == 0, sequential.stderr[-2000:]
    assert "Lost deliveries: 0." in sequential.stdout


def test_the_sequential_run_prints_a_row_per_mode_with_the_first_roll_apart(sequential):
    assert "| mode | rolls | deliveries expected / received / lost | p50 ms | p99 ms " in (
        sequential.stdout
    )
    # 3 rolls by one player, each expected on the 5 other sockets (4 players and the GM).
    assert [row(sequential.stdout, mode)[1:3] for mode in ("floor", "embedded")] == [
        ["3", "15 / 15 / 0"],
        ["3", "15 / 15 / 0"],
    ]
    assert re.fullmatch(r"\d+\.\d \(\d+\.\dx\)", row(sequential.stdout, "embedded")[5])


def test_sequential_and_ramp_are_refused_together():
    done = subprocess.run(
        [sys.executable, "bench/live_table.py", "--sequential", "--ramp"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "--sequential and --ramp are two different runs" in done.stderr


@pytest.fixture(scope="module")
def live_table():
    """For its report of a ramp."""
    yield from bench_script("live_table")


def ramp_step(live_table, sockets: int, p99_ms: float, **cpu):
    step = live_table.Step("pubsub", sockets // 7, sockets, sockets / 14, **cpu)
    step.expected = step.received = 100
    step.latencies = [p99_ms] * 100
    return step


def test_the_ramp_names_the_server_process_that_ran_out_of_cpu(live_table):
    step = ramp_step(live_table, 700, 150, busiest_server_cpu=97, machine_cpu=60)
    assert (
        live_table.stopped_by(step, 100) == "p99 150.0 ms; CPU: a server process at 97 % of a core"
    )


def test_the_ramp_names_the_database_and_the_layer_when_they_were_busy(live_table):
    step = ramp_step(live_table, 700, 150, database_cpu=70, layer_cpu=55, machine_cpu=60)
    assert live_table.stopped_by(step, 100) == (
        "p99 150.0 ms; database: PostgreSQL at 70 % of a core, layer: Redis at 55 % of a core"
    )


def test_the_ramp_names_queueing_in_a_server_process_half_busy(live_table):
    step = ramp_step(live_table, 525, 130, busiest_server_cpu=53, machine_cpu=31)
    assert live_table.stopped_by(step, 100).startswith(
        "p99 130.0 ms; queueing in a server process at 53 % of its one core"
    )


def test_the_ramp_says_when_nothing_ran_out(live_table):
    step = ramp_step(live_table, 70, 120, busiest_server_cpu=12, machine_cpu=8)
    assert "with CPU to spare" in live_table.stopped_by(step, 100)


def test_a_loss_is_why_a_load_was_not_held_whatever_the_cpu(live_table):
    step = ramp_step(live_table, 700, 20, busiest_server_cpu=99)
    step.received = 90
    assert live_table.stopped_by(step, 100) == "10 deliveries lost"


def test_the_ramp_report_says_where_each_mode_stops_above_the_largest_load_held(live_table):
    steps = [
        ramp_step(live_table, 70, 20, busiest_server_cpu=10),
        ramp_step(live_table, 105, 30, busiest_server_cpu=20),
        ramp_step(live_table, 157, 180, busiest_server_cpu=95),
        ramp_step(live_table, 140, 140, busiest_server_cpu=90),
    ]
    report = live_table.ramp_report(steps, 100)
    assert "Largest load held (pubsub: p99 <= 100 ms, nothing lost): 105 sockets" in report
    assert "It stops at 140 sockets, 10 rolls/s: p99 140.0 ms; CPU: a server process at 90 %" in (
        report
    )


@pytest.fixture(scope="module")
def restart() -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "bench/live_table.py", "--restart", "--tables", "2", "--players", "2",
         "--restart-wait", "20"],
        cwd=ROOT, capture_output=True, text=True, timeout=180,
    )  # fmt: skip


def test_the_restart_run_brings_every_page_back_caught_up_and_refuses_none(restart):
    assert restart.returncode == 0, restart.stderr[-2000:]
    assert "Pages not back: 0." in restart.stdout
    cells = row(restart.stdout, "embedded")
    # mode, rule, sockets ... refused / shed, caught up (the entry rolled while they were away)
    assert (cells[1], cells[2], cells[6], cells[7]) == ("page", "6", "0 / 0", "6")
    assert re.fullmatch(r"[\d.]+ / [\d.]+ / [\d.]+", cells[4])


def test_a_restart_is_a_run_of_its_own_and_of_the_apps_servers():
    for extra in (["--ramp"], ["--modes", "floor"], ["--reconnect", "never"]):
        done = subprocess.run(
            [sys.executable, "bench/live_table.py", "--restart", *extra],
            cwd=ROOT, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 2, extra
