"""The apps build on each other in one order, campaigns <- sheets <- rolls (the pure engine,
rolls.engine, serves all), and no module of the project imports itself round a cycle. Imports
inside functions count: they tie modules together as much as those at the top."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ORDER = ("campaigns", "sheets", "rolls")


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


SOURCES = {
    _module(path): path
    for app in (*ORDER, "config")
    for path in sorted((ROOT / app).rglob("*.py"))
    if "migrations" not in path.parts
}


def imports_of(module: str) -> set[str]:
    """The project's modules ``module`` imports (a name imported from a module counts as the
    module when it is no module itself)."""
    path = SOURCES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        for name in names:
            while name and name not in SOURCES:
                name = name.rpartition(".")[0]
            if name and name != module and not module.startswith(name + "."):
                found.add(name)
    return found


def _app(module: str) -> str:
    return module.partition(".")[0]


@pytest.mark.parametrize("app", ORDER[:-1])
def test_an_app_imports_no_app_that_builds_on_it(app: str) -> None:
    later = ORDER[ORDER.index(app) + 1 :]
    against = sorted(
        f"{module} -> {imported}"
        for module in SOURCES
        if _app(module) == app
        for imported in imports_of(module)
        if _app(imported) in later and not imported.startswith("rolls.engine")
    )
    assert against == []


def test_no_module_imports_itself_round_a_cycle() -> None:
    graph = {module: imports_of(module) for module in SOURCES}
    cycles = []
    for start in graph:
        # Every module reachable from ``start``; a cycle is one that leads back to it.
        seen, todo = set(), list(graph[start])
        while todo:
            module = todo.pop()
            if module not in seen:
                seen.add(module)
                todo.extend(graph[module])
        if start in seen:
            cycles.append(start)
    assert cycles == []


def test_the_check_reads_imports_inside_functions() -> None:
    # rolls.apps imports the opposed tests only inside ``ready()``.
    assert "rolls.opposed.actions" in imports_of("rolls.apps")


def test_the_check_reads_relative_imports() -> None:
    # ``from .named_lists import ...`` in sheets/systems/ast.py.
    assert "sheets.systems.named_lists" in imports_of("sheets.systems.ast")


# --- Inside rolls: one folder a feature, and the features in one order too ---------------------

#: rolls' feature folders, each importing only those before it (the engine serves all). What
#: several features share sits at the top of rolls (``rolls/*.py``), and so does the panel
#: protocol every system implements (``rolls/panels/__init__.py``): neither is a feature. The
#: rule systems (``rolls/systems/``) and the template tags come last: they build on features.
FEATURES = (
    "engine",
    "log",
    # The night's recap reads the log; the Discord bridge posts it when a session ends.
    "recap",
    "discord",
    "live",
    "pending",
    "conditions",
    "strikes",
    "tables",
    # The chat's /r is the quick dice of ``tables``; the log knows a line by its engine's kind.
    "chat",
    "group",
    "opposed",
    "panels",
    "saved",
    "rules",
    "turns",
    "dashboard",
    "sessions",
    "systems",
    "templatetags",
)


def _feature(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "rolls" or len(parts) < 2 or module == "rolls.panels":
        return None
    return parts[1] if (ROOT / "rolls" / parts[1]).is_dir() else None


def test_every_folder_of_rolls_is_a_feature_in_the_order() -> None:
    folders = {
        path.name
        for path in (ROOT / "rolls").iterdir()
        if (path / "__init__.py").exists() and path.name not in ("migrations", "management")
    }
    assert folders == set(FEATURES)


def test_a_feature_imports_only_the_features_before_it() -> None:
    against = set()
    for module in SOURCES:
        feature = _feature(module)
        if feature is None:
            continue
        for imported in imports_of(module):
            other = _feature(imported)
            if other is not None and FEATURES.index(other) > FEATURES.index(feature):
                against.add((module, imported))
    assert against == set()


# --- A rule system is reached through the registry, never imported by name ----------------------

#: The rule systems, as their packages in rolls/systems are named.
SYSTEMS = tuple(sorted(p.name for p in (ROOT / "rolls" / "systems").iterdir() if p.is_dir()))
#: The packages where a system's own modules sit beside shared ones, named after it
#: (``rolls/engine/fasttest_sheet.py``, ``sheets/systems/fasttest_checks.py``).
NAMED_BESIDE = ("rolls.engine", "sheets.systems", "sheets.templatetags")
#: The engine's command-line map names each system's engine: pure, and outside the web app.
MAY_NAME_SYSTEMS = ("rolls.engine.registry",)


def system_of(module: str) -> str | None:
    """The system ``module`` belongs to, None for a shared one."""
    package, _, name = module.rpartition(".")
    if module.startswith("rolls.systems.") and module.split(".")[2] in SYSTEMS:
        return module.split(".")[2]
    if package in NAMED_BESIDE:
        return next((key for key in SYSTEMS if name == key or name.startswith(f"{key}_")), None)
    return None


def test_the_check_knows_a_systems_modules_wherever_they_sit() -> None:
    assert system_of("rolls.systems.fasttest.wounds") == "fasttest"
    assert system_of("rolls.engine.caerbannog_pool") == "caerbannog"
    assert system_of("sheets.systems.t10") == "t10"
    assert system_of("sheets.templatetags.fasttest_tags") == "fasttest"
    assert system_of("rolls.engine.core") is None
    assert system_of("rolls.systems") is None


def test_no_shared_module_imports_a_system_and_no_system_another() -> None:
    against = sorted(
        f"{module} -> {imported}"
        for module in SOURCES
        if module not in MAY_NAME_SYSTEMS
        for imported in imports_of(module)
        if system_of(imported) not in (None, system_of(module))
    )
    assert against == []
