"""Two trees under the same live-table load, alternately, in one run: before and after a change.

    .venv/bin/python bench/compare.py main                       (main against this tree)
    .venv/bin/python bench/compare.py /work/wt/base --modes embedded --rounds 3 --seconds 10

BASE is a directory holding a project tree, or a git revision of this repository (exported
with ``git archive`` into a temporary directory, removed afterwards). ``--tree`` is the other
side, this benchmark's own tree by default (uncommitted changes included).

For each mode (``--modes``: embedded and pubsub by default), ``bench/live_table.py`` of this
tree runs ``--rounds`` times against each tree, alternately (before, after, before, after...),
so that whatever else loads the machine meanwhile falls on both sides alike (``--abba``: every
other round the other way round, which also evens out a drift over the run). Every other
option is passed to ``live_table.py`` as it is (``--tables``, ``--rate``, ``--seconds``,
``--settle``...). Each run's own figures table goes to stderr as it finishes; at the end one
table of all the runs, then for each mode the median server CPU per roll of each side (and
every run's, in brackets) and the change. Nothing is asserted: the exit status is 1 when a run
failed or lost a delivery. CPU per roll is known only at a load the servers hold (the default
load saturates the embedded server): compare at a lighter one, e.g. ``--tables 20 --rate 10``.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIVE_TABLE = ROOT / "bench" / "live_table.py"
NUMBER = re.compile(r"[\d.]+")


@dataclass
class Run:
    mode: str
    side: str  # "before" or "after"
    round: int
    status: int
    cpu_ms: float | None = None  # servers' CPU time per roll sent
    held: str = "-"  # rolls/s target / held
    lost: str = "-"
    p50: str = "-"
    p99: str = "-"
    busy: str = "-"  # machine busy % (before the rolls)


def parse_args(argv: list[str] | None) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(
        description="Two trees under the same live-table load, alternately.",
        epilog="Other options go to bench/live_table.py; see this module's docstring.",
    )
    parser.add_argument("base", help="the tree before: a directory, or a git revision")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the tree after (this one)")
    parser.add_argument("--modes", default="embedded,pubsub", help="embedded,pubsub")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each tree per mode (2)")
    parser.add_argument("--abba", action="store_true", help="after first in every other round")
    args, passed = parser.parse_known_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if "--tree" in passed or "--ramp" in passed:
        parser.error("--ramp cannot be compared; --tree is the tree after")
    return args, passed


@contextlib.contextmanager
def base_tree(base: str) -> Iterator[Path]:
    """The directory BASE names, or the git revision BASE exported into a temporary one."""
    if Path(base).is_dir():
        yield Path(base).resolve()
        return
    folder = Path(tempfile.mkdtemp(prefix="bench-compare-"))
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", base],
            capture_output=True, check=True,
        )  # fmt: skip
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def measure(mode: str, side: str, number: int, tree: Path, passed: list[str]) -> Run:
    command = [sys.executable, str(LIVE_TABLE), "--tree", str(tree), "--modes", mode, *passed]
    print(f"\n[compare] {mode}, {side} ({tree}), round {number}", file=sys.stderr, flush=True)
    done = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    print(done.stdout, file=sys.stderr, flush=True)
    return parsed(Run(mode, side, number, done.returncode), done.stdout)


def parsed(run: Run, output: str) -> Run:
    """The figures of ``run.mode`` out of live_table.py's printed table and notes."""
    for line in output.splitlines():
        if line.startswith(f"| {run.mode} |"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            run.held, run.lost = cells[2], cells[3].split(" / ")[-1]
            run.p50, run.p99 = cells[4].split(" ")[0], cells[6].split(" ")[0]
            run.busy = cells[-1]
        found = re.search(r"server CPU per roll ([\d.]+) ms", line)
        if line.startswith(f"- {run.mode}:") and found:
            run.cpu_ms = float(found.group(1))
    return run


def report(runs: list[Run], before: str, after: str) -> str:
    lines = [
        f"Before: {before}. After: {after}.",
        "",
        "| mode | round | tree | server CPU per roll | rolls/s target / held | lost "
        "| p50 ms | p99 ms | machine busy % (before) |",
        "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for run in runs:
        cpu = f"{run.cpu_ms:.1f} ms" if run.cpu_ms is not None else "unknown"
        failed = "" if run.status == 0 else f" (exit {run.status})"
        lines.append(
            f"| {run.mode} | {run.round} | {run.side}{failed} | {cpu} | {run.held} | {run.lost} "
            f"| {run.p50} | {run.p99} | {run.busy} |"
        )
    lines.append("")
    for mode in dict.fromkeys(run.mode for run in runs):
        known = {
            side: [r.cpu_ms for r in runs if (r.mode, r.side) == (mode, side) and r.cpu_ms]
            for side in ("before", "after")
        }
        if not all(known.values()):
            lines.append(f"- {mode}: server CPU per roll unknown on a side (saturated or failed).")
            continue
        medians = {side: statistics.median(values) for side, values in known.items()}
        each = {side: ", ".join(f"{v:.1f}" for v in values) for side, values in known.items()}
        change = (medians["after"] - medians["before"]) / medians["before"] * 100
        lines.append(
            f"- {mode}: server CPU per roll, median, before {medians['before']:.1f} ms "
            f"({each['before']}), after {medians['after']:.1f} ms ({each['after']}): "
            f"{change:+.0f} %."
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args, passed = parse_args(argv)
    after = args.tree.resolve()
    runs: list[Run] = []
    with base_tree(args.base) as before:
        for mode in [m.strip() for m in args.modes.split(",") if m.strip()]:
            for number in range(1, args.rounds + 1):
                sides = [("before", before), ("after", after)]
                if args.abba and number % 2 == 0:
                    sides.reverse()
                for side, tree in sides:
                    runs.append(measure(mode, side, number, tree, passed))
    print(report(runs, args.base, str(after)))
    return 0 if all(run.status == 0 for run in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
