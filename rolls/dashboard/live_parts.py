"""Which table event refreshes which live part of the GM's dashboard: the one map.

DESIGN.md, "How a page stays current": the socket tells a page what changed (``table:entry``,
``table:pending`` ...); the page asks once for the parts that event changes (its refresher,
``rolls/dashboard/_live_refresh.html``), and the answer carries each of them, morphed into place
(``hx-swap-oob="morph"``). A part is rendered by the very context function and template the
full page uses, so a refresh shows exactly what a reload shows.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from campaigns.access import gm_campaign
from rolls.conditions import views as condition_views
from rolls.dashboard import views as dashboard
from rolls.strikes import views as strike_views
from rolls.turns import views as turn_views


@dataclass(frozen=True)
class Part:
    """One live part: its element's id, what renders it, and the table events that change it."""

    id: str
    template: str
    context: Callable[[HttpRequest, Any, Any], dict[str, Any]]
    events: frozenset[str]


def _plain(
    context: Callable[[Any, Any], dict[str, Any]],
) -> Callable[[HttpRequest, Any, Any], dict]:
    return lambda request, campaign, session: context(campaign, session)  # fmt: skip


def _part(id: str, template: str, context: Callable, events: str) -> Part:
    return Part(id, template, context, frozenset(events.split()))


# The GM's dashboard: part, its template, its context, the events that change it. "entry": a
# roll or a note landed; "pending": a called test changed (or its player's choices did);
# "sheet": a character changed; "session"/"scene": the session or its scene changed; "turn":
# the fight's turn or round changed (rolls.turns.fight).
# fmt: off
# ruff: noqa: E501 (one row per part reads as the table it is)
DASHBOARD = (
    _part("dash-meta", "rolls/dashboard/_meta.html", _plain(dashboard.meta_context), "scene session pending entry"),
    _part("pending-tests", "rolls/pending/_list.html", dashboard.pending_part_context, "pending sheet session entry"),
    _part("after-roll", "rolls/dashboard/_after_roll.html", _plain(dashboard.after_roll_context), "entry pending session"),
    _part("gm-readings", "rolls/dashboard/_gm_readings.html", _plain(dashboard.gm_readings_context), "entry session"),
    _part("roll-options", "rolls/_roll_options.html", _plain(condition_views.options_context), "entry session"),
    _part("roll-results", "rolls/dashboard/_gm_box.html", _plain(dashboard.gm_box_context), "entry session"),  # the system's box
    _part("npc-box", "rolls/dashboard/_npc_box.html", _plain(dashboard.npc_box_context), "entry session scene"),  # the system's NPCs' box
    _part("party", "rolls/dashboard/_party.html", _plain(dashboard.party_context), "entry sheet session scene turn"),
    _part("turn-order", "rolls/turns/_box.html", _plain(turn_views.box_context), "sheet session scene turn"),
    _part("random-tables", "rolls/tables/_box.html", _plain(dashboard.tables_context), "entry session"),
    _part("strike-box", "rolls/strikes/_box.html", _plain(strike_views.box_context), "entry session"),
)
# fmt: on

# A page that was cut off (its socket reconnected) may have missed any event: every part then.
RECONNECT = "reconnect"
EVENTS = sorted(set().union(*(part.events for part in DASHBOARD)) | {RECONNECT})

# The first element's start tag of a part's HTML: where the out-of-band mark goes.
_FIRST_TAG = re.compile(r"^(\s*<[a-zA-Z][^\s>/]*)")


def out_of_band(html: str) -> str:
    """The part's HTML marked to be morphed into the element of the same id."""
    marked, found = _FIRST_TAG.subn(r'\1 hx-swap-oob="morph"', html, count=1)
    if not found:
        raise ValueError("a live part's template must start with its element")
    return marked


def render_parts(request: HttpRequest, campaign, session, event: str) -> str:
    """Every dashboard part that ``event`` changes, each marked out of band."""
    rendered = (
        render_to_string(part.template, part.context(request, campaign, session), request)
        for part in DASHBOARD
        if event in part.events or event == RECONNECT
    )
    # A part the rules leave out of this table (no after-roll strip in AST) renders nothing.
    return "".join(out_of_band(html) for html in rendered if html.strip())


@require_GET
@login_required
def dashboard_live(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The parts of the GM's dashboard that the table event named by ``event`` changed."""
    campaign = gm_campaign(request, campaign_id)
    event = request.GET.get("event", "").removeprefix("table:")
    html = render_parts(request, campaign, dashboard.open_session(campaign), event)
    return HttpResponse(html) if html else HttpResponse(status=204)
