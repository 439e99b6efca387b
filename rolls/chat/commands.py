"""What people type in Roll20 and Discord, read from the chat box's line (issue 40 item 2).

``/r 2d6+3`` (``/roll``) rolls quick dice, ``/w name text`` whispers to a member, ``/gm text``
speaks to the GM only, ``/me text`` is an action of the speaker's; any other ``/word`` is
refused with the list of commands. ``[[1d20+2]]`` anywhere in a line is rolled in place, with the
line's own entry (``rolls.engine.chat``). Each refusal is a sentence naming what is wrong; the
box keeps what was typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from rolls.engine import chat as chat_engine
from rolls.engine import dice
from rolls.engine.core import MAX_DICE
from rolls.engine.note import MAX_TEXT
from rolls.tables.quick_dice import refusal_words

SAY, ROLL, WHISPER, GM, ME = "say", "roll", "whisper", "gm", "me"
#: Each command as typed (lower case) and what it does.
COMMANDS = {"r": ROLL, "roll": ROLL, "w": WHISPER, "gm": GM, "me": ME}
#: A dice expression rolled in place (``rolls.engine.chat``), and the most one line rolls.
INLINE, MAX_INLINE = chat_engine.INLINE, chat_engine.MAX_INLINE
_COMMAND = re.compile(r"/(\S*)\s*(.*)", re.DOTALL)


@dataclass
class Typed:
    """A line as read: what it does (``kind``), its text without the command, the member a
    ``/w`` names, and the expressions it rolls in place (``[[...]]``), in order."""

    kind: str
    text: str
    name: str = ""
    inline: list[dice.Params] = field(default_factory=list)


def commands_list() -> str:
    return _("/r or /roll dice, /w name (a whisper), /gm (for the GM alone), /me (an action)")


def read(line: str) -> Typed:
    """The command of ``line`` (already stripped), or a ValidationError that says what is
    wrong with it."""
    found = _COMMAND.fullmatch(line) if line.startswith("/") else None
    if found is None:
        return _with_rolls(Typed(SAY, line))
    typed, rest = found.group(1), found.group(2).strip()
    kind = COMMANDS.get(typed.lower())
    if kind is None:
        raise ValidationError(
            _("“/%(command)s” is not a command here; the commands are: %(commands)s.")
            % {"command": typed, "commands": commands_list()}
        )
    if kind == ROLL:
        return Typed(ROLL, rest)
    if kind == WHISPER:
        name, _space, text = rest.partition(" ")
        if not name:
            raise ValidationError(_("Say whom to whisper to: /w name text."))
        if not text.strip():
            raise ValidationError(
                _("Write what to whisper after the name: /w %(name)s text.") % {"name": name}
            )
        return _with_rolls(Typed(WHISPER, text.strip(), name=name))
    if not rest:
        raise ValidationError(_("Write something after /%(command)s.") % {"command": typed})
    return _with_rolls(Typed(kind, rest))


def _with_rolls(typed: Typed) -> Typed:
    """``typed`` with the expressions its text rolls in place: at most ``MAX_INLINE``, each one
    the quick-dice box would roll, all of them within one roll's dice, and the line written out
    with its results (``written_out``) still within a line's length."""
    found = INLINE.findall(typed.text)
    if "[[" in INLINE.sub("", typed.text):
        raise ValidationError(
            _("A “[[” has no “]]” to close it; a roll in the line reads [[1d20+2]].")
        )
    if len(found) > MAX_INLINE:
        raise ValidationError(
            _("A line rolls at most %(max)s dice expressions in [[...]]; this one has %(count)s.")
            % {"max": MAX_INLINE, "count": len(found)}
        )
    for text in found:
        try:
            typed.inline.append(dice.parse_expression(text))
        except dice.ExpressionError as error:
            raise ValidationError(f"[[{text}]]: {refusal_words(error)}") from error
    needed = sum(params.dice_needed for params in typed.inline)
    if needed > MAX_DICE:
        raise ValidationError(
            _("The line's rolls may need %(needed)s dice (explosions counted); at most %(max)s "
              "dice can be rolled at once.") % {"needed": needed, "max": MAX_DICE}
        )  # fmt: skip
    longest = len(typed.text) + sum(
        len(" = ") + len(params.expression) - len(text) + chat_engine.widest_total(params)
        for text, params in zip(found, typed.inline, strict=True)
    )
    if longest > MAX_TEXT:
        raise ValidationError(
            _("With each roll's result written in, this line could reach %(length)s characters; "
              "a line holds at most %(max)s. Shorten it by %(over)s.")
            % {"length": longest, "max": MAX_TEXT, "over": longest - MAX_TEXT}
        )  # fmt: skip
    return typed
