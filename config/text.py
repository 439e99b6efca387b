"""The one rule for every text a person types into the table: what a database and JSON can hold.

PostgreSQL refuses a NUL in a text column and in ``jsonb`` (SQLite stores it), a lone surrogate
cannot be written as UTF-8 at all, and the other control characters (escape sequences, backspace,
the C1 block) have no place in a name or a label: they garble the log, a terminal, an export.
Tabs and line breaks are ordinary text. Every form field (``TextField``) and every text a view
reads by hand (``text_problem``) goes through this module, so the answer is
always the same message at the field, never a server error.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import ProhibitNullCharactersValidator
from django.utils.translation import gettext_lazy

#: C0 controls but tab, line feed and carriage return; DEL and the C1 block; lone surrogates.
UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")

MESSAGE = gettext_lazy(
    "This text holds a character that cannot be stored (a control character such as NUL, "
    "or a broken one); remove it."
)


def text_problem(value: Any) -> str | None:
    """The message for text that may not be stored, or None when it is fine (or not text)."""
    if isinstance(value, str) and UNSAFE.search(value):
        return str(MESSAGE)
    return None


def named_character(char: str) -> str:
    """One character as a refusal may quote it: itself, or its code point (``U+0000``) when it
    cannot be shown (a control character, a lone surrogate) or would not be seen (a space or a
    direction mark: Unicode's separators and format characters)."""
    if UNSAFE.fullmatch(char) or unicodedata.category(char)[0] in "CZ":
        return f"U+{ord(char):04X}"
    return char


def has_unsafe_text(value: Any, depth: int = 0) -> bool:
    """Whether any string in a JSON-shaped value (keys included) breaks the rule."""
    if isinstance(value, str):
        return bool(UNSAFE.search(value))
    if depth > 50:
        return True  # no sheet or test is nested this deep; refuse rather than recurse on
    if isinstance(value, dict):
        return any(
            has_unsafe_text(key, depth + 1) or has_unsafe_text(item, depth + 1)
            for key, item in value.items()
        )
    if isinstance(value, (list, tuple)):
        return any(has_unsafe_text(item, depth + 1) for item in value)
    return False


def validate_text(value: Any) -> None:
    """The rule as a Django validator."""
    if text_problem(value):
        raise ValidationError(MESSAGE, code="unsafe_text")


class TextField(forms.CharField):
    """A ``CharField`` under the rule; every text field of the app's forms is one.

    Django's own NUL validator is dropped: this one says the same, and more, in one message.
    """

    default_validators = [validate_text]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.validators = [
            v for v in self.validators if not isinstance(v, ProhibitNullCharactersValidator)
        ]

    def to_python(self, value: Any) -> Any:
        # Refuse before stripping: a NUL at the end must not vanish with the spaces around it.
        if text_problem(value):
            raise ValidationError(MESSAGE, code="unsafe_text")
        return super().to_python(value)


#: What ``UNSAFE`` refuses, as it would stand in a page's UTF-8 (a lone surrogate cannot).
_UNSAFE_BYTES = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\xc2[\x80-\x9f]")


class UnsafeTextNotShownMiddleware:
    """No page shows back a character the rule refuses. A refused form shows what was typed
    (its fields, a refusal quoting it), and a NUL or an escape sequence echoed into a page
    garbles what surrounds it; the message beside the field already says it was there. Every
    form, its number fields and hand-written inputs included, is covered here at once: no page
    of the app has such a character of its own, nor can stored text (the rule refused it)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            not response.streaming
            and response.get("Content-Type", "").startswith("text/html")
            and _UNSAFE_BYTES.search(response.content)
        ):
            response.content = _UNSAFE_BYTES.sub(b"", response.content)
            # Counted before (CommonMiddleware): a length left longer than the body had the
            # server drop the answer, and the page got nothing at all.
            if response.has_header("Content-Length"):
                response["Content-Length"] = str(len(response.content))
        return response


#: The deepest nesting a JSON file a person sends is read to (an exported sheet is four deep).
MAX_JSON_DEPTH = 20


class TooDeep(Exception):
    """A JSON document nested deeper than ``MAX_JSON_DEPTH``."""


def load_json(text: str, **options: Any) -> Any:
    """``json.loads`` for a file a person sends: nesting past ``MAX_JSON_DEPTH`` is ``TooDeep``.

    Nested thousands deep, the parser itself gives up with a RecursionError (a server error, not
    a ValueError) before anything could look; shallower, the depth is counted without recursion.
    """
    try:
        document = json.loads(text, **options)
    except RecursionError:
        raise TooDeep from None
    if json_depth(document) > MAX_JSON_DEPTH:
        raise TooDeep
    return document


def json_depth(document: Any) -> int:
    """How deeply a parsed JSON document nests, counted without recursion."""
    deepest, stack = 0, [(document, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (dict, list)):
            deepest = max(deepest, depth)
            children = node.values() if isinstance(node, dict) else node
            stack.extend((child, depth + 1) for child in children)
    return deepest
