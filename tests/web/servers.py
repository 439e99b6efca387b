"""Real servers for end-to-end tests: uvicorn processes serving the app on loopback ports."""

from __future__ import annotations

import contextlib
import os
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


# Each pytest-xdist worker takes its servers' ports from a range of its own, below Linux's
# ephemeral ports (32768 and up): a port the kernel hands to some client socket between the
# probe below and the server's own bind can then never be one of them.
_WORKER = int(os.environ.get("PYTEST_XDIST_WORKER", "gw-1").removeprefix("gw")) + 1
_PORTS = iter(range(20000 + 500 * _WORKER, 20500 + 500 * _WORKER))


def free_port() -> int:
    """A loopback port free now, never handed out before by this process."""
    for port in _PORTS:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
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


def wait_until_up(base: str, process: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server at {base} exited with {process.returncode}")
        try:
            urllib.request.urlopen(f"{base}/accounts/login/", timeout=2)
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{base} did not answer within {seconds} s")


@contextlib.contextmanager
def uvicorn(env: dict[str, str], port: int | None = None, stderr=None) -> Iterator[str]:
    """Serve the app with uvicorn on a free loopback port; yield its base URL.

    ``stderr``: a file for the server's log (by default it goes to the test's own stderr).
    """
    port = port or free_port()
    process = subprocess.Popen(
        [UVICORN, "config.asgi:application", "--host", "127.0.0.1", "--port", str(port),
         "--lifespan", "off", "--log-level", "warning"],
        cwd=ROOT, env=env, start_new_session=True, stderr=stderr,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, process)
        yield base
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
