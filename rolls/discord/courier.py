"""Delivery of the outbox: a courier thread in each server process sends each bridge's posts in
order, several to a message when they pile up, never inside a request or a roll.

One courier at a time delivers a bridge: it leases it (``_claim``: one UPDATE that succeeds for
one process only) and renews the lease before every request, so several workers never post one
entry twice. What can still happen, as with any outbox: a process killed after Discord took a
message and before it marked it sent posts that message again once its lease runs out.

Discord's answers decide what follows: a rate limit (429, or a bucket with nothing left) waits
as long as it says; a network error or a 5xx waits longer each time (``backoff``) and the GM sees
since when it fails and why; a webhook that is gone (401, 403, 404) stops the bridge with a
message to the GM; a message refused (400) is sent again post by post, and a post Discord still
refuses is dropped with its reason, so one bad post never holds up the rest.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import close_old_connections, connection
from django.db.models import Min, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import override

from rolls.discord import outbox, posts, webhook
from rolls.discord.models import DiscordBridge, DiscordPost

logger = logging.getLogger(__name__)

#: How long a courier owns a bridge without renewing: well over a request's timeout.
LEASE = timedelta(seconds=60)
#: How often a courier looks for posts other processes queued (its own wake it at once).
POLL_SECONDS = 5.0
#: The longest wait after errors, and the longest Discord may ask for.
BACKOFF_MAX_SECONDS, RETRY_AFTER_MAX_SECONDS = 300.0, 3600.0


def backoff(failures: int) -> float:
    """Seconds to wait after ``failures`` failures in a row: 1, 2, 4... up to five minutes."""
    return min(BACKOFF_MAX_SECONDS, 2.0 ** min(failures - 1, 20))


def _pending(bridge_id: int):
    return DiscordPost.objects.filter(bridge_id=bridge_id, sent_at=None, dropped="")


def _deliverable(now: datetime):
    return DiscordBridge.objects.filter(active=True, gone=False).filter(
        Q(next_try_at=None) | Q(next_try_at__lte=now), Q(lease_until=None) | Q(lease_until__lt=now)
    )


def deliver_due(owner: str) -> float | None:
    """Deliver every bridge that has posts due and no other courier; the seconds until the next
    one is due (a rate limit, a back-off, another's lease), None when none waits."""
    now = timezone.now()
    waiting = DiscordPost.objects.filter(
        sent_at=None, dropped="", bridge__active=True, bridge__gone=False
    )
    for bridge_id in (
        _deliverable(now).filter(pk__in=waiting.values("bridge_id")).values_list("pk", flat=True)
    ):
        deliver(bridge_id, owner)
    later = DiscordBridge.objects.filter(pk__in=waiting.values("bridge_id")).aggregate(
        tried=Min("next_try_at"), leased=Min("lease_until")
    )
    moments = [moment for moment in later.values() if moment is not None]
    if not moments and waiting.exists():
        return 0.0
    if not moments:
        return None
    return max(0.0, (min(moments) - timezone.now()).total_seconds())


def _claim(bridge_id: int, owner: str) -> bool:
    now = timezone.now()
    return bool(
        _deliverable(now).filter(pk=bridge_id).update(lease_owner=owner, lease_until=now + LEASE)
    )


def _renew(bridge_id: int, owner: str) -> bool:
    now = timezone.now()
    return bool(
        DiscordBridge.objects.filter(pk=bridge_id, lease_owner=owner, lease_until__gt=now)
        .filter(active=True, gone=False)
        .update(lease_until=now + LEASE)
    )


def _release(bridge_id: int, owner: str) -> None:
    DiscordBridge.objects.filter(pk=bridge_id, lease_owner=owner).update(
        lease_owner="", lease_until=None
    )


def deliver(bridge_id: int, owner: str) -> int:
    """Send the bridge's due posts, in order, while this courier holds its lease; the posts
    sent."""
    if not _claim(bridge_id, owner):
        return 0
    sent = 0
    try:
        while _renew(bridge_id, owner):
            bridge = DiscordBridge.objects.select_related("campaign").get(pk=bridge_id)
            if bridge.next_try_at is not None and bridge.next_try_at > timezone.now():
                break
            batch = list(_pending(bridge_id)[: posts.EMBEDS_A_MESSAGE])
            if not batch:
                break
            done = (
                _send_edit(bridge, batch[0])
                if batch[0].kind == "edit"
                else _send_new(bridge, batch)
            )
            if done is None:
                break
            sent += done
    finally:
        _release(bridge_id, owner)
    return sent


@dataclass(frozen=True)
class _Built:
    posts: list[DiscordPost]
    document: dict


def _build(bridge: DiscordBridge, batch: list[DiscordPost]) -> _Built:
    """The first posts of ``batch`` that make one message (no edit among them). A post that
    cannot be told (its entry is not every member's) is dropped, not sent."""
    taken: list[DiscordPost] = []
    embeds: list[dict] = []
    for post in batch:
        if post.kind == DiscordPost.Kind.EDIT:
            break
        try:
            with override(bridge.language):
                one = posts.embed(bridge, post)
        except Exception as error:  # noqa: BLE001 (one post's fault must not stop the rest)
            logger.exception("Discord post %s could not be built", post.pk)
            _drop(post, str(error) or type(error).__name__)
            continue
        if taken and not posts.fits([*embeds, one]):
            break
        taken.append(post)
        embeds.append(one)
    return _Built(taken, {"embeds": embeds, "allowed_mentions": posts.NO_MENTIONS})


def _drop(post: DiscordPost, reason: str) -> None:
    DiscordPost.objects.filter(pk=post.pk).update(dropped=reason[:300] or "refused")


def _send_new(bridge: DiscordBridge, batch: list[DiscordPost]) -> int | None:
    """Post the first posts of ``batch`` as one message: how many left, None to stop."""
    built = _build(bridge, batch)
    if not built.posts:
        return 0  # all dropped: the loop takes the next ones
    answer = _request(bridge, "POST", "?wait=true", built.document)
    if answer is None:
        return None
    if 200 <= answer.status < 300:
        now = timezone.now()
        DiscordPost.objects.filter(pk__in=[post.pk for post in built.posts]).update(
            sent_at=now, message_id=str(answer.body.get("id", ""))[:30]
        )
        _delivered(bridge, answer)
        return len(built.posts)
    return _refused(bridge, built.posts, answer)


def _send_edit(bridge: DiscordBridge, edit: DiscordPost) -> int | None:
    """Edit the message that carries the entry ``edit`` names (it was struck): every post of
    that message is built again as it reads now."""
    carried = (
        DiscordPost.objects.filter(bridge=bridge, kind=DiscordPost.Kind.ENTRY, roll_id=edit.roll_id)
        .exclude(message_id="")
        .first()
    )
    if carried is None:  # its post never left (dropped, or sent before a message id was kept)
        DiscordPost.objects.filter(pk=edit.pk).update(sent_at=timezone.now())
        return 0
    together = list(DiscordPost.objects.filter(bridge=bridge, message_id=carried.message_id))
    document = posts.message(bridge, together)
    answer = _request(bridge, "PATCH", f"/messages/{carried.message_id}", document)
    if answer is None:
        return None
    if 200 <= answer.status < 300:
        DiscordPost.objects.filter(pk=edit.pk).update(
            sent_at=timezone.now(), message_id=carried.message_id
        )
        _delivered(bridge, answer)
        return 1
    if answer.status == 404 and _gone_message(answer):
        # The message was deleted in Discord: nothing left to edit, the bridge goes on.
        DiscordPost.objects.filter(pk=edit.pk).update(dropped=_("its message was deleted"))
        return 0
    return _refused(bridge, [edit], answer)


def _gone_message(answer: webhook.Answer) -> bool:
    return answer.body.get("code") == 10008  # Discord's "Unknown Message"


def _request(bridge: DiscordBridge, method: str, path: str, document: dict):
    """Discord's answer, or None (and the failure noted) when the network failed."""
    try:
        return webhook.request(webhook.check(bridge.webhook_url), method, path, document)
    except webhook.BadWebhook as error:  # a URL saved before a setting changed: stop
        _stop(bridge, str(error))
    except OSError as error:
        with override(bridge.language):
            _failed(bridge, _("Discord could not be reached: %(why)s") % {"why": error})
    return None


def _delivered(bridge: DiscordBridge, answer: webhook.Answer) -> None:
    now = timezone.now()
    changes = {"last_delivered_at": now, "failures": 0, "failing_since": None, "last_error": ""}
    if answer.headers.get("x-ratelimit-remaining") == "0":
        # The bucket is empty: the next request would be a 429; wait until it refills.
        changes["next_try_at"] = now + timedelta(seconds=_seconds(
            answer.headers.get("x-ratelimit-reset-after")))  # fmt: skip
    DiscordBridge.objects.filter(pk=bridge.pk).update(**changes)


def _seconds(value) -> float:
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return 1.0
    return min(RETRY_AFTER_MAX_SECONDS, max(0.0, seconds)) if seconds == seconds else 1.0


def _refused(bridge: DiscordBridge, sent: list[DiscordPost], answer: webhook.Answer) -> int | None:
    status = answer.status
    with override(bridge.language):
        if status == 429:
            wait = _seconds(answer.body.get("retry_after", answer.headers.get("retry-after")))
            DiscordBridge.objects.filter(pk=bridge.pk).update(
                next_try_at=timezone.now() + timedelta(seconds=wait),
                last_error=_("Discord asked to wait %(seconds)s s (its rate limit).")
                % {"seconds": round(wait, 1)},
            )
            return None
        if status in (401, 403, 404):
            _stop(bridge, _(
                "Discord says this webhook no longer exists (%(status)s): it was deleted or "
                "its channel is gone. Paste a new webhook's address."
            ) % {"status": status})  # fmt: skip
            return None
        if 400 <= status < 500:
            if len(sent) > 1:  # one of them is refused: send each alone to find which
                return sum(_send_new(bridge, [post]) or 0 for post in sent)
            why = str(answer.body.get("message") or status)
            _drop(sent[0], _("Discord refused it: %(why)s") % {"why": why})
            DiscordBridge.objects.filter(pk=bridge.pk).update(
                last_error=_("Discord refused one post: %(why)s") % {"why": why}
            )
            return 0
        _failed(bridge, _("Discord answered %(status)s.") % {"status": status})
    return None


def _failed(bridge: DiscordBridge, why: str) -> None:
    fresh = DiscordBridge.objects.get(pk=bridge.pk)
    failures = fresh.failures + 1
    now = timezone.now()
    DiscordBridge.objects.filter(pk=bridge.pk).update(
        failures=failures,
        failing_since=fresh.failing_since or now,
        next_try_at=now + timedelta(seconds=backoff(failures)),
        last_error=why[:300],
    )


def _stop(bridge: DiscordBridge, why: str) -> None:
    DiscordBridge.objects.filter(pk=bridge.pk).update(
        gone=True, failing_since=bridge.failing_since or timezone.now(), last_error=why[:300]
    )


# --- The thread ---------------------------------------------------------------------------------


class Courier:
    """The thread that delivers for this process: woken as a post is queued here
    (``outbox.queued``), and every ``POLL_SECONDS`` for those queued by other processes."""

    def __init__(self) -> None:
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"[:64]
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="discord-courier", daemon=True)
        #: Rounds done (each looks for due posts once), and failed in a row.
        self.rounds = self.errors = 0

    def start(self) -> Courier:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        outbox.queued.set()
        self.thread.join(timeout=5)

    def _run(self) -> None:
        while not self.stopping.is_set():
            outbox.queued.clear()
            wait = POLL_SECONDS
            try:
                soonest = deliver_due(self.owner)
                self.errors = 0
                if soonest is not None:
                    wait = min(wait, max(0.05, soonest))
            except Exception:
                # A database busy for a moment (SQLite's lock) must not hold the posts back a
                # whole poll: again soon, then less often while it keeps failing.
                logger.exception("the Discord courier failed; it tries again")
                close_old_connections()
                self.errors += 1
                wait = min(POLL_SECONDS, 0.1 * 2 ** min(self.errors, 10))
            self.rounds += 1
            outbox.queued.wait(wait)
        connection.close()
