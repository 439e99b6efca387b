"""The GM's view of the table as one player sees it, read-only (docs/security.md).

A URL prefix, not a flag in the GM's session, so the GM's own tabs (the dashboard) stay the GM's:
``/view/<campaign_id>/<user_id>/c/<campaign_id>/...`` is the page ``/c/<campaign_id>/...`` as
that player gets it. ``ViewAsMiddleware``:

- refuses every request but GET and HEAD under the prefix with 403, before any view, any other
  middleware's view hook or the user's budgets read it, whatever was sent;
- lets in only the campaign's GM, viewing one of its players (a member who is not the GM):
  anyone else gets the 404 every stranger to a page gets, and nothing is served;
- strips the prefix from ``request.path_info``, makes ``request.user`` the player for this
  request (the GM stays on ``request.view_as.gm``) and sets the script prefix to the view's, so
  every ``reverse()`` and ``{% url %}`` of the page (links, ``hx-get``) stays in the view; a
  prefixed path outside ``/c/<campaign_id>/`` is redirected to itself unprefixed;
- holds the request to reading in fact: a statement that writes to the database is refused
  (``WriteRefused``, answered with 403), and the GM's queued messages are neither shown nor
  spent. The GET views of a player's pages write nothing (the tests hold every page of the view
  to that), so this refuses only a write a later change would add.

The page's socket is the view's too (``rolls.live.view_as``): it reads the table as the player,
is the GM's login, and is nobody at the table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.contrib.messages.storage.base import BaseStorage
from django.contrib.staticfiles.storage import staticfiles_storage
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import get_script_prefix, reverse, set_script_prefix
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect

from campaigns.models import Campaign, Membership
from config.refusals import in_refusal_region

#: ``view/<campaign>/<player>`` and the page's own path (with its leading slash) after it.
PREFIX = re.compile(r"^/view/(?P<campaign>[0-9]{1,18})/(?P<player>[0-9]{1,18})(?P<rest>/.*)?$")
READING = ("GET", "HEAD")
#: The SQL a read-only request may not send: anything that changes a row or the schema.
WRITES = re.compile(
    r"^\s*(INSERT|UPDATE|DELETE|REPLACE|MERGE|CREATE|DROP|ALTER|TRUNCATE)\b", re.IGNORECASE
)


@dataclass(frozen=True)
class ViewAs:
    """Who is viewing whose table: what the banner and the page's socket need."""

    campaign: Campaign
    player: Any
    gm: Any
    #: The GM's own dashboard of the campaign, and the page viewed as the GM sees it: outside
    #: the view (the page's script prefix would keep any path reversed on it inside).
    dashboard: str
    as_yourself: str

    @property
    def socket_path(self) -> str:
        return f"/ws/view/{self.campaign.pk}/{self.player.pk}/"


class WriteRefused(Exception):
    """A request of the view tried to write to the database."""


def viewed_player(gm, campaign_id: int, player_id: int) -> tuple[Campaign, Any] | None:
    """The campaign and the player ``gm`` may view it as, or None: ``gm`` must be the
    campaign's GM and ``player_id`` one of its players (a member, not the GM)."""
    campaign = Campaign.objects.filter(pk=campaign_id, gm_id=gm.pk).first()
    if campaign is None or player_id == gm.pk:
        return None
    seated = Membership.objects.filter(campaign=campaign, user_id=player_id).exists()
    player = get_user_model().objects.filter(pk=player_id, is_active=True).first()
    return (campaign, player) if seated and player is not None else None


def view_path(campaign: Campaign, player, path: str) -> str:
    """``path`` (a page of this site, from ``reverse``) as ``player`` sees it, in the view."""
    prefix = get_script_prefix()
    return f"{prefix}view/{campaign.pk}/{player.pk}/{path.removeprefix(prefix)}"


class _NoMessages(BaseStorage):
    """The view shows none of the GM's queued messages and keeps them for the GM's own pages."""

    def _get(self, *args, **kwargs):
        return [], True

    def _store(self, messages, response, *args, **kwargs):
        return []


def _refuse_writes(execute, sql, params, many, context):
    if WRITES.match(sql):
        raise WriteRefused(sql.split(None, 1)[0])
    return execute(sql, params, many, context)


def _refused(request: HttpRequest, message: str) -> HttpResponse:
    """403 with ``message``: in the page's refusal region for htmx (static/js/live.js shows it
    there whatever its status), the "Not allowed" page otherwise."""
    if request.headers.get("HX-Request") == "true":
        return in_refusal_region(message, 403)
    return render(request, "403.html", {"message": message}, status=403)


def read_only_refusal() -> str:
    return _(
        "This is the GM's read-only view of a player's table: nothing can be done from it. "
        "Nothing was sent. Open the table as yourself to act."
    )


class ViewAsMiddleware:
    """See the module's docstring. After the session, authentication and messages, before
    the rate limits (a refused POST spends nothing) and every view."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        match = PREFIX.match(request.path_info)
        if match is None:
            return self.get_response(request)
        if request.method not in READING:
            return _refused(request, read_only_refusal())
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        campaign_id, player_id = int(match["campaign"]), int(match["player"])
        found = viewed_player(request.user, campaign_id, player_id)
        if found is None:
            raise Http404("No such page.")
        rest = match["rest"] or "/"
        if not rest.startswith(f"/c/{campaign_id}/"):
            return _leave(request, rest)
        campaign, player = found
        view = ViewAs(
            campaign,
            player,
            request.user,
            dashboard=reverse("dashboard", args=[campaign.pk]),
            as_yourself=_unprefixed(request, rest),
        )
        return self._as_player(request, view, rest)

    def _as_player(self, request: HttpRequest, view: ViewAs, rest: str) -> HttpResponse:
        prefix = get_script_prefix()
        # A relative STATIC_URL takes the script prefix it is first read under, and keeps it
        # (Django caches it, and the static files' storage its base URL): both are read here,
        # under the site's own prefix, so the view's never reaches the site's static files.
        settings.STATIC_URL  # noqa: B018
        staticfiles_storage.base_url  # type: ignore[attr-defined]  # noqa: B018
        request.view_as = view  # type: ignore[attr-defined]
        request.user = view.player

        async def auser():
            return view.player

        request.auser = auser
        request._messages = _NoMessages(request)  # type: ignore[attr-defined]
        request.path_info = rest
        set_script_prefix(f"{prefix}view/{view.campaign.pk}/{view.player.pk}/")
        try:
            with connection.execute_wrapper(_refuse_writes):
                return self.get_response(request)
        finally:
            set_script_prefix(prefix)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if isinstance(exception, WriteRefused):
            return _refused(request, read_only_refusal())
        return None


def _unprefixed(request: HttpRequest, rest: str) -> str:
    """The page the request asks for, with its query, outside the view."""
    query = request.META.get("QUERY_STRING", "")
    return get_script_prefix() + rest.lstrip("/") + (f"?{query}" if query else "")


def _leave(request: HttpRequest, rest: str) -> HttpResponse:
    """A page outside the viewed table (the home page, the rules): the GM's own, unprefixed."""
    target = _unprefixed(request, rest)
    if request.headers.get("HX-Request") == "true":
        return HttpResponseClientRedirect(target)
    return HttpResponseRedirect(target)
