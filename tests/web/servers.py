"""Real servers for end-to-end tests: uvicorn processes serving the app on loopback ports."""

from __future__ import annotations

import atexit
import contextlib
import functools
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UVICORN = str(Path(sys.executable).with_name("uvicorn"))


# Each pytest-xdist worker takes its servers' ports from a range of its own (so two workers of a
# run never pick the same), below Linux's ephemeral ports (32768 and up: the kernel never hands
# one of them to a client socket between the probe below and the server's own bind), and at
# random within it (so another test run on the machine seldom picks the same at once).
_WORKER = int(os.environ.get("PYTEST_XDIST_WORKER", "gw-1").removeprefix("gw")) + 1
_RANGE = range(20000 + 1500 * (_WORKER % 8), 21500 + 1500 * (_WORKER % 8))
_given: set[int] = set()


def free_port() -> int:
    """A loopback port free now, never handed out before by this process."""
    for port in random.sample(_RANGE, len(_RANGE)):
        if port in _given:
            continue
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        _given.add(port)
        return port
    raise RuntimeError("this test process has used up its range of ports")


def app_env(**overrides: str) -> dict[str, str]:
    """The environment of a served app: this one, minus test-runner and service settings."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "REDIS_URL", "PYTEST_CURRENT_TEST")
    }
    env.update(overrides)
    return env


def manage(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


class _Exited(RuntimeError):
    """The server stopped before it answered (a port taken meanwhile, among other causes)."""


def wait_until_up(base: str, process: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise _Exited(f"the server at {base} exited with {process.returncode}")
        try:
            urllib.request.urlopen(f"{base}/accounts/login/", timeout=2)
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{base} did not answer within {seconds} s")


@contextlib.contextmanager
def uvicorn(env: dict[str, str], port: int | None = None, stderr=None) -> Iterator[str]:
    """Serve the app with uvicorn on a free loopback port; yield its base URL. A server that
    stops before it answers, on a port chosen here, is started again on another (another test
    run on the machine may have taken the port between the probe and the server's bind).

    ``stderr``: a file for the server's log (by default it goes to the test's own stderr).
    """
    with _running(lambda port: _serve(env, port, stderr), port) as base:
        yield base


@contextlib.contextmanager
def forked(database: Path, stderr=None, port: int | None = None) -> Iterator[str]:
    """Serve the embedded default over the SQLite file ``database``, as ``uvicorn`` does, from
    a copy of this process's zygote (tests/web/zygote.py): the app imported once, not per test.
    ``port``: a given one (a server started again where one stopped), not a free one.
    """
    with _running(lambda port: _fork(database, port, stderr), port) as base:
        yield base


@contextlib.contextmanager
def _running(start, port: int | None) -> Iterator[str]:
    for attempt in range(3 if port is None else 1):
        process = start(port or free_port())
        try:
            wait_until_up(process.base, process)
            break
        except _Exited:
            if attempt == 2 or port is not None:
                raise
    try:
        yield process.base
    finally:
        _stop(process)


def _serve(env: dict[str, str], port: int, stderr) -> subprocess.Popen:
    process = subprocess.Popen(
        [UVICORN, "config.asgi:application", "--host", "127.0.0.1", "--port", str(port),
         "--lifespan", "on", "--log-level", "warning"],
        cwd=ROOT, env=env, start_new_session=True, stderr=stderr,
    )  # fmt: skip
    process.base = f"http://127.0.0.1:{port}"
    return process


class _Forked:
    """A server the zygote forked, seen as the tests see a Popen: its pid, ``poll``, ``wait``.
    Not this process's child (the zygote reaps it): it has ended when its pid is gone."""

    def __init__(self, pid: int, port: int) -> None:
        self.pid = pid
        self.base = f"http://127.0.0.1:{port}"
        self.returncode = None

    def poll(self) -> int | None:
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            self.returncode = -1  # its status went to the zygote
        return self.returncode

    def wait(self, timeout: float) -> int:
        deadline = time.monotonic() + timeout
        while self.poll() is None:
            if time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"server {self.pid}", timeout)
            time.sleep(0.02)
        return self.returncode


@functools.cache
def _zygote() -> subprocess.Popen:
    """This test process's zygote, its application imported and ready to fork."""
    folder = tempfile.mkdtemp(prefix="zygote-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    # The database each copy serves is its own; this one is never opened.
    env = app_env(DATABASE_URL=f"sqlite:///{folder}/none.sqlite3")
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.web.zygote"], cwd=ROOT, env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
    )  # fmt: skip
    atexit.register(process.wait, 10)
    atexit.register(process.stdin.close)  # (run first: its end of input ends it)
    if "ready" not in json.loads(process.stdout.readline() or "{}"):
        raise RuntimeError(f"the zygote did not start (exit status {process.poll()})")
    return process


def _fork(database: Path, port: int, stderr) -> _Forked:
    zygote = _zygote()
    ask = {"database": str(database), "port": port, "stderr": stderr.name if stderr else None}
    zygote.stdin.write(json.dumps(ask) + "\n")
    zygote.stdin.flush()
    return _Forked(json.loads(zygote.stdout.readline())["pid"], port)


def _stop(process: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):  # it may have stopped by itself
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
