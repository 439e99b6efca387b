"""The README stays short and every link of it and of docs/ leads somewhere (issue 27, item 2).

The README is for two readers, a newcomer and whoever deploys; the details live in docs/. A link
that points at a moved file or a renamed heading is found here, not by a reader.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
MAX_README_LINES = 250

#: ``[text](target)`` and ``![alt](target)``, an optional title after the target.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def _prose(text: str) -> str:
    """The text without code, where a ``](`` is not a link."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as
    hyphens, a repeated one numbered (``-1``, ``-2``...)."""
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(FENCE.sub("", text)):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(slug if count == 0 else f"{slug}-{count}")
    return found


def relative_links(path: Path) -> list[str]:
    """The targets of a file's links that are not web addresses (no scheme, not ``//``)."""
    targets = LINK.findall(_prose(path.read_text(encoding="utf-8")))
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:|//", t, re.IGNORECASE)]


def test_the_readme_is_at_most_250_lines():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_README_LINES, f"README.md has {lines} lines; move details to docs/"


def test_the_readme_links_every_docs_file():
    linked = {target.split("#")[0] for target in relative_links(README)}
    assert DOCS, "docs/ holds the README's details"
    for doc in DOCS:
        assert f"docs/{doc.name}" in linked, doc.name


@pytest.mark.parametrize("path", [README, *DOCS], ids=lambda path: path.name)
def test_every_relative_link_points_at_a_file_and_heading_that_exist(path):
    links = relative_links(path)
    assert links or path != README
    for target in links:
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        assert linked.exists(), f"{path.name}: {target} (no such file)"
        if anchor:
            assert linked.suffix == ".md", f"{path.name}: {target} (not Markdown)"
            headings = anchors(linked.read_text(encoding="utf-8"))
            assert anchor in headings, f"{path.name}: {target} (no such heading)"


def test_the_anchors_are_githubs():
    text = "# The Table\n## Why uvicorn (and not daphne)\n## Called tests: the GM's, the player's\n"
    text += "```\n# not a heading\n```\n## `make run`\n## Notes\n## Notes\n"
    assert anchors(text) == {
        "the-table",
        "why-uvicorn-and-not-daphne",
        "called-tests-the-gms-the-players",
        "make-run",
        "notes",
        "notes-1",
    }


#: A module, a function or a file of the project named in code: ``rolls.panels.source``,
#: ``campaigns/systems.py``. (A bare ``system.py`` is one every system has, named in prose.)
DOTTED = re.compile(r"`((?:campaigns|sheets|rolls|config|tests)(?:\.[A-Za-z_]\w*)+)(?:\(\))?`")
PATH = re.compile(
    r"`((?:campaigns|sheets|rolls|config|tests|templates|static|bench|docs)/[\w./-]+)`"
)


def _names_nothing(dotted: str) -> bool:
    """Whether no module of the project, or no name in one, answers to ``dotted``."""
    import importlib

    parts = dotted.split(".")
    for split in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for name in parts[split:]:
            if not hasattr(found, name):
                return True
            found = getattr(found, name)
        return False
    return True


def _a_file(name: str) -> bool:
    """A file or folder of the project, or a template (``rolls/panels/generic.html``)."""
    return (ROOT / name).exists() or (ROOT / "templates" / name).exists()


@pytest.mark.django_db
@pytest.mark.parametrize("path", [README, *DOCS], ids=lambda path: path.name)
def test_every_module_and_file_the_docs_name_is_real(path):
    """A renamed or removed module, function or file leaves no doc pointing at it: the docs
    named a ``rolls.dashboard.turns`` that was long gone."""
    text = path.read_text(encoding="utf-8")
    missing = [name for name in DOTTED.findall(text) if _names_nothing(name)]
    missing += [name for name in PATH.findall(text) if not _a_file(name.rstrip("/"))]
    assert not missing, f"{path.name} names what is not there: {sorted(set(missing))}"
