"""The live-table benchmark runs end to end at a tiny load and cleans up after itself.

Only that it completes, loses nothing and prints its table: its figures are never asserted.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TINY = ["--tables", "2", "--players", "2", "--rate", "2", "--seconds", "3", "--warmup", "1",
        "--settle", "0", "--drain", "5", "--modes", "embedded,floor"]  # fmt: skip


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
    assert [row(bench.stdout, mode)[:2] for mode in ("floor", "embedded")] == [
        ["floor", "6"],
        ["embedded", "6"],
    ]


@pytest.mark.parametrize("mode", ["floor", "embedded"])
def test_every_expected_delivery_arrives(bench, mode):
    expected, received, lost = (int(n) for n in row(bench.stdout, mode)[3].split(" / "))
    assert expected > 0
    assert (received, lost) == (expected, 0)


def test_the_temporary_database_is_removed_afterwards(bench):
    folder = re.search(r"temporary files \(database, server logs\) in (\S+)", bench.stderr).group(1)
    assert not Path(folder).exists()
