"""The warm-up at start (config/warmup.py): the first roll after a start finds its templates
compiled, as a warm one does (issue 17)."""

from pathlib import Path

from django.template import engines

from config.warmup import warm_up

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_the_warm_up_compiles_every_template_of_the_project_into_the_cached_loader():
    loader = engines["django"].engine.template_loaders[0]
    loader.reset()
    names = {path.relative_to(TEMPLATES).as_posix() for path in TEMPLATES.rglob("*.html")}
    assert warm_up() == len(names)
    assert {"rolls/_entry.html", "rolls/_roll_answer.html", "rolls/_panel.html"} <= names
    assert names <= set(loader.get_template_cache)
