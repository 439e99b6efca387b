"""One hostile account's flood against a quiet table, before and after a defence (issue 37).

    .venv/bin/python bench/flood.py                          (or: make bench-flood)
    .venv/bin/python bench/flood.py --before 3c3154a --rounds 2

One command; it starts what it needs and removes it again, also on Ctrl+C or an error.

Which code. ``--tree`` (this benchmark's own tree by default) is measured, and with
``--before`` (a directory holding a project tree, or a git revision, exported for the run) that
tree too, alternately: before, after, before, after... (``--rounds`` each; ``--abba`` swaps every
other round), so that whatever else loads the machine meanwhile falls on both sides alike. The
load generator is always this file, and the servers are started as ``bench/live_table.py``
starts them (its module is imported: start-up, set-up of tables and sessions, the quiet table's
sockets and rolls, CPU readings), so two trees differ only in the server's code.

The server. The embedded deployment: one uvicorn process, SQLite (a fresh temporary file each
round), the in-memory channel layer, ``DEBUG=0``. Unlike ``live_table.py`` it runs with the
tree's own per-user limits: nothing is lifted (no ``*_LIMIT`` nor ``SOCKET_FRAME_*`` variable is
passed), so the flood meets the budgets a real server has.

The quiet table. One table of 5 players and the GM (``live_table``'s set-up: users, sessions,
characters, an open game session), each with a websocket. One player rolls through the real roll
endpoint, each roll sent once the one before has reached the 5 other sockets and no sooner than
``--interval`` (0.25 s) after it: at most 40 rolls in a 10-second window, under the real roll
budget of 50 (a player rolling back to back would be refused by it; the quiet roller is slowed
rather than its budget lifted). Latency of a roll = the moment its POST was written to the
arrival of its entry on each of the 5 other sockets (a delivery that never came counts as
infinitely late). The first ``--warmup`` rolls (10) after the start are not timed. Then
``--rolls`` (200) are timed at the quiet table ("quiet"), then as many while the flood runs
("flooded"), each phase ending early after ``--max-seconds`` (90).

The flood. A second account, the GM of its own FastTest campaign with an open game session and
``--npcs`` (300) NPCs entered through the tree's own ``sheets.actions.create_npcs`` (a tree that
caps a campaign's NPCs gets as many as its cap allows). Its session cookie drives ``--connections``
(4) keep-alive connections from a separate process (so that the flood's own parsing does not
delay the quiet table's clock), each sending its next request as soon as the last is answered,
taking turns through this mix (``--kinds``, all four by default), as a browser would send each:

  chat    a line of chat (htmx, ``/c/<id>/chat/``): past the chat budget (20 per 10 s) refused.
  table   a new random table whose rows leave a gap (a plain form, ``/c/<id>/tables/``): refused
          by the form (422), the tables page rendered again.
  import  a character import of 60 KB of pasted JSON (a plain multipart form,
          ``/c/<id>/characters/import/``) whose sheet is refused: parsed, checked and echoed back.
  order   the turn order with ``1d20`` for every NPC (htmx, ``/c/<id>/dashboard/order/``): one
          log entry per NPC where nothing caps it.

The flood starts ``--lead`` (2) seconds before the flooded rolls are timed and stops after them.
What is reported of it: its requests per second, how they were answered (status counts per
kind), the log entries the hostile account wrote (counted in the database afterwards, with the
characters and random tables it made), the server's CPU in % of one core over each phase and the
machine's (both cores, every process) with its 1-minute load average as the phase began.

Costs of one request (``--no-costs`` skips them): after the flood, each kind alone from the same
connections for one rate window (from the start of a 10-second window, so its budgets are fresh,
to half a second before its end, so its last answers are in by then): the server's CPU time per
request answered until the first 429, and once refused (from the first 429 on), with the
statuses, beside a quiet roll's CPU time (the quiet phase's server CPU over its rolls).

Nothing is asserted: figures go to docs/performance.md. The exit status is 1 when a round failed
to measure (a server exited, a set-up failed), 2 when nothing could be measured.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import itertools
import json
import math
import os
import re
import signal
import statistics
import subprocess
import sys
import time
import uuid
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import compare
import live_table
from live_table import CpuReading, Load, Roll, Step, log, ms

ROOT = live_table.ROOT
PLAYERS = 5  # the quiet table: the roller, 4 other players and the GM
KINDS = ("chat", "table", "import", "order")
#: Settings the benchmark never passes on to the servers, so the tree's own values hold: every
#: per-user budget, the socket's frame limits and their window (live_table.py lifts some).
LIFTED = re.compile(r"^(?:.*_LIMIT|SOCKET_FRAME_.*|RATE_WINDOW_SECONDS)$")
#: The real roll budget of the quiet roller: 50 log entries per 10 s (rolls/limits.py).
ROLL_BUDGET, ROLL_WINDOW = 50, 10.0
HOSTILE_OFFSET = 90_000  # the hostile user's and campaign's ids: ID_BASE + this
IMPORT_BYTES = 60 * 1024
CSRF = live_table.CSRF


# --- Set-up and counts, in a subprocess on the round's tree and database ----------------------


def django_in(tree: Path) -> None:
    sys.path.insert(0, str(tree))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def setup_hostile(tree: Path, base: int, npcs: int) -> dict:
    """The hostile account: a GM of its own campaign, an open session, ``npcs`` NPCs or as many
    as the tree allows, and a logged-in session; its ids and cookie."""
    django_in(tree)
    from datetime import timedelta

    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.base import VALID_KEY_CHARS
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    from campaigns.models import Campaign, Membership
    from campaigns.sessions import start_session
    from sheets import actions
    from sheets.npc_parse import ParsedNPC

    user = get_user_model().objects.create(
        id=base + HOSTILE_OFFSET, username="flood", password=make_password(None)
    )
    campaign = Campaign.objects.create(
        id=base + HOSTILE_OFFSET, name="Flood", system="fasttest", gm_id=user.pk
    )
    Membership.objects.create(campaign=campaign, user=user, role=Membership.Role.GM)
    session = start_session(campaign, "Flood night")
    cap = getattr(actions, "NPCS_PER_CAMPAIGN", None)
    wanted = npcs if cap is None else min(npcs, cap)
    made = actions.create_npcs(campaign, [ParsedNPC(f"Goblin {n}", ()) for n in range(wanted)])
    key = get_random_string(32, VALID_KEY_CHARS)
    data = {
        "_auth_user_id": str(user.pk),
        "_auth_user_backend": "django.contrib.auth.backends.ModelBackend",
        "_auth_user_hash": user.get_session_auth_hash(),
    }
    Session.objects.create(
        session_key=key,
        session_data=SessionStore().encode(data),
        expire_date=timezone.now() + timedelta(days=1),
    )
    return {
        "user": user.pk,
        "campaign": campaign.pk,
        "session": session.pk,
        "cookie": key,
        "npcs": [npc.pk for npc in made],
        "cap": cap,
    }


def count_written(tree: Path, user: int, campaign: int) -> dict:
    """What the hostile account made: log entries by kind, characters and random tables."""
    django_in(tree)
    from rolls.models import RandomTable
    from rolls.models import Roll as Entry
    from sheets.models import Character

    kinds = Counter(Entry.objects.filter(actor_id=user).values_list("kind", flat=True))
    return {
        "entries": dict(kinds),
        "characters": Character.objects.filter(campaign_id=campaign).count(),
        "tables": RandomTable.objects.filter(campaign_id=campaign).count(),
    }


def in_tree(env: dict[str, str], tree: Path, *args: str) -> dict:
    """This file with ``args`` in a subprocess, on ``tree`` and the round's database."""
    done = subprocess.run(
        [live_table.PYTHON, __file__, "--tree", str(tree), *args],
        cwd=tree, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"{args[0]} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout)


def real_limits(env: dict[str, str]) -> dict[str, str]:
    """The servers' environment without any budget lifted: the tree's own limits hold."""
    return {key: value for key, value in env.items() if not LIFTED.match(key)}


# --- The flood, in a process of its own -----------------------------------------------------------


def import_document() -> str:
    """A character export of about 60 KB whose sheet FastTest refuses (an attribute of 99),
    padded with a list of short strings the import walks through before it refuses."""
    sheet = json.loads(json.dumps(live_table.SHEET))
    sheet["attributes"]["BUDOWA"] = 99
    document = {"schema": 1, "system": "fasttest", "name": "Flood", "data": sheet}
    filler = "lorem ipsum dolor sit amet"
    base = len(json.dumps(document, ensure_ascii=False))
    sheet["padding"] = [filler] * ((IMPORT_BYTES - base) // (len(filler) + 4))
    return json.dumps(document, ensure_ascii=False)


class Requests:
    """The raw HTTP requests of the flood's kinds, for one account on one server."""

    BOUNDARY = "floodboundary0123456789"

    def __init__(self, port: int, cookie: str, campaign: int, npcs: list[int]) -> None:
        self.port, self.campaign = port, campaign
        self.head = (
            f"Host: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
            f"Cookie: sessionid={cookie}; csrftoken={CSRF}\r\nX-CSRFToken: {CSRF}\r\n"
        )
        self.dice = "&".join(f"npc-{pk}=1d20" for pk in npcs)
        self.table = b"name=Flood+table&dice=1d6&purpose=&rows=1-3%3A+a%0D%0A5-6%3A+b"
        parts = [("json", import_document()), ("owner", "")]
        self.multipart = (
            "".join(
                f'--{self.BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
                f"{value}\r\n"
                for name, value in parts
            ).encode()
            + f"--{self.BOUNDARY}--\r\n".encode()
        )

    def _post(self, path: str, body: bytes, content_type: str, htmx: bool) -> bytes:
        return (
            f"POST /c/{self.campaign}/{path} HTTP/1.1\r\n{self.head}"
            f"{'HX-Request: true' + chr(13) + chr(10) if htmx else ''}"
            f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n\r\n"
        ).encode() + body

    def make(self, kind: str) -> bytes:
        form = "application/x-www-form-urlencoded"
        if kind == "chat":
            body = f"text=Flood&to=all&speaker=&key={uuid.uuid4()}".encode()
            return self._post("chat/", body, form, htmx=True)
        if kind == "table":
            return self._post("tables/", self.table, form, htmx=False)
        if kind == "import":
            multipart = f"multipart/form-data; boundary={self.BOUNDARY}"
            return self._post("characters/import/", self.multipart, multipart, htmx=False)
        if kind == "order":
            body = f"{self.dice}&key={uuid.uuid4()}".encode()
            return self._post("dashboard/order/", body, form, htmx=True)
        raise ValueError(kind)


class Flood:
    """The flood's connections: each sends its next request as soon as the last is answered,
    the kinds taking turns, until a deadline or SIGTERM (a request sent is always read)."""

    def __init__(self, plan: dict) -> None:
        self.plan = plan
        self.requests = Requests(plan["port"], plan["cookie"], plan["campaign"], plan["npcs"])
        self.conns: list[live_table.HttpConnection | None] = [None] * plan["connections"]
        self.stop = asyncio.Event()

    async def send(self, kinds: list[str], until: float, answered) -> None:
        """Send ``kinds`` in turn until ``until`` (``time.time()``); ``answered(kind, status)``
        hears each answer ("closed" for a connection the server closed)."""
        turn = itertools.count()

        async def connection(number: int) -> None:
            while not self.stop.is_set() and time.time() < until:
                kind = kinds[next(turn) % len(kinds)]
                conn = self.conns[number]
                if conn is None:
                    conn = self.conns[number] = live_table.HttpConnection(
                        *await asyncio.open_connection("127.0.0.1", self.plan["port"])
                    )
                try:
                    status, _body = await conn.request(self.requests.make(kind))
                except (asyncio.IncompleteReadError, ConnectionError):
                    status, conn.reusable = "closed", False
                answered(kind, str(status))
                if not conn.reusable:
                    conn.close()
                    self.conns[number] = None

        await asyncio.gather(*(connection(n) for n in range(len(self.conns))))


async def flood(plan: dict) -> dict:
    """The flood's process: the plan's kinds in turn until SIGTERM; or, with ``windows``, each
    of those kinds alone for one whole rate window (from its start, when every budget is
    fresh), saying on stdout when each starts ("start"), meets its first 429 ("refused") and
    ends ("end"), so that the parent reads the server's CPU at those moments."""
    work = Flood(plan)
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, work.stop.set)
    print("ready", flush=True)
    if not plan.get("windows"):
        answered = {kind: Counter() for kind in plan["kinds"]}
        cpu, began = time.process_time(), time.perf_counter()
        await work.send(
            plan["kinds"], math.inf, lambda kind, status: answered[kind].update([status])
        )
        seconds = time.perf_counter() - began
        return {
            "answered": {kind: dict(counts) for kind, counts in answered.items()},
            "seconds": seconds,
            "cpu": 100 * (time.process_time() - cpu) / seconds,
        }
    windows = []
    for kind in plan["windows"]:
        start = (time.time() // ROLL_WINDOW + 1) * ROLL_WINDOW
        await asyncio.sleep(start - time.time())
        print("start", flush=True)
        window = {"kind": kind, "until": Counter(), "refused": Counter(), "at": time.time()}

        def answered(kind: str, status: str, window=window) -> None:
            if status == "429" and "refused_at" not in window:
                window["refused_at"] = time.time()
                print("refused", flush=True)
            window["refused" if "refused_at" in window else "until"][status] += 1

        # Stops sending half a second before the window ends, so that the last answers are in
        # by then and the next kind starts with the next window.
        await work.send([kind], start + ROLL_WINDOW - 0.5, answered)
        window["end"] = time.time()
        print("end", flush=True)
        windows.append(window)
    return {"windows": windows}


class Flooder:
    """The flood's process: started, waited for until it is ready, stopped."""

    def __init__(self, plan: dict) -> None:
        self.plan = plan
        self.process: asyncio.subprocess.Process | None = None

    async def __aenter__(self) -> Flooder:
        self.process = await asyncio.create_subprocess_exec(
            live_table.PYTHON, __file__, "--flood-worker",
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True,
        )  # fmt: skip
        self.process.stdin.write(json.dumps(self.plan).encode())
        self.process.stdin.close()
        if await self.line() != "ready":
            raise RuntimeError("the flood's process did not start")
        return self

    async def line(self) -> str:
        return (await self.process.stdout.readline()).decode().strip()

    async def result(self) -> dict:
        """Stop the flood (unless it ends by itself) and read what it counted."""
        if not self.plan.get("windows") and self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        out, _err = await self.process.communicate()
        return json.loads(out)

    async def __aexit__(self, *exc) -> None:
        if self.process is not None and self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            await self.process.wait()


# --- One round: a fresh server of one tree, the quiet table, the flood --------------------------


@dataclasses.dataclass
class Phase:
    """The quiet table's rolls during one phase, and what the machine did meanwhile."""

    step: Step
    load_average: float  # the machine's 1-minute load average as the phase began

    @property
    def cpu_per_roll(self) -> float:
        """The server's CPU time per roll, ms (quiet: a roll's cost)."""
        return self.step.server_cpu * self.step.seconds * 10 / max(1, self.step.rolls)


@dataclasses.dataclass
class Cost:
    """One kind of request sent alone in a rate window, until its first 429 or once refused:
    the server's CPU time per request answered."""

    kind: str
    part: str  # "until refused" (the budgets fresh) or "refused" (after the first 429)
    answered: dict[str, int]
    seconds: float
    server_cpu_s: float

    @property
    def requests(self) -> int:
        return sum(n for status, n in self.answered.items() if status != "closed")

    @property
    def per_request_ms(self) -> float:
        return 1000 * self.server_cpu_s / self.requests if self.requests else math.nan


@dataclasses.dataclass
class Round:
    side: str  # "before" or "after"
    number: int
    tree: str
    npcs: int = 0
    quiet: Phase | None = None
    flooded: Phase | None = None
    answered: dict[str, dict[str, int]] = dataclasses.field(default_factory=dict)
    flood_seconds: float = math.nan
    flood_client_cpu: float = math.nan  # % of a core: the flood's own process
    written: dict = dataclasses.field(default_factory=dict)
    costs: list[Cost] = dataclasses.field(default_factory=list)
    error: str = ""

    @property
    def flood_requests(self) -> int:
        return sum(
            n for counts in self.answered.values() for status, n in counts.items()
            if status != "closed"
        )  # fmt: skip

    @property
    def ratio(self) -> float:
        if self.quiet is None or self.flooded is None:
            return math.nan
        return self.flooded.step.pct(50) / self.quiet.step.pct(50)


async def quiet_rolls(
    load: Load, count: int, interval: float, drain: float, limit: float, pids: list[int]
) -> Step:
    """``count`` rolls of the quiet table's first player (or as many as ``limit`` seconds
    allow), each once the one before reached the other sockets and ``interval`` after it."""
    load.arrivals.clear()
    roller = load.sock_id(0, 1)
    rolls: list[Roll] = []
    start = CpuReading.now(pids)
    ends, due = start.at + limit, start.at
    for index in range(count):
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        due = time.perf_counter() + interval
        roll = Roll(0, roller, time.perf_counter(), measured=True)
        rolls.append(roll)
        await load._roll(roll, index)
        expected = load._expected([roll])
        deadline = time.perf_counter() + drain
        while time.perf_counter() < deadline and not load._all_arrived(expected):
            await asyncio.sleep(0.0005)
        if time.perf_counter() >= ends:
            break
    end = CpuReading.now(pids)
    step = Step("embedded", 1, PLAYERS + 1, len(rolls) / (end.at - start.at))
    live_table.fill_cpu(step, start, end)
    return load._score(step, rolls, load._expected(rolls), rolls[0].sent, end.at - start.at)


async def phase(load: Load, pids: list[int], args) -> Phase:
    average = os.getloadavg()[0]
    step = await quiet_rolls(load, args.rolls, args.interval, args.drain, args.max_seconds, pids)
    return Phase(step, average)


async def kind_costs(plan: dict, pids: list[int]) -> list[Cost]:
    """Each kind alone for one rate window, split at its first 429."""
    cpu: list[tuple[str, float]] = []  # the server's CPU seconds at each mark of the flood's
    async with Flooder(plan | {"windows": list(KINDS)}) as flooder:
        while (line := await flooder.line()) in ("start", "refused", "end"):
            cpu.append((line, live_table.cpu_seconds(pids)))
        windows = json.loads(line)["windows"]
    costs = []
    for window in windows:
        marks = []
        while not marks or marks[-1][0] != "end":
            marks.append(cpu.pop(0))
        at = dict(marks)
        refused = window.get("refused_at", window["end"])
        costs.append(Cost(window["kind"], "until refused", window["until"], refused - window["at"],
                          at.get("refused", at["end"]) - at["start"]))  # fmt: skip
        if "refused" in at:
            costs.append(Cost(window["kind"], "refused", window["refused"],
                              window["end"] - refused, at["end"] - at["refused"]))  # fmt: skip
    return costs


async def one_round(side: str, number: int, tree: Path, args) -> Round:
    result = Round(side, number, live_table.tree_name(tree))
    live_table.TREE = tree
    with contextlib.ExitStack() as stack:
        deployment = live_table.Deployment("embedded", PLAYERS, stack)
        deployment.prepare()
        deployment.env = real_limits(deployment.env)
        tables = deployment.add_tables(1)
        env = deployment.env | {"BENCH_ID_BASE": str(live_table.ID_BASE)}
        hostile = in_tree(env, tree, "--setup-hostile", str(args.npcs))
        result.npcs = len(hostile["npcs"])
        deployment.serve()
        pids, port = deployment.pids, deployment.ports[0]
        load = Load("embedded", deployment.ports, PLAYERS, args.seed)
        load.tables = tables
        try:
            await load.connect_tables(1)
            log(f"[{side} {number}] {args.warmup} rolls not timed, then {args.rolls} quiet")
            await quiet_rolls(load, args.warmup, args.interval, args.drain, 60, pids)
            result.quiet = await phase(load, pids, args)
            plan = {"port": port, "cookie": hostile["cookie"], "campaign": hostile["campaign"],
                    "npcs": hostile["npcs"], "kinds": args.kinds,
                    "connections": args.connections}  # fmt: skip
            log(f"[{side} {number}] flooding from {args.connections} connections, "
                f"{result.npcs} NPCs; {args.rolls} rolls timed")  # fmt: skip
            async with Flooder(plan) as flooder:
                await asyncio.sleep(args.lead)
                result.flooded = await phase(load, pids, args)
                done = await flooder.result()
            result.answered, result.flood_seconds = done["answered"], done["seconds"]
            result.flood_client_cpu = done["cpu"]
            await asyncio.sleep(1)
            deployment.check_alive()
            result.written = await asyncio.to_thread(
                in_tree, env, tree, "--count-written", str(hostile["user"]),
                str(hostile["campaign"]),
            )  # fmt: skip
            if args.costs:
                log(f"[{side} {number}] each kind alone for a rate window")
                result.costs = await kind_costs(plan, pids)
            deployment.check_alive()
        finally:
            await load.close()
            for line in deployment.new_errors()[:3]:
                log(f"[{side} {number}] the server logged: {line}")
    return result


# --- Report --------------------------------------------------------------------------------------


def statuses(counts: dict[str, int]) -> str:
    """``{"429": 5210, "200": 38}`` as "429 x 5,210, 200 x 38", most frequent first."""
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return ", ".join(f"{status} x {count:,}" for status, count in ordered) or "none"


def latency(phase: Phase | None) -> str:
    if phase is None:
        return "-"
    return f"{ms(phase.step.pct(50))} / {ms(phase.step.pct(95))}"


def ratio(value: float) -> str:
    return f"{value:.1f}x" if math.isfinite(value) else "-"


def report(rounds: list[Round]) -> str:
    lines = [
        "| round | tree | NPCs | quiet p50 / p95 ms | flooded p50 / p95 ms | flooded / quiet p50 "
        "| flood requests/s | entries by the flood | server CPU % quiet / flooded "
        "| machine busy % quiet / flooded | load average quiet / flooded |",
        "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for run in rounds:
        if run.error:
            lines.append(f"| {run.number} | {run.side} | - | failed: {run.error[:120]} |")
            continue
        quiet, flooded = run.quiet.step, run.flooded.step
        rate = run.flood_requests / run.flood_seconds
        entries = sum(run.written.get("entries", {}).values())
        lines.append(
            f"| {run.number} | {run.side} | {run.npcs} | {latency(run.quiet)} "
            f"| {latency(run.flooded)} | {ratio(run.ratio)} | {rate:.0f} | {entries:,} "
            f"| {quiet.server_cpu:.0f} / {flooded.server_cpu:.0f} "
            f"| {quiet.machine_cpu:.0f} / {flooded.machine_cpu:.0f} "
            f"| {run.quiet.load_average:.2f} / {run.flooded.load_average:.2f} |"
        )
    lines.append("")
    for run in rounds:
        if run.error:
            continue
        kinds = "; ".join(f"{kind} {statuses(counts)}" for kind, counts in run.answered.items())
        made = run.written
        entries = f"{sum(made['entries'].values()):,} log entries"
        if made["entries"]:
            entries += f" ({statuses(made['entries'])})"
        lines.append(
            f"- {run.side}, round {run.number}: the flood's answers: {kinds}. It wrote "
            f"{entries}, {made['characters']} characters, "
            f"{made['tables']} random tables; its own process used {run.flood_client_cpu:.0f} % "
            f"of a core. The quiet table's rolls: {run.quiet.step.rolls} quiet, "
            f"{run.flooded.step.rolls} flooded, {run.quiet.step.lost + run.flooded.step.lost} "
            "deliveries lost."
        )
    lines.extend(summary(rounds))
    costs = [run for run in rounds if run.costs and not run.error]
    if costs:
        lines += ["", cost_report(costs)]
    return "\n".join(lines)


def summary(rounds: list[Round]) -> list[str]:
    lines = []
    for side in dict.fromkeys(run.side for run in rounds):
        done = [run for run in rounds if run.side == side and not run.error]
        if not done:
            continue
        quiet = statistics.median(run.quiet.step.pct(50) for run in done)
        flooded = statistics.median(run.flooded.step.pct(50) for run in done)
        each = ", ".join(ratio(run.ratio) for run in done)
        lines.append(
            f"Flooded / quiet p50, {side}: {ratio(flooded / quiet)} (medians {flooded:.1f} / "
            f"{quiet:.1f} ms; each round {each})."
        )
    return lines


def cost_report(rounds: list[Round]) -> str:
    """Each kind alone: what one request costs the server with fresh budgets and once refused,
    beside what a quiet roll costs it."""
    lines = [
        "| round | tree | a quiet roll | kind | until refused: CPU per request (requests/s: "
        "answers) | once refused: CPU per request (requests/s: answers) |",
        "| ---: | --- | ---: | --- | ---: | ---: |",
    ]
    for run in rounds:
        for kind in KINDS:
            cells = []
            for part in ("until refused", "refused"):
                cost = next((c for c in run.costs if (c.kind, c.part) == (kind, part)), None)
                if cost is None or not cost.requests:
                    cells.append("-")
                    continue
                rate = cost.requests / cost.seconds if cost.seconds > 0 else math.nan
                cells.append(
                    f"{cost.per_request_ms:.1f} ms ({rate:.0f}/s: {statuses(cost.answered)})"
                )
            lines.append(
                f"| {run.number} | {run.side} | {run.quiet.cpu_per_roll:.1f} ms | {kind} "
                f"| {' | '.join(cells)} |"
            )
    lines.append(
        f"\n(Each kind alone from the flood's connections for one rate window of {ROLL_WINDOW:g} s "
        "from its start, its budgets fresh: the server's CPU time per request answered until "
        "its first 429, and after it; a quiet roll's CPU time beside them.)"
    )
    return "\n".join(lines)


# --- Main ----------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="One hostile account's flood against a quiet table.",
        epilog="See the module docstring for details.",
    )
    parser.add_argument("--tree", type=Path, default=ROOT, help="the tree measured (this one)")
    parser.add_argument(
        "--before", help="the tree before: a directory, or a git revision (none: --tree alone)"
    )
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each tree (2)")
    parser.add_argument("--abba", action="store_true", help="after first in every other round")
    parser.add_argument("--rolls", type=int, default=200, help="rolls timed per phase (200)")
    parser.add_argument("--warmup", type=int, default=10, help="rolls first, not timed (10)")
    parser.add_argument(
        "--interval", type=float, default=0.25,
        help="s at least between the quiet player's rolls (0.25: 40 per 10 s)",
    )  # fmt: skip
    parser.add_argument("--max-seconds", type=float, default=90, help="at most, per phase (90)")
    parser.add_argument("--connections", type=int, default=4, help="the flood's (4)")
    parser.add_argument(
        "--kinds", default=",".join(KINDS), help=f"the flood's mix, in turn ({','.join(KINDS)})"
    )
    parser.add_argument("--npcs", type=int, default=300, help="the hostile campaign's (300)")
    parser.add_argument("--lead", type=float, default=2, help="s of flood before timing (2)")
    parser.add_argument(
        "--no-costs", dest="costs", action="store_false",
        help="skip each kind's cost alone (a rate window each)",
    )  # fmt: skip
    parser.add_argument("--drain", type=float, default=10, help="s to wait for a delivery (10)")
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--setup-hostile", type=int, metavar="NPCS", help=argparse.SUPPRESS)
    parser.add_argument("--count-written", nargs=2, type=int, help=argparse.SUPPRESS)
    parser.add_argument("--flood-worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.tree = args.tree.resolve()
    if not (args.tree / "manage.py").is_file():
        parser.error(f"--tree {args.tree} holds no manage.py")
    if min(args.rounds, args.rolls, args.connections, args.npcs) < 1 or args.warmup < 0:
        parser.error("--rounds, --rolls, --connections and --npcs must be 1 or more")
    args.kinds = [kind.strip() for kind in args.kinds.split(",") if kind.strip()]
    if not args.kinds or any(kind not in KINDS for kind in args.kinds):
        parser.error(f"--kinds takes some of {', '.join(KINDS)}")
    if args.interval < ROLL_WINDOW / ROLL_BUDGET:
        parser.error(
            f"--interval under {ROLL_WINDOW / ROLL_BUDGET:g} s would have the quiet player "
            f"refused by the real roll budget ({ROLL_BUDGET} per {ROLL_WINDOW:g} s)"
        )
    if args.max_seconds <= 0 or args.lead < 0:
        parser.error("--max-seconds must be positive and --lead not negative")
    return args


def sides(args, before: Path | None) -> list[tuple[str, int, Path]]:
    """The rounds in the order they run: before and after alternately (--abba: every other
    round after first); the tree alone without --before."""
    order = []
    for number in range(1, args.rounds + 1):
        pair = [("before", before), ("after", args.tree)] if before else [("after", args.tree)]
        if args.abba and number % 2 == 0:
            pair.reverse()
        order += [(side, number, tree) for side, tree in pair]
    return order


async def bench(args, before: Path | None) -> list[Round]:
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, asyncio.current_task().cancel)
    rounds = []
    for side, number, tree in sides(args, before):
        try:
            rounds.append(await one_round(side, number, tree, args))
        except (RuntimeError, OSError, TimeoutError, ValueError) as error:
            log(f"[{side} {number}] failed: {error}")
            rounds.append(Round(side, number, str(tree), error=str(error).splitlines()[0]))
    return rounds


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.flood_worker:
        print(json.dumps(asyncio.run(flood(json.load(sys.stdin)))), flush=True)
        return 0
    if args.setup_hostile is not None:
        base = int(os.environ["BENCH_ID_BASE"])
        print(json.dumps(setup_hostile(args.tree, base, args.setup_hostile)))
        return 0
    if args.count_written:
        print(json.dumps(count_written(args.tree, *args.count_written)))
        return 0
    try:
        import uvloop

        loop_factory = uvloop.new_event_loop
    except ImportError:
        loop_factory = None
    with contextlib.ExitStack() as stack, asyncio.Runner(loop_factory=loop_factory) as runner:
        before = stack.enter_context(compare.base_tree(args.before)) if args.before else None
        try:
            rounds = runner.run(bench(args, before))
        except (KeyboardInterrupt, asyncio.CancelledError):
            log("Interrupted: stopping the servers and removing the data.")
            return 130
    if all(run.error for run in rounds):
        log("Nothing was measured.")
        return 2
    trees = {run.side: run.tree for run in rounds if not run.error}
    print(
        f"\nOne account's flood against a quiet table, {time.strftime('%Y-%m-%d %H:%M')}, "
        f"{os.cpu_count()} cores; the embedded server with the tree's own limits. "
        + " ".join(f"{side.capitalize()}: {tree}." for side, tree in trees.items())
        + f"\nThe quiet table: one player rolls at most every {args.interval:g} s, latency "
        "from the roll sent to its entry on the 5 other sockets. The flood: "
        f"{', '.join(args.kinds)} in turn from {args.connections} connections.\n"
    )
    print(report(rounds))
    return 1 if any(run.error for run in rounds) else 0


if __name__ == "__main__":
    sys.exit(main())
