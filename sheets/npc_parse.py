"""Quick entry of NPC trait lists, the way the FastTest seed writes them.

``Troll: wielki 3k, paskudny 3k, śmierdzący 4k, regeneracja 2k, głodny, głupawy``

- The NPC's name comes before the first colon; the traits after it, separated by commas (a
  semicolon works too). Empty items (a trailing comma) are ignored.
- A trait's level is the number at its end, written ``3k``, ``3K``, ``3 k``, ``3``, ``(3)``,
  ``(3k)``, or ``3d`` / ``3 d`` for those who say dice. A trait without a number is 1 (the seed).
- Levels are 1..20. Anything else gets a message naming the trait and what to write instead,
  and nothing is created. Several NPCs may be entered at once, one per line.

Pure functions: no database, no request; only the messages go through gettext.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext as _

LEVEL_MIN = 1
LEVEL_MAX = 20
NAME_MAX = 120
TRAIT_NAME_MAX = 60
TRAITS_MAX = 30
LINES_MAX = 50

# The level at the end of a trait: "3k", "3 K", "3", "(3)", "( 3 k )", "3d".
_TRAILING_LEVEL = re.compile(
    r"""^(?P<name>.*?)\s*(?:
        \(\s*(?P<paren>\d+)\s*[kKdD]?\s*\)
        | (?<!\S)(?P<bare>\d+)(?:\s*[kKdD])?
    )$""",
    re.VERBOSE,
)
# A level written inside a name: most likely a comma is missing after it.
_INNER_LEVEL = re.compile(r"(?<!\S)(?:\d+\s?[kKdD]|\(\s*\d+\s*[kKdD]?\s*\))(?!\S)")
_SEPARATORS = re.compile(r"[,;]")


class NPCParseError(ValueError):
    """Every problem found in the text, each a sentence a GM can act on."""

    def __init__(self, messages: list[str]) -> None:
        super().__init__(" ".join(messages))
        self.messages = messages


@dataclass(frozen=True)
class ParsedNPC:
    name: str
    traits: tuple[tuple[str, int], ...]

    def as_traits(self) -> list[dict[str, object]]:
        """The shape of ``NPC.traits``."""
        return [{"name": name, "dice": dice} for name, dice in self.traits]


def _trait(index: int, raw: str) -> tuple[tuple[str, int] | None, str | None]:
    text = " ".join(raw.split())
    where = _("Trait %(number)s ('%(text)s')") % {"number": index, "text": text}
    match = _TRAILING_LEVEL.match(text)
    if match:
        name = match["name"].strip()
        level = int(match["paren"] or match["bare"])
    else:
        name, level = text, 1
        number = re.search(r"\d+", text.rsplit(" ", 1)[-1])
        if number:
            digits = int(number.group(0))
            example = digits if LEVEL_MIN <= digits <= LEVEL_MAX else 2
            return None, _(
                "%(where)s: the level must be a number followed by k, like %(example)sk."
            ) % {"where": where, "example": example}
    if not name:
        return None, _("%(where)s: the trait needs a name before its level.") % {"where": where}
    inner = _INNER_LEVEL.search(name)
    if inner:
        return None, _(
            "%(where)s: the level goes at the end of a trait; is a comma missing after '%(level)s'?"
        ) % {"where": where, "level": inner.group(0)}
    if not LEVEL_MIN <= level <= LEVEL_MAX:
        return None, _("%(where)s: the level must be from %(min)s to %(max)s.") % {
            "where": where,
            "min": LEVEL_MIN,
            "max": LEVEL_MAX,
        }
    if len(name) > TRAIT_NAME_MAX:
        return None, _("%(where)s: a trait name has at most %(max)s characters.") % {
            "where": where,
            "max": TRAIT_NAME_MAX,
        }
    return (name, level), None


def parse_npc_line(line: str) -> ParsedNPC:
    """One NPC from ``Name: trait 3k, trait, ...``; raises ``NPCParseError`` with every problem."""
    if ":" not in line:
        raise NPCParseError(
            [_("Write the name before a colon, like 'Troll: huge 3k, nasty 3k, hungry'.")]
        )
    raw_name, raw_traits = line.split(":", 1)
    name = " ".join(raw_name.split())
    errors: list[str] = []
    if not name:
        errors.append(_("The NPC needs a name before the colon."))
    elif len(name) > NAME_MAX:
        errors.append(_("The name has at most %(max)s characters.") % {"max": NAME_MAX})
    items = [item for item in _SEPARATORS.split(raw_traits) if item.strip()]
    if not items:
        errors.append(_("List at least one trait after the colon, like 'huge 3k'."))
    elif len(items) > TRAITS_MAX:
        errors.append(_("An NPC has at most %(max)s traits.") % {"max": TRAITS_MAX})
    traits: list[tuple[str, int]] = []
    seen: dict[str, int] = {}
    for index, item in enumerate(items, start=1):
        trait, error = _trait(index, item)
        if error:
            errors.append(error)
            continue
        key = trait[0].casefold()
        if key in seen:
            errors.append(
                _("Trait %(number)s ('%(name)s') repeats trait %(other)s; give it once.")
                % {"number": index, "name": trait[0], "other": seen[key]}
            )
            continue
        seen[key] = index
        traits.append(trait)
    if errors:
        raise NPCParseError(errors)
    return ParsedNPC(name=name, traits=tuple(traits))


def parse_npc_lines(text: str) -> list[ParsedNPC]:
    """One NPC per non-blank line; any problem on any line and none are returned.

    With several lines, each message starts with its line number.
    """
    lines = [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise NPCParseError([_("Type an NPC, like 'Troll: huge 3k, nasty 3k, hungry'.")])
    if len(lines) > LINES_MAX:
        raise NPCParseError(
            [_("At most %(max)s NPCs at once; split the list.") % {"max": LINES_MAX}]
        )
    npcs: list[ParsedNPC] = []
    errors: list[str] = []
    for number, line in lines:
        try:
            npcs.append(parse_npc_line(line))
        except NPCParseError as error:
            if len(lines) == 1:
                errors.extend(error.messages)
            else:
                errors.extend(
                    _("Line %(number)s: %(message)s") % {"number": number, "message": message}
                    for message in error.messages
                )
    if errors:
        raise NPCParseError(errors)
    return npcs


def format_npc_line(name: str, traits: list[dict[str, object]]) -> str:
    """The quick-entry line of an NPC, as the seed writes it: a level of 1 is left out."""
    parts = []
    for trait in traits if isinstance(traits, list) else []:
        if not isinstance(trait, dict):
            continue
        dice = trait.get("dice", 1)
        parts.append(f"{trait.get('name', '')} {dice}k" if dice != 1 else str(trait.get("name")))
    return f"{name}: {', '.join(parts)}"
