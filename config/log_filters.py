"""Log filters: what must never reach a log line."""

from __future__ import annotations

import logging
import re

# A session's fair-dice seed is 64 lowercase hex characters (ENGINE.md) and secret until the
# session ends; Django's SQL log (DEBUG with LOG_LEVEL=DEBUG) would print it with the INSERT.
_HEX64 = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")


class HideSeeds(logging.Filter):
    """Replace every run of 64 hex characters in a record's message by ``[64 hex hidden]``."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if _HEX64.search(message):
            record.msg, record.args = _HEX64.sub("[64 hex hidden]", message), None
        return True
