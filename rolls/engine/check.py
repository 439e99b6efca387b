"""Check a session's JSON export offline: ``python3 -m rolls.engine check export.json``.

Once a session has ended its export carries the seed. For every entry the reader may see, the
checker recomputes the dice the entry drew from the stream of (seed, seq, nonce) and compares
every face with the log; an entry that is not a follow-up is rolled again from its params with
the ``draw`` op, so its faces and its whole result must come out exactly as logged. A follow-up
(a re-roll, a boost) keeps some of its parent's dice: each of its dice must be one it drew or one
of its parent's; an entry that settles others (a group test's result) also reads the dice of the
entries its result names. Quick dice and a group test's dice are rolled as expressions, whatever
the campaign's system (``dice.EXPRESSION_KINDS``). Nothing here trusts the server: it is
ENGINE.md's derivation, from the export.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import tables
from .chat import KIND as CHAT
from .core import EngineError
from .dice import EXPRESSION_KINDS
from .fair import FairDice, commitment, seed_bytes
from .note import NOTE_KINDS
from .protocol import draw
from .registry import system_module


@dataclass
class Report:
    """What the check found: entries that match, those that do not (and why), those skipped."""

    matched: list[int] = field(default_factory=list)
    mismatched: list[tuple[int, str]] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    hidden: int = 0  # entries the export's reader may not see: no dice to check
    # Real dice rolled at the table and typed in: nothing drawn, so nothing to prove or refute.
    typed: list[int] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and not self.mismatched

    def lines(self) -> list[str]:
        out = list(self.problems)
        out += [f"#{seq}: matches" for seq in self.matched]
        out += [f"#{seq}: MISMATCH: {why}" for seq, why in self.mismatched]
        out += [f"#{seq}: not checked: {why}" for seq, why in self.skipped]
        out += [f"#{seq}: typed: real dice rolled at the table, not drawn" for seq in self.typed]
        total = len(self.matched) + len(self.mismatched)
        verdict = "every checked entry matches" if self.ok else "the dice do NOT check out"
        typed = f", {len(self.typed)} typed (real dice)" if self.typed else ""
        out.append(
            f"{len(self.matched)} of {total} entries match, {len(self.skipped)} not checkable"
            f"{typed}, {self.hidden} hidden from this export's reader: {verdict}."
        )
        return out


def check_document(document: Any) -> Report:
    """Check a decoded export (see the module's docstring)."""
    report = Report()
    if not isinstance(document, Mapping) or not isinstance(document.get("entries"), list):
        report.problems.append("This is not a session export: it has no list of 'entries'.")
        return report
    fair = document.get("fair")
    fair = fair if isinstance(fair, Mapping) else {}
    seed, claimed = fair.get("seed"), fair.get("commitment")
    if not seed:
        report.problems.append(
            "The export holds no seed: the session has not ended yet, so nothing can be checked."
        )
        return report
    try:
        seed_bytes(seed)
    except EngineError as error:
        report.problems.append(str(error))
        return report
    if claimed != commitment(seed):
        report.problems.append(
            "The seed does not match the commitment shown during the session: SHA-256 of the "
            "seed is not the commitment."
        )
    report.hidden = sum(
        1 for entry in document["entries"] if isinstance(entry, Mapping) and entry.get("redacted")
    )
    # Each entry by its seq as the export holds it (checked against the faces, not trusted).
    by_seq: dict[Any, Mapping[str, Any]] = {
        entry.get("seq"): entry
        for entry in document["entries"]
        if isinstance(entry, Mapping) and not entry.get("redacted")
    }
    for seq, entry in by_seq.items():
        if entry.get("typed") is True:
            report.typed.append(seq)
            continue
        if not entry.get("nonce"):
            report.skipped.append((seq, "logged before fair dice, without a nonce"))
            continue
        try:
            why = _check_entry(seed, entry, _built_on(entry, by_seq))
        except (EngineError, KeyError, TypeError, ValueError) as error:
            why = f"the entry cannot be read ({error})"
        if why:
            report.mismatched.append((seq, why))
        else:
            report.matched.append(seq)
    return report


#: Where a result names the entries whose dice it reads besides its parent (rolls.group).
_READS = ("seqs", "reroll_seqs")


def _built_on(
    entry: Mapping[str, Any], by_seq: Mapping[Any, Mapping[str, Any]]
) -> list[Mapping[str, Any]] | None:
    """The entries whose dice a follow-up may show without drawing them: its parent and those
    its result names; None when one of them is hidden from the export's reader."""
    if entry.get("parent_seq") is None:
        return []
    result = entry.get("result")
    result = result if isinstance(result, Mapping) else {}
    named = [seq for key in _READS for seq in result.get(key, [])]
    seqs = [entry["parent_seq"], *(seq for seq in named if seq != entry["parent_seq"])]
    found = [by_seq[seq] for seq in seqs if seq in by_seq]
    return found if len(found) == len(seqs) else None


def _check_entry(
    seed: str, entry: Mapping[str, Any], built_on: list[Mapping[str, Any]] | None
) -> str:
    """'' when the entry checks out, else a sentence saying what differs."""
    drawn = [(int(sides), int(face)) for sides, face in entry.get("drawn", [])]
    stream = FairDice(seed, entry["seq"], entry["nonce"])
    for index, (sides, face) in enumerate(drawn, start=1):
        expected = stream.die(sides)
        if face != expected:
            return f"die {index} (d{sides}) is logged as {face}, the stream gives {expected}"
    logged = Counter((int(die["sides"]), int(die["face"])) for die in entry.get("dice", []))
    missing = Counter(drawn) - logged
    if missing:
        (sides, face), _n = next(iter(missing.items()))
        return f"a d{sides} drawn as {face} is not among the entry's dice"
    # A GM's table roll is rolled again from the table it logged, even after another roll.
    table = entry.get("kind") == "table"
    if entry.get("parent_seq") is None or table:
        module = tables if table else _engine(entry)
        answer = draw(module, entry["params"], seed, entry["seq"], entry["nonce"])
        answer = json.loads(json.dumps(answer))  # tuples as lists, as in the export
        faces = answer.pop("faces")
        if faces != entry.get("faces"):
            return f"the faces are logged as {entry.get('faces')}, the stream gives {faces}"
        if answer != entry.get("result"):
            return "the result logged is not the one these faces give"
        if sum(logged.values()) != len(drawn):
            return "the entry shows dice that were not drawn"
        return ""
    others = logged - Counter(drawn)
    if built_on is not None:
        kept = Counter(
            (int(die["sides"]), int(die["face"])) for read in built_on for die in read["dice"]
        )
        if others - kept:
            return (
                "the entry shows dice that were neither drawn nor kept from the entries it follows"
            )
    return ""


def _engine(entry: Mapping[str, Any]) -> Any:
    """Quick dice and a group test's dice are expressions whatever the campaign's system; a
    condition's entry draws no dice; a test is its system's."""
    if entry.get("kind") == CHAT:  # a line of chat: its dice rolled in place, if any
        return system_module("chat")
    if entry.get("kind") in NOTE_KINDS:  # a condition added or cleared: no dice, no rules
        return system_module("note")
    return system_module("dice" if entry.get("kind") in EXPRESSION_KINDS else entry["system"])


def check_file(path: str) -> Report:
    with open(path, encoding="utf-8-sig") as handle:
        return check_document(json.load(handle))
