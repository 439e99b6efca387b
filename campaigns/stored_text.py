"""The app's own words where they are stored as text: read in each reader's language.

What the app stores for others to read is stored as data and put into words when it is read
(``rolls.labels``). A few of its own texts are stored as plain text all the same, in the language
of whoever's request wrote them, because they sit where people type text of their own: a
wound's label on a FastTest sheet ("combat, #12"), the names and rows of the tables a system
brings (the GM edits them), and words of log entries written before they were data (the test
that ends a condition). Each such message is registered here (``register``); a stored text that
reads as one of them in any of the app's languages is shown in the reader's language
(``as_read``), its arguments kept; any other text is shown as typed.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from django.conf import settings
from django.utils import translation

_MESSAGES: list[Any] = []
#: A message's placeholder: registered messages take text arguments only (%(name)s).
_HOLDER = re.compile(r"%\((\w+)\)s")


def register(*messages: Any) -> None:
    """Messages (lazy, in the project's words) that the app stores as plain text."""
    _MESSAGES.extend(messages)
    forget()


def forget() -> None:
    """Read the messages again in each language on the next ``as_read`` (after registering
    more, or after a language's catalogue changed, as a test's pseudo-locale does)."""
    _known.cache_clear()


def _plain(text: str) -> str:
    return " ".join(text.split())


def _pattern(text: str) -> re.Pattern[str]:
    """A message with placeholders as a pattern its filled-in texts match."""
    parts, seen, at = [], set(), 0
    for holder in _HOLDER.finditer(text):
        parts.append(re.escape(text[at : holder.start()]))
        name = holder.group(1)
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.+?)")
        seen.add(name)
        at = holder.end()
    parts.append(re.escape(text[at:]))
    return re.compile("".join(parts), re.S)


@functools.cache
def _known() -> tuple[dict[str, Any], tuple[tuple[re.Pattern[str], Any], ...]]:
    """Every registered message as each language writes it: plain texts by their words, and
    the patterns of those with placeholders."""
    exact: dict[str, Any] = {}
    patterns = []
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            for message in _MESSAGES:
                text = str(message)
                if _HOLDER.search(text):
                    patterns.append((_pattern(_plain(text)), message))
                else:
                    exact.setdefault(_plain(text), message)
    return exact, tuple(patterns)


def as_read(text: Any) -> Any:
    """``text`` in the reader's language when it is a registered message in any language (with
    its arguments), else as it is."""
    if not isinstance(text, str) or not text.strip():
        return text
    exact, patterns = _known()
    plain = _plain(text)
    message = exact.get(plain)
    if message is not None:
        return str(message)
    for pattern, message in patterns:
        found = pattern.fullmatch(plain)
        if found:
            return str(message) % found.groupdict()
    return text
