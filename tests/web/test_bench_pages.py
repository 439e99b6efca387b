"""The long-evening pages benchmark runs end to end on a small log and cleans up after itself.

Only that it completes and prints a row of figures per page: its figures are never asserted.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


#: ``make bench-pages`` needs only ``make install``: the packages only requirements-dev.txt
#: lists cannot be imported while the benchmark runs here (it once needed daphne, through
#: channels.testing).
DEV_ONLY = ("daphne", "pytest", "pytest_django", "pytest_asyncio", "xdist", "hypothesis",
            "playwright")  # fmt: skip
WITHOUT_DEV = (
    "import runpy, sys\n"
    f"sys.modules.update(dict.fromkeys({DEV_ONLY!r}))\n"
    "sys.argv = ['bench/pages.py', '--entries', '40', '--repeat', '2']\n"
    "runpy.run_path('bench/pages.py', run_name='__main__')\n"
)


@pytest.fixture(scope="module")
def bench() -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_DEV],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def rows(output: str) -> dict[str, list[str]]:
    found = {}
    for line in output.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 6 and cells[1][:1].isdigit():
            found[cells[0]] = cells[1:]
    return found


def test_the_benchmark_completes_with_a_zero_exit_status(bench):
    assert bench.returncode == 0, bench.stderr[-2000:]


def test_it_prints_a_row_of_figures_for_every_page(bench):
    assert "| page | p50 ms | p95 ms | HTML bytes | KB | queries |" in bench.stdout
    assert {"dashboard", "session page (player)", "sheet page (player)",
            "earlier entries (player)", "dashboard: party"} <= set(rows(bench.stdout))  # fmt: skip


def test_each_row_holds_times_a_size_and_a_query_count(bench):
    for page, (p50, p95, size, kb, queries) in rows(bench.stdout).items():
        assert re.fullmatch(r"\d+\.\d", p50), page
        assert re.fullmatch(r"\d+\.\d", p95), page
        assert int(size) > 0, page
        assert abs(float(kb) - int(size) / 1024) <= 0.05, page
        assert int(queries) > 0, page


def test_the_temporary_database_is_removed_afterwards(bench):
    folder = re.search(r"temporary database in (\S+)", bench.stderr).group(1)
    assert not Path(folder).exists()


def test_a_run_of_no_entries_is_refused():
    done = subprocess.run(
        [sys.executable, "bench/pages.py", "--entries", "0"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "--entries and --repeat are 1 or more" in done.stderr
