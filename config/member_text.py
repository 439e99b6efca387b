"""Members' text set among the app's own words, so that its direction cannot reorder them.

A name or a line of chat may hold right-to-left letters or the characters that steer direction
(U+202E RIGHT-TO-LEFT OVERRIDE and its kin). Set inline beside other text, such a name can flip
how the words around it read ("(by ala)" shown reversed after it). Isolated, it is laid out as
one unit whatever it holds: in a page by ``<bdi>`` (``|isolated``, a template filter every
template has: ``TEMPLATES``' builtins), in plain text (the exports) between U+2068 FIRST STRONG
ISOLATE and U+2069 POP DIRECTIONAL ISOLATE (``isolated_text``). Text that is left-to-right or
neutral throughout (nearly all of it) is written as it is: there is nothing to isolate.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString

register = template.Library()

#: Bidirectional classes that can reorder text around them: right-to-left letters and marks,
#: the embeddings, overrides and isolates, and their ends.
_STEERING = frozenset({"R", "AL", "RLE", "LRE", "RLO", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI"})


def steers_direction(text: str) -> bool:
    return any(unicodedata.bidirectional(char) in _STEERING for char in text)


@register.filter
def isolated(value: Any) -> SafeString:
    """``value`` escaped, inside ``<bdi>`` when its direction could reorder what surrounds it."""
    text = str(value)
    if not steers_direction(text):
        return conditional_escape(value)
    return format_html("<bdi>{}</bdi>", value)


def isolated_text(value: Any) -> str:
    """``value`` for plain text, between isolate marks when its direction could reorder the line."""
    text = str(value)
    return f"\u2068{text}\u2069" if steers_direction(text) else text
