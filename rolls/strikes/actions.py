"""Striking an entry of the running session's log (``rolls.strikes``)."""

from __future__ import annotations

import uuid

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from campaigns.live import broadcast_on_commit, campaign_group
from campaigns.models import Campaign, GameSession
from campaigns.systems import get_system
from rolls import labels
from rolls.actions import ActionRefused, record_note
from rolls.conditions import actions as conditions
from rolls.labels import words
from rolls.log.payload import STRUCK, roll_payload, sealed_for
from rolls.log.reading import ENTRY_RELATED
from rolls.models import Condition, Roll, Strike
from sheets import actions as sheet_actions
from sheets.models import Character

REASON_MAX = 200

labels.register(
    kinds={STRUCK: gettext_lazy("struck by the GM")},
    words={
        "struck_entry": gettext_lazy("#%(seq)s struck: %(reason)s"),
        "cleared_with_strike": gettext_lazy("its roll #%(seq)s was struck"),
    },
)


def left_by(roll: Roll) -> list[Condition]:
    """The conditions in force that came with ``roll``: left by it (a T10 option) or added by
    it (the entry of a condition added)."""
    return list(
        Condition.objects.filter(Q(source=roll) | Q(added_entry=roll), cleared_entry=None)
        .select_related("character")
        .order_by("pk")
    )


def _named(system: str, path: list[str]) -> str:
    """A number of the sheet by its name in the reader's words (the sheet module's
    ``NUMBER_LABELS``)."""
    return str(get_system(system).sheet.NUMBER_LABELS.get(path[-1], path[-1]))


def given_back(roll: Roll) -> str:
    """What striking ``roll`` may give back to its character's sheet, as the box says it
    ("Experience dice 0 → 1"), "" when the roll changed nothing there."""
    numbers = (roll.sheet_change or {}).get("numbers") or []
    return ", ".join(f"{_named(roll.system, path)} {now} → {was}" for path, was, now in numbers)


def _at(data: dict, path: list[str]):
    for key in path:
        data = data.get(key) if isinstance(data, dict) else None
    return data


def _give_back(roll: Roll) -> None:
    """The whole numbers ``roll`` spent or gained on its character's sheet, as they were before
    it; refused, nothing given back, when any of them has changed since (another roll, the GM):
    the sheet then says what it holds, and the GM changes it by hand."""
    change = roll.sheet_change or {}
    numbers = change.get("numbers") or []
    if not numbers:
        return
    character = Character.objects.filter(
        pk=change.get("character"), campaign_id=roll.session.campaign_id
    ).first()
    if character is None:
        raise ActionRefused(_("The character this roll changed is gone: nothing to give back."))
    sheet = sheet_actions.locked(character)
    moved = [
        _named(roll.system, path) for path, _was, now in numbers if _at(sheet.data, path) != now
    ]
    if moved:
        raise ActionRefused(
            _(
                "%(what)s changed on %(name)s's sheet since this roll: strike it without "
                "giving back, then change the sheet by hand."
            )
            % {"what": ", ".join(moved), "name": character.name}
        )
    try:
        sheet_actions.set_numbers(sheet, {tuple(path): was for path, was, _now in numbers})
    except sheet_actions.SheetRefused as error:
        raise ActionRefused(str(error)) from error


@transaction.atomic
def strike(
    *,
    campaign: Campaign,
    gm,
    roll_id: int,
    reason: str,
    key: uuid.UUID,
    clear_conditions: bool = False,
    give_back: bool = False,
) -> tuple[Roll, bool]:
    """Strike the entry ``roll_id`` of the running session with ``reason``: an entry of kind
    "struck" says so (a follow-up of it, seen by whoever sees it), and every page that shows
    it shows it struck through. ``clear_conditions`` clears, in the same step, the conditions
    it left; ``give_back``, what it spent or gained on its character's sheet. A repeated
    ``key`` answers with the strike it made, never a second one."""
    session = GameSession.objects.open_of(campaign.pk)
    if session is None:
        raise ActionRefused(_("No game session is running; a finished session's log stands."))
    roll = Roll.objects.select_for_update().filter(pk=roll_id, session=session).first()
    if roll is None:
        raise ActionRefused(_("That entry is not in the running session's log."))
    done = Strike.objects.filter(roll=roll).select_related("entry").first()
    if done is not None:
        if done.entry.idempotency_key == key:
            return done.entry, False
        raise ActionRefused(
            _("#%(seq)s was already struck by %(name)s: %(reason)s")
            % {"seq": roll.seq, "name": done.by_name, "reason": done.reason}
        )
    if roll.kind == STRUCK:
        raise ActionRefused(_("A strike stands as it is: it cannot be struck."))
    if sealed_for(roll) is not None:
        raise ActionRefused(_("This roll is still sealed; strike it once it is revealed."))
    entry, created = record_note(
        kind=STRUCK,
        facts={"seq": roll.seq, "reason": reason},
        session=session,
        actor=gm,
        system=roll.system,
        key=key,
        label=words("struck_entry", seq=roll.seq, reason=reason),
        visibility=roll.visibility,
        recipient=roll.recipient,
        parent=roll,
    )
    Strike.objects.create(
        roll=roll,
        entry=entry,
        entry_seq=entry.seq,
        by=gm,
        by_name=gm.get_username(),
        reason=reason,
    )
    if give_back:
        _give_back(roll)
    if clear_conditions:
        why = words("cleared_with_strike", seq=roll.seq)
        for condition in left_by(roll):
            conditions.clear_condition(condition_id=condition.pk, actor=gm, why=why, parent=entry)
    # Every page that shows the entry shows it again, struck (the socket's ``reveal`` frame).
    struck = Roll.objects.select_related(*ENTRY_RELATED).get(pk=roll.pk)
    broadcast_on_commit(
        campaign_group(campaign.pk), {"type": "table.reveal", "payloads": [roll_payload(struck)]}
    )
    return entry, created
