"""A pseudo-locale: every message the Polish catalogue translates shows between ⟦ and ⟧.

``marked(language)`` replaces that language's translation for as long as it lasts: a message
the compiled Polish catalogue translates reads in ``language`` as usual but between the
markers, each of its placeholders left outside them (``⟦Tabela: ⟧Moorcrest⟦ (⟧1d12⟦)⟧``), so
an argument is judged on its own; a message the catalogue does not translate, and any text that
never went through gettext, reads bare. ``unmarked_words_of(page, phrases)`` then finds the
words a reader meets (the text, tooltips, labels for screen readers, placeholders, the words
the page's scripts show) that stand outside every marker and are neither typed by the people at
the table (``typed_phrases``) nor on the one allow-list, ``GAME_TERMS``.

The other language keeps its real translation, so a page can be written in one language and
read in the other: what was stored in the writer's words then shows bare to the reader.
"""

from __future__ import annotations

import csv
import io
import re
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from html.parser import HTMLParser

from django.utils import translation
from django.utils.translation import trans_real

OPEN, CLOSE = "⟦", "⟧"
#: The words a page may show outside every message, the same to every reader: kept small, each
#: with why. Everything else outside the markers is either typed by the people at the table
#: (``typed_phrases``) or a fault.
GAME_TERMS: frozenset[str] = frozenset(
    {
        # Caerbannog's skill levels, I to IV, printed as on the paper sheet.
        "I", "II", "III", "IV",
        # The names of two rule systems (the others' names are messages: "T10 pool").
        "FastTest", "Caerbannog",
        # Names of file formats (the export links) and of the site's time zone (the Markdown
        # export's heading names it).
        "Markdown", "CSV", "JSON", "UTC",
    }
)  # fmt: skip
#: A placeholder of a message: %(name)s, %(n)d, %s (a literal %% is no placeholder).
PLACEHOLDER = re.compile(r"%(?:\([^)]+\))?[-#0 +]*\d*(?:\.\d+)?[sdifr]")


def _mark(text: str) -> str:
    """``text`` between markers, each placeholder outside them."""
    parts = PLACEHOLDER.split(text)
    holders = PLACEHOLDER.findall(text)
    out = []
    for at, part in enumerate(parts):
        if part:
            out.append(f"{OPEN}{part}{CLOSE}")
        if at < len(holders):
            out.append(holders[at])
    return "".join(out)


class Marked:
    """A translation of ``language`` that marks every message Polish translates."""

    def __init__(self, language: str) -> None:
        self.real = trans_real.translation(language)
        self.polish = trans_real.translation("pl")

    def gettext(self, message: str) -> str:
        text = self.real.gettext(message)
        return _mark(text) if message in self.polish._catalog else text

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        text = self.real.ngettext(singular, plural, n)
        known = (singular, self.polish.plural(n)) in self.polish._catalog
        return _mark(text) if known else text

    def language(self) -> str:
        return self.real.language()

    def to_language(self) -> str:
        return self.real.to_language()

    def __getattr__(self, name: str):
        return getattr(self.real, name)


@contextmanager
def marked(language: str) -> Iterator[None]:
    """``language`` reads marked (see the module's notes) until the block ends; what caches a
    rendering by language is emptied before and after, so nothing marked outlives it."""
    from campaigns import stored_text
    from rolls.log import rendered
    from rolls.systems.t10 import options

    for code in ("en", "pl"):  # the real ones exist first, so neither falls back to a marked one
        trans_real.translation(code)
    real = trans_real._translations[language]
    # Django's fallback for a thread with no language active is cached process-wide on first
    # use: made while marked, it would read every later test's words marked.
    default = trans_real._default
    trans_real._default = None
    saved = rendered._rendered
    rendered._rendered = OrderedDict()
    options._seed_rows.cache_clear()
    stored_text.forget()
    trans_real._translations[language] = Marked(language)
    try:
        yield
    finally:
        trans_real._translations[language] = real
        trans_real._default = default
        rendered._rendered = saved
        options._seed_rows.cache_clear()
        stored_text.forget()
        translation.deactivate()


def _blank(found: re.Match[str]) -> str:
    # Blanked to the same length, so a word left over is found at its place in the piece.
    return re.sub(r"\S", " ", found.group())


def _outside_markers(text: str) -> str:
    """``text`` with every marked part (markers may nest) blanked out."""
    while True:
        shorter = re.sub(rf"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}", _blank, text)
        if shorter == text:
            return text
        text = shorter


#: The attributes whose words a reader meets: a tooltip, a screen reader's label, a placeholder,
#: and the words the page's scripts show (presence, the dice check) kept in data-label-* and
#: data-fair-*.
READ_ATTRIBUTES = re.compile(r"title|aria-label|aria-description|placeholder|alt|"
                             r"data-label-.*|data-fair-.*|hx-confirm")  # fmt: skip


class _Readable(HTMLParser):
    """The pieces of a page a reader meets: its text as one piece, since a message may hold
    markup and so span several elements, then each attribute above and the value of a button
    drawn as an input. Left out: scripts, styles, code (a command to type is no language's),
    what a text box holds (typed text), and an element that says it is in another language
    than the page (``lang="sv"``: the seed's words quoted beside their translation; the
    language switch naming each language in its own), with all it holds."""

    SKIPPED = frozenset({"script", "style", "code", "textarea"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.pieces: list[str] = []
        self._page_language = ""
        self._skipped: str | None = None  # the tag of the element left out, while inside it
        self._depth = 0  # how deep inside it, counting its own tag only

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if self._skipped is not None:
            self._depth += tag == self._skipped
            return
        if tag == "html":
            self._page_language = a.get("lang", "")
        elif tag in self.SKIPPED or a.get("lang", self._page_language) != self._page_language:
            self._skipped, self._depth = tag, 1
            return
        for name, value in attrs:
            if value and READ_ATTRIBUTES.fullmatch(name):
                self.pieces.append(value)
        if tag == "input" and a.get("type") in ("submit", "button", "reset") and a.get("value"):
            self.pieces.append(a["value"])

    def handle_endtag(self, tag):
        if self._skipped is not None and tag == self._skipped:
            self._depth -= 1
            if self._depth == 0:
                self._skipped = None

    def handle_data(self, data):
        if self._skipped is None and data.strip():
            self.text.append(data)


#: The CSV export's columns a reader reads (the others are keys and numbers for programs: the
#: header, the time, the visibility, the kind, the dice).
CSV_WORDS = ("character", "rolled_by", "test", "outcome", "modifiers")


def readable_response(response) -> str | None:
    """What a reader reads of a response: a page or partial, or the words of the log's export
    (Markdown; CSV's columns for readers); None for a file for programs (JSON) or nothing."""
    kind = response.get("Content-Type", "")
    body = response.content.decode() if response.content else ""
    if kind.startswith(("text/html", "text/markdown")):
        return body
    if kind.startswith("text/csv") and body.startswith("seq,"):
        rows = csv.DictReader(io.StringIO(body))
        return "\n".join(row[name] or "" for row in rows for name in CSV_WORDS)
    return None


def readable(html: str) -> list[str]:
    """The text and read attributes of a page or partial, piece by piece (the text first)."""
    parser = _Readable()
    parser.feed(html)
    parser.close()
    return ["\n".join(parser.text), *parser.pieces]


#: Text that is no word of any language: a hash or a key in hex, dice (3d8, d10, 2k6), numbers.
NOT_WORDS = re.compile(
    r"\b[0-9a-f]{16,}\b|\b[0-9a-f]{8}-[0-9a-f-]{27}\b|\b\d*[dk]\d+(?:kh\d+|kl\d+|dl\d+|dh\d+)?!?"
    r"|\b\d+[dk]\b|\(x\)|\d+|\{\w+\}"
)
WORD = re.compile(r"[^\W\d_]+")


def _typed_at(text: str, phrases: tuple[str, ...]) -> bytearray:
    """Which characters of ``text`` belong to one of ``phrases``, each found as whole words."""
    typed = bytearray(len(text))
    for phrase in phrases:
        at = text.find(phrase)
        while at != -1:
            end = at + len(phrase)
            before = text[at - 1] if at else " "
            after = text[end] if end < len(text) else " "
            if not (before.isalnum() or after.isalnum()):
                typed[at:end] = b"\x01" * len(phrase)
            at = text.find(phrase, at + 1)
    return typed


def unmarked_words(piece: str, phrases: tuple[str, ...], terms: frozenset[str]) -> list[str]:
    """The words of ``piece`` outside every marker that are neither in one of ``phrases``
    (names and text the people at the table typed) nor one of ``terms``, each with its
    context."""
    outside = _outside_markers(piece)
    words = [m for m in WORD.finditer(NOT_WORDS.sub(_blank, outside)) if m.group() not in terms]
    typed = _typed_at(outside, phrases) if words else b""
    return [
        f"{m.group()}: …{piece[max(0, m.start() - 50) : m.end() + 50]}…".replace("\n", " ")
        for m in words
        if not all(typed[m.start() : m.end()])
    ]


def unmarked_words_of(page: str, phrases: set[str]) -> list[str]:
    """Every word of ``page`` (HTML, or the text of an export) that stands outside every marker
    and is neither in one of ``phrases`` nor a game term (``GAME_TERMS``), with its context."""
    typed = tuple(sorted({p.strip() for p in phrases if p.strip()}))
    return [word for piece in readable(page) for word in unmarked_words(piece, typed, GAME_TERMS)]


IDENT = re.compile(r"[a-z]+(?:_[a-z]+)*")
NAME_KEYS = frozenset({"name", "label", "text"})


def _names(value, key=None) -> set[str]:
    """The names and text people typed in a sheet or a table, not the keys the code reads."""
    if isinstance(value, str):
        return {value} if key in NAME_KEYS or not IDENT.fullmatch(value) else set()
    if isinstance(value, dict):
        found = set()
        for k, v in value.items():
            found |= _names(v, k)
            if isinstance(v, int) and not IDENT.fullmatch(k):
                found.add(k)
        return found
    if isinstance(value, list | tuple):
        return set().union(set(), *(_names(v, key) for v in value))
    return set()


def _rules_tables() -> set[str]:
    """The names of the tables the rules bring (``TableRules.defaults``), in every language:
    the app writes them, nobody typed them."""
    from django.conf import settings

    from campaigns.systems import all_systems
    from rolls.tables.rules import table_rules

    defaults = [t for system in all_systems() for t in table_rules(system).defaults]
    names = set()
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            names |= {str(t["name"]) for t in defaults}
    return names


def typed_phrases() -> set[str]:
    """What the people at every table of the database typed: user, campaign, character and NPC
    names, the sheets (and the blank sheet of each campaign's system), the GM's random tables
    (not those the rules bring). Read before anything is played, so nothing the app writes
    itself is taken for typed text."""
    from django.contrib.auth import get_user_model

    from campaigns.models import Campaign
    from rolls.models import RandomTable
    from sheets.models import NPC, Character
    from sheets.systems import sheet_module

    found = set(get_user_model().objects.values_list("username", flat=True))
    for campaign in Campaign.objects.all():
        found |= {campaign.name} | _names(campaign.settings)
        found |= _names(sheet_module(campaign.system).default_data(campaign))
    for character in Character.objects.all():
        found |= {character.name} | _names(character.data)
    for npc in NPC.objects.all():
        found |= {npc.name} | _names(npc.traits) | _names(npc.stats)
    for table in RandomTable.objects.exclude(name__in=_rules_tables()):
        found |= {table.name} | _names(table.rows)
    return found
