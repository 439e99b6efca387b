"""A long evening's log in a few statements: real rolls copied under the following seqs, so a
page or a benchmark can be given 2,000 entries without rolling 2,000 times."""

from __future__ import annotations

import copy
import uuid

from rolls.models import Roll
from tests.web.live import roll

#: Every how many entries one is the player's secret and one the GM's hidden roll, so each page
#: of the log holds entries a viewer may not see whole.
SECRET_EVERY = 7
HIDDEN_EVERY = 11


def long_log(session, player, gm, count: int, character=None) -> None:
    """Fill ``session`` up to ``count`` entries: public rolls of ``player`` (for ``character``),
    every SECRET_EVERY-th their secret one, every HIDDEN_EVERY-th the ``gm``'s hidden one."""
    shapes = {
        "public": roll(session, player, character=character),
        "secret": roll(session, player, visibility="secret", character=character),
        "hidden": roll(session, gm, visibility="hidden"),
    }
    session.refresh_from_db()
    first = session.last_seq + 1
    copies = []
    for seq in range(first, count + 1):
        shape = "secret" if seq % SECRET_EVERY == 0 else "public"
        shape = "hidden" if seq % HIDDEN_EVERY == 0 else shape
        entry = copy.copy(shapes[shape])
        entry.pk, entry.seq, entry.idempotency_key = None, seq, uuid.uuid4()
        copies.append(entry)
    Roll.objects.bulk_create(copies, batch_size=500)
    session.last_seq = max(count, session.last_seq)
    session.save(update_fields=["last_seq"])
