"""The warm-up at start (config/warmup.py): the first roll after a start finds its templates
compiled (issue 17), its words read and its connections open (issue 29), as a warm one does."""

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.db import OperationalError, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.template import engines

from campaigns import stored_text
from config.warmup import each_thread, lifespan, warm_up

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"


def test_the_warm_up_compiles_every_template_of_the_project_into_the_cached_loader():
    loader = engines["django"].engine.template_loaders[0]
    loader.reset()
    names = {path.relative_to(TEMPLATES).as_posix() for path in TEMPLATES.rglob("*.html")}
    assert warm_up() == len(names)
    assert {
        "rolls/log/_entry.html",
        "rolls/panels/_roll_answer.html",
        "rolls/panels/_panel.html",
    } <= names
    assert names <= set(loader.get_template_cache)


def test_starting_the_asgi_application_keeps_what_the_start_made_out_of_full_collections():
    # A fresh process: the test run's own interpreter has imported config.asgi's pieces already.
    environ = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    probe = "import gc, config.asgi; print(gc.get_freeze_count())"
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=environ, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    # Every module, compiled template and catalogue of the start: many thousands of objects.
    assert int(result.stdout) > 50_000


def test_the_warm_up_reads_the_apps_stored_words_in_every_language():
    stored_text.forget()
    warm_up()
    assert stored_text._known.cache_info().currsize == 1  # the first roll's label finds them


# --- As the server starts (the ASGI lifespan): the worker threads connect ---------------------


async def _start_and_stop(app) -> list[str]:
    """The lifespan of a server that starts and stops at once: what the app answered."""
    said = []
    asks = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])

    async def receive():
        return next(asks)

    async def send(message):
        said.append(message["type"])

    await app({"type": "lifespan"}, receive, send)
    return said


def _connected() -> bool:
    return connection.connection is not None


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_as_the_server_starts_every_worker_thread_opens_its_database_connection():
    threads = ThreadPoolExecutor(3)
    try:
        said = await _start_and_stop(lifespan(threads, 3))
        assert said == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
        assert [done.result() for done in each_thread(threads, 3, _connected)] == [True] * 3
    finally:
        for done in each_thread(threads, 3, connections.close_all):
            done.result()
        threads.shutdown()


@pytest.mark.asyncio
async def test_a_server_whose_database_does_not_answer_yet_starts_all_the_same(monkeypatch, caplog):
    def refused(self):
        raise OperationalError("connection refused")

    monkeypatch.setattr(BaseDatabaseWrapper, "ensure_connection", refused)
    threads = ThreadPoolExecutor(2)
    try:
        said = await _start_and_stop(lifespan(threads, 2))
    finally:
        threads.shutdown()
    assert said == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    assert "could not connect as the server started" in caplog.text


def test_make_run_every_test_server_and_the_benchmark_start_with_the_lifespan():
    assert "--lifespan on" in (ROOT / "Makefile").read_text()
    assert '"--lifespan", "on"' in (ROOT / "tests/web/servers.py").read_text()
    assert 'lifespan="on"' in (ROOT / "tests/web/zygote.py").read_text()
    # "auto": the benchmark also serves trees from before the lifespan (bench/compare.py).
    assert '"--lifespan", "auto"' in (ROOT / "bench/live_table.py").read_text()
