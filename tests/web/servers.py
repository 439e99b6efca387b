"""Real servers for end-to-end tests: uvicorn processes serving the app on loopback ports."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
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
            time.sleep(0.2)
    raise RuntimeError(f"{base} did not answer within {seconds} s")


@contextlib.contextmanager
def uvicorn(env: dict[str, str], port: int | None = None, stderr=None) -> Iterator[str]:
    """Serve the app with uvicorn on a free loopback port; yield its base URL. A server that
    stops before it answers, on a port chosen here, is started again on another (another test
    run on the machine may have taken the port between the probe and the server's bind).

    ``stderr``: a file for the server's log (by default it goes to the test's own stderr).
    """
    for attempt in range(3 if port is None else 1):
        process = _serve(env, port or free_port(), stderr)
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
         "--lifespan", "off", "--log-level", "warning"],
        cwd=ROOT, env=env, start_new_session=True, stderr=stderr,
    )  # fmt: skip
    process.base = f"http://127.0.0.1:{port}"
    return process


def _stop(process: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):  # it may have stopped by itself
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
