"""Each override of framework internals still matches the upstream code it copies or wraps.

``config/overrides/`` records, beside each copy, the sha256 of the upstream function's source it
was read from; an upgrade that changes that function fails here until someone re-reads it.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from importlib.metadata import version
from pathlib import Path

import pytest
from channels.consumer import AsyncConsumer

from config import overrides
from config.overrides import Followed, follows, source_sha256

ROOT = Path(__file__).resolve().parents[2]
FOLLOWED = overrides.all_followed()


def stale_message(mark: Followed) -> str:
    path = mark.module.replace(".", "/") + ".py"
    return (
        f"{mark.upstream} ({mark.package} {mark.installed()} installed) is not the code that "
        f"{mark.by} in {path} follows: that was read from {mark.package} {mark.version} "
        f"(sha256 {mark.sha256}); its source now hashes to {mark.current_sha256()}.\n"
        "Re-read the upstream change (the function's source in both versions), carry it into "
        f"{mark.by} (or decide it does not matter there, and say why in its docstring), then "
        f"record the new sha256 and version in the @follows above it and in {path}'s docstring."
    )


def stale(marks: list[Followed]) -> list[str]:
    return [stale_message(mark) for mark in marks if mark.current_sha256() != mark.sha256]


@pytest.mark.parametrize("mark", FOLLOWED, ids=lambda mark: f"{mark.by}<-{mark.upstream}")
def test_the_upstream_code_an_override_follows_is_unchanged(mark):
    assert mark.current_sha256() == mark.sha256, stale_message(mark)


def test_a_changed_upstream_function_is_reported_with_what_to_do():
    changed = Followed(
        "channels.consumer.AsyncConsumer.dispatch", "channels", "0.1", "0" * 64, "ours", "dispatch"
    )
    [message] = stale([changed])
    installed = version("channels")
    assert f"channels.consumer.AsyncConsumer.dispatch (channels {installed} installed)" in message
    assert "that dispatch in ours.py follows: that was read from channels 0.1" in message
    assert "Re-read the upstream change" in message
    assert "record the new sha256 and version in the @follows above it" in message


def test_the_recorded_hash_is_of_the_upstream_functions_source():
    [mark] = [m for m in FOLLOWED if m.upstream == "channels.consumer.AsyncConsumer.dispatch"]
    assert mark.sha256 == source_sha256(inspect.getsource(AsyncConsumer.dispatch))


def test_a_cached_property_is_followed_by_its_function_source():
    [mark] = [m for m in FOLLOWED if m.upstream.endswith("RedisCache._cache")]
    assert "def _cache(self)" in mark.source()


def test_marking_a_function_records_the_mark_and_leaves_the_function_as_it_was(monkeypatch):
    monkeypatch.setattr(overrides, "FOLLOWED", [])

    def ours():
        return 7

    assert follows("json.dumps", package="python", version="3", sha256="0" * 64)(ours) is ours
    [mark] = overrides.FOLLOWED
    assert (mark.upstream, mark.module, mark.by) == (
        "json.dumps",
        __name__,
        "test_marking_a_function_records_the_mark_and_leaves_the_function_as_it_was.<locals>.ours",
    )


@pytest.mark.parametrize("module", overrides.modules())
def test_every_override_module_follows_some_upstream_code(module):
    assert any(mark.module == module for mark in FOLLOWED)


@pytest.mark.parametrize("module", overrides.modules())
def test_every_override_module_says_what_it_follows_from_which_version(module):
    doc = importlib.import_module(module).__doc__
    versions = {f"{mark.package} {mark.version}" for mark in FOLLOWED if mark.module == module}
    assert all(f"Follows {version}" in doc for version in versions)


def test_each_override_is_used_from_outside_the_fence():
    """Each override class is imported where it is used, or named in the settings."""
    used = "\n".join(
        path.read_text()
        for folder in ("config", "rolls")
        for path in (ROOT / folder).rglob("*.py")
        if "overrides" not in path.parts
    )
    for module in overrides.modules():
        tree = ast.parse(Path(importlib.import_module(module).__file__).read_text())
        classes = [node.name for node in tree.body if isinstance(node, ast.ClassDef)]
        assert classes, module
        assert all(name in used for name in classes), module
