"""``python -m rolls.engine < requests.jsonl > answers.jsonl`` (ENGINE.md)."""

import io
import sys

from .protocol import serve


def main() -> int:
    # Read bytes and decode leniently so one bad byte costs one line, not the whole run.
    lines = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    out = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n")
    try:
        return serve(lines, out)
    finally:
        out.flush()


if __name__ == "__main__":
    sys.exit(main())
