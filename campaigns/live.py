"""The live table's channel groups and broadcasts: a campaign's group (every page open on its
table) and each user's own (their pages only). Events are sent once the transaction commits, so
a page never shows something that did not happen."""

from __future__ import annotations

import contextvars
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib import auth
from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from django.http import HttpRequest
from django.utils.crypto import salted_hmac
from django.utils.module_loading import import_string


def campaign_group(campaign_id: int) -> str:
    return f"campaign-{campaign_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def addressed(user_id: int, event: dict[str, Any]) -> dict[str, Any]:
    """``event`` for the user's own group, naming the user (``user``): the GM's view of a
    player's table (rolls.live.view_as) hears the GM's group and the player's, and takes from
    each only what is its own."""
    return {**event, "user": user_id}


def to_user(user_id: int, event: dict[str, Any]) -> None:
    """Send ``event`` to the user's own pages once the transaction commits (``addressed``)."""
    broadcast_on_commit(user_group(user_id), addressed(user_id, event))


def membership_ended(sender, instance, **kwargs) -> None:
    """A member left, was removed, or their campaign or account was deleted: once that commits,
    their open pages of that table are closed, on every worker (the table's consumer hears this
    in the user's own group). Connected to ``post_delete`` of ``Membership`` (campaigns.apps),
    which a campaign's or a user's deletion sends for each membership it takes with it."""
    to_user(instance.user_id, {"type": "table.membership_ended", "campaign": instance.campaign_id})


def login_mark(session_key: str | None) -> str:
    """What names one login (a browser's session) in an event, without carrying the session
    key itself, which would let whoever reads the channel layer log in."""
    return salted_hmac("campaigns.live.login", session_key or "").hexdigest()


def session_of(session_key: str | None) -> SessionBase:
    """The session ``session_key`` names, read afresh from the store (a socket keeps its key)."""
    return import_string(f"{settings.SESSION_ENGINE}.SessionStore")(session_key)


def user_id_of(session_key: str | None) -> int | None:
    """Who ``session_key`` is logged in as now, checked as every HTTP request checks it (the
    session still there, the account active, the password the one it logged in with)."""
    request = HttpRequest()
    request.session = session_of(session_key)
    return auth.get_user(request).pk


def logged_out(sender, request, user, **kwargs) -> None:
    """A user logged out: their pages open in that browser (that login) are closed, on every
    worker; their other logins' pages stay. Connected to ``user_logged_out`` (campaigns.apps)."""
    if user is not None:
        login = login_mark(request.session.session_key)
        to_user(user.pk, {"type": "table.login_ended", "login": login})


def account_changed(sender, instance, created: bool = False, **kwargs) -> None:
    """A password set (changed here, by an admin, or reset) or an account made inactive ends
    every login of the user (Django's own check then refuses them over HTTP): every open page of
    the user is closed; one whose browser holds a valid login again reconnects by itself.
    Connected to ``post_save`` of the user model (campaigns.apps)."""
    # ``_password`` holds the new password from ``set_password`` until the save ends (Django's
    # AbstractBaseUser.save clears it after this signal).
    changed = getattr(instance, "_password", None) is not None
    if not created and (changed or not instance.is_active):
        to_user(instance.pk, {"type": "table.login_ended", "login": None})


def broadcast(group: str, event: dict[str, Any]) -> None:
    # In a context of its own: ``async_to_sync`` carries the caller's context to the event
    # loop and back, re-homing every one of Django's thread-locals there (about 50 in a
    # request: 0.2-0.4 ms of a roll's CPU, issue 42); sending to a group reads none of them.
    contextvars.Context().run(async_to_sync(get_channel_layer().group_send), group, event)


def broadcast_on_commit(group: str, event: dict[str, Any]) -> None:
    transaction.on_commit(lambda: broadcast(group, event))
