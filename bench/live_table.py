"""The live table under load: latency, throughput and memory, embedded and scaled out.

    .venv/bin/python bench/live_table.py                      (or: make bench-live)
    .venv/bin/python bench/live_table.py --modes core --ramp  (the largest load held)

One command; it starts what it needs and removes it again, also on Ctrl+C or an error.

Which code. The servers and the set-up run the project in ``--tree`` (a directory holding
``manage.py``; this benchmark's own tree by default) with this interpreter, while the load
generator is always this file: two trees measured with one generator differ only in the
server's code. ``bench/compare.py`` measures two trees alternately in one run.

Modes (``--modes``, run in this order, each on fresh data):
  floor     ``bench/live_floor.py``: a bare ``websockets`` server doing the same fan-out, no Django.
  django    ``bench/django_floor.py``: the floor of the project's shape, the embedded server's
            Django and Channels (handler, middleware, login, CSRF, in-memory layer) with a roll
            endpoint that only numbers the entry and sends a prepared frame: no app code.
  embedded  the default deployment: one uvicorn process, SQLite (a fresh temporary file), the
            in-memory channel layer.
  core      scale-out: two uvicorn processes on two ports, PostgreSQL (a fresh ``bench_<pid>``
            database on 127.0.0.1:5432, user postgres) and Redis db 7 with channels-redis'
            core layer.
  pubsub    the same with channels-redis' pub/sub layer (``REDIS_CHANNEL_LAYER=pubsub``).
core and pubsub are skipped, with the reason printed, when PostgreSQL or Redis does not answer.
Servers run with ``DEBUG=0``, uvloop and httptools, without the access log (a production start).

A quiet table (``--sequential``): one table of 5 players and the GM, each mode's servers freshly
started and not settled; one player rolls ``--sequential-rolls`` times (200), each roll sent once
the one before has reached the 5 other sockets. It prints p50/p99 over the rolls after the first
(as a ratio to the floor's in the same run), and the first roll after the start apart (its
slowest delivery) as a ratio to that warm p50.

A restart (``--restart``, embedded unless ``--modes`` says otherwise): every page of the load
open (``--tables`` x (``--players`` + 1), each asking who is at the table, ``presence=1``, as the
pages do), the mode's servers are stopped as a deploy stops them (SIGTERM: uvicorn closes every
socket with 1012); while they are down one player of each table rolls through the roll view
(Django's test client in another process, on the same database), so that every page has an
entry to catch up on; then they start again on the same ports and data, ``--restart-away``
seconds after the stop at the earliest (0). Each page tries again as static/js/table.js does
(``Reconnect``; ``--reconnect backoff``: as it did before issue 37) and is back once live and
caught up: its ``since`` answered, the missed entry among what came.
Every user's cap is their one page (``SOCKETS_PER_USER=1``), so a place a stopped server left
counted refuses its page. Per restart it prints how long the servers were away (from SIGTERM to
their first answer; in brackets how long they took to stop), p50/p95/max of each page's time
back after its server first answered (a request polled every 10 ms, or the first handshake it
accepted if sooner), how many were back within 2 s, refused (a close with a code of its own) or
shed (not back within ``--restart-wait`` s, 90, or closed again), caught up, the connects
refused while the servers were down and those that failed after they answered, and the servers'
CPU from their first answer to the last page back. ``--restarts N`` restarts N times, taking
the rules of ``--reconnect page,backoff`` in turn.

Set-up. ``migrate``, then users, campaigns (FastTest), memberships, characters and Django
sessions are written straight through the ORM in a subprocess with the mode's DATABASE_URL
(``bulk_create``; unusable passwords, so no password hashing), and each table's session is opened
with ``campaigns.sessions.start_session``. Each user gets a real session row (``_auth_user_id``,
``_auth_user_backend``, ``_auth_user_hash``): its key is the ``sessionid`` cookie of real
logged-in requests. Users and campaigns get ids from 10^9 + (pid mod 10^4) x 10^5 on, because
Redis pub/sub channels are global across database numbers: other processes on this Redis (a test
run, another benchmark) use other group names (``campaign-<id>``, ``user-<id>``), so no message
crosses. Redis db 7 is flushed before and after each scale-out run; the database is dropped.

A big log (``--log-entries N``, 0): each table's open session holds N entries before any roll,
and its campaign ``--campaign-entries`` (default N; the rest in ended sessions of up to N each),
written in the set-up as ``tests/web/long_log.py``'s ``mixed_log`` writes them (real entries of
every kind and visibility by the GM and the table's players, then copies of them under the
following seqs; the session's last seq follows, so the rolls measured come after). Every page's
socket asks ``since`` that last seq, as a page just loaded does (it shows the log up to there),
so no socket replays the log. Not for floor and django, which keep no log. The set-up's time
grows with tables x entries: meant for ``--sequential`` and a few tables.

Load. T tables (``--tables``, 100) of P players (``--players``, 6) and their GM, each person one
websocket (``/ws/campaigns/<id>/?lang=en``, ``sessionid`` cookie, ``Origin``; after the
handshake ``since``/``synced`` like a page). In scale-out the sockets of a table are split over
the two servers (members 0, 2, 4... on the first). Rolls arrive open-loop at ``--rate`` per
second in all (50; Poisson arrivals, ``--even`` for even spacing), round-robin over the tables
(so each table rolls every T/rate = 2 s on average), each by a random player of the table for
their own character through the real roll endpoint (POST ``/c/<id>/characters/<id>/test/roll/``,
htmx headers, CSRF cookie and header), alternating between the servers in scale-out. On the
floor a roll is a ``{"type": "roll"}`` message on the roller's socket instead of a POST.
HTTP is a minimal asyncio HTTP/1.1 client on keep-alive connections (a new one only when none
is idle); the load generator runs on uvloop in this process and its CPU use is printed.

What is measured. The POST's answer (the rolled entry, ``id="roll-<s>-<seq>"``)
gives the entry's (session, seq). A delivery is that entry arriving on another socket of the
table: every socket of the table except the roller's own (whose page already shows the entry
from the POST's answer), so each roll is expected on P deliveries, the GM included. Latency of a
delivery = its arrival time on that socket - the moment the POST was written (one monotonic
clock, one process; "send lag" is how late the generator wrote it against its schedule). A roll
that fails (not 200), or a delivery that has not arrived ``--drain`` seconds (10) after the last
roll was sent, is lost; in the percentiles a lost delivery counts as infinitely late. The first
``--warmup`` seconds (3) of rolls are sent but not timed, and before the first measurement of a
freshly started mode it is rolled at 5 rolls/s (or less) for ``--settle`` seconds (15), not
timed either, and waited for: a new server's first rolls open its
database connections, compile its templates and fill its session cache, which is not the steady
state of an evening (measured: p99 127 ms at 5 rolls/s scaled out without it, 65 ms with it).
Expected/received/lost count every roll of the run. Rolls/s held = measured rolls fully
delivered / the longer of the window and the time from its start to their last delivery: below
the target when the servers fall behind. Memory: VmRSS summed over the server processes (and
their children) before the sockets connect, after, and at the end: total at the end, per socket
= total / sockets, (on connect) = (after - before) / sockets. CPU: the servers and this load
generator in percent of one core over the measured window, and per roll (servers' CPU time /
rolls sent); "machine busy" is the share of both cores in use during the window (PostgreSQL and
Redis included), and in brackets during 2 s before the rolls start: what else keeps the machine
busy. Each latency is also printed as a ratio to the floor's measured in the same run at the
same load.

Ramp (``--ramp``): for each Django mode, start at ``--ramp-start`` (0.1) times the load and
raise it by ``--ramp-growth`` (x1.5) at a time, tables and rate together (each table keeps its
rhythm of a roll every T/rate seconds), measuring ``--ramp-seconds`` (20) per step, until p99
passes ``--ramp-p99`` ms (100) or a delivery is lost; then bisect ``--ramp-refine`` (3) times
between the last load held and the first one not held, and print the largest load held in
sockets and rolls/s, and where it stops and why: the smallest load not held above it, with what
ran out there (a server process or the machine at 85 % of its CPU or more, PostgreSQL or Redis at
half a core or more: every process of that name on the machine is counted, the load generator's
runs included), or "CPU to spare" when nothing did. Bounded by ``--ramp-max-sockets`` (15000)
and the open-file limit. Sockets of earlier steps stay connected; a step below the connected
tables first closes the sockets of the tables it does not use. The floor, when asked for too, is
measured once at the given load.

Targets (issue "Measure the live table under load"): no lost delivery up to the largest load
held; at the default load p99 under 50 ms embedded and under 30 ms scaled out. Figures go into
notes and docs/performance.md; nothing is asserted on them. The exit status is 1 when a delivery
was lost at a fixed load (not in ramp, where a loss ends the ramp), 2 when nothing could be
measured.
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import dataclasses
import json
import math
import os
import random
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREE = ROOT  # the project the servers run (--tree)
PYTHON = sys.executable
UVICORN = str(Path(sys.executable).with_name("uvicorn"))
PG = {"host": "127.0.0.1", "port": 5432, "user": "postgres"}
REDIS_HOST, REDIS_PORT, REDIS_DB = "127.0.0.1", 6379, 7
REDIS_URL = f"redis://{REDIS_HOST}:{REDIS_PORT}/{REDIS_DB}"
ID_BASE = 1_000_000_000 + (os.getpid() % 10_000) * 100_000
CSRF = "benchcsrf0123456789abcdefghijklm"  # 32 letters and digits: a valid CSRF cookie secret
ROLL_ID = re.compile(rb'id="roll-(\d+)-(\d+)"')
# The last line of a logged traceback: "package.module.SomeError: what happened".
EXCEPTION_LINE = re.compile(r"^[\w.]+(?:Error|Exception|Exit|Full|Timeout)\b.*$", re.MULTILINE)
MODES = ("floor", "django", "embedded", "core", "pubsub")
DEFAULT_MODES = MODES
CONNECT_CONCURRENCY = 50
SETTLE_RATE = 5.0  # rolls/s while a fresh mode settles (--settle)
KEEP_ALIVE_REUSE = 4.0  # s; uvicorn closes a keep-alive connection idle for 5 s

# The sheet of every bench character: the FastTest shape of rolls/demo.py.
SHEET = {
    "attributes": {"BUDOWA": 7, "ZRĘCZNOŚĆ": 5, "UMYSŁ": 4, "DUCH": 4},
    "skills": {"WALKA": 2, "SPRAWNOŚĆ": 1, "KULTURA": -1, "TECHNIKA": -2, "PRZYRODA": 0,
               "EKWIPUNEK": 0},
    "traits": [{"name": "Rycerz", "level": 2, "magic": False},
               {"name": "szermierka", "level": 1, "magic": False}],
    "flaw": None,
    "wounds": [{"label": "cięcie", "severity": "light", "bandaged": False}],
    "armor": 1, "magic_die": None, "xp": 0, "experience_dice": 0,
}  # fmt: skip


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# --- Set-up, in a subprocess with the mode's DATABASE_URL ----------------------------------------


def setup_tables(
    first: int, count: int, players: int, migrate: bool, entries: int = 0, campaign: int = 0
) -> list[dict]:
    """Write ``count`` tables from index ``first`` on, each session's log filled up to
    ``entries`` and the campaign's past evenings with the rest of ``campaign`` entries
    (``fill_log``); return their ids, session cookies and last seqs."""
    sys.path.insert(0, str(TREE))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.base import VALID_KEY_CHARS
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.core.management import call_command
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    from campaigns.models import Campaign, GameSession, Membership
    from campaigns.sessions import start_session
    from sheets.models import Character

    if migrate:
        call_command("migrate", verbosity=0, interactive=False)
    user_model = get_user_model()
    per_table = players + 1
    indexes = range(first, first + count)

    def uid(table: int, member: int) -> int:
        return ID_BASE + table * per_table + member

    users = [
        user_model(id=uid(t, m), username=f"bench-{t}-{m}", password=make_password(None))
        for t in indexes
        for m in range(per_table)
    ]
    user_model.objects.bulk_create(users, batch_size=500)
    campaigns = [
        Campaign(id=ID_BASE + t, name=f"Bench table {t}", system="fasttest", gm_id=uid(t, 0))
        for t in indexes
    ]
    Campaign.objects.bulk_create(campaigns, batch_size=500)
    Membership.objects.bulk_create(
        [
            Membership(
                campaign_id=ID_BASE + t,
                user_id=uid(t, m),
                role=Membership.Role.GM if m == 0 else Membership.Role.PLAYER,
            )
            for t in indexes
            for m in range(per_table)
        ],
        batch_size=500,
    )
    Character.objects.bulk_create(
        [
            Character(
                id=uid(t, m),
                campaign_id=ID_BASE + t,
                owner_id=uid(t, m),
                name=f"Hero {t}-{m}",
                data=SHEET,
            )
            for t in indexes
            for m in range(1, per_table)
        ],
        batch_size=500,
    )
    sessions = {}
    for table in campaigns:
        fill_log(table, range(per_table), entries, campaign, past=True)
        sessions[table.pk] = start_session(table, "Bench night")
        fill_log(table, range(per_table), entries, campaign, past=False)
    store, expires = SessionStore(), timezone.now() + timedelta(days=1)
    backend = "django.contrib.auth.backends.ModelBackend"
    cookies = {}
    rows = []
    for user in users:
        key = get_random_string(32, VALID_KEY_CHARS)
        cookies[user.pk] = key
        data = {
            "_auth_user_id": str(user.pk),
            "_auth_user_backend": backend,
            "_auth_user_hash": user.get_session_auth_hash(),
        }
        rows.append(Session(session_key=key, session_data=store.encode(data), expire_date=expires))
    Session.objects.bulk_create(rows, batch_size=500)
    last_seqs = dict(
        GameSession.objects.filter(pk__in=[s.pk for s in sessions.values()]).values_list(
            "pk", "last_seq"
        )
    )
    return [
        {
            "campaign": ID_BASE + t,
            "session": sessions[ID_BASE + t].pk,
            "last_seq": last_seqs.get(sessions[ID_BASE + t].pk, 0),
            "members": [
                {"cookie": cookies[uid(t, m)], "character": uid(t, m) if m else None}
                for m in range(per_table)
            ],
        }
        for t in indexes
    ]


def fill_log(campaign, members: range, entries: int, everything: int, past: bool) -> None:
    """The campaign's log as ``tests/web/long_log.py``'s ``mixed_log`` fills it (the GM, member
    0, and the players with their characters; every visibility and kind of entry): with
    ``past``, ended sessions of up to ``entries`` each holding ``everything - entries``;
    without, the open session up to ``entries``."""
    if not entries:
        return
    from campaigns.models import GameSession
    from campaigns.sessions import end_session, start_session
    from sheets.models import Character
    from tests.web.long_log import mixed_log

    heroes = {hero.owner_id: hero for hero in Character.objects.filter(campaign=campaign)}
    gm = campaign.gm
    seated = [(heroes[uid].owner, heroes[uid]) for uid in sorted(heroes) if uid != gm.pk]
    if not past:
        mixed_log(GameSession.objects.open_of(campaign.pk), gm, seated, entries)
        return
    left, evening = everything - entries, 0
    while left > 0:
        evening += 1
        session = start_session(campaign, f"Bench evening {evening}")
        mixed_log(session, gm, seated, min(left, entries), seed=evening)
        end_session(session)
        left -= min(left, entries)


def roll_while_away(rolls: list[dict]) -> list[int]:
    """One roll for each of ``rolls`` ({"campaign", "character", "cookie"}) through the roll
    view (Django's test client) while the servers are down: the entry every page of its table
    has to catch up on as it comes back. Returns each entry's seq."""
    sys.path.insert(0, str(TREE))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.test import Client

    seqs = []
    for roll in rolls:
        client = Client(HTTP_HOST="127.0.0.1")
        client.cookies["sessionid"] = roll["cookie"]
        answer = client.post(
            f"/c/{roll['campaign']}/characters/{roll['character']}/test/roll/",
            {"attribute": "BUDOWA", "skill": "WALKA", "key": str(uuid.uuid4()),
             "visibility": "public"},
            HTTP_HX_REQUEST="true",
        )  # fmt: skip
        found = ROLL_ID.search(answer.content)
        if answer.status_code != 200 or found is None:
            raise RuntimeError(f"a roll while the servers were down failed: {answer.status_code}")
        seqs.append(int(found.group(2)))
    return seqs


def floor_tables(first: int, count: int, players: int) -> list[dict]:
    """The floor's tables: the same shape, no database (a table's session is its id)."""
    return [
        {
            "campaign": ID_BASE + t,
            "session": ID_BASE + t,
            "members": [{"cookie": "", "character": m or None} for m in range(players + 1)],
        }
        for t in range(first, first + count)
    ]


# --- Processes, services and clean-up ------------------------------------------------------------

_processes: list[subprocess.Popen] = []


def stop_process(process: subprocess.Popen) -> None:
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)
    if process in _processes:
        _processes.remove(process)


@atexit.register
def _stop_all() -> None:
    for process in list(_processes):
        stop_process(process)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def app_env(**overrides: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL", "REDIS_CHANNEL_LAYER")
        and not key.startswith("PYTEST")
    }
    # The sequential mode rolls as one player as fast as answers come (~100 a second), past the
    # per-user budget a real table never reaches (rolls/limits.py), and over its socket past the
    # frames a page ever sends (rolls/live/consumers.py): the benchmark lifts both.
    env.update({"DEBUG": "0", "LOG_LEVEL": "WARNING", "ROLL_RATE_LIMIT": "10000000",
                "POST_RATE_LIMIT": "10000000", "REPLAY_ENTRY_LIMIT": "100000000",
                "SOCKET_FRAME_BURST": "10000000", "SOCKET_FRAME_RATE": "10000000",
                **overrides})  # fmt: skip
    return env


def run_setup(
    env: dict[str, str], first: int, count: int, players: int, migrate: bool, log: tuple = (0, 0)
) -> list:
    command = [PYTHON, __file__, "--tree", str(TREE), "--setup-db",
               f"{first},{count},{players},{int(migrate)},{log[0]},{log[1]}"]  # fmt: skip
    done = subprocess.run(
        command, cwd=TREE, env=env | {"BENCH_ID_BASE": str(ID_BASE)}, capture_output=True,
        text=True, timeout=600,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"set-up failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout)


def start(command: list[str], env: dict[str, str], log_path: Path) -> subprocess.Popen:
    with open(log_path, "ab") as output:
        process = subprocess.Popen(
            command, cwd=TREE, env=env, start_new_session=True, stdout=output, stderr=output
        )
    _processes.append(process)
    return process


def wait_for_port(port: int, process: subprocess.Popen, path: str | None) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server on port {port} exited with {process.returncode}")
        try:
            if path is None:
                if reachable("127.0.0.1", port):
                    return
            else:
                urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5).read()
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the server on port {port} did not answer within 60 s")


def start_uvicorn(
    env: dict[str, str], log_path: Path, app: str = "config.asgi:application"
) -> tuple[subprocess.Popen, int]:
    """uvicorn serving ``app`` of the tree (``bench/django_floor.py``'s is found in this
    benchmark's own folder, the tree's ``config`` on PYTHONPATH)."""
    port = free_port()
    process = uvicorn_on(port, env, log_path, app)
    wait_for_port(port, process, "/accounts/login/")
    return process, port


def uvicorn_on(
    port: int, env: dict[str, str], log_path: Path, app: str = "config.asgi:application"
) -> subprocess.Popen:
    """uvicorn starting to serve ``app`` on ``port``; not waited for."""
    # The lifespan "auto": the tree's worker threads connect as it starts (config/warmup.py),
    # and a tree from before it had a lifespan serves all the same.
    if app != "config.asgi:application":
        env = env | {"PYTHONPATH": os.pathsep.join([str(TREE), str(ROOT / "bench")])}
    return start(
        [UVICORN, app, "--app-dir", str(TREE),
         "--host", "127.0.0.1", "--port", str(port),
         "--lifespan", "auto", "--log-level", "warning", "--no-access-log"],
        env, log_path,
    )  # fmt: skip


def start_floor(log_path: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    process = start([PYTHON, str(ROOT / "bench" / "live_floor.py"), "--port", str(port)],
                    app_env(), log_path)  # fmt: skip
    wait_for_port(port, process, None)
    return process, port


def postgres_missing() -> str:
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed"
    try:
        psycopg.connect(dbname="postgres", connect_timeout=3, **PG).close()
    except psycopg.Error as error:
        return (
            f"PostgreSQL at {PG['host']}:{PG['port']} (user {PG['user']}) does not answer: "
            + (str(error).strip().splitlines() or ["?"])[0]
        )
    return ""


def redis_missing() -> str:
    try:
        import redis
    except ImportError:
        return "redis-py is not installed"
    try:
        redis.Redis(host=REDIS_HOST, port=REDIS_PORT, db=REDIS_DB, socket_timeout=3).ping()
    except redis.RedisError as error:
        return f"Redis at {REDIS_HOST}:{REDIS_PORT} does not answer: {error}"
    return ""


def flush_redis() -> None:
    import redis

    redis.Redis(host=REDIS_HOST, port=REDIS_PORT, db=REDIS_DB, socket_timeout=10).flushdb()


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    import psycopg

    name = f"bench_{os.getpid()}"

    def admin(sql: str) -> None:
        with psycopg.connect(dbname="postgres", autocommit=True, **PG) as conn:
            conn.execute(sql)

    admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgres://{PG['user']}@{PG['host']}:{PG['port']}/{name}"
    finally:
        admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def process_tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        current = todo.pop()
        pids.append(current)
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as children:
                    todo.extend(int(child) for child in children.read().split())
    return pids


def rss_bytes(pids: list[int]) -> int:
    total = 0
    for pid in (p for root in pids for p in process_tree(root)):
        with contextlib.suppress(OSError), open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total


def cpu_seconds(pids: list[int]) -> float:
    """CPU seconds of these processes and their children."""
    return own_seconds([p for root in pids for p in process_tree(root)])


def named_pids(name: str) -> list[int]:
    """The processes whose command is ``name`` (``postgres``, ``redis-server``): the services
    a scale-out run uses, to tell the database's and the layer's share of a step's CPU."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError), open(f"/proc/{entry}/comm") as comm:
                if comm.read().strip() == name:
                    found.append(int(entry))
    return found


def own_seconds(pids: list[int]) -> float:
    """CPU seconds of exactly these processes (no children: ``named_pids`` lists them all)."""
    ticks = 0
    for pid in pids:
        with contextlib.suppress(OSError), open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


@dataclasses.dataclass
class CpuReading:
    """What used the CPU during a window: each server (with its children), the database and
    the channel layer's Redis, this generator and the machine."""

    servers: list[float]
    database: float
    layer: float
    generator: float
    machine: tuple[int, int]
    at: float

    @classmethod
    def now(cls, pids: list[int]) -> CpuReading:
        return cls(
            [cpu_seconds([pid]) for pid in pids], own_seconds(named_pids("postgres")),
            own_seconds(named_pids("redis-server")), time.process_time(), machine_ticks(),
            time.perf_counter(),
        )  # fmt: skip


def fill_cpu(step: Step, start: CpuReading, end: CpuReading) -> None:
    """The step's CPU figures, in % of one core over the window (the machine's of both)."""
    wall = end.at - start.at
    servers = [100 * (b - a) / wall for a, b in zip(start.servers, end.servers, strict=True)]
    step.server_cpu = sum(servers)
    step.busiest_server_cpu = max(servers, default=0.0)
    step.database_cpu = 100 * (end.database - start.database) / wall
    step.layer_cpu = 100 * (end.layer - start.layer) / wall
    step.client_cpu = 100 * (end.generator - start.generator) / wall
    busy, every = end.machine[0] - start.machine[0], end.machine[1] - start.machine[1]
    step.machine_cpu = 100 * busy / every if every else math.nan


def machine_ticks() -> tuple[int, int]:
    with open("/proc/stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


# --- The load generator --------------------------------------------------------------------------


class HttpConnection:
    """One keep-alive HTTP/1.1 connection: write a request, read the status and the body."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer, self.reusable = reader, writer, True

    async def request(self, raw: bytes) -> tuple[int, bytes]:
        self.writer.write(raw)
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip().lower()
        if "content-length" in headers:
            body = await self.reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding") == "chunked":
            parts = []
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                if size == 0:
                    while await self.reader.readuntil(b"\r\n") != b"\r\n":
                        pass
                    break
                parts.append(await self.reader.readexactly(size))
                await self.reader.readexactly(2)
            body = b"".join(parts)
        else:
            body, self.reusable = await self.reader.read(), False
        if headers.get("connection") == "close":
            self.reusable = False
        return status, body

    def close(self) -> None:
        self.writer.close()


class HttpPool:
    """Keep-alive connections to one server, reused like a browser reuses them."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.idle: list[tuple[HttpConnection, float]] = []  # with the time it went idle
        self.opened: set[HttpConnection] = set()

    async def _connection(self) -> tuple[HttpConnection, bool]:
        now = time.perf_counter()
        while self.idle:
            conn, since = self.idle.pop()
            if now - since < KEEP_ALIVE_REUSE:
                return conn, True
            self._close(conn)
        conn = HttpConnection(*await asyncio.open_connection("127.0.0.1", self.port))
        self.opened.add(conn)
        return conn, False

    async def post(self, path: str, cookie: str, body: bytes) -> tuple[int, bytes, float]:
        """POST a form like htmx does; answer (status, body, the moment it was written).

        A reused connection that the server closed meanwhile is retried once on a new one, as
        browsers do; the roll's idempotency key makes the retry safe.
        """
        origin = f"http://127.0.0.1:{self.port}"
        raw = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nOrigin: {origin}\r\n"
            f"Cookie: sessionid={cookie}; csrftoken={CSRF}\r\nX-CSRFToken: {CSRF}\r\n"
            "HX-Request: true\r\nContent-Type: application/x-www-form-urlencoded\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode() + body
        for attempt in (1, 2):
            conn, reused = await self._connection()
            sent = time.perf_counter()
            try:
                status, answer = await conn.request(raw)
            except (asyncio.IncompleteReadError, ConnectionError):
                self._close(conn)
                if reused and attempt == 1:
                    continue
                raise
            except BaseException:
                self._close(conn)
                raise
            if conn.reusable:
                self.idle.append((conn, time.perf_counter()))
            else:
                self._close(conn)
            return status, answer, sent
        raise AssertionError("unreachable")

    def _close(self, conn: HttpConnection) -> None:
        conn.close()
        self.opened.discard(conn)

    def close(self) -> None:
        for conn in list(self.opened):
            self._close(conn)
        self.idle = []


@dataclasses.dataclass
class Sock:
    id: int
    table: int
    member: int
    port: int
    ws: object = None
    task: asyncio.Task | None = None
    synced: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)


@dataclasses.dataclass
class Roll:
    table: int
    roller: int  # the roller's Sock id
    scheduled: float
    measured: bool
    sent: float = math.nan
    answered: float = math.nan
    session: int | None = None
    seq: int | None = None
    error: str = ""


@dataclasses.dataclass
class Step:
    """One load held for a while, and what it gave."""

    mode: str
    tables: int
    sockets: int
    rate: float
    held_rate: float = 0.0
    rolls: int = 0
    measured_rolls: int = 0
    seconds: float = 0.0
    failed: int = 0  # answered with an error (not 200, or no entry in the answer)
    unanswered: int = 0  # no answer within the drain time
    expected: int = 0
    received: int = 0
    duplicates: int = 0
    dropped: int = 0  # sockets the servers closed during the run
    latencies: list[float] = dataclasses.field(default_factory=list)  # ms, measured window
    missing: int = 0  # deliveries of the measured window that never came: infinitely late
    post_ms: list[float] = dataclasses.field(default_factory=list)
    lag_ms: list[float] = dataclasses.field(default_factory=list)
    entry_bytes: float = 0.0
    rss_baseline: int = 0
    rss_connected: int = 0
    rss_end: int = 0
    server_cpu: float = 0.0
    busiest_server_cpu: float = 0.0  # % of a core: the busiest server process (its children in)
    database_cpu: float = 0.0  # % of a core: every PostgreSQL process of the machine
    layer_cpu: float = 0.0  # % of a core: every Redis process of the machine
    client_cpu: float = 0.0
    machine_cpu: float = 0.0
    background_cpu: float = 0.0
    connect_s: float = 0.0
    first_ms: float = math.nan  # --sequential: the first roll after the start, slowest delivery
    errors: list[str] = dataclasses.field(default_factory=list)
    server_errors: list[str] = dataclasses.field(default_factory=list)

    @property
    def lost(self) -> int:
        return self.expected - self.received

    def pct(self, q: float) -> float:
        """The q-th percentile latency in ms; a delivery that never came counts as infinite."""
        count = len(self.latencies) + self.missing
        if not count:
            return math.nan
        rank = min(count, max(1, math.ceil(q / 100 * count)))
        if rank > len(self.latencies):
            return math.inf
        return sorted(self.latencies)[rank - 1]


class Load:
    """The sockets of one mode's tables and the rolls sent through them."""

    def __init__(self, mode: str, ports: list[int], players: int, seed: int) -> None:
        self.mode, self.ports, self.players = mode, ports, players
        self.per_table = players + 1
        self.tables: list[dict] = []
        self.socks: dict[int, Sock] = {}  # connected sockets by id
        self.pools = {port: HttpPool(port) for port in ports}
        self.arrivals: dict[tuple[int, int], dict[int, float]] = {}
        self.duplicates = self.dropped = 0
        self.entry_bytes = self.entries = 0
        self.acks: dict[str, asyncio.Future] = {}
        self.last_seq: dict[int, int] = {}
        self.random = random.Random(seed)

    # Sockets

    def sock_id(self, table: int, member: int) -> int:
        return table * self.per_table + member

    async def connect_tables(self, count: int) -> None:
        """Have exactly the first ``count`` tables connected."""
        for sock in [s for s in self.socks.values() if s.table >= count]:
            await self._close(sock)
        wanted = [
            Sock(self.sock_id(t, m), t, m, self.ports[m % len(self.ports)])
            for t in range(count)
            for m in range(self.per_table)
            if self.sock_id(t, m) not in self.socks
        ]
        gate = asyncio.Semaphore(CONNECT_CONCURRENCY)

        async def one(sock: Sock) -> None:
            async with gate:
                await self._open(sock)

        await asyncio.gather(*(one(sock) for sock in wanted))

    async def _open(self, sock: Sock) -> None:
        from websockets.asyncio.client import connect

        table = self.tables[sock.table]
        member = table["members"][sock.member]
        origin = f"http://127.0.0.1:{sock.port}"
        sock.ws = await connect(
            f"ws://127.0.0.1:{sock.port}/ws/campaigns/{table['campaign']}/?lang=en",
            origin=origin, additional_headers={"Cookie": f"sessionid={member['cookie']}"},
            proxy=None, ping_interval=None, open_timeout=60, close_timeout=2,
        )  # fmt: skip
        sock.task = asyncio.create_task(self._read(sock))
        since = {"type": "since", "session": table["session"]}
        # A page just loaded shows the log up to its last entry and asks for what came after.
        shown = self.last_seq.get(sock.table, table.get("last_seq", 0))
        await sock.ws.send(json.dumps(since | {"seq": shown}))
        await asyncio.wait_for(sock.synced.wait(), 60)
        self.socks[sock.id] = sock

    async def _read(self, sock: Sock) -> None:
        arrivals, clock, loads = self.arrivals, time.perf_counter, json.loads
        with contextlib.suppress(Exception):
            async for raw in sock.ws:
                now = clock()
                message = loads(raw)
                kind = message.get("type")
                if kind == "entry":
                    seen = arrivals.setdefault((message["session"], message["seq"]), {})
                    if sock.id in seen:
                        self.duplicates += 1
                    else:
                        seen[sock.id] = now
                    self.entry_bytes += len(message["html"])
                    self.entries += 1
                elif kind == "rolled":
                    future = self.acks.pop(message["key"], None)
                    if future is not None and not future.done():
                        future.set_result((now, message["seq"]))
                elif kind == "synced":
                    sock.synced.set()
        if sock.id in self.socks:  # the server closed a socket the page still had open
            self.dropped += 1

    async def _close(self, sock: Sock) -> None:
        self.socks.pop(sock.id, None)
        if sock.ws is not None:
            sock.ws.transport.abort()
        if sock.task is not None:
            sock.task.cancel()
            await asyncio.wait([sock.task])

    async def close(self) -> None:
        for sock in list(self.socks.values()):
            await self._close(sock)
        for pool in self.pools.values():
            pool.close()

    # Rolls

    async def _roll(self, roll: Roll, index: int) -> None:
        table = self.tables[roll.table]
        member = table["members"][roll.roller - roll.table * self.per_table]
        try:
            if self.mode == "floor":
                key = uuid.uuid4().hex
                future = asyncio.get_running_loop().create_future()
                self.acks[key] = future
                roll.sent = time.perf_counter()
                await self.socks[roll.roller].ws.send(json.dumps({"type": "roll", "key": key}))
                roll.answered, roll.seq = await asyncio.wait_for(future, 30)
                roll.session = table["session"]
                return
            form = f"attribute=BUDOWA&skill=WALKA&key={uuid.uuid4()}&visibility=public"
            path = f"/c/{table['campaign']}/characters/{member['character']}/test/roll/"
            pool = self.pools[self.ports[index % len(self.ports)]]
            status, answer, roll.sent = await asyncio.wait_for(
                pool.post(path, member["cookie"], form.encode()), 30
            )
            roll.answered = time.perf_counter()
            found = ROLL_ID.search(answer)
            if status != 200 or found is None:
                roll.error = f"HTTP {status}"
                return
            roll.session, roll.seq = int(found.group(1)), int(found.group(2))
        except Exception as error:  # a failed roll is counted as lost, with its reason
            roll.error = f"{type(error).__name__}: {error}"[:200]
        else:
            self.last_seq[roll.table] = max(self.last_seq.get(roll.table, 0), roll.seq or 0)

    async def run(
        self, step: Step, warmup: float, seconds: float, drain: float, even: bool, pids: list[int]
    ) -> Step:
        """Send rolls open-loop at ``step.rate`` for warmup + seconds; measure; fill ``step``."""
        self.arrivals.clear()
        self.duplicates = self.dropped = self.entry_bytes = self.entries = 0
        rate, total = step.rate, warmup + seconds
        times, at = [], 0.0
        while True:
            at += (1 / rate) if even else self.random.expovariate(rate)
            if at >= total:
                break
            times.append(at)
        rolls, tasks = [], []
        begin = time.perf_counter()
        window_start = begin + warmup
        cpu = None
        for index, offset in enumerate(times):
            due = begin + offset
            if cpu is None and due >= window_start:
                await asyncio.sleep(max(0.0, window_start - time.perf_counter()))
                cpu = CpuReading.now(pids)
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            table = index % step.tables
            roller = self.sock_id(table, self.random.randint(1, self.players))
            roll = Roll(table, roller, due, measured=offset >= warmup)
            rolls.append(roll)
            tasks.append(asyncio.create_task(self._roll(roll, index)))
        if cpu is None:
            cpu = CpuReading.now(pids)
        await asyncio.sleep(max(0.0, begin + total - time.perf_counter()))
        fill_cpu(step, cpu, CpuReading.now(pids))

        deadline = time.perf_counter() + drain
        if tasks:
            await asyncio.wait(tasks, timeout=drain)
        expected = self._expected(rolls)
        while time.perf_counter() < deadline and not self._all_arrived(expected):
            await asyncio.sleep(0.05)
        for task in tasks:
            task.cancel()
        return self._score(step, rolls, expected, window_start, seconds)

    async def run_sequential(self, step: Step, count: int, drain: float, pids: list[int]) -> Step:
        """``count`` rolls of one player of the first table, each sent once the one before has
        reached every other socket (or ``drain`` seconds passed); the first is not in the
        percentiles but kept apart as ``first_ms``: the first roll after the servers started."""
        self.arrivals.clear()
        self.duplicates = self.dropped = self.entry_bytes = self.entries = 0
        roller = self.sock_id(0, 1)
        rolls = []
        cpu = CpuReading.now(pids)
        for index in range(count):
            roll = Roll(0, roller, time.perf_counter(), measured=index > 0)
            rolls.append(roll)
            await self._roll(roll, index)
            expected = self._expected([roll])
            deadline = time.perf_counter() + drain
            while time.perf_counter() < deadline and not self._all_arrived(expected):
                await asyncio.sleep(0.0005)
        end = CpuReading.now(pids)
        fill_cpu(step, cpu, end)
        wall = end.at - cpu.at
        first = rolls[0]
        seen = self.arrivals.get((first.session, first.seq), {}) if first.seq else {}
        others = self._expected([first])[0][1]
        if first.seq is not None and all(sock in seen for sock in others):
            step.first_ms = (max(seen[sock] for sock in others) - first.sent) * 1000
        else:
            step.first_ms = math.inf
        step.rate = (count - 1) / wall if count > 1 else 0.0
        return self._score(step, rolls, self._expected(rolls), rolls[0].sent, wall)

    def _expected(self, rolls: list[Roll]) -> list[tuple[Roll, list[int]]]:
        out = []
        for roll in rolls:
            others = [
                self.sock_id(roll.table, m)
                for m in range(self.per_table)
                if self.sock_id(roll.table, m) != roll.roller
            ]
            out.append((roll, others))
        return out

    def _all_arrived(self, expected) -> bool:
        for roll, others in expected:
            if roll.seq is None:
                if not roll.error:
                    return False
                continue
            seen = self.arrivals.get((roll.session, roll.seq), {})
            # The roller's own socket gets the entry too: it does not stand in for another's.
            if any(sock not in seen for sock in others):
                return False
        return True

    def _score(self, step: Step, rolls: list[Roll], expected, start: float, seconds: float) -> Step:
        last = start
        held = 0
        step.seconds = seconds
        for roll, others in expected:
            step.rolls += 1
            step.measured_rolls += roll.measured
            step.expected += len(others)
            if roll.seq is None:
                if roll.error:
                    step.failed += 1
                    step.errors.append(roll.error)
                else:
                    step.unanswered += 1
                if roll.measured:
                    step.missing += len(others)
                continue
            seen = self.arrivals.get((roll.session, roll.seq), {})
            times = [seen[s] for s in others if s in seen]
            step.received += len(times)
            if not roll.measured:
                continue
            step.latencies.extend((t - roll.sent) * 1000 for t in times)
            step.missing += len(others) - len(times)
            step.post_ms.append((roll.answered - roll.sent) * 1000)
            step.lag_ms.append((roll.sent - roll.scheduled) * 1000)
            if len(times) == len(others):
                held += 1
                last = max(last, roll.answered, *times)
        # Rolls fully delivered per second of the window, stretched when the servers lag behind.
        step.held_rate = held / max(seconds, last - start) if held else 0.0
        step.duplicates, step.dropped = self.duplicates, self.dropped
        step.entry_bytes = self.entry_bytes / self.entries if self.entries else 0.0
        for error in sorted(set(step.errors))[:3]:
            log(f"  [{step.mode}] a roll failed: {error}")
        return step


# --- Modes ---------------------------------------------------------------------------------------


class Deployment:
    """The servers of one mode, and how to add tables to their database."""

    def __init__(
        self, mode: str, players: int, stack: contextlib.ExitStack, log: tuple = (0, 0)
    ) -> None:
        self.mode, self.players, self.stack = mode, players, stack
        # Entries of each table's open session and of its whole campaign (--log-entries).
        self.log = log if mode not in ("floor", "django") else (0, 0)
        self.kind = mode
        self.env: dict[str, str] = {}
        self.processes: list[subprocess.Popen] = []
        self.ports: list[int] = []
        self.made = 0
        self.settled = False  # measured once already: its servers are warm
        self.folder = Path()
        self.read: dict[Path, int] = {}  # how far each server log has been read

    def prepare(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="bench-live-"))
        self.stack.callback(shutil.rmtree, self.folder, True)
        log(f"[{self.mode}] temporary files (database, server logs) in {self.folder}")
        if self.kind == "floor":
            return
        if self.kind in ("django", "embedded"):
            database = f"sqlite:///{self.folder}/table.sqlite3"
            self.env = app_env(DATABASE_URL=database)
            return
        url = self.stack.enter_context(postgres_database())
        log(f"[{self.mode}] temporary database {url}, Redis db {REDIS_DB}")
        flush_redis()
        self.stack.callback(flush_redis)
        self.env = app_env(DATABASE_URL=url, REDIS_URL=REDIS_URL, REDIS_CHANNEL_LAYER=self.kind)

    def add_tables(self, count: int) -> list[dict]:
        """Write ``count`` more tables (the servers may be running)."""
        if self.mode == "floor":
            tables = floor_tables(self.made, count, self.players)
        else:
            # The set-up needs no channel layer: nobody listens yet.
            env = {k: v for k, v in self.env.items() if k != "REDIS_URL"}
            tables = run_setup(
                env, self.made, count, self.players, migrate=self.made == 0, log=self.log
            )
        self.made += count
        return tables

    def serve(self) -> None:
        for number in range(1 if self.kind in ("floor", "django", "embedded") else 2):
            log_path = self.folder / f"server-{number}.log"
            self.read[log_path] = 0
            if self.mode == "floor":
                process, port = start_floor(log_path)
            elif self.mode == "django":
                process, port = start_uvicorn(self.env, log_path, "django_floor:application")
            else:
                process, port = start_uvicorn(self.env, log_path)
            self.stack.callback(stop_process, process)
            self.processes.append(process)
            self.ports.append(port)

    def stop(self) -> None:
        """Stop the servers as a deploy does (SIGTERM: uvicorn closes every socket with 1012)."""
        for process in self.processes:
            stop_process(process)
        self.processes = []

    def start_again(self) -> None:
        """The same servers started again on the same ports and data; not waited for."""
        for number, port in enumerate(self.ports):
            process = uvicorn_on(port, self.env, self.folder / f"server-{number}.log")
            self.stack.callback(stop_process, process)
            self.processes.append(process)

    @property
    def pids(self) -> list[int]:
        return [process.pid for process in self.processes]

    def new_errors(self) -> list[str]:
        """The exceptions the servers logged since the last call, most frequent first."""
        counts: dict[str, int] = {}
        for path, offset in self.read.items():
            with open(path, "rb") as server_log:
                server_log.seek(offset)
                text = server_log.read().decode(errors="replace")
                self.read[path] = server_log.tell()
            for match in EXCEPTION_LINE.finditer(text):
                line = match.group(0).strip()[:160]
                counts[line] = counts.get(line, 0) + 1
        ordered = sorted(counts.items(), key=lambda item: -item[1])
        return [f"{count} x {line}" for line, count in ordered]

    def check_alive(self) -> None:
        for process in self.processes:
            if process.poll() is not None:
                raise RuntimeError(f"a {self.mode} server exited with {process.returncode}")


async def measure(load: Load, deployment: Deployment, tables: int, rate: float, args) -> Step:
    """Connect the first ``tables`` tables, hold ``rate`` rolls/s, and measure."""
    step = Step(deployment.mode, tables, tables * load.per_table, rate)
    step.rss_baseline = rss_bytes(deployment.pids) if not load.socks else 0
    began = time.perf_counter()
    await load.connect_tables(tables)
    step.connect_s = time.perf_counter() - began
    before = machine_ticks()
    await asyncio.sleep(2)  # what else keeps this machine busy (other programs, a backlog)
    after = machine_ticks()
    step.background_cpu = 100 * (after[0] - before[0]) / max(1, after[1] - before[1])
    step.rss_connected = rss_bytes(deployment.pids)
    if not deployment.settled and args.settle > 0:
        # Gently, so that an overload measured next does not start with a backlog.
        gentle = Step(step.mode, tables, step.sockets, min(rate, SETTLE_RATE))
        log(f"  [{step.mode}] settling: {gentle.rate:g} rolls/s for {args.settle:g} s, not timed")
        await load.run(gentle, args.settle, 0, args.drain, args.even, deployment.pids)
    deployment.settled = True
    log(f"  [{step.mode}] {step.sockets} sockets connected in {step.connect_s:.1f} s; "
        f"rolling {rate:g}/s for {args.warmup:g}+{args.seconds:g} s")  # fmt: skip
    await load.run(step, args.warmup, args.seconds, args.drain, args.even, deployment.pids)
    step.rss_end = rss_bytes(deployment.pids)
    step.server_errors = deployment.new_errors()
    deployment.check_alive()
    return step


async def measure_sequential(load: Load, deployment: Deployment, args) -> Step:
    """A quiet table: its sockets connected to freshly started servers, no settling, then
    ``--sequential-rolls`` rolls one after the other."""
    step = Step(deployment.mode, 1, load.per_table, 0.0)
    step.rss_baseline = rss_bytes(deployment.pids)
    began = time.perf_counter()
    await load.connect_tables(1)
    step.connect_s = time.perf_counter() - began
    step.rss_connected = rss_bytes(deployment.pids)
    log(f"  [{step.mode}] {step.sockets} sockets connected; "
        f"{args.sequential_rolls} rolls one after the other")  # fmt: skip
    await load.run_sequential(step, args.sequential_rolls, args.drain, deployment.pids)
    step.rss_end = rss_bytes(deployment.pids)
    step.server_errors = deployment.new_errors()
    deployment.check_alive()
    return step


def held(step: Step, limit_ms: float) -> bool:
    return step.lost == 0 and step.pct(99) <= limit_ms


async def run_mode(mode: str, args, stack: contextlib.ExitStack) -> list[Step] | list[Restart]:
    deployment = Deployment(mode, args.players, stack, (args.log_entries, args.campaign_entries))
    log(f"[{mode}] preparing")
    deployment.prepare()
    started = time.perf_counter()
    tables = deployment.add_tables(args.tables)
    log(f"[{mode}] {args.tables} tables written in {time.perf_counter() - started:.1f} s")
    if args.restart:
        # Every user's one page is at their cap: a place a stopped server left counted refuses it.
        deployment.env["SOCKETS_PER_USER"] = "1"
    deployment.serve()
    if args.restart:
        return await restarts(deployment, tables, args)
    load = Load(mode, deployment.ports, args.players, args.seed)
    load.tables = tables
    try:
        if args.sequential:
            return [await measure_sequential(load, deployment, args)]
        if not args.ramp or mode == "floor":
            return [await measure(load, deployment, args.tables, args.rate, args)]
        return await ramp(load, deployment, args)
    finally:
        await load.close()


async def ramp(load: Load, deployment: Deployment, args) -> list[Step]:
    per_table_rate = args.rate / args.tables
    limit = max_tables(args)
    steps: list[Step] = []

    async def at(tables: int) -> Step:
        if tables > len(load.tables):
            load.tables += deployment.add_tables(tables - len(load.tables))
        step = await measure(load, deployment, tables, tables * per_table_rate, args)
        steps.append(step)
        verdict = "held" if held(step, args.ramp_p99) else "NOT held"
        log(f"  [{step.mode}] {step.sockets} sockets, {step.rate:g} rolls/s: p99 (ms) "
            f"{ms(step.pct(99))}, lost {step.lost}: {verdict}")  # fmt: skip
        await asyncio.sleep(2)  # let a backlog of a step not held drain before the next
        return step

    good, bad, tables = 0, 0, max(1, round(args.tables * args.ramp_start))
    while True:
        step = await at(tables)
        if not held(step, args.ramp_p99):
            bad = tables
            break
        good = tables
        if tables >= limit:
            log(f"  [{deployment.mode}] stopped at the cap of {limit} tables (--ramp-max-sockets)")
            break
        tables = min(limit, max(tables + 1, round(tables * args.ramp_growth)))
    for _ in range(args.ramp_refine if bad else 0):
        middle = (good + bad) // 2
        if middle <= good or middle >= bad:
            break
        if held(await at(middle), args.ramp_p99):
            good = middle
        else:
            bad = middle
    return steps


def max_tables(args) -> int:
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    by_files = (soft - 500) // (args.players + 1)  # this process holds one file per socket
    return max(args.tables, min(by_files, args.ramp_max_sockets // (args.players + 1)))


# --- A restart (--restart) -----------------------------------------------------------------------


class Reconnect:
    """When one page tries again after its socket closed: static/js/table.js's rule, with its
    numbers (change the two together).

    ``page``, table.js now: after a close that is not a refusal the page tries again within
    0.5 to 1 s while the server has been away less than 20 s, then within 1/40 to 1/20 of the
    time it has been away, at most 15 to 30 s. ``backoff``, table.js before issue 37, kept to
    measure the change against: 1 s doubling to 30 s, each times 0.5 to 1, from 1 s again once
    a handshake is accepted. Both handle refusals alike: too many of the user's pages or a full
    table (4409, 4410) tries again after 60 to 120 s (0.5, 1, 2, 4, 8 s only when the page has
    reason to think a place is free, which a restart is not), no login (4401) once more after
    0.5 s, not a member (4403) never; a flood (4429) is an ordinary close.
    """

    SOON = (0.5, 1, 2, 4, 8)

    def __init__(self, rng: random.Random) -> None:
        self.random = rng
        self.away_since: float | None = None
        self.attempt = 0
        self.soon = len(self.SOON)
        self.login_retried = False

    def opened(self) -> None:
        """The server accepted a handshake: it is not away."""
        self.away_since, self.attempt = None, 0

    def answered(self) -> None:
        self.login_retried = False

    def after(self, code: int | None, rule: str, now: float) -> float | None:
        """Seconds until the next try after a close with ``code`` (None: no handshake), or None
        when the page stops trying."""
        if code in (4409, 4410):
            soon = self.SOON[self.soon] if self.soon < len(self.SOON) else None
            self.soon += 1
            return soon or 60 * (1 + self.random.random())
        self.soon = len(self.SOON)
        if code == 4403 or (code == 4401 and self.login_retried):
            return None
        if code == 4401:
            self.login_retried = True
            return 0.5
        if rule == "backoff":
            delay = min(30, 2**self.attempt) * (0.5 + self.random.random() / 2)
            self.attempt += 1
            return delay
        if self.away_since is None:
            self.away_since = now
        return min(15, max(0.5, (now - self.away_since) / 40)) * (1 + self.random.random())


RULES = {"page": "static/js/table.js does", "backoff": "table.js did before issue 37"}


@dataclasses.dataclass
class Page:
    """One open page of a table (a member's), and its way back over the restart measured."""

    table: int
    member: int
    port: int
    live: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)
    ws: object = None
    seq: int = 0  # the last entry it shows
    lost: float = math.nan  # its socket closed
    tries: list[float] = dataclasses.field(default_factory=list)  # connects that failed since
    refusals: list[int] = dataclasses.field(default_factory=list)  # close codes refusing it
    back: float = math.nan  # live and caught up again: its first "synced" since
    caught_up: bool = False  # it had the entry rolled while it was away by then
    again: int = 0  # closed again after it was back

    def forget(self) -> None:
        self.lost, self.back, self.caught_up, self.again = math.nan, math.nan, False, 0
        self.tries, self.refusals = [], []


class Pages:
    """The pages of ``--restart``: every member of every table with a page open, as a browser
    shows it (``presence=1``), each socket opened, caught up with ``since``, and opened again
    after a close the way static/js/table.js does it (``Reconnect``)."""

    def __init__(self, tables: list[dict], ports: list[int], players: int, seed: int) -> None:
        self.tables, self.seed = tables, seed
        self.pages = [
            Page(t, m, ports[m % len(ports)], seq=tables[t].get("last_seq", 0))
            for t in range(len(tables))
            for m in range(players + 1)
        ]
        self.tasks: list[asyncio.Task] = []
        self.rule = "page"
        self.measuring = False
        self.missed: list[int] = []  # by table: the seq rolled while its pages were away
        self.opened: dict[int, float] = {}  # port -> the first handshake accepted after the stop

    async def open(self) -> None:
        gate = asyncio.Semaphore(CONNECT_CONCURRENCY)  # the first opening only: no stampede yet
        self.tasks = [asyncio.create_task(self._keep(page, gate)) for page in self.pages]
        await asyncio.wait_for(self.all_live(), 300)

    async def all_live(self) -> None:
        for page in self.pages:
            await page.live.wait()

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for page in self.pages:
            if page.ws is not None:
                page.ws.transport.abort()

    async def _keep(self, page: Page, gate: asyncio.Semaphore | None) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidHandshake

        table = self.tables[page.table]
        url = (f"ws://127.0.0.1:{page.port}/ws/campaigns/{table['campaign']}/"
               "?lang=en&presence=1")  # fmt: skip
        cookie = {"Cookie": f"sessionid={table['members'][page.member]['cookie']}"}
        rule = Reconnect(random.Random(f"{self.seed}-{page.table}-{page.member}"))
        while True:
            code = None
            try:
                async with gate or contextlib.nullcontext():
                    page.ws = await connect(
                        url, origin=f"http://127.0.0.1:{page.port}", additional_headers=cookie,
                        proxy=None, ping_interval=None, open_timeout=60, close_timeout=2,
                    )  # fmt: skip
            except (OSError, TimeoutError, InvalidHandshake):  # refused, or a failed handshake
                if self.measuring:
                    page.tries.append(time.perf_counter())
            else:
                gate = None
                rule.opened()
                if self.measuring:
                    self.opened.setdefault(page.port, time.perf_counter())
                code = await self._read(page, table, rule)
            delay = rule.after(code, self.rule, time.perf_counter())
            if delay is None:
                return
            await asyncio.sleep(delay)

    async def _read(self, page: Page, table: dict, rule: Reconnect) -> int:
        """Catch up, then hear the table until the socket closes; its close code."""
        ws = page.ws
        since = {"type": "since", "session": table["session"]}
        with contextlib.suppress(Exception):  # closed, however: the code says how
            await ws.send(json.dumps(since | {"seq": page.seq}))
            async for raw in ws:
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "entry" and message["session"] == table["session"]:
                    page.seq = max(page.seq, message["seq"])
                elif kind == "synced" and message.get("more"):
                    await ws.send(json.dumps(since | {"seq": page.seq}))
                elif kind == "synced":
                    rule.answered()
                    if self.measuring and math.isnan(page.back):
                        page.back = time.perf_counter()
                        page.caught_up = page.seq >= self.missed[page.table]
                    page.live.set()
        page.live.clear()
        if self.measuring and math.isnan(page.lost):
            page.lost = time.perf_counter()
        elif self.measuring and not math.isnan(page.back):
            page.again += 1
        code = ws.close_code or 1006
        if code >= 4000:
            page.refusals.append(code)
        return code


@dataclasses.dataclass
class Restart:
    """One restart of a mode's servers with its pages open, and how the pages came back."""

    mode: str
    rule: str
    sockets: int
    load_average: float  # the machine's (1 min) as the restart began
    stop_s: float = math.nan  # SIGTERM to the servers' exit, every socket closed
    away_s: float = math.nan  # SIGTERM to the servers' first answer
    back_ms: list[float] = dataclasses.field(default_factory=list)  # after its server answered
    not_back: int = 0
    refused: int = 0
    again: int = 0
    caught_up: int = 0
    tries_down: int = 0  # connects refused while the servers were down
    tries_up: int = 0  # connects that failed after they answered
    server_cpu_s: float = math.nan  # from the first answer to every page back
    client_cpu: float = math.nan  # % of a core, the same window
    machine_cpu: float = math.nan  # % of both cores, the same window
    background_cpu: float = math.nan  # % of both cores, 2 s before the restart
    server_errors: list[str] = dataclasses.field(default_factory=list)

    def pct(self, q: float) -> float:
        """The q-th percentile in ms; a page that never came back counts as infinite."""
        count = len(self.back_ms) + self.not_back
        rank = min(count, max(1, math.ceil(q / 100 * count)))
        return sorted(self.back_ms)[rank - 1] if rank <= len(self.back_ms) else math.inf


def roll_while_servers_are_down(env: dict[str, str], tables: list[dict]) -> list[int]:
    rolls = [
        {"campaign": t["campaign"], "character": t["members"][1]["character"],
         "cookie": t["members"][1]["cookie"]}
        for t in tables
    ]  # fmt: skip
    done = subprocess.run(
        [PYTHON, __file__, "--tree", str(TREE), "--roll-while-away"],
        input=json.dumps(rolls), cwd=TREE, capture_output=True, text=True, timeout=600,
        env={k: v for k, v in env.items() if k != "REDIS_URL"},  # nobody listens: no layer
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"the rolls while away failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout)


async def first_answer(port: int, process: subprocess.Popen) -> float:
    """The moment the server starting on ``port`` first answers a page (polled every 10 ms)."""
    request = b"GET /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"the server on port {port} exited with {process.returncode}")
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.01)
            continue
        try:
            writer.write(request)
            status = await asyncio.wait_for(reader.readline(), 30)
        except (OSError, TimeoutError):
            status = b""
        finally:
            writer.close()
        if status.startswith(b"HTTP/1.1 200"):
            return time.perf_counter()
        await asyncio.sleep(0.01)


async def measure_restart(pages: Pages, deployment: Deployment, rule: str, args) -> Restart:
    """Stop the servers with every page open, roll once at each table while they are down,
    start them again on the same ports and data, and time each page's way back."""
    step = Restart(deployment.mode, rule, len(pages.pages), os.getloadavg()[0])
    before = machine_ticks()
    await asyncio.sleep(2)  # what else keeps this machine busy
    after = machine_ticks()
    step.background_cpu = 100 * (after[0] - before[0]) / max(1, after[1] - before[1])
    for page in pages.pages:
        page.forget()
    pages.rule, pages.opened, pages.measuring = rule, {}, True
    stopping = time.perf_counter()
    await asyncio.to_thread(deployment.stop)
    step.stop_s = time.perf_counter() - stopping
    env = deployment.env
    pages.missed = await asyncio.to_thread(roll_while_servers_are_down, env, pages.tables)
    await asyncio.sleep(max(0.0, stopping + args.restart_away - time.perf_counter()))
    deployment.start_again()
    servers = zip(deployment.ports, deployment.processes, strict=True)
    polled = await asyncio.gather(*(first_answer(port, process) for port, process in servers))
    start = CpuReading.now(deployment.pids)
    answered = {
        port: min(at, pages.opened.get(port, math.inf))
        for port, at in zip(deployment.ports, polled, strict=True)
    }
    deadline = time.perf_counter() + args.restart_wait
    while time.perf_counter() < deadline and any(math.isnan(p.back) for p in pages.pages):
        await asyncio.sleep(0.02)
    end = CpuReading.now(deployment.pids)
    wall = max(1e-9, end.at - start.at)
    step.server_cpu_s = sum(end.servers) - sum(start.servers)
    step.client_cpu = 100 * (end.generator - start.generator) / wall
    busy, every = end.machine[0] - start.machine[0], end.machine[1] - start.machine[1]
    step.machine_cpu = 100 * busy / every if every else math.nan
    step.away_s = min(answered.values()) - stopping
    for page in pages.pages:
        up = answered[page.port]
        step.tries_down += sum(1 for at in page.tries if at < up)
        step.tries_up += sum(1 for at in page.tries if at >= up)
        step.refused += bool(page.refusals)
        step.again += bool(page.again)
        step.caught_up += page.caught_up
        if math.isnan(page.back):
            step.not_back += 1
        else:
            step.back_ms.append(1000 * (page.back - up))
    pages.measuring = False
    return step


async def restarts(deployment: Deployment, tables: list[dict], args) -> list[Restart]:
    pages = Pages(tables, deployment.ports, args.players, args.seed)
    try:
        began = time.perf_counter()
        await pages.open()
        log(f"  [{deployment.mode}] {len(pages.pages)} pages open in "
            f"{time.perf_counter() - began:.1f} s")  # fmt: skip
        done = []
        for number in range(args.restarts):
            rule = args.reconnect[number % len(args.reconnect)]
            log(f"  [{deployment.mode}] restart {number + 1}: the pages reconnect as {RULES[rule]}")
            step = await measure_restart(pages, deployment, rule, args)
            step.server_errors = deployment.new_errors()
            log(f"  [{deployment.mode}] back after the servers answered: p95 {ms(step.pct(95))} "
                f"ms, max {ms(step.pct(100))} ms")  # fmt: skip
            done.append(step)
        return done
    finally:
        await pages.close()


# --- Report --------------------------------------------------------------------------------------


def mib(value: float) -> str:
    return f"{value / 2**20:.0f} MiB"


def kib(value: float) -> str:
    return f"{value / 2**10:.0f} KiB"


def ms(value: float) -> str:
    return "lost" if math.isinf(value) else ("-" if math.isnan(value) else f"{value:.1f}")


def with_ratio(value: float, floor: float | None) -> str:
    if floor is None or not math.isfinite(value) or not math.isfinite(floor) or floor <= 0:
        return ms(value)
    return f"{value:.1f} ({value / floor:.1f}x)"


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def cpu_per_roll(step: Step) -> str:
    """Server CPU time per roll sent in the window: what one roll costs the servers.

    Meaningless when the servers fall behind (they are busy with rolls sent earlier).
    """
    if step.held_rate < 0.9 * step.rate:
        return "unknown (saturated)"
    return f"{step.server_cpu * step.seconds * 10 / max(1, step.measured_rolls):.1f} ms"


def cpu_cell(step: Step) -> str:
    return (
        f"{step.server_cpu:.0f} / {step.client_cpu:.0f} "
        f"| {step.machine_cpu:.0f} ({step.background_cpu:.0f})"
    )


def report(steps: list[Step], floor: Step | None) -> str:
    lines = [
        "| mode | sockets | rolls/s target / held | deliveries expected / received / lost "
        "| p50 ms | p95 ms | p99 ms | max ms | server RSS: total / per socket (on connect) "
        "| CPU % of a core: servers / load gen | machine busy % (before) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for step in steps:
        same_load = floor is not None and (floor.rate, floor.sockets) == (step.rate, step.sockets)
        reference = floor if same_load and step is not floor else None
        latency = [
            with_ratio(step.pct(q), reference.pct(q) if reference else None)
            for q in (50, 95, 99, 100)
        ]
        increment = (step.rss_connected - step.rss_baseline) / step.sockets
        lines.append(
            f"| {step.mode} | {step.sockets} | {step.rate:g} / {step.held_rate:.1f} "
            f"| {step.expected} / {step.received} / {step.lost} | {' | '.join(latency)} "
            f"| {mib(step.rss_end)} / {kib(step.rss_end / step.sockets)} ({kib(increment)}) "
            f"| {cpu_cell(step)} |"
        )
    lines.append("")
    for step in steps:
        if not step.post_ms:
            continue
        answer = "roll answered" if step.mode != "floor" else "roll acknowledged"
        lines.append(
            f"- {step.mode}: {answer} p50 {quantile(step.post_ms, 0.5):.1f} ms, "
            f"p99 {quantile(step.post_ms, 0.99):.1f} ms; send lag p99 "
            f"{quantile(step.lag_ms, 0.99):.1f} ms; entry {step.entry_bytes:.0f} B of HTML; "
            f"server CPU per roll {cpu_per_roll(step)}; "
            f"rolls failed {step.failed}, unanswered {step.unanswered}; duplicates "
            f"{step.duplicates}; {step.sockets} sockets connected in {step.connect_s:.1f} s, "
            f"{step.dropped} closed by the servers."
        )
        if step.server_errors:
            lines.append(f"  - {step.mode} servers logged: " + "; ".join(step.server_errors[:3]))
    return "\n".join(lines)


def sequential_report(steps: list[Step]) -> str:
    """A lone roll at a quiet table: each latency also as a ratio to the floor's, and the first
    roll after the start against a warm one (the p50 of the others)."""
    floor = next((step for step in steps if step.mode == "floor"), None)
    lines = [
        "| mode | rolls | deliveries expected / received / lost | p50 ms | p99 ms "
        "| first roll ms (x warm p50) | server CPU per roll | CPU % of a core: servers / load gen "
        "| machine busy % |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for step in steps:
        reference = floor if floor is not None and step is not floor else None
        latency = [
            with_ratio(step.pct(q), reference.pct(q) if reference else None) for q in (50, 99)
        ]
        warm = step.pct(50)
        first = ms(step.first_ms)
        if math.isfinite(step.first_ms) and math.isfinite(warm) and warm > 0:
            first = f"{step.first_ms:.1f} ({step.first_ms / warm:.1f}x)"
        per_roll = step.server_cpu * step.seconds * 10 / max(1, step.rolls)
        lines.append(
            f"| {step.mode} | {step.rolls} | {step.expected} / {step.received} / {step.lost} "
            f"| {' | '.join(latency)} | {first} | {per_roll:.1f} ms | {cpu_cell(step)} |"
        )
    return "\n".join(lines)


def restart_report(steps: list[Restart]) -> str:
    """Each restart: how long after its server answered every page was live and caught up."""
    lines = [
        "| mode | reconnect | sockets | servers away s (stopping) | back after they answered: "
        "p50 / p95 / max ms | back within 2 s | refused / shed | caught up | tries while down "
        "/ failed after | server CPU s to all back | CPU % servers' window: load gen / machine "
        "(before) | load average |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for step in steps:
        within = sum(1 for t in step.back_ms if t <= 2000)
        lines.append(
            f"| {step.mode} | {step.rule} | {step.sockets} | {step.away_s:.1f} ({step.stop_s:.1f}) "
            f"| {ms(step.pct(50))} / {ms(step.pct(95))} / {ms(step.pct(100))} "
            f"| {within} | {step.refused} / {step.not_back + step.again} "
            f"| {step.caught_up} | {step.tries_down} / {step.tries_up} | {step.server_cpu_s:.1f} "
            f"| {step.client_cpu:.0f} / {step.machine_cpu:.0f} ({step.background_cpu:.0f}) "
            f"| {step.load_average:.2f} |"
        )
    lines.append("")
    lines.extend(f"- reconnect {rule}: as {text}." for rule, text in RULES.items()
                 if any(step.rule == rule for step in steps))  # fmt: skip
    for step in steps:
        if step.server_errors:
            lines.append(f"- {step.mode} servers logged: " + "; ".join(step.server_errors[:3]))
    return "\n".join(lines)


def ramp_report(steps: list[Step], limit_ms: float) -> str:
    lines = [
        "| mode | tables | sockets | rolls/s target / held | lost | p50 ms | p99 ms | max ms "
        "| server RSS | CPU % of a core: servers / load gen | machine busy % (before) "
        "| CPU % of a core: busiest server / PostgreSQL / Redis | held |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
        "| --- |",
    ]
    best: dict[str, Step] = {}
    for step in steps:
        ok = held(step, limit_ms)
        if ok and (step.mode not in best or step.sockets > best[step.mode].sockets):
            best[step.mode] = step
        lines.append(
            f"| {step.mode} | {step.tables} | {step.sockets} | {step.rate:g} / "
            f"{step.held_rate:.1f} | {step.lost} | {ms(step.pct(50))} | {ms(step.pct(99))} "
            f"| {ms(step.pct(100))} | {mib(step.rss_end)} | {cpu_cell(step)} "
            f"| {step.busiest_server_cpu:.0f} / {step.database_cpu:.0f} / {step.layer_cpu:.0f} "
            f"| {'yes' if ok else 'no'} |"
        )
    lines.append("")
    for step in steps:
        if step.server_errors:
            lines.append(
                f"- {step.mode} at {step.sockets} sockets, {step.rate:g} rolls/s, servers "
                "logged: " + "; ".join(step.server_errors[:3])
            )
    for mode in dict.fromkeys(step.mode for step in steps):
        if mode in best:
            step = best[mode]
            lines.append(
                f"Largest load held ({mode}: p99 <= {limit_ms:g} ms, nothing lost): "
                f"{step.sockets} sockets, {step.rate:g} rolls/s ({step.tables} tables)."
            )
        else:
            lines.append(f"Largest load held ({mode}): none; the first step was not held.")
        above = [s for s in steps if s.mode == mode and not held(s, limit_ms)
                 and (mode not in best or s.sockets > best[mode].sockets)]  # fmt: skip
        if above:
            stop = min(above, key=lambda s: s.sockets)
            lines.append(
                f"  It stops at {stop.sockets} sockets, {stop.rate:g} rolls/s: "
                f"{stopped_by(stop, limit_ms)}."
            )
    return "\n".join(lines)


#: % of a core (a server process, the database, Redis) or of the machine at which a step counts
#: as bound by it. A server process runs its Python on one core (the GIL) whatever its threads:
#: busy for QUEUEING of it, a burst of rolls (Poisson arrivals) waits behind each other long
#: enough to pass a p99 of 100 ms (M/M/1: p99 of the time in the system = ln(100) x the service
#: time / (1 - the share busy), about 140 ms at half busy and 14 ms a roll).
SATURATED = 85.0
QUEUEING = 40.0
SERVICE_BOUND = 50.0


def stopped_by(step: Step, limit_ms: float) -> str:
    """Why a load was not held, from what the step measured: lost deliveries first, then
    whatever ran out of CPU; with CPU to spare, the latency came from pauses, not the load."""
    if step.lost:
        return f"{step.lost} deliveries lost"
    causes = []
    if step.busiest_server_cpu >= SATURATED:
        causes.append(f"CPU: a server process at {step.busiest_server_cpu:.0f} % of a core")
    elif step.busiest_server_cpu >= QUEUEING:
        causes.append(
            f"queueing in a server process at {step.busiest_server_cpu:.0f} % of its one core "
            "(its Python runs on one core): bursts of rolls wait behind each other"
        )
    if step.machine_cpu >= SATURATED:
        causes.append(f"CPU: the machine at {step.machine_cpu:.0f} % of both cores")
    if step.database_cpu >= SERVICE_BOUND:
        causes.append(f"database: PostgreSQL at {step.database_cpu:.0f} % of a core")
    if step.layer_cpu >= SERVICE_BOUND:
        causes.append(f"layer: Redis at {step.layer_cpu:.0f} % of a core")
    if causes:
        return f"p99 {ms(step.pct(99))} ms; " + ", ".join(causes)
    return (
        f"p99 {ms(step.pct(99))} ms with CPU to spare (the busiest server at "
        f"{step.busiest_server_cpu:.0f} % of a core, the machine at {step.machine_cpu:.0f} %): "
        "pauses or queueing behind bursts, not a resource used up"
    )


# --- Main ----------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="The live table under load.", epilog="See the module docstring for details."
    )
    parser.add_argument("--tables", type=int, default=100, help="tables (100)")
    parser.add_argument("--players", type=int, default=6, help="players per table, plus a GM (6)")
    parser.add_argument("--rate", type=float, default=50, help="rolls per second in all (50)")
    parser.add_argument("--seconds", type=float, default=20, help="measured seconds (20)")
    parser.add_argument("--warmup", type=float, default=3, help="seconds rolled, not timed (3)")
    parser.add_argument(
        "--settle",
        type=float,
        default=15,
        help="more untimed seconds before a fresh mode's first measurement (15)",
    )
    parser.add_argument("--drain", type=float, default=10, help="seconds to wait for stragglers")
    parser.add_argument("--modes", help=f"comma-separated: {MODES} (--restart: embedded)")
    parser.add_argument("--even", action="store_true", help="evenly spaced rolls, not Poisson")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the schedule")
    parser.add_argument("--ramp", action="store_true", help="raise the load until it breaks")
    parser.add_argument("--ramp-p99", type=float, default=100, help="ms (100)")
    parser.add_argument("--ramp-start", type=float, default=0.1, help="x the load (0.1)")
    parser.add_argument("--ramp-growth", type=float, default=1.5, help="factor per step (1.5)")
    parser.add_argument("--ramp-refine", type=int, default=3, help="bisection steps (3)")
    parser.add_argument("--ramp-seconds", type=float, default=20, help="measured s per step (20)")
    parser.add_argument("--ramp-max-sockets", type=int, default=15000, help="cap (15000)")
    parser.add_argument(
        "--sequential", action="store_true",
        help="a quiet table: 1 roller + 5 listeners, rolls one after the other",
    )  # fmt: skip
    parser.add_argument(
        "--sequential-rolls", type=int, default=200, help="rolls of --sequential (200)"
    )
    parser.add_argument(
        "--restart", action="store_true",
        help="restart the servers with every page open: how soon each is live again",
    )  # fmt: skip
    parser.add_argument(
        "--reconnect", default="page",
        help="how the pages try again, comma-separated to alternate: page (as table.js does), "
        "backoff (as it did before issue 37)",
    )  # fmt: skip
    parser.add_argument("--restarts", type=int, default=1, help="restarts of --restart (1)")
    parser.add_argument(
        "--restart-wait", type=float, default=90, help="s a page may take to come back (90)"
    )
    parser.add_argument(
        "--restart-away", type=float, default=0,
        help="s from the stop to the start again, at least (0; issue 37's server answered "
        "7.3 s after its stop)",
    )  # fmt: skip
    parser.add_argument(
        "--tree", type=Path, default=ROOT, help="the project the servers run (this benchmark's)"
    )
    parser.add_argument(
        "--log-entries", type=int, default=0,
        help="entries in each table's open session before the rolls (0; not floor, django)",
    )  # fmt: skip
    parser.add_argument(
        "--campaign-entries", type=int,
        help="entries of each table's whole campaign, the rest in ended sessions "
        "(default: --log-entries)",
    )  # fmt: skip
    parser.add_argument("--setup-db", help=argparse.SUPPRESS)
    parser.add_argument("--roll-while-away", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.tree = args.tree.resolve()
    if not (args.tree / "manage.py").is_file():
        parser.error(f"--tree {args.tree} holds no manage.py")
    if args.modes is None:
        args.modes = "embedded" if args.restart else ",".join(DEFAULT_MODES)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    unknown = [m for m in modes if m not in MODES]
    if unknown or not modes:
        parser.error(f"--modes takes some of {', '.join(MODES)}; got {args.modes!r}")
    args.modes = [m for m in MODES if m in modes]
    if args.tables < 1 or args.players < 1 or args.rate <= 0 or args.seconds <= 0:
        parser.error("--tables, --players, --rate and --seconds must be positive")
    if args.tables * (args.players + 1) > args.ramp_max_sockets:
        parser.error("more sockets than --ramp-max-sockets allows")
    if args.ramp:
        args.seconds = args.ramp_seconds
    if args.sequential:
        if args.ramp:
            parser.error("--sequential and --ramp are two different runs")
        if args.sequential_rolls < 2:
            parser.error("--sequential-rolls must be 2 or more (the first is kept apart)")
        args.tables, args.players = 1, 5  # the roller, 4 other players and the GM
    if args.campaign_entries is None:
        args.campaign_entries = args.log_entries
    if args.log_entries < 0 or args.campaign_entries < args.log_entries:
        parser.error("--log-entries is 0 or more, --campaign-entries at least --log-entries")
    args.reconnect = [rule.strip() for rule in args.reconnect.split(",") if rule.strip()]
    if args.restart:
        if args.ramp or args.sequential:
            parser.error("--restart is a run of its own, without --ramp or --sequential")
        if any(m not in ("embedded", "core", "pubsub") for m in args.modes):
            parser.error("--restart restarts the app's servers: modes embedded, core, pubsub")
        if not args.reconnect or any(rule not in RULES for rule in args.reconnect):
            parser.error(f"--reconnect takes some of {', '.join(RULES)}")
        if args.restarts < 1:
            parser.error("--restarts must be 1 or more")
    return args


async def bench(args, stack: contextlib.ExitStack) -> list[Step]:
    # SIGTERM stops the run like Ctrl+C does: the task is cancelled and every clean-up runs.
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, asyncio.current_task().cancel)
    steps = []
    for mode in args.modes:
        if mode in ("core", "pubsub"):
            reason = postgres_missing() or redis_missing()
            if reason:
                log(f"[{mode}] skipped: {reason}")
                continue
        with contextlib.ExitStack() as mode_stack:
            try:
                steps += await run_mode(mode, args, mode_stack)
            finally:
                log(f"[{mode}] cleaning up")
    return steps


def tree_name(tree: Path) -> str:
    """The tree and, when it is a git checkout, its commit (with ``+`` for uncommitted changes)."""
    try:
        commit = subprocess.run(
            ["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, timeout=10, check=True,
        ).stdout.strip()  # fmt: skip
        changed = subprocess.run(
            ["git", "-C", str(tree), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True, text=True, timeout=10, check=True,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return str(tree)
    return f"{tree} at {commit}{'+' if changed else ''}"


def main(argv: list[str] | None = None) -> int:
    global TREE
    args = parse_args(argv)
    TREE = args.tree
    if args.setup_db:
        global ID_BASE
        ID_BASE = int(os.environ["BENCH_ID_BASE"])
        first, count, players, migrate, entries, campaign = (
            int(v) for v in args.setup_db.split(",")
        )
        print(json.dumps(setup_tables(first, count, players, bool(migrate), entries, campaign)))
        return 0
    if args.roll_while_away:
        print(json.dumps(roll_while_away(json.load(sys.stdin))))
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    try:
        import uvloop

        loop_factory = uvloop.new_event_loop
    except ImportError:
        loop_factory = None
    with contextlib.ExitStack() as stack, asyncio.Runner(loop_factory=loop_factory) as runner:
        try:
            steps = runner.run(bench(args, stack))
        except (KeyboardInterrupt, asyncio.CancelledError):
            log("Interrupted: stopping the servers and removing the data.")
            return 130
    if not steps:
        log("Nothing was measured.")
        return 2
    when = time.strftime("%Y-%m-%d")
    measured = (
        "a page is back once its socket is live and caught up (answered its since) after the "
        "servers were restarted" if args.restart
        else "latency from the roll sent to the entry on every other socket of the table"
    )  # fmt: skip
    print(
        f"\nThe live table, {when}, {os.cpu_count()} cores: {args.players} players + GM per "
        f"table; {measured}.\nServers run {tree_name(TREE)}.\n"
    )
    if args.restart:
        print(restart_report(steps))
        missing = sum(step.not_back + step.again for step in steps)
        print(f"\nPages not back: {missing}.")
        return 1 if missing else 0
    if args.sequential:
        print(sequential_report(steps))
        lost = sum(step.lost for step in steps)
        print(f"\nLost deliveries: {lost}.")
        return 1 if lost else 0
    if args.ramp:
        fixed = [s for s in steps if s.mode == "floor"]
        if fixed:
            print(report(fixed, None) + "\n")
        print(ramp_report([s for s in steps if s.mode != "floor"], args.ramp_p99))
        return 0
    floor = next((s for s in steps if s.mode == "floor"), None)
    print(report(steps, floor))
    lost = sum(step.lost for step in steps)
    print(f"\nLost deliveries: {lost}.")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
