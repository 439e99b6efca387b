"""A line of chat into the session's log (``record_note``: seq, visibility, broadcast, replay)."""

from __future__ import annotations

import uuid
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.models import Campaign, GameSession
from rolls import labels
from rolls.actions import ActionRefused, record_note
from rolls.labels import words
from rolls.models import Roll, Visibility

#: The log's kind of a chat line.
CHAT = "chat"

# How the log and the exports read a line: its kind, and its text with whom it was for.
labels.register(
    kinds={CHAT: gettext_lazy("chat")},
    words={
        "chat_said": "%(text)s",
        "chat_to_gm": gettext_lazy("to the GM: %(text)s"),
        "chat_note": gettext_lazy("note to self: %(text)s"),
        "chat_whispered": gettext_lazy("whispered to %(name)s: %(text)s"),
    },
)


def _label(text: str, visibility: str, recipient) -> dict[str, Any]:
    if visibility == Visibility.WHISPER:
        return words("chat_whispered", name=recipient.get_username(), text=text)
    if visibility == Visibility.SECRET:
        return words("chat_to_gm", text=text)
    if visibility == Visibility.HIDDEN:
        return words("chat_note", text=text)
    return words("chat_said", text=text)


def say(
    *,
    campaign: Campaign,
    actor,
    text: str,
    key: uuid.UUID,
    visibility: str = Visibility.PUBLIC,
    recipient=None,
    character=None,
    npc=None,
) -> tuple[Roll, bool]:
    """Log ``text`` in the open session from ``actor`` (as ``character`` or ``npc`` where
    given), for whom ``visibility`` and ``recipient`` say. A repeated ``key`` answers with the
    line it made, never a second one."""
    if (visibility == Visibility.WHISPER) != (recipient is not None):
        raise ActionRefused(_("A whisper is for one member of the table."))
    session = GameSession.objects.open_of(campaign.pk)
    if session is None:
        raise ActionRefused(_("No game session is running; the GM starts one."))
    facts = {"text": text}
    if recipient is not None:
        facts |= {"to": recipient.pk, "to_name": recipient.get_username()}
    return record_note(
        kind=CHAT,
        facts=facts,
        session=session,
        actor=actor,
        system=campaign.system,
        key=key,
        label=_label(text, visibility, recipient),
        visibility=visibility,
        recipient=recipient,
        character=character,
        npc=npc,
    )
