"""A page's catching up on a big log: how long a socket's replay of the last entries takes.

    .venv/bin/python bench/replay.py                          (or: make bench-replay)
    .venv/bin/python bench/replay.py --log-entries 50000 --campaign-entries 200000 --replay 500

One command; it starts what it needs and removes it again, as ``bench/live_table.py`` does (its
set-up, servers and clean-up are the ones used here). One table of ``--players`` players (5)
and the GM; its open session's log holds ``--log-entries`` entries (50000) and its campaign
``--campaign-entries`` (default: the same; the rest in ended sessions), filled as
``tests/web/long_log.py``'s ``mixed_log`` fills it: every visibility and kind of entry, by the
GM and every player. The servers are the real ones of a mode (``--modes``: embedded, core,
pubsub; embedded by default: one uvicorn process, SQLite, the in-memory layer), started fresh.

Then ``--tries`` times (20) in turn as the GM and as the first player, a page's socket connects
(``/ws/campaigns/<id>/``, its login cookie and Origin) and, once the handshake is done, asks
``since`` the session's last seq minus ``--replay`` (500): a page that was away for that many
entries. The time measured is from that ``since`` written to the ``synced`` that closes the
replay read (one clock, this process), with every entry the server sent before it: those the
viewer may see (a whisper between two others is not sent). The first try of each viewer is kept
apart (the servers' first replay: connections opened, templates compiled), the others give
p50/p95/max. Each socket is closed before the next one opens. Figures are printed, never judged;
issue 42's target is a replay of 500 entries within 50 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import time

import live_table as live

MODES = ("embedded", "core", "pubsub")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log-entries", type=int, default=50000, help="open session's (50000)")
    parser.add_argument(
        "--campaign-entries", type=int, help="the whole campaign's (default: --log-entries)"
    )
    parser.add_argument("--replay", type=int, default=500, help="entries to catch up on (500)")
    parser.add_argument("--tries", type=int, default=20, help="replays per viewer (20)")
    parser.add_argument("--players", type=int, default=5, help="players, plus a GM (5)")
    parser.add_argument("--modes", default="embedded", help=f"comma-separated: {MODES}")
    args = parser.parse_args(argv)
    if args.campaign_entries is None:
        args.campaign_entries = args.log_entries
    args.modes = [mode.strip() for mode in args.modes.split(",") if mode.strip()]
    if not args.modes or any(mode not in MODES for mode in args.modes):
        parser.error(f"--modes takes some of {', '.join(MODES)}")
    if not 1 <= args.replay <= args.log_entries or args.campaign_entries < args.log_entries:
        parser.error("--replay is 1 to --log-entries; --campaign-entries at least --log-entries")
    if args.tries < 2 or args.players < 1:
        parser.error("--tries is 2 or more (the first is kept apart), --players 1 or more")
    return args


async def replay(port: int, table: dict, member: int, since: int) -> tuple[float, int, int]:
    """One page's socket: its replay from ``since`` in ms, the entries and bytes it got."""
    from websockets.asyncio.client import connect

    cookie = table["members"][member]["cookie"]
    async with connect(
        f"ws://127.0.0.1:{port}/ws/campaigns/{table['campaign']}/?lang=en",
        origin=f"http://127.0.0.1:{port}", additional_headers={"Cookie": f"sessionid={cookie}"},
        proxy=None, ping_interval=None, open_timeout=60, close_timeout=2, max_size=None,
    ) as ws:  # fmt: skip
        entries = size = 0
        start = time.perf_counter()
        await ws.send(json.dumps({"type": "since", "session": table["session"], "seq": since}))
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "entry":
                entries, size = entries + 1, size + len(raw)
            elif message["type"] == "synced":
                return (time.perf_counter() - start) * 1000, entries, size
            elif message["type"] == "error":
                raise RuntimeError(f"the replay was refused: {message}")
    raise RuntimeError("the socket closed before its replay was done")


async def run_mode(mode: str, args) -> list[dict]:
    with contextlib.ExitStack() as stack:
        deployment = live.Deployment(
            mode, args.players, stack, (args.log_entries, args.campaign_entries)
        )
        live.log(f"[{mode}] preparing")
        deployment.prepare()
        started = time.perf_counter()
        (table,) = deployment.add_tables(1)
        live.log(f"[{mode}] {args.campaign_entries} entries written in "
                 f"{time.perf_counter() - started:.1f} s")  # fmt: skip
        deployment.serve()
        since = table["last_seq"] - args.replay
        viewers = {"GM": 0, "player": 1}
        runs: dict[str, list[tuple[float, int, int]]] = {name: [] for name in viewers}
        for _ in range(args.tries):
            for name, member in viewers.items():
                port = deployment.ports[member % len(deployment.ports)]
                runs[name].append(await replay(port, table, member, since))
        deployment.check_alive()
        errors = deployment.new_errors()
        live.log(f"[{mode}] cleaning up")
    return [row(mode, name, tries, errors) for name, tries in runs.items()]


def row(mode: str, viewer: str, tries: list[tuple[float, int, int]], errors: list) -> dict:
    (first, *_), warm = tries[0], [ms for ms, _entries, _size in tries[1:]]
    return {
        "mode": mode, "viewer": viewer, "first": first, "p50": live.quantile(warm, 0.5),
        "p95": live.quantile(warm, 0.95), "max": max(warm), "entries": tries[-1][1],
        "kb": tries[-1][2] / 1024, "errors": errors,
    }  # fmt: skip


def report(rows: list[dict], args) -> str:
    lines = [
        f"A socket's replay of the last {args.replay} entries of a {args.log_entries}-entry "
        f"session ({args.campaign_entries} in the campaign, {args.players} players + GM), from "
        f"its since to its synced; {args.tries} tries per viewer, the first apart:",
        "",
        "| mode | viewer | entries sent | KB | first ms | p50 ms | p95 ms | max ms |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        lines.append(
            f"| {r['mode']} | {r['viewer']} | {r['entries']} | {r['kb']:.0f} | "
            f"{r['first']:.1f} | {r['p50']:.1f} | {r['p95']:.1f} | {r['max']:.1f} |"
        )
    for error in sorted({e for r in rows for e in r["errors"]}):
        lines.append(f"\nThe servers logged: {error}")
    return "\n".join(lines)


async def bench(args) -> list[dict]:
    rows = []
    for mode in args.modes:
        if mode != "embedded":
            reason = live.postgres_missing() or live.redis_missing()
            if reason:
                live.log(f"[{mode}] skipped: {reason}")
                continue
        rows += await run_mode(mode, args)
    return rows


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    rows = asyncio.run(bench(args))
    if not rows:
        live.log("Nothing was measured.")
        return 2
    print(report(rows, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
