"""The chat box as posted: the line, whom it is for, who speaks, the request's key."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.models import Campaign, Membership
from config.text import TextField
from rolls.chat import commands
from rolls.engine.note import MAX_TEXT
from rolls.forms import RollKey, Text
from rolls.models import Visibility
from sheets.models import NPC, Character

#: The longest line: what one log entry's note carries (``rolls.engine.note.MAX_TEXT``).
LINE_MAX = MAX_TEXT
EVERYONE, GM_ONLY = "all", "gm"


class SayForm(forms.Form):
    """One line of chat. ``to`` is ``all``, ``gm`` or ``u<id>`` of another member; ``speaker``
    is "" (the member), ``c<id>`` of one of the player's characters or ``n<id>`` of one of the
    GM's NPCs. The choices are the table as it is now: a member who left, another player's
    character or a forged id is refused with a sentence, nothing is sent."""

    text = TextField(
        label=gettext_lazy("Message"),
        max_length=LINE_MAX,
        error_messages={
            "required": gettext_lazy("Write something first."),
            "max_length": gettext_lazy("A line holds at most %(limit_value)d characters."),
        },
    )
    to = forms.ChoiceField(label=gettext_lazy("To"))
    speaker = forms.ChoiceField(label=gettext_lazy("As"), required=False)
    key = RollKey(required=False)
    # The page's nonce for the dice the line rolls (``[[...]]``, ``/r``): rolls.engine.fair.
    nonce = Text()
    next = Text()

    def __init__(self, *args, campaign: Campaign | None = None, user=None, **kwargs) -> None:
        kwargs.setdefault("auto_id", "say-%s")
        super().__init__(*args, **kwargs)
        self.campaign, self.user = campaign, user
        self.typed: commands.Typed | None = None  # the line as read (``clean``)
        self.named = None  # the member a ``/w`` names
        if campaign is None:
            # Only to look the form's fields over (the text rule's test): no one to write to.
            self.members, self.speakers, self.is_gm = {}, {}, False
            return
        self.is_gm = campaign.is_gm(user)
        self.members = {
            m.user_id: m.user
            for m in Membership.objects.filter(campaign=campaign).select_related("user")
            if m.user_id != user.pk
        }
        gm_only = _("to me only (a note)") if self.is_gm else _("to the GM only")
        self.fields["to"].choices = [(EVERYONE, _("to everyone")), (GM_ONLY, gm_only)] + [
            (f"u{pk}", _("whisper to %(name)s") % {"name": member.get_username()})
            for pk, member in sorted(self.members.items(), key=lambda m: m[1].get_username())
            if pk != campaign.gm_id
        ]
        self.speakers = self._speakers()
        # Each choice says what it is: the select beside "to" has no room for a label.
        self.fields["speaker"].choices = [("", _("as %(name)s") % {"name": user.get_username()})]
        self.fields["speaker"].choices += [
            (key, _("as %(name)s") % {"name": who.name}) for key, who in self.speakers.items()
        ]
        message = _("That person or character is not at this table now; reload the page.")
        for name in ("to", "speaker"):
            self.fields[name].error_messages["invalid_choice"] = message

    def _speakers(self) -> dict[str, Character | NPC]:
        """Who the member may speak as: a player their characters, the GM the NPCs."""
        if self.is_gm:
            return {f"n{npc.pk}": npc for npc in NPC.objects.filter(campaign=self.campaign)}
        mine = Character.objects.filter(campaign=self.campaign, owner=self.user)
        return {f"c{character.pk}": character for character in mine}

    def clean_text(self) -> str:
        text = " ".join(self.cleaned_data["text"].split())
        if not text:
            raise forms.ValidationError(_("Write something first."))
        return text

    def clean(self) -> dict[str, Any]:
        """The line's command (``rolls.chat.commands``): a refusal is the text's, so the box
        marks it and keeps it as typed."""
        cleaned = super().clean()
        if "text" not in cleaned:
            return cleaned
        try:
            self.typed = commands.read(cleaned["text"])
            if self.typed.kind == commands.WHISPER:
                self.named = self._named(self.typed.name)
        except forms.ValidationError as error:
            self.add_error("text", error)
        return cleaned

    def _named(self, name: str):
        """The member a ``/w`` names (their username, whatever its case); the GM is spoken to
        as "to the GM only" is."""
        if name.casefold() == self.user.get_username().casefold():
            raise forms.ValidationError(
                _("“%(name)s” is you: a whisper is for another member of the table.")
                % {"name": name}
            )
        for member in self.members.values():
            if member.get_username().casefold() == name.casefold():
                return member
        others = sorted(member.get_username() for member in self.members.values())
        if not others:
            raise forms.ValidationError(
                _("Nobody at this table is called “%(name)s”, and nobody else is at it yet.")
                % {"name": name}
            )
        raise forms.ValidationError(
            _("Nobody at this table is called “%(name)s”; whisper to one of: %(names)s.")
            % {"name": name, "names": ", ".join(others)}
        )

    def is_roll(self) -> bool:
        """Whether the line is ``/r``: quick dice, not a line of chat."""
        return self.typed is not None and self.typed.kind == commands.ROLL

    def roll_visibility(self) -> str | None:
        """Who sees a ``/r`` roll, as the quick-dice box says it (``quick_dice.visibilities``):
        the table, or the GM only as the box's "to" says; None for a whisper, which a roll
        cannot be."""
        to = self.cleaned_data["to"]
        if to == EVERYONE:
            return Visibility.PUBLIC
        if to == GM_ONLY:
            return Visibility.HIDDEN if self.is_gm else Visibility.SECRET
        return None

    def line(self) -> dict[str, Any]:
        """The clean line as ``rolls.chat.actions.say`` takes it: a command decides whom it is
        for over the box's "to"."""
        to = self.cleaned_data["to"]
        typed = self.typed
        assert typed is not None  # a valid form has read its line
        recipient = self.members[int(to[1:])] if to.startswith("u") else None
        if typed.kind == commands.WHISPER:
            recipient = self.named if self.named.pk != self.campaign.gm_id else None
            to = "u" if recipient is not None else GM_ONLY
        elif typed.kind == commands.GM:
            recipient, to = None, GM_ONLY
        if recipient is not None:
            visibility = Visibility.WHISPER
        elif to == GM_ONLY:
            visibility = Visibility.HIDDEN if self.is_gm else Visibility.SECRET
        else:
            visibility = Visibility.PUBLIC
        speaker = self.speakers.get(self.cleaned_data.get("speaker") or "")
        return {
            "text": typed.text,
            "action": typed.kind == commands.ME,
            "inline": [params.expression for params in typed.inline],
            "visibility": visibility,
            "recipient": recipient,
            "character": speaker if isinstance(speaker, Character) else None,
            "npc": speaker if isinstance(speaker, NPC) else None,
        }
