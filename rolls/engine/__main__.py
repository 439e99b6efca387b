"""``python -m rolls.engine < requests.jsonl > answers.jsonl`` (ENGINE.md)."""

import io
import sys

from .protocol import serve


def main() -> int:
    # Decode leniently so one bad byte costs one line, not the whole run; a BOM is not a request.
    lines = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8-sig", errors="replace")
    # A lone surrogate echoed in an error message becomes a JSON escape instead of a crash.
    out = io.TextIOWrapper(
        sys.stdout.buffer, encoding="utf-8", errors="backslashreplace", newline="\n"
    )
    try:
        return serve(lines, out)
    finally:
        out.flush()


if __name__ == "__main__":
    sys.exit(main())
