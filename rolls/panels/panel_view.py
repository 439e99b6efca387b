"""What a character's test panel shows one request: the GM's call it opens on, the panel
built from the choices, and after a roll the entry and what may follow it (``PanelView``); and
the panel as a page opens it (``panel_on_load``). The views that answer with it are in
``rolls.panels.views``."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from campaigns.models import GameSession
from campaigns.real_dice import may_type_dice
from campaigns.systems import Words, get_system
from rolls import real_dice, roll_options
from rolls.log.reading import entry_for
from rolls.log.rendered import entry_html
from rolls.models import PendingTest, Roll, Visibility
from rolls.opposed.actions import initiator_only as opposed_initiator_only
from rolls.opposed.readers_views import panel_view as opposed_panel_view
from rolls.opposed.readers_views import settle_view as opposed_settle_view
from rolls.opposed.settle import settled_in_turn as opposed_settled_in_turn
from rolls.panels import Panel, follow_ups_after, posted, with_target
from rolls.panels.requests import asked_for
from rolls.pending.actions import pending_view


def visibilities(campaign, user) -> list[tuple[str, Words]]:
    choices: list[tuple[str, Words]] = [
        (Visibility.PUBLIC, Visibility.PUBLIC.label),
        (Visibility.SECRET, _("secret (me and the GM)")),
    ]
    if campaign.is_gm(user):
        choices = [
            (Visibility.PUBLIC, Visibility.PUBLIC.label),
            (Visibility.HIDDEN, Visibility.HIDDEN.label),
        ]
    return choices


def pending_for(character, choices) -> PendingTest | None:
    """The open pending test the panel was asked to show, if it is this character's."""
    pending_id = asked_for(choices, "pending")
    if pending_id is None:
        return None
    return PendingTest.objects.filter(
        pk=pending_id, character=character, status=PendingTest.Status.OPEN
    ).first()


def _called_off(character, choices) -> PendingTest | None:
    """The GM's call the panel was just told is off (``called_off``), if it is this character's
    and really called off: the panel says so rather than silently turning into a free test."""
    pending_id = asked_for(choices, "called_off")
    if pending_id is None:
        return None
    return PendingTest.objects.filter(
        pk=pending_id, character=character, status=PendingTest.Status.CANCELLED
    ).first()


def _rolled_for(request, roll, character, campaign) -> tuple[dict | None, list]:
    """The entry of ``roll`` as the requester may see it (the log's rule), with what may follow
    it; a roll they may not see (a key reused, a GM's hidden roll) shows redacted, with none."""
    if roll is None:
        return None, []
    entry = entry_for(roll, request.user, campaign.is_gm(request.user))
    if entry["redacted"]:
        return entry, []
    # What the rules allow after this roll (a re-roll, a boost...), as the panel offers it;
    # an opposed test's opponent side is offered nothing its initiator alone may do.
    # An opposed test's side settled in turn: its settling box offers what may follow it.
    if opposed_settled_in_turn(roll):
        return entry, []
    offered = follow_ups_after(get_system(campaign.system), roll, character, campaign)
    return entry, [f for f in offered if not opposed_initiator_only(roll, f.kind)]


def _rolled_html(entry: dict | None) -> str | None:
    """The rolled entry's HTML as ``rolls/panels/_rolled.html`` shows it: rendered once in this
    language as the roll committed (rolls.log.rendered), for this answer and the table's sockets."""
    return None if entry is None else entry_html(entry, translation.get_language())


def _roll_menu(request, roll, entry, character, campaign) -> dict | None:
    """What follows the result shown on its panel: the rules' options after it (RULES.md 3.6),
    to pick here, or what was picked and the GM's counter-move; none on a result the user may
    not see."""
    if entry is None or entry["redacted"]:
        return None
    return roll_options.panel_view(roll, request.user, campaign, character)


@dataclass(frozen=True)
class _Call:
    """The GM's call a panel shows (``pending``), or the one just called off, which it says is
    off while it shows the same stat as a free test (``called_off``); and the choices it is
    built from."""

    pending: PendingTest | None
    called_off: PendingTest | None
    choices: Any


class PanelView:
    """The test panel of one character as one request shows it: the partial, and after a roll
    the entry and what may follow it. What it reads of the table it reads once, when first
    needed; a caller that read it already says so (``view.session = session``)."""

    def __init__(self, request: HttpRequest, campaign, character) -> None:
        self.request, self.campaign, self.character = request, campaign, character

    @cached_property
    def session(self) -> GameSession | None:
        """The campaign's open session, None between sessions."""
        return GameSession.objects.open_of(self.campaign.pk)

    @cached_property
    def settle(self) -> dict[str, Any] | None:
        """The opposed test this character settles in turn (``opposed.settle_view``)."""
        return opposed_settle_view(self.character, self.request.user)

    def response(
        self,
        choices,
        *,
        rolled: Roll | None = None,
        panel: Panel | None = None,
        status: int = 200,
        refusal: str = "",
        options_refusal: str = "",
    ) -> HttpResponse:
        """The panel partial built from ``choices`` (or the ``panel`` the caller built from
        them on this very sheet); after a roll, with ``rolled``'s entry. ``refusal`` and
        ``options_refusal`` say why a roll or a pick of options was refused."""
        call = self._call(choices, rolled, panel)
        if panel is None:
            pending = pending_view(call.pending) if call.pending else None
            build = get_system(self.campaign.system).panel.build
            panel = build(self.character, self.campaign, call.choices, pending=pending)
        seen_by = visibilities(self.campaign, self.request.user)
        context = {
            "campaign": self.campaign,
            "character": self.character,
            "session": self.session,
            "key": uuid.uuid4(),
            "panel": panel,
            "pending": call.pending,
            "called_off": call.called_off,
            "visibilities": seen_by,
            "may_hide": Visibility.HIDDEN in dict(seen_by),
            "visibility": call.choices.get("visibility", Visibility.PUBLIC),
            "refusal": refusal,
            "options_refusal": options_refusal,
            "opposed": opposed_panel_view(call.pending, call.choices, viewer=self.request.user),
            "opposed_settle": self.settle,
            **real_dice.panel_context(
                panel, call.choices, may_type_dice(self.campaign, self.request.user)
            ),
            **self.rolled_context(rolled),
        }
        return render(self.request, "rolls/panels/_panel.html", context, status=status)

    def rolled_context(self, rolled: Roll | None) -> dict[str, Any]:
        """The rolled entry as this user may see it, what may follow it, and the menu after
        it (the panel's, and a roll's answer alone)."""
        request, character, campaign = self.request, self.character, self.campaign
        entry, follow_ups = _rolled_for(request, rolled, character, campaign)
        return {
            "rolled": entry,
            "rolled_html": _rolled_html(entry),
            "shown": rolled.pk if rolled is not None else "",
            "follow_ups": follow_ups,
            "roll_menu": _roll_menu(request, rolled, entry, character, campaign),
        }

    def _call(self, choices, rolled: Roll | None, panel: Panel | None) -> _Call:
        """The call the panel was asked to show, if it is still this character's; after a roll,
        none (the entry shows instead)."""
        if rolled is not None:
            return _Call(None, None, choices)
        pending = pending_for(self.character, choices)
        if pending is not None or panel is not None:
            return _Call(pending, None, choices)
        called_off = _called_off(self.character, choices)
        if called_off is None:
            return _Call(pending, None, choices)
        # A newer call replaced it: show that one; else the same stat, as a free test.
        newer = PendingTest.objects.filter(
            character=self.character, status=PendingTest.Status.OPEN
        ).first()
        if newer is not None:
            return _Call(newer, None, choices)
        return _Call(None, called_off, with_target(choices, called_off.target))


def latest_call(character) -> PendingTest | None:
    """The test the GM has called on ``character`` and no one has rolled yet (the newest)."""
    called = PendingTest.objects.filter(character=character, status=PendingTest.Status.OPEN)
    return called.order_by("-created_at").first()


def opened(called: PendingTest):
    """The panel's choices for a call it opens: the player's draft of it, if any."""
    return posted({**(called.draft or {}), "pending": [str(called.pk)]})


def panel_on_load(view: PanelView) -> SafeString:
    """The test panel as a page opens it, and as a refresh finds it with no test opened: what
    this character must do now is there at once, rendered here, never fetched after the page
    loads. A test the GM called on it opens with the player's choices so far; a side of an
    opposed test whose turn it is to settle (Caerbannog) shows its settling box and its roll;
    a roll whose options wait for this user's pick (T10) shows its result and the menu; else
    the idle slot a click on a stat fills. Without an open session, only the slot."""
    request, campaign, character, session = (
        view.request,
        view.campaign,
        view.character,
        view.session,
    )
    called = latest_call(character) if session is not None else None
    if called is not None:
        return SafeString(view.response(opened(called)).content.decode())
    if session is not None and view.settle is not None and view.settle["may_settle"]:
        return SafeString(view.response({}, rolled=view.settle["final"]).content.decode())
    waiting = roll_options.awaiting_pick(character, campaign, request.user, session)
    if waiting is not None:
        # The options after its latest roll wait for this user's pick: the menu is there.
        return SafeString(view.response({}, rolled=waiting).content.decode())
    slot = {"campaign": campaign, "character": character}
    return SafeString(render_to_string("rolls/panels/_slot.html", slot, request))
