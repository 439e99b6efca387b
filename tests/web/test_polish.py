"""The Polish catalogue: complete, compiled, and what a Polish player actually sees.

The .po is read with a small parser of its own (no gettext tools needed), so these tests run on
any machine that has the committed catalogue.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from campaigns.actions import create_campaign, join_campaign
from tests.conftest import missing

PO = Path(settings.BASE_DIR) / "locale" / "pl" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
SAMPLE = 20
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[-+ #0]*\d*[sdif]")
ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: str = ""
    plurals: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    translated_part_seen: bool = False


def _unquote(text: str) -> str:
    quoted = re.fullmatch(r'\s*"(.*)"\s*', text)
    assert quoted, f"not a PO string: {text!r}"
    return re.sub(r"\\(.)", lambda m: ESCAPES.get(m.group(1), m.group(1)), quoted.group(1))


def parse_po(path: Path) -> list[Entry]:
    """Every entry of the catalogue, the header (msgid "") first; comments and #~ skipped."""
    entries: list[Entry] = []
    current: Entry | None = None
    field_name, index = "", 0
    flags: set[str] = set()
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("#,"):
            flags |= {flag.strip() for flag in line[2:].split(",")}
            continue
        if not line or line.startswith("#"):
            continue
        if line.startswith('"'):
            assert current is not None, f"a continued string outside an entry: {raw!r}"
            if field_name == "plurals":
                current.plurals[index] += _unquote(line)
            else:
                setattr(current, field_name, getattr(current, field_name) + _unquote(line))
            continue
        keyword, _, rest = line.partition(" ")
        starts = keyword == "msgctxt" or (
            keyword == "msgid" and (current is None or current.translated_part_seen)
        )
        if starts:
            current = Entry(flags=flags)
            entries.append(current)
            flags = set()
        assert current is not None, f"a keyword outside an entry: {raw!r}"
        plural = re.fullmatch(r"msgstr\[(\d+)\]", keyword)
        if plural:
            field_name, index = "plurals", int(plural.group(1))
            current.plurals[index] = _unquote(rest)
        else:
            assert keyword in ("msgctxt", "msgid", "msgid_plural", "msgstr"), raw
            field_name = keyword
            setattr(current, keyword, _unquote(rest))
        current.translated_part_seen |= keyword.startswith("msgstr")
    return entries


@pytest.fixture(scope="module")
def catalogue() -> list[Entry]:
    entries = parse_po(PO)
    assert entries[0].msgid == "", "the catalogue starts with its header"
    return entries


def messages(catalogue: list[Entry]) -> list[Entry]:
    return catalogue[1:]


def evenly(items: list, count: int) -> list:
    """A sample spread over the whole list, the same on every run."""
    step = max(1, len(items) // count)
    return items[::step][:count]


# The catalogue itself


def test_the_catalogue_is_a_polish_one_and_nothing_in_it_is_fuzzy(catalogue):
    header = catalogue[0]
    assert "Language: pl\n" in header.msgstr
    assert "nplurals=4;" in header.msgstr
    assert "fuzzy" not in header.flags
    fuzzy = [entry.msgid for entry in messages(catalogue) if "fuzzy" in entry.flags]
    assert fuzzy == []


def test_every_message_has_a_polish_translation(catalogue):
    assert len(messages(catalogue)) > 500
    untranslated = [
        entry.msgid
        for entry in messages(catalogue)
        if (entry.msgid_plural and not all(entry.plurals.get(i) for i in range(4)))
        or (not entry.msgid_plural and not entry.msgstr)
    ]
    assert untranslated == []


def test_translations_keep_every_placeholder_of_the_english(catalogue):
    broken = []
    for entry in messages(catalogue):
        if entry.msgid_plural:
            wanted = set(PLACEHOLDER.findall(entry.msgid_plural))
            # Form 0 is n == 1 only, so it may name the number outright, like the English.
            forms = [entry.plurals[i] for i in range(1, 4)]
        else:
            wanted = set(PLACEHOLDER.findall(entry.msgid))
            forms = [entry.msgstr]
        broken += [entry.msgid for form in forms if set(PLACEHOLDER.findall(form)) != wanted]
    assert broken == []


def test_the_compiled_catalogue_answers_with_the_translations_of_the_po(catalogue):
    assert MO.exists(), "run: python manage.py compilemessages -l pl --ignore=.venv"
    singular = [
        entry
        for entry in messages(catalogue)
        if not entry.msgid_plural and not entry.msgctxt and entry.msgstr != entry.msgid
    ]
    sample = evenly(singular, SAMPLE)
    assert len(sample) == SAMPLE
    with translation.override("pl"):
        answers = {entry.msgid: translation.gettext(entry.msgid) for entry in sample}
    assert answers == {entry.msgid: entry.msgstr for entry in sample}


#: What ``make messages`` does not read, and what a copy of the sources need not hold.
NOT_SOURCES = (".venv", ".git", "bench", "__pycache__", ".pytest_cache", ".ruff_cache",
               ".hypothesis", "*.mo")  # fmt: skip


@pytest.fixture(scope="module")
def remade(tmp_path_factory) -> list[Entry]:
    """The catalogue as ``make messages`` would write it for the sources as they are, made in a
    copy of the repository (the committed file is never rewritten by the test)."""
    if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
        missing("GNU gettext (xgettext, msgmerge) is not installed: apt-get install gettext")
    copy = tmp_path_factory.mktemp("sources") / "table"
    shutil.copytree(settings.BASE_DIR, copy, ignore=shutil.ignore_patterns(*NOT_SOURCES))
    command = [sys.executable, "manage.py", "makemessages", "-l", "pl", "--no-obsolete",
               "--ignore=.venv", "--ignore=bench"]  # fmt: skip
    done = subprocess.run(command, cwd=copy, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return parse_po(copy / "locale" / "pl" / "LC_MESSAGES" / "django.po")


def test_every_message_the_sources_use_has_a_polish_translation_that_is_not_fuzzy(remade):
    """A message added or reworded since the catalogue was last made comes out of makemessages
    empty (new) or fuzzy (a guess from a similar one): each must be translated, and checked."""
    fuzzy = [entry.msgid for entry in messages(remade) if "fuzzy" in entry.flags]
    untranslated = [
        entry.msgid
        for entry in messages(remade)
        if (entry.msgid_plural and not all(entry.plurals.get(i) for i in range(4)))
        or (not entry.msgid_plural and not entry.msgstr)
    ]
    assert (fuzzy, untranslated) == ([], [])


def test_the_committed_catalogue_is_the_one_makemessages_writes(catalogue, remade):
    """No message missing from it, none left over, each translated as committed: run ``make
    messages`` after changing strings, translate what it adds and commit the result."""

    def translations(entries):
        return {
            (entry.msgctxt, entry.msgid): (entry.msgstr, entry.plurals)
            for entry in messages(entries)
        }

    committed, made = translations(catalogue), translations(remade)
    assert sorted(set(made) - set(committed), key=str) == [], "missing from the committed .po"
    assert sorted(set(committed) - set(made), key=str) == [], "no source uses these any more"
    assert committed == made


def test_the_compiled_catalogue_has_the_polish_plural_forms(catalogue):
    plural = [entry for entry in messages(catalogue) if entry.msgid_plural]
    assert plural
    with translation.override("pl"):
        for entry in plural:
            for n, form in ((1, 0), (3, 1), (5, 2), (22, 1), (112, 2)):
                got = translation.ngettext(entry.msgid, entry.msgid_plural, n)
                assert got == entry.plurals[form], (entry.msgid, n)


def test_outcomes_shared_by_systems_are_named_in_each_systems_own_terms():
    # Caerbannog's and 2d6's "success" is Polish, T10's Swedish (rolls.labels.outcome_word).
    from rolls.labels import outcome_word

    with translation.override("pl"):
        assert outcome_word("success", "caerbannog") == "Sukces"
        assert outcome_word("failure", "2d6") == "Porażka"
        assert outcome_word("success", "t10") == "Sukces (lyckat)"


def test_game_glosses_give_way_to_the_polish_terms():
    with translation.override("pl"):
        assert translation.gettext("Traits (Wyróżniki)") == "Wyróżniki"
        assert translation.gettext("Tak, i… (yes, and…)") == "Tak, i…"
        assert translation.gettext("Katastrof (catastrophe)") == "Katastrofa (katastrof)"


# Pages a Polish player sees


@pytest.mark.django_db
def test_the_login_page_speaks_polish(client):
    with translation.override("pl"):
        html = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert '<html lang="pl">' in html
    assert "Zaloguj się" in html
    assert "Załóż konto" in html
    assert "Log in" not in html


@pytest.mark.django_db
def test_the_campaign_list_speaks_polish(client, gm, player):
    campaign = create_campaign(gm=gm, name="Królestwo Zarith", system="fasttest")
    join_campaign(campaign, player)
    client.force_login(gm)
    with translation.override("pl"):
        html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "Twoje kampanie" in html
    assert "Nowa kampania" in html
    assert "Jesteś MG" in html
    assert "1 gracz" in html
    assert "Your campaigns" not in html


@pytest.mark.django_db
def test_an_empty_campaign_list_speaks_polish(client, outsider):
    client.force_login(outsider)
    with translation.override("pl"):
        html = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "Nie masz jeszcze kampanii" in html
    assert "No campaigns yet" not in html
