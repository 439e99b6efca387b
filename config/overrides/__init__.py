"""Every place this project overrides a framework's internals, for a measured speed-up.

Each module here replaces or wraps a piece of Django, Channels or channels-redis code that is
not a public extension point, so an upgrade can change what the override silently relies on.
Each such piece of our code is marked with ``@follows``: the upstream function it copies or
wraps, the package and version it was read from, and the sha256 of that function's source
(``inspect.getsource``) in that version. ``tests/web/test_overrides.py`` recomputes the hashes
against the installed packages and fails, saying what to do, when one no longer matches.

Everything that overrides framework internals lives in this package (and is imported from
where it is used), so an upgrade has one place to re-read. Each module's docstring says what
the override buys, as measured (docs/performance.md), and what it copies from which version.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import version as installed_version
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Followed:
    """One upstream function that a piece of our code copies or wraps, as it was when read."""

    upstream: str  # dotted path: module, then class and function
    package: str  # the distribution that ships it, as pip names it
    version: str  # the version the copy was read from
    sha256: str  # of the upstream function's source in that version
    module: str  # our module that follows it
    by: str  # the qualified name there of our function that follows it

    def source(self) -> str:
        return inspect.getsource(_unwrap(_resolve(self.upstream)))

    def current_sha256(self) -> str:
        return source_sha256(self.source())

    def installed(self) -> str:
        return installed_version(self.package)


FOLLOWED: list[Followed] = []


def follows(upstream: str, *, package: str, version: str, sha256: str) -> Callable[[F], F]:
    """Mark the decorated function as a copy or wrapper of ``upstream``; changes nothing else."""

    def mark(ours: F) -> F:
        FOLLOWED.append(
            Followed(upstream, package, version, sha256, ours.__module__, ours.__qualname__)
        )
        return ours

    return mark


def source_sha256(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()


def modules() -> list[str]:
    """The dotted names of this package's override modules."""
    return [f"{__name__}.{info.name}" for info in pkgutil.iter_modules(__path__)]


def all_followed() -> list[Followed]:
    """Every ``@follows`` mark of the package (importing each module registers its marks)."""
    for name in modules():
        importlib.import_module(name)
    return list(FOLLOWED)


def _resolve(dotted: str) -> Any:
    """The object at a dotted path: the longest importable module, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: Any = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            # Static lookup: a property or cached_property itself, not what it computes.
            found = inspect.getattr_static(found, name)
        return found
    raise ModuleNotFoundError(dotted)


def _unwrap(found: Any) -> Any:
    for attribute in ("func", "fget", "__func__"):  # cached_property, property, classmethod
        if hasattr(found, attribute):
            return getattr(found, attribute)
    return found
