"""A line of chat into the session's log (``record_note``: seq, visibility, broadcast, replay)."""

from __future__ import annotations

import uuid
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.models import Campaign, GameSession
from rolls import labels
from rolls.actions import ActionRefused, RollSpec, record_roll
from rolls.engine import chat as chat_engine
from rolls.labels import words
from rolls.models import Roll, Visibility

#: The log's kind of a chat line.
CHAT = chat_engine.KIND

# How the log and the exports read a line: its kind, and its text with whom it was for.
labels.register(
    kinds={CHAT: gettext_lazy("chat")},
    words={
        # ``/me``: an action, not speech; the log reads "*Brunhilda* draws her sword".
        "chat_action": gettext_lazy("*%(name)s* %(text)s"),
        "chat_said": "%(text)s",
        "chat_to_gm": gettext_lazy("to the GM: %(text)s"),
        "chat_note": gettext_lazy("note to self: %(text)s"),
        "chat_whispered": gettext_lazy("whispered to %(name)s: %(text)s"),
    },
)


def _label(text: str | dict[str, Any], visibility: str, recipient) -> dict[str, Any]:
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
    action: bool = False,
    inline: list[str] | None = None,
    nonce: str | None = None,
) -> tuple[Roll, bool]:
    """Log ``text`` in the open session from ``actor`` (as ``character`` or ``npc`` where
    given), for whom ``visibility`` and ``recipient`` say; ``action``: a ``/me``, what the
    speaker does. The dice expressions of ``inline`` (``[[...]]`` in the text, in order) are
    rolled with the line's entry from the session's fair stream (``nonce``: the page's), so
    they are seen by whom the line is for. A repeated ``key`` answers with the line it made,
    never a second one."""
    if (visibility == Visibility.WHISPER) != (recipient is not None):
        raise ActionRefused(_("A whisper is for one member of the table."))
    session = GameSession.objects.open_of(campaign.pk)
    if session is None:
        raise ActionRefused(_("No game session is running; the GM starts one."))
    facts: dict[str, Any] = {"note": CHAT, "text": text}
    if recipient is not None:
        facts |= {"to": recipient.pk, "to_name": recipient.get_username()}
    if action:
        facts["action"] = True
    if inline:
        facts["inline"] = list(inline)
    speaker = character or npc
    said = words("chat_action", name=speaker.name if speaker else actor.get_username(), text=text)
    return record_roll(
        RollSpec(
            params=facts,
            kind=CHAT,
            engine=chat_engine,
            session=session,
            actor=actor,
            system=campaign.system,
            key=key,
            label=_label(said if action else text, visibility, recipient),
            visibility=visibility,
            recipient=recipient,
            character=character,
            npc=npc,
            nonce=nonce,
        )
    )
