"""The chat box beside the log (``rolls/chat/_say.html``)."""

from __future__ import annotations

import uuid
from typing import Any

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from config.member_text import steers_direction
from rolls.chat.commands import INLINE, MAX_INLINE
from rolls.chat.forms import LINE_MAX, SayForm

register = template.Library()


@register.simple_tag(takes_context=True)
def say_box(context, campaign) -> SayForm:
    """An empty box for the page's viewer: whom they may write to, who they may speak as."""
    return SayForm(campaign=campaign, user=context["request"].user)


@register.simple_tag
def say_key() -> str:
    """A fresh idempotency key for each rendering of the box: a double click sends once."""
    return str(uuid.uuid4())


@register.simple_tag
def line_max() -> int:
    return LINE_MAX


@register.simple_tag
def inline_max() -> int:
    """The most rolls one line makes in place (``[[...]]``)."""
    return MAX_INLINE


def _dice_words(dice: list[Any]) -> str:
    """An inline roll's dice, as its tooltip says them: "15" or "5, 5, 4, 1 dropped"."""
    said = []
    for die in dice:
        if not isinstance(die, dict):
            continue
        face = die.get("face")
        said.append(str(face) if die.get("kept", True) else _("%(face)s dropped") % {"face": face})
    return ", ".join(said)


@register.filter
def chat_line(entry: dict[str, Any]) -> SafeString:
    """A chat entry's text with each roll of it in place (``[[1d20+2]]``): its total, and its
    expression and dice in a tooltip that hover and keyboard focus both show (the tooltip's
    text is in the line, so a screen reader reads it too). A ``/me`` line starts with its
    speaker's name: an action, not speech."""
    params = entry.get("params") or {}
    text = str(params.get("text", ""))
    answer = entry.get("result") if isinstance(entry.get("result"), dict) else {}
    results = answer.get("inline") if isinstance(answer.get("inline"), list) else []
    dice = entry.get("dice") if isinstance(entry.get("dice"), list) else []
    pieces: list[Any] = []
    at = used = 0
    for index, found in enumerate(INLINE.finditer(text)):
        pieces.append(conditional_escape(text[at : found.start()]))
        at = found.end()
        rolled = results[index] if index < len(results) else None
        if not isinstance(rolled, dict):  # a line logged before its rolls were: as typed
            pieces.append(conditional_escape(found.group(0)))
            continue
        count = rolled.get("dice_rolled") if isinstance(rolled.get("dice_rolled"), int) else 0
        its_dice, used = dice[used : used + count], used + count
        tip = f"inline-{entry.get('session_id')}-{entry.get('seq')}-{index}"
        pieces.append(
            format_html(
                '<span class="inline-roll" tabindex="0" aria-describedby="{}">'
                '<span class="inline-total">{}</span>'
                '<span class="inline-dice" role="tooltip" id="{}"> ({}: {})</span></span>',
                tip, rolled.get("total"), tip, rolled.get("expression"), _dice_words(its_dice),
            )
        )  # fmt: skip
    pieces.append(conditional_escape(text[at:]))
    line = mark_safe("".join(str(piece) for piece in pieces))  # noqa: S308 (each piece escaped)
    if params.get("action"):
        name = entry.get("character_name") or entry.get("actor_name") or ""
        line = format_html('<span class="chat-actor">{}</span> {}', name, line)
    return format_html("<bdi>{}</bdi>", line) if steers_direction(text) else line
