"""A long evening's pages: server time, weight and queries of every page that shows the log.

    .venv/bin/python bench/pages.py              (or: make bench-pages)
    .venv/bin/python bench/pages.py --entries 2000 --repeat 50
    .venv/bin/python bench/pages.py --entries 50000 --campaign-entries 200000 --empty-too

One command; it seeds a fresh temporary SQLite database (removed afterwards, also on an error):
a FastTest table (a GM, ``--players`` players (2), each with a character), the campaign's past
evenings (``--campaign-entries`` minus ``--entries`` entries, in ended sessions of up to
``--entries`` each) and one open session of ``--entries`` log entries (2000). The log is
``tests/web/long_log.py``'s ``mixed_log``: real rolls and lines copied under the following seqs,
of every visibility and kind (public tests, secret ones, the GM's hidden ones, chat, lines to the
GM, whispers, a few quick rolls), by every player; none of the quick rolls is the first
player's, whose quick-dice box then looks through all their entries for one, as most players'
does. Then it requests each page and partial ``--repeat`` times through Django's test client,
in this process, with ``DEBUG`` off, as the GM (the player's pages as the first player), and
prints per page the p50 and p95 of the server time (the client's call: the request through
every middleware, the view and its template; no network), the HTML size in bytes and KB and the
number of SQL statements. The first request of each page is not timed (templates compile,
caches fill). Figures are printed, never judged: a busy machine slows them all.

``--empty-too`` measures every page twice, at a log of 3 entries (the campaign's too;
``--short`` sets how many: at 300 every page shows as many entries as at any length, so the two
differ by the log's length alone) and at the one asked for, and prints them side by side with
the ratios of p50 and p95 (the big log's over the short one's) and whether the page meets issue
42's target (p95 within 1.2x of the short log's and 30 ms at most). Django is set up once per
process, on one database, and the app keeps per-process caches keyed by ids that two databases
would share: so each of the two is seeded and measured in a subprocess of its own (this file,
``--json``), one after the other, the short first. Both see the same machine only if nothing
else changes in between.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Each page: (name, URL name, whose, whether an htmx request). "earlier" is the page of the
#: log before its middle entry, the on-demand one.
PAGES = [
    ("dashboard", "dashboard", "gm", False),
    ("dashboard: head line", "dashboard_meta", "gm", True),
    ("dashboard: party", "dashboard_party", "gm", True),
    ("dashboard: pending tests", "dashboard_pending", "gm", True),
    ("dashboard: after-roll strip", "after_roll_strip", "gm", True),
    ("dashboard: awards", "awards_panel", "gm", True),
    ("dashboard: random tables", "random_tables_box", "gm", True),
    ("log partial", "session_log", "gm", True),
    ("log partial (player)", "session_log", "player", True),
    ("session page (GM)", "session_detail", "gm", False),
    ("session page (player)", "session_detail", "player", False),
    ("sheet page (player)", "character_detail", "player", False),
    ("earlier entries (player)", "session_log_earlier", "player", True),
    ("recap (GM)", "session_recap", "gm", False),
    ("recap (player)", "session_recap", "player", False),
    ("recap: live part (player)", "session_recap_part", "player", True),
]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--entries", type=int, default=2000, help="entries of the open session's log (2000)"
    )
    parser.add_argument(
        "--campaign-entries", type=int,
        help="entries of the whole campaign, the open session's included: the rest are in "
        "ended sessions (default: --entries, no ended session)",
    )  # fmt: skip
    parser.add_argument("--players", type=int, default=2, help="players, each with a character")
    parser.add_argument("--repeat", type=int, default=30, help="timed requests per page (30)")
    parser.add_argument(
        "--page-seconds", type=float, default=20,
        help="a page's timed requests stop after this many seconds, 3 at least (20)",
    )  # fmt: skip
    parser.add_argument(
        "--empty-too", action="store_true",
        help="measure at a 3-entry log too, and print both side by side with their ratios",
    )  # fmt: skip
    parser.add_argument(
        "--short", type=int, default=3,
        help="the short log's entries for --empty-too (3; 300 fills every page's 30 entries)",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.campaign_entries is None:
        args.campaign_entries = args.entries
    return args


def setup(folder: Path) -> None:
    """Django on a fresh SQLite file in ``folder``, migrated, DEBUG off."""
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'pages.sqlite3'}"
    os.environ["DEBUG"] = "0"
    os.environ.pop("REDIS_URL", None)  # the in-memory layer: a roll's broadcast stays here
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", verbosity=0)


def seed(entries: int, campaign_entries: int, players: int) -> dict:
    """The table, its past evenings, its open session and its log; the URLs of every page, with
    who opens them."""
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from campaigns.models import Campaign, Membership
    from campaigns.sessions import end_session, start_session
    from sheets.models import Character
    from tests.web.long_log import mixed_log

    users = get_user_model().objects
    gm = users.create_user("gm")
    campaign = Campaign.objects.create(name="Bench", system="fasttest", gm=gm)
    Membership.objects.create(campaign=campaign, user=gm, role=Membership.Role.GM)
    seated = []
    for number in range(1, players + 1):
        player = users.create_user("player" if number == 1 else f"player{number}")
        Membership.objects.create(campaign=campaign, user=player)
        hero = Character.objects.create(
            campaign=campaign, owner=player, name=f"Brunhilda {number}", data={}
        )
        seated.append((player, hero))
    started = time.perf_counter()
    past = campaign_entries - entries
    for evening, size in enumerate(evenings(past, entries), start=1):
        ended = start_session(campaign, f"Evening {evening}")
        mixed_log(ended, gm, seated, size, seed=evening)
        end_session(ended)
    session = start_session(campaign, "A long evening")
    mixed_log(session, gm, seated, entries)
    print(f"{campaign_entries} entries seeded in {time.perf_counter() - started:.1f} s "
          f"({entries} in the open session)", file=sys.stderr)  # fmt: skip
    player, hero = seated[0]
    ids = {
        "session_detail": [campaign.pk, session.pk],
        "session_log_earlier": [campaign.pk, session.pk],
        "session_recap": [campaign.pk, session.pk],
        "session_recap_part": [campaign.pk, session.pk],
        "character_detail": [campaign.pk, hero.pk],
    }
    urls = {}
    for _, name, _whose, _htmx in PAGES:
        urls[name] = reverse(name, args=ids.get(name, [campaign.pk]))
    urls["session_log_earlier"] += f"?before={max(entries // 2, 1)}"
    return {"users": {"gm": gm, "player": player}, "urls": urls}


def evenings(entries: int, most: int) -> list[int]:
    """The sizes of the ended sessions holding ``entries``: ``most`` each, the last one less."""
    full, rest = divmod(max(entries, 0), most)
    return [most] * full + ([rest] if rest else [])


def measure(seeded: dict, repeat: int, budget: float) -> list[dict]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    clients = {}
    for whose, user in seeded["users"].items():
        clients[whose] = Client()
        clients[whose].force_login(user)
    rows = []
    for label, name, whose, htmx in PAGES:
        client, url = clients[whose], seeded["urls"][name]
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        with CaptureQueriesContext(connection) as queries:
            first = client.get(url, **headers)  # not timed: templates compile, caches fill
        if first.status_code != 200:
            raise SystemExit(f"{label}: {url} answered {first.status_code}")
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            client.get(url, **headers)
            times.append((time.perf_counter() - start) * 1000)
            if sum(times) > budget * 1000 and len(times) >= 3:
                break  # a page of seconds on a big log: its figures are plain after a few
        with CaptureQueriesContext(connection) as queries:
            client.get(url, **headers)
        rows.append({"page": label, "bytes": len(first.content), "queries": len(queries),
                     "p50": percentile(times, 50), "p95": percentile(times, 95),
                     "timed": len(times)})  # fmt: skip
    return rows


def percentile(values: list[float], p: float) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(p) - 1]


def table(rows: list[dict], args) -> str:
    lines = [
        f"Pages with a {args.entries}-entry log ({args.campaign_entries} in the campaign, "
        f"{args.players} players), {args.repeat} timed requests each (Django test client, "
        "SQLite, DEBUG off):",
        "",
        "| page | p50 ms | p95 ms | HTML bytes | KB | queries |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        lines.append(
            f"| {row['page']} | {row['p50']:.1f} | {row['p95']:.1f} | {row['bytes']} | "
            f"{row['bytes'] / 1024:.1f} | {row['queries']} |"
        )
    return "\n".join(lines) + cut_short(rows, args)


def cut_short(rows: list[dict], args) -> str:
    """The pages timed fewer than ``--repeat`` times, their time budget spent (a note)."""
    short = [f"{row['page']} ({row['timed']})" for row in rows if row["timed"] < args.repeat]
    if not short:
        return ""
    return (f"\n\nTimed fewer times, past --page-seconds {args.page_seconds:g}: "
            f"{', '.join(short)}.")  # fmt: skip


def side_by_side(empty: list[dict], big: list[dict], args) -> str:
    lines = [
        f"Pages at a short log ({args.short} entries) and at a {args.entries}-entry one "
        f"({args.campaign_entries} in the campaign, {args.players} players), {args.repeat} timed "
        "requests each (Django test client, SQLite, DEBUG off); x = big / short; target: p95 "
        "within 1.2x of the short log's and 30 ms at most:",
        "",
        "| page | p50 short | p50 big | p50 x | p95 short | p95 big | p95 x | KB short | KB big "
        "| queries short | queries big | target |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for low, high in zip(empty, big, strict=True):
        p50x, p95x = high["p50"] / low["p50"], high["p95"] / low["p95"]
        met = "met" if p95x <= 1.2 and high["p95"] <= 30 else "missed"
        lines.append(
            f"| {low['page']} | {low['p50']:.1f} | {high['p50']:.1f} | {p50x:.2f} | "
            f"{low['p95']:.1f} | {high['p95']:.1f} | {p95x:.2f} | {low['bytes'] / 1024:.1f} | "
            f"{high['bytes'] / 1024:.1f} | {low['queries']} | {high['queries']} | {met} |"
        )
    return "\n".join(lines) + cut_short(big, args)


def measured_apart(entries: int, campaign_entries: int, args) -> list[dict]:
    """The rows of one run of this file in a subprocess of its own (``--json``)."""
    command = [sys.executable, __file__, "--json", "--entries", str(entries),
               "--campaign-entries", str(campaign_entries), "--players", str(args.players),
               "--repeat", str(args.repeat), "--page-seconds", str(args.page_seconds)]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the run at {entries} entries failed ({done.returncode})")
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.entries < 1 or args.repeat < 1:
        print("--entries and --repeat are 1 or more", file=sys.stderr)
        return 2
    if args.players < 1 or args.campaign_entries < args.entries:
        print("--players is 1 or more, --campaign-entries at least --entries", file=sys.stderr)
        return 2
    if args.empty_too:
        empty = measured_apart(args.short, args.short, args)
        print(side_by_side(empty, measured_apart(args.entries, args.campaign_entries, args), args))
        return 0
    folder = Path(tempfile.mkdtemp(prefix="bench-pages-"))
    print(f"temporary database in {folder}", file=sys.stderr)
    try:
        setup(folder)
        seeded = seed(args.entries, args.campaign_entries, args.players)
        rows = measure(seeded, args.repeat, args.page_seconds)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        print(json.dumps(rows))
    else:
        print(table(rows, args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
