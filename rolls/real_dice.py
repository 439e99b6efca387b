"""Real dice typed into a test panel (docs/rules-decisions.md, "Real dice"): which dice the test
asks for, one box per die, and the faces typed, read and refused with a sentence naming the die.

The faces go to the system's own ``roll`` through ``rolls.engine.typed.TypedDice``, so typed dice
are resolved exactly as drawn ones: the same odds shown before, the same result, the same sheet
changes and follow-ups after. Who may type them is the campaign's (``campaigns.real_dice``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from campaigns.actions import ActionRefused
from campaigns.systems import get_system
from rolls.engine import EngineError
from rolls.engine.typed import dice_needed
from rolls.panels import posted

#: The panel's fields: the box "I rolled real dice" and one face per die, in the test's order.
FLAG, FACE = "real_dice", "real_face"


@dataclass(frozen=True)
class Test:
    """A test's dice as ``faces`` and ``boxes`` read them where there is no panel (an NPC's
    test on the GM's dashboard): its system and params, ready."""

    system: str
    params: dict[str, Any]
    ready: bool = True


@dataclass(frozen=True)
class Box:
    """One die's box on the panel: its place (1...), its sides, what was typed in it."""

    number: int
    sides: int
    value: str


def asked(choices) -> bool:
    """Whether a request says its dice are real ones (the box ticked, or faces sent)."""
    choices = posted(choices)
    return choices.get(FLAG) not in (None, "", "0") or bool(typed_text(choices))


def typed_text(choices) -> list[str]:
    """What was typed in each die's box, in order."""
    return [str(value).strip() for value in posted(choices).getlist(FACE)]


def without_faces(choices):
    """The choices with the faces typed taken out (the box stays ticked), after a roll."""
    rest = posted(choices).copy()
    rest.pop(FACE, None)
    return rest


def _whole(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 4 else None


def _needed(panel, faces: list[int | None]) -> list[int]:
    engine = get_system(panel.system).engine
    return dice_needed(engine.roll, engine.parse_params(panel.params), faces)


def boxes(panel, choices) -> list[Box]:
    """A box per die the ready ``panel`` asks for, with what was typed so far (a high face may
    ask for more dice: T10's explosions); [] where the test's dice cannot be told."""
    text = typed_text(choices)
    try:
        needed = _needed(panel, [_whole(value) for value in text])
    except EngineError:
        return []
    return [
        Box(number, sides, text[number - 1] if number <= len(text) else "")
        for number, sides in enumerate(needed, start=1)
    ]


def faces(panel, text: list[str]) -> list[int]:
    """The faces typed for the ready ``panel``, one per die it rolls, or ``ActionRefused`` with
    a sentence naming the first die that is missing or not on its die, or the extra dice."""
    try:
        first = _needed(panel, [])
        needed = _needed(panel, [_whole(value) for value in text])
    except EngineError as error:
        raise ActionRefused(str(error)) from error
    for number, sides in enumerate(needed, start=1):
        value = text[number - 1] if number <= len(text) else ""
        words = {"number": number, "sides": sides, "value": value[:10]}
        if not value:
            if number > len(first):
                raise ActionRefused(
                    _(
                        "Die %(number)s (d%(sides)s) is missing: your faces call for more dice "
                        "(an explosion); roll it and type its face too."
                    )
                    % words
                )
            raise ActionRefused(_("Die %(number)s (d%(sides)s) is missing: type its face.") % words)
        face = _whole(value)
        if face is None or not 1 <= face <= sides:
            raise ActionRefused(
                _("Die %(number)s (d%(sides)s) shows 1 to %(sides)s, not “%(value)s”.") % words
            )
    if len(text) > len(needed):
        raise ActionRefused(
            _("%(typed)s dice were typed, but this test rolls %(needed)s; look at it again.")
            % {"typed": len(text), "needed": len(needed)}
        )
    return [int(value) for value in text]


def panel_context(panel, choices, allowed: bool) -> dict[str, Any]:
    """What the panel shows of real dice: whether it offers them, whether the box is ticked,
    and a box per die."""
    if not allowed or not panel.ready:
        return {"real_dice": None}
    return {"real_dice": {"on": asked(choices), "boxes": boxes(panel, choices)}}
