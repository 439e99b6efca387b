"""The warm-up at start (config/warmup.py): the first roll after a start finds its templates
compiled, as a warm one does (issue 17)."""

import os
import subprocess
import sys
from pathlib import Path

from django.template import engines

from config.warmup import warm_up

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
