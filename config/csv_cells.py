"""The one way the app writes CSV: a cell a spreadsheet would run as a formula is neutralised.

OWASP's advice on CSV injection: a cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return is read by Excel, LibreOffice and Google Sheets as a formula
(``=HYPERLINK(...)``, ``=cmd|' /C calc'!A0``), so it is written with a leading ``'``, which
they show as text; the ``csv`` writer's own quoting escapes the quotes inside the cell. Every
CSV the app writes (the session log's ``log.csv``, a random table's export) goes through
``writer``, and a test holds that no other module calls ``csv.writer``.

Decisions:

- A cell that is a plain number (``-3``, ``2.5``, an ``int``) is left as it is: a spreadsheet
  reads it as that number, never as a formula, and a random table's ``from``/``to`` columns
  must import again as numbers. OWASP prefixes every ``-``; a number cannot run anything, so we
  keep the numbers readable and sortable.
- A cell already starting with quotes before a formula character (``'=x``) gets one quote
  more, so ``restored`` (the random table's import) takes exactly one off and every text comes
  back as it was, ``'=x`` included.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any, TextIO

#: What a spreadsheet reads as the start of a formula (OWASP), after any quotes we added.
_FORMULA = re.compile(r"'*[=+\-@\t\r]")
#: A cell that is a number alone: never a formula, and kept a number.
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def neutral(value: Any) -> Any:
    """The cell as it may be written: a leading ``'`` before what would start a formula."""
    if isinstance(value, str) and _FORMULA.match(value) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def restored(text: str) -> str:
    """A cell as ``neutral`` found it: the one ``'`` it added taken off again."""
    if text.startswith("'") and _FORMULA.match(text[1:]) and not _NUMBER.fullmatch(text[1:]):
        return text[1:]
    return text


class _Writer:
    def __init__(self, out: TextIO) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow([neutral(cell) for cell in row])


def writer(out: TextIO) -> _Writer:
    """``csv.writer(out)`` whose rows are written through ``neutral``."""
    return _Writer(out)
