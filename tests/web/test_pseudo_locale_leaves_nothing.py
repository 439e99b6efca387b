"""The marked (pseudo) locale of the one-language tests ends with its block, for every test after.

A CI run failed six unrelated form tests with every message marked: Django caches the language
a thread with none active falls back to (``trans_real._default``) on first use, and that first
use had happened inside a marked block.
"""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import trans_real

from config.text import MESSAGE
from tests.web.pseudo_locale import marked


def test_the_fallback_language_first_used_inside_a_marked_block_is_not_marked_after_it():
    translation.deactivate()
    saved = trans_real._default
    trans_real._default = None
    try:
        with marked("en"):
            translation.deactivate()
            assert str(MESSAGE).startswith("⟦")
        translation.deactivate()
        assert not str(MESSAGE).startswith("⟦")
    finally:
        trans_real._default = saved
