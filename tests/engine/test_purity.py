"""The engine is pure: standard library only, no Django, importable by the bare system python3."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "rolls" / "engine"
SOURCES = sorted(ENGINE.rglob("*.py"))


def absolute_imports(source: Path) -> list[tuple[int, str]]:
    """Every absolute import of a file as (line, top-level module); relative imports are fine."""
    found = []
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"), filename=str(source))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.partition(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.partition(".")[0]))
    return found


def bare_python_env() -> dict[str, str]:
    """The environment minus the virtualenv, so ``/usr/bin/env python3`` is the system one."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    if sys.prefix != sys.base_prefix:
        venv_bin = str(Path(sys.prefix) / "bin")
        path = env.get("PATH", "").split(os.pathsep)
        env["PATH"] = os.pathsep.join(entry for entry in path if entry != venv_bin)
    return env


def test_the_engine_has_sources_to_check() -> None:
    assert ENGINE / "core.py" in SOURCES


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.name)
def test_engine_module_imports_only_the_standard_library(source: Path) -> None:
    foreign = [
        f"line {line}: {module}"
        for line, module in absolute_imports(source)
        if module not in sys.stdlib_module_names
    ]
    assert foreign == [], f"{source.name} imports outside the standard library"


def test_the_import_check_catches_django(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import json\nfrom django.conf import settings\nfrom . import core\n")
    assert absolute_imports(sample) == [(1, "json"), (2, "django")]
    assert "django" not in sys.stdlib_module_names


def run_bare(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["/usr/bin/env", "python3", *args],
        capture_output=True,
        cwd=ROOT,
        env=bare_python_env(),
        timeout=60,
        check=False,
        text=True,
    )


def test_bare_system_python_imports_the_engine() -> None:
    run = run_bare("-c", "import sys, rolls.engine; print(sys.prefix)")
    assert run.returncode == 0, run.stderr
    # The interpreter must not be the virtualenv's, or this test would prove nothing.
    assert run.stdout.strip() != str(ROOT / ".venv")


def test_bare_system_python_imports_every_engine_module() -> None:
    modules = [
        "rolls.engine." + path.stem
        for path in SOURCES
        if path.parent == ENGINE and path.stem not in ("__init__", "__main__")
    ]
    code = "import importlib, sys\nfor name in sys.argv[1:]:\n    importlib.import_module(name)\n"
    run = run_bare("-c", code, *modules)
    assert run.returncode == 0, run.stderr
