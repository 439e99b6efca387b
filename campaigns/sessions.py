"""Game nights and their scenes: starting and ending a session, starting a scene.

Each saves in one transaction and tells the campaign's pages once it commits. What other apps
do at these moments is theirs, through the signals below, each sent with ``sender`` the
campaign's ``System``: a system's own rules connect with ``sender=`` their System (Caerbannog's
Rozmach back to 0 when a scene starts), and the table's generic consequences (tests still
waiting are called off) connect with no sender (rolls.apps).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from django.db import IntegrityError, transaction
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.actions import ActionRefused
from campaigns.live import broadcast_on_commit, campaign_group
from campaigns.models import Campaign, GameSession, Scene
from campaigns.systems import get_system

#: Sent inside ``end_session``'s transaction with ``session``: what the table does when a
#: session ends (FastTest: experience dice become XP; every system: waiting tests called off).
session_ended = Signal()
#: Sent inside ``end_session``'s transaction with ``session`` while it is still open, so what
#: ends with it (a condition lasting until the session's end) is logged in it (rolls.apps).
session_ending = Signal()
#: Sent inside ``new_scene``'s transaction with ``session`` and the new ``scene``: what ended
#: with the scene before it (rolls.apps: conditions lasting until the scene's end).
scene_opened = Signal()
#: Sent inside the transaction of every new scene, a session's first one too, with
#: ``campaign`` and ``scene``: what the rules do when a scene starts.
scene_started = Signal()


@dataclass(frozen=True)
class ChallengePoints:
    """A system's part (``campaigns.systems.Part``): each scene holds the GM's challenge points
    (AST), ``per_scene(campaign)`` of them when it starts; the GM spends them on called tests."""

    key: ClassVar[str] = "challenge_points"
    per_scene: Callable[[Campaign], int]


@transaction.atomic
def start_session(campaign: Campaign, title: str = "") -> GameSession:
    """Open a game night with its first scene. One open session per campaign."""
    if GameSession.objects.open().filter(campaign=campaign).exists():
        raise ActionRefused(_("A session is already running; end it before starting another."))
    try:
        with transaction.atomic():
            session = GameSession.objects.create(campaign=campaign, title=title)
    except IntegrityError as error:  # a second click in the same instant
        raise ActionRefused(_("A session is already running.")) from error
    _open_scene(session, campaign)
    broadcast_on_commit(
        campaign_group(campaign.pk), {"type": "table.session", "session": session.pk}
    )
    return session


@transaction.atomic
def end_session(session: GameSession) -> GameSession:
    locked = GameSession.objects.select_for_update().get(pk=session.pk)
    if not locked.is_open:
        raise ActionRefused(_("This session has already ended."))
    system = get_system(locked.campaign.system)
    session_ending.send(sender=system, session=locked)
    locked.ended_at = timezone.now()
    locked.save(update_fields=["ended_at"])
    # The system's own receivers were connected first (rolls.apps registers the systems before
    # it connects the generic consequences), so its rules run before tests are called off.
    session_ended.send(sender=system, session=locked)
    broadcast_on_commit(
        campaign_group(locked.campaign_id), {"type": "table.session", "session": locked.pk}
    )
    return locked


@transaction.atomic
def new_scene(session: GameSession, title: str = "") -> Scene:
    """Start a scene; the system's rules for it run too (``scene_started``)."""
    locked = GameSession.objects.select_for_update().select_related("campaign").get(pk=session.pk)
    if not locked.is_open:
        raise ActionRefused(_("This session has ended; start a new one."))
    scene = _open_scene(locked, locked.campaign, title)
    scene_opened.send(sender=get_system(locked.campaign.system), session=locked, scene=scene)
    broadcast_on_commit(
        campaign_group(locked.campaign_id),
        {"type": "table.scene", "session": locked.pk, "scene": scene.number},
    )
    return scene


def _open_scene(session: GameSession, campaign: Campaign, title: str = "") -> Scene:
    last = session.scenes.order_by("-number").values_list("number", flat=True).first() or 0
    system = get_system(campaign.system)
    challenge = system.part(ChallengePoints)
    points = challenge.per_scene(campaign) if challenge is not None else 0
    scene = Scene.objects.create(
        session=session, number=last + 1, title=title, challenge_points=points
    )
    scene_started.send(sender=system, campaign=campaign, scene=scene)
    return scene
