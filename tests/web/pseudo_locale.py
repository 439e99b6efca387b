"""A pseudo-locale: every message the Polish catalogue translates shows between ⟦ and ⟧.

``marked(language)`` replaces that language's translation for as long as it lasts: a message
the compiled Polish catalogue translates reads in ``language`` as usual but between the
markers, each of its placeholders left outside them (``⟦Tabela: ⟧Moorcrest⟦ (⟧1d12⟦)⟧``), so
an argument is judged on its own; a message the catalogue does not translate, and any text that
never went through gettext, reads bare. ``unmarked_words_of(page, phrases)`` then finds the
words a reader meets (the text, tooltips, labels for screen readers, placeholders, the words
the page's scripts show) that stand outside every marker and are neither typed by the people at
the table (``typed_phrases``) nor on the one allow-list, ``GAME_TERMS``.

Marked English also leaves outside the markers, between ⟪ and ⟫, a game term a message names
bare (``bare_terms``: "⟪Rozmach⟫⟦ gained⟧"): a Polish word inside an English message would
otherwise pass inside them. It counts unless the page explains the term once, beside its
translation (``explained_terms``). An English reader's dice are 3d8: "3k8" counts too.

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
#: Around a game term an English reader meets in a message with no translation beside it
#: (``bare_terms``): outside the markers, so it counts unless the page explains it elsewhere.
BARE_OPEN, BARE_CLOSE = "⟪", "⟫"
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


def _mark(text: str, bare: tuple[str, ...] = ()) -> str:
    """``text`` between markers, each placeholder and each of the ``bare`` words outside them."""
    parts = PLACEHOLDER.split(text)
    holders = PLACEHOLDER.findall(text)
    out = []
    for at, part in enumerate(parts):
        if part:
            out.append(f"{OPEN}{_unmark(part, bare)}{CLOSE}")
        if at < len(holders):
            out.append(holders[at])
    return "".join(out).replace(f"{OPEN}{CLOSE}", "")


def _unmark(part: str, bare: tuple[str, ...]) -> str:
    """``part`` of a marked message with each of the ``bare`` words taken out of the markers."""
    if not bare:
        return part
    found = re.compile(r"(?<![^\W\d_])(?:" + "|".join(map(re.escape, bare)) + r")(?![^\W\d_])")
    return found.sub(lambda m: f"{CLOSE}{BARE_OPEN}{m.group()}{BARE_CLOSE}{OPEN}", part)


#: What a message may hold that is no word of it: a placeholder, markup, an entity, a word with a
#: digit (T10, d10, SHA-256).
NOT_TEXT = re.compile(PLACEHOLDER.pattern + r"|\{\w+\}|<[^>]*>|&#?\w+;|[^\W_]*\d[^\W_]*")
#: A message that pairs a game term with its translation: "Rozmach (momentum)", "stunned
#: (oszołomiony)".
PAIR = re.compile(r"([^()]+?) \(([^()]+)\)")
#: What may stand between a game term and the translation beside it (not a bracket, an arrow).
BETWEEN = re.compile(r"[\s,.:;!?…'’“”„\"-]*")


def game_terms(catalog: dict) -> frozenset[str]:
    """The words of the rules' own terms (Polish, Swedish), as the Polish catalogue shows them:
    a message pairing a term with its English ("Rozmach (momentum)") that a Polish reader reads
    as the term ("Rozmach"; "stand up (resa dig)" read "wstanie (resa dig)"), and a message a
    Polish reader reads word for word ("przebicia") whose words the app's English uses nowhere
    else (unlike "NPC" or "Test")."""
    messages = [
        m for m, polish in catalog.items() if isinstance(m, str) and isinstance(polish, str)
    ]
    english: dict[str, int] = {}
    for message in messages:
        for word in set(WORD.findall(NOT_TEXT.sub(" ", message))):
            english[word] = english.get(word, 0) + 1
    terms: set[str] = set()
    for message in messages:
        polish = catalog[message]
        if polish == message:
            terms |= {w for w in WORD.findall(NOT_TEXT.sub(" ", message)) if english[w] == 1}
        elif found := PAIR.fullmatch(message):
            for side in found.groups():
                if polish == side or f"({side})" in polish or polish.startswith(f"{side} ("):
                    terms |= set(WORD.findall(NOT_TEXT.sub(" ", side)))
    return frozenset(term for term in terms - GAME_TERMS if len(term) > 1)


def bare_terms(text: str, other: str, terms: frozenset[str]) -> tuple[str, ...]:
    """The game terms of ``text`` (``terms`` that ``other``, the same message in the other
    language, keeps as they are) with no translation in brackets beside them anywhere in the
    message: ``Rozmach (momentum) now`` and ``stunned (oszołomiony)`` keep one beside,
    ``Rozmach gained`` leaves it bare."""
    kept = set(WORD.findall(NOT_TEXT.sub(" ", other)))
    if not kept & terms:
        return ()
    plain = NOT_TEXT.sub(lambda m: " " * len(m.group()), text)
    words = list(WORD.finditer(plain))
    depth, inside = 0, []
    for char in plain:
        depth += (char == "(") - (char == ")")
        inside.append(depth > 0)
    glossed, bare = set(), set()
    for index, word in enumerate(words):
        if word.group() not in terms or word.group() not in kept:
            continue
        # A run of words both languages keep ("Tak, i…", "stan oszołomiony") with its
        # translation after it.
        end = word.end()
        for later in words[index + 1 :]:
            if later.group() not in kept or not BETWEEN.fullmatch(plain[end : later.start()]):
                break
            end = later.end()
        beside = inside[word.start()] or plain[BETWEEN.match(plain, end).end() :].startswith("(")
        (glossed if beside else bare).add(word.group())
    return tuple(sorted(bare - glossed, key=len, reverse=True))


def _own_catalog() -> dict:
    """The app's own Polish catalogue (Django's translation adds Django's words to it)."""
    import gettext

    from django.conf import settings

    return gettext.translation("django", settings.LOCALE_PATHS[0], languages=["pl"])._catalog


class Marked:
    """A translation of ``language`` that marks every message Polish translates."""

    def __init__(self, language: str) -> None:
        self.real = trans_real.translation(language)
        self.polish = trans_real.translation("pl")
        self.terms = game_terms(_own_catalog()) if language == "en" else frozenset()

    def gettext(self, message: str) -> str:
        text = self.real.gettext(message)
        if message not in self.polish._catalog:
            return text
        return _mark(text, bare_terms(text, self.polish.gettext(message), self.terms))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        text = self.real.ngettext(singular, plural, n)
        if (singular, self.polish.plural(n)) not in self.polish._catalog:
            return text
        polish = self.polish.ngettext(singular, plural, n)
        return _mark(text, bare_terms(text, polish, self.terms))

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
    drawn as an input. Left out: scripts, styles, code and keys (a command to type, a key to
    press, is no language's: the keyboard shortcuts' list, rolls/_keys.html),
    what a text box holds (typed text), and an element that says it is in another language
    than the page (``lang="sv"``: the seed's words quoted beside their translation; the
    language switch naming each language in its own), with all it holds."""

    SKIPPED = frozenset({"script", "style", "code", "kbd", "textarea"})

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


def _not_words(dice: str) -> re.Pattern[str]:
    """Text that is no word: a hash or a key in hex, dice written with one of ``dice`` (3d8,
    d10, 2k6), a FastTest trait's level (3k), numbers."""
    return re.compile(
        rf"\b[0-9a-f]{{16,}}\b|\b[0-9a-f]{{8}}-[0-9a-f-]{{27}}\b"
        rf"|\b\d*[{dice}]\d+(?:kh\d+|kl\d+|dl\d+|dh\d+)?!?|\b\d+[dk]\b|\(x\)|\d+|\{{\w+\}}"
    )


#: Text that is no word of any language, dice in either notation (3d8, 2k6).
NOT_WORDS = _not_words("dk")
#: What is no word to a reader of a language: an English reader's dice are 3d8, so "3k8" (the
#: Polish notation) shows its "k" as a word.
NOT_WORDS_TO = {"en": _not_words("d")}
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


def unmarked_words(
    piece: str,
    phrases: tuple[str, ...],
    terms: frozenset[str],
    explained: frozenset[str] = frozenset(),
    not_words: re.Pattern[str] = NOT_WORDS,
) -> list[str]:
    """The words of ``piece`` outside every marker that are neither in one of ``phrases``
    (names and text the people at the table typed) nor one of ``terms`` nor ``not_words``,
    each with its context; a game term left bare in a message counts unless it is one of
    ``explained``."""
    outside = _outside_markers(piece)
    words = [
        m
        for m in WORD.finditer(not_words.sub(_blank, outside))
        if m.group() not in terms
        and not (outside[m.start() - 1 : m.start()] == BARE_OPEN and m.group() in explained)
    ]
    typed = _typed_at(outside, phrases) if words else b""
    return [
        f"{m.group()}: …{piece[max(0, m.start() - 50) : m.end() + 50]}…".replace("\n", " ")
        for m in words
        if not all(typed[m.start() : m.end()])
    ]


def explained_terms(pieces: list[str]) -> frozenset[str]:
    """The game terms a page shows once with their translation beside them ("Rozmach
    (momentum)", "stunned (oszołomiony)"), which it may then name alone: those it leaves bare
    and explains nowhere fail (``bare_terms``)."""
    bare = set(re.findall(rf"{BARE_OPEN}([^{BARE_CLOSE}]+){BARE_CLOSE}", "\n".join(pieces)))
    if not bare:
        return frozenset()
    text = re.sub(
        rf"{BARE_OPEN}[^{BARE_CLOSE}]*{BARE_CLOSE}|[{OPEN}{CLOSE}]", "", "\n".join(pieces)
    )
    return frozenset(term for term in bare if _glossed(term).search(text))


def _glossed(term: str) -> re.Pattern[str]:
    """``term`` with its translation in brackets after it (a few words of its phrase between:
    "Nie, i… (no, and…)"), or in the brackets after one ("stunned (oszołomiony)")."""
    word = rf"(?<![^\W\d_]){re.escape(term)}(?![^\W\d_])"
    phrase = rf"(?:{BETWEEN.pattern}[^\W\d_]+){{0,3}}"
    return re.compile(rf"{word}{phrase}{BETWEEN.pattern}\(|\([^()]*{word}[^()]*\)")


def unmarked_words_of(page: str, phrases: set[str], reader: str = "") -> list[str]:
    """Every word of ``page`` (HTML, or the text of an export) that stands outside every marker
    and is neither in one of ``phrases`` nor a game term (``GAME_TERMS``), with its context; a
    game term a message leaves bare counts unless the page explains it (``explained_terms``),
    and so do dice in the notation of another language than the ``reader``'s."""
    typed = tuple(sorted({p.strip() for p in phrases if p.strip()}))
    pieces = readable(page)
    explained = explained_terms(pieces)
    not_words = NOT_WORDS_TO.get(reader, NOT_WORDS)
    return [
        word
        for piece in pieces
        for word in unmarked_words(piece, typed, GAME_TERMS, explained, not_words)
    ]


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
