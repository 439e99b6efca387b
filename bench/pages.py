"""A long evening's pages: server time, weight and queries of every page that shows the log.

    .venv/bin/python bench/pages.py              (or: make bench-pages)
    .venv/bin/python bench/pages.py --entries 2000 --repeat 50

One command; it seeds a fresh temporary SQLite database (removed afterwards, also on an error):
a FastTest table (a GM, two players, a character), one open session and ``--entries`` log
entries (real rolls copied under the following seqs, as ``tests/web/long_log.py`` fills a test's
log: every 7th a player's secret roll, every 11th the GM's hidden one). Then it requests each
page and partial ``--repeat`` times through Django's test client, in this process, with
``DEBUG`` off, as the GM (the player's pages also as the player), and prints per page the p50
and p95 of the server time (the client's call: the request through every middleware, the view
and its template; no network), the HTML size in bytes and KB and the number of SQL statements.
The first request of each page is not timed (templates compile, caches fill). Figures are
printed, never judged: a busy machine slows them all.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
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
    parser.add_argument("--entries", type=int, default=2000, help="log entries (2000)")
    parser.add_argument("--repeat", type=int, default=30, help="timed requests per page (30)")
    return parser.parse_args(argv)


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


def seed(entries: int) -> dict:
    """The table, its session and its log; the URLs of every page, with who opens them."""
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from campaigns.models import Campaign, Membership
    from campaigns.sessions import start_session
    from sheets.models import Character
    from tests.web.long_log import long_log

    users = get_user_model().objects
    gm, player = users.create_user("gm"), users.create_user("player")
    campaign = Campaign.objects.create(name="Bench", system="fasttest", gm=gm)
    Membership.objects.create(campaign=campaign, user=gm, role=Membership.Role.GM)
    Membership.objects.create(campaign=campaign, user=player)
    hero = Character.objects.create(campaign=campaign, owner=player, name="Brunhilda", data={})
    session = start_session(campaign, "A long evening")
    long_log(session, player, gm, entries, character=hero)
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


def measure(seeded: dict, repeat: int) -> list[dict]:
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
        with CaptureQueriesContext(connection) as queries:
            client.get(url, **headers)
        rows.append({"page": label, "bytes": len(first.content), "queries": len(queries),
                     "p50": percentile(times, 50), "p95": percentile(times, 95)})  # fmt: skip
    return rows


def percentile(values: list[float], p: float) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(p) - 1]


def table(rows: list[dict], entries: int, repeat: int) -> str:
    lines = [
        f"Pages with a {entries}-entry log, {repeat} timed requests each (Django test client, "
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
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.entries < 1 or args.repeat < 1:
        print("--entries and --repeat are 1 or more", file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="bench-pages-"))
    print(f"temporary database in {folder}", file=sys.stderr)
    try:
        setup(folder)
        rows = measure(seed(args.entries), args.repeat)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(table(rows, args.entries, args.repeat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
