"""Log entries as this process rendered them: once per (entry, language, redaction).

Every page of a table shows the same entry, so ``rolls/log/_entry.html`` is rendered once per
language (and once redacted), not once per socket nor once per page that shows the log
(``{% log_entry %}``), and the socket's ``entry`` frame is encoded once too and sent as it is
to every socket. A roll renders its entry in the roller's language
as it commits, before its broadcast (``rolls.actions``): the roller's answer and every socket of
this process in that language then reuse that one rendering.

A roll is never edited (a seal lifted or a strike is beside it, and part of the key), so its id
and creation time say which roll it is; the time keeps a test
database that reuses ids from reading another test's entry. Entries are kept newest last, at
most ``RENDERED_KEEP``; threads (HTTP) and the event loop (sockets) share them: each dict
operation is atomic, and two that miss at once render the same text twice, nothing worse.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation

RENDERED_KEEP = 1000
# key -> [html, frame or None until a socket asks]
_rendered: OrderedDict[tuple, list] = OrderedDict()


def checkable(entry: dict[str, Any], session) -> bool:
    """Whether the entry, shown in the log of ``session``, offers to check its dice: once the
    session has ended and its seed is out, for an entry of that session that drew dice (not
    real dice typed in: rolls.real_dice)."""
    return bool(
        session is not None
        and not session.is_open
        and entry.get("nonce")
        and not entry.get("typed")
        and entry.get("session_id") == session.pk
    )


def _cached(entry: dict[str, Any], language: str, session=None) -> list:
    check = checkable(entry, session)
    # Sealed or not (rolls.models.Seal): a roll revealed is rendered again, whole or redacted.
    sealed = bool(entry.get("sealed"))
    # Struck or not (rolls.strikes): a struck roll is rendered again, struck through.
    struck = bool(entry.get("struck"))
    key = (entry["id"], entry["created_at"], entry["redacted"], sealed, struck, language, check)
    found = _rendered.get(key)
    if found is None:
        with translation.override(language):
            html = render_to_string(
                "rolls/log/_entry.html", {"entry": entry, "log_session": session if check else None}
            )
        found = [html, None]
        _rendered[key] = found
        if len(_rendered) > RENDERED_KEEP:
            _rendered.popitem(last=False)
    return found


def entry_html(entry: dict[str, Any], language: str, session=None) -> str:
    """``rolls/log/_entry.html`` for this entry as one viewer may see it, in ``language``, as the
    log of ``session`` shows it (None: outside a log, as the roller's answer shows it)."""
    return _cached(entry, language, session)[0]


def entry_frame(entry: dict[str, Any], language: str) -> str:
    """The socket's ``entry`` frame for this entry as one viewer may see it: its JSON text,
    the very text ``send_json`` would send (channels' ``encode_json`` is ``json.dumps``)."""
    found = _cached(entry, language)
    if found[1] is None:
        found[1] = json.dumps(
            {"type": "entry", "session": entry["session_id"], "seq": entry["seq"], "html": found[0]}
        )
    return found[1]


def reveal_frame(entry: dict[str, Any], language: str) -> str:
    """The socket's ``reveal`` frame: a sealed entry the page shows, now as its viewer may see
    it once revealed; the page puts it in the place of the one it shows."""
    return json.dumps(
        {
            "type": "reveal",
            "session": entry["session_id"],
            "seq": entry["seq"],
            "html": entry_html(entry, language),
        }
    )
