"""``python -m rolls.engine < requests.jsonl > answers.jsonl`` (ENGINE.md), and
``python -m rolls.engine check export.json``: check a session's JSON export offline."""

import io
import sys

from .protocol import serve

USAGE = (
    "usage: python3 -m rolls.engine < requests.jsonl\n"
    "       python3 -m rolls.engine check export.json\n"
)


def check(paths: list[str]) -> int:
    from .check import check_file

    if len(paths) != 1:
        sys.stderr.write(USAGE)
        return 2
    try:
        report = check_file(paths[0])
    except OSError as error:
        sys.stderr.write(f"Cannot read {paths[0]}: {error.strerror}.\n")
        return 2
    except ValueError:
        sys.stderr.write(f"{paths[0]} is not a JSON file.\n")
        return 2
    sys.stdout.write("\n".join(report.lines()) + "\n")
    return 0 if report.ok else 1


def main() -> int:
    if len(sys.argv) > 1:
        if sys.argv[1] == "check":
            return check(sys.argv[2:])
        sys.stderr.write(USAGE)
        return 2
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
