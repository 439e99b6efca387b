"""The GM's NPCs and Rozmach (RULES.md section 4, point 12, "NPCs and Rozmach"): the seed's
"Przeciwnicy kontrolowani przez mistrza gry nie posiadają swojego Rozmachu lub posiadają pulę
wspólną dla całej grupy wrogów" (the GM's opponents have no Rozmach of their own, or one pool
shared by the whole group of them), settled as a campaign setting of the GM's (``SETTING``, on
the campaign's settings page), off by default.

- Off: an NPC's roll gains no Rozmach. Its entry says so (a source line, ``NONE``) and shows no
  Rozmach beside its dice (``entry_facts``); nothing of an NPC's is paid with Rozmach: no
  boost, no reaction.
- On: all the GM's NPCs of the campaign share one pool, kept with the campaign's other
  Caerbannog state (``Campaign.settings["caerbannog"][POOL]``, written only here, under the
  campaign's row lock, after the session's lock a roll takes) and shown on the GM's dashboard.
  An NPC's dice gain it (at most 10, as a character's); a reaction from the GM's Reaction-cost
  table is paid from it before the dice, so the roll's own Rozmach cannot pay it, under a
  character's limits (outside the NPC's own turn, once per round, where the scene has a turn
  order: ``reactions``); after the roll the GM may boost the NPC's test once, 1 Rozmach for the
  category bonus, which the roll's own Rozmach may pay (RULES.md 4.5). The pool is emptied as
  each scene starts, as the characters' are.

Decisions (the rules leave them open):

- An NPC has no sheet, so the GM gives the category bonus with the boost (1 to 10, a sheet's
  range). A boost comes right after its roll: while the pool is what that roll left (another
  NPC's roll that changed it since ends the offer), in the scene it was made in, before
  anything follows it, never after a critical failure.
- A spending the pool cannot pay is refused: an NPC has no Determinacja to lose instead.
- Switching the setting either way empties the pool, so a pool switched on starts at 0.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from campaigns.models import Campaign, GameSession
from campaigns.system_settings import system_settings
from rolls import labels
from rolls.actions import ActionRefused, RollSpec, record_roll
from rolls.dashboard.npc_rolls import Field
from rolls.engine import EngineError, caerbannog_pool
from rolls.engine import caerbannog as engine
from rolls.labels import words
from rolls.models import Roll
from rolls.panels import source
from rolls.systems.caerbannog import reactions, rozmach
from rolls.turns.fight import current

#: The campaign's setting: whether the GM's NPCs share one Rozmach pool.
SETTING = "npc_rozmach"
#: Where the shared pool is kept, beside the settings of ``Campaign.settings["caerbannog"]``.
POOL = "npc_rozmach_pool"
#: The sources an NPC's entry says its Rozmach with: the pool before its dice, or none at all.
POOLED, NONE = "npc_rozmach", "npc_no_rozmach"
#: The most a category bonus may be, as on a sheet.
BONUS_MAX = 10

labels.register(
    words={
        "npc_pool_before": gettext_lazy("before the dice"),
        "npc_no_rozmach": gettext_lazy(
            "the GM's NPCs have none in this campaign: its dice gain none"
        ),
    },
    counted={
        POOLED: ngettext_lazy(
            "%(n)s Rozmach (momentum) in the NPCs' shared pool",
            "%(n)s Rozmach (momentum) in the NPCs' shared pool",
            "n",
        ),
        NONE: ngettext_lazy("%(n)s Rozmach (momentum)", "%(n)s Rozmach (momentum)", "n"),
    },
    unsigned={POOLED, NONE},
    sources={
        POOLED: gettext_lazy("Rozmach (momentum) in the NPCs' shared pool"),
        NONE: gettext_lazy("Rozmach (momentum)"),
    },
)


def shared(campaign: Campaign) -> bool:
    """Whether the campaign's NPCs share one Rozmach pool (the GM's setting, off by default)."""
    return system_settings(campaign).get(SETTING) is True


def pool(campaign: Campaign) -> int:
    """The NPCs' shared pool as ``campaign`` holds it (0 when there is none)."""
    value = ((campaign.settings or {}).get("caerbannog") or {}).get(POOL, 0)
    if not isinstance(value, int) or isinstance(value, bool):
        return 0
    return caerbannog_pool.clamp_rozmach(value)


def pooled(sources: Any) -> bool:
    """Whether a logged roll's ``sources`` say it was an NPC's with the shared pool."""
    return isinstance(sources, list) and any(
        isinstance(s, dict) and s.get("kind") == POOLED for s in sources
    )


def hides_rozmach(roll: Roll) -> bool:
    """Whether ``roll``'s entry shows no Rozmach: an NPC's roll without the shared pool (those
    from before the setting too: no NPC had one then)."""
    return roll.npc_id is not None and not pooled(roll.sources)


def _store(campaign_id: int, value: int, *, expected: int | None = None) -> Campaign:
    """The pool set to ``value`` under the campaign's row lock; refused when it no longer holds
    ``expected`` (a roll made meanwhile changed it)."""
    locked = Campaign.objects.select_for_update().get(pk=campaign_id)
    if expected is not None and pool(locked) != expected:
        raise ActionRefused(
            _(
                "The NPCs' pool of Rozmach (momentum) changed meanwhile; look at the dashboard "
                "and roll again."
            )
        )
    stored = dict(locked.settings or {})
    stored["caerbannog"] = {**(stored.get("caerbannog") or {}), POOL: value}
    locked.settings = stored
    locked.save(update_fields=["settings"])
    return locked


def empty(campaign: Campaign) -> None:
    """The pool emptied (a new scene): nothing is written when it is empty already."""
    if pool(campaign):
        campaign.settings = _store(campaign.pk, 0).settings


# --- An NPC's roll ------------------------------------------------------------------------------


def reaction_field(campaign: Campaign) -> tuple[Field, ...]:
    """The NPC's test form's reaction, paid from the shared pool before the dice: the GM's
    Reaction-cost table (empty: none), only where the NPCs share a pool."""
    costs = sorted(rozmach.reaction_costs(campaign).items())
    if not costs or not shared(campaign):
        return ()
    choices = [(0, gettext_lazy("none"))] + [
        (index, _("%(name)s — %(cost)s Rozmach") % {"name": name, "cost": cost})
        for index, (name, cost) in enumerate(costs, start=1)
    ]
    return (
        Field(
            "reaction",
            gettext_lazy("Reaction, paid from the NPCs' Rozmach (momentum)"),
            0,
            len(costs),
            0,
            tuple(choices),
        ),
    )


def at_roll(
    campaign: Campaign, npc, values: Mapping[str, Any], params: dict[str, Any], sources: list
) -> tuple[dict[str, Any], list, Callable[[Any, Roll], None] | None]:
    """An NPC's roll as the setting makes it (``NpcTests.at_roll``): without the shared pool,
    the words that it gains none; with it, the pool it starts from after a reaction's cost, and
    the pool it leaves kept once rolled."""
    if not shared(campaign):
        return params, [*sources, source(NONE, 0, words("npc_no_rozmach"))], None
    before = pool(campaign)
    reaction, cost = _reaction(campaign, npc, values.get("reaction") or 0, before)
    spending = rozmach.Spending(
        pool=before, surprised=before, reaction=reaction, cost=cost, paid=cost
    )
    params = {**params, "rozmach": spending.start}
    sources = [
        *sources,
        source(POOLED, before, words("npc_pool_before")),
        *rozmach.sources(spending),
    ]

    def on_result(result: Any, roll: Roll) -> None:
        # Under the session's lock: a turn or another reaction since the form was read counts.
        if reaction and (why := reactions.refusal(npc, current(campaign.pk), made=roll)):
            raise ActionRefused(why)
        _store(campaign.pk, result.rozmach, expected=before)

    return params, sources, on_result


def _reaction(campaign: Campaign, npc, index: Any, have: int) -> tuple[str, int]:
    """The reaction the form's ``index`` names and its cost, refused when the rules say no."""
    if not index:
        return "", 0
    costs = sorted(rozmach.reaction_costs(campaign).items())
    if not isinstance(index, int) or not 1 <= index <= len(costs):
        raise ActionRefused(
            _("That reaction is no longer in the GM's Reaction-cost table; choose again.")
        )
    name, cost = costs[index - 1]
    if npc is not None and (why := reactions.refusal(npc, current(campaign.pk))):
        raise ActionRefused(why)
    if cost > have:
        raise ActionRefused(
            _(
                "%(reaction)s costs %(cost)s Rozmach (momentum) and the NPCs' pool holds "
                "%(have)s: Rozmach cannot be replaced by another resource."
            )
            % {"reaction": name, "cost": cost, "have": have}
        )
    return name, cost


# --- The boost after an NPC's roll --------------------------------------------------------------


def boost_refusal(roll: Roll, campaign: Campaign) -> str:
    """Why the GM may not boost the NPC's test ``roll`` now ("" when the GM may)."""
    cannot = _("That can no longer be done with this roll.")
    if not shared(campaign):
        return _(
            "The GM's NPCs have no Rozmach (momentum) in this campaign: nothing to boost with."
        )
    if roll.npc_id is None or roll.system != "caerbannog" or not pooled(roll.sources):
        return cannot
    try:
        params = engine.parse_params(roll.params)
        answer = roll.result["answer"]
        critical, left = answer["critical_failure"], answer["rozmach"]
    except (EngineError, KeyError, TypeError):
        return cannot
    if params.boost or roll.follow_ups.exists() or not roll.session.is_open:
        return cannot
    if critical:
        return _("A critical failure cannot be boosted with Rozmach (momentum).")
    scene = roll.session.scenes.aggregate(last=Max("number"))["last"]
    if roll.scene is not None and roll.scene.number != scene:
        return cannot
    if pool(campaign) != left:
        return _("The NPCs' pool of Rozmach (momentum) has changed since #%(seq)s: a boost "
                 "comes right after its roll.") % {"seq": roll.seq}  # fmt: skip
    if left < 1:
        return _("A boost costs 1 Rozmach (momentum), and the NPCs' pool is empty.")
    return ""


def latest_roll(campaign: Campaign, session: GameSession | None) -> Roll | None:
    """The open session's latest roll of an NPC's own test, the one a boost may follow."""
    if session is None or not session.is_open:
        return None
    return (
        Roll.objects.filter(session=session, npc__isnull=False, parent__isnull=True, kind="test")
        .select_related("session", "scene", "npc")
        .order_by("-seq")
        .first()
    )


@transaction.atomic
def boost(*, campaign: Campaign, roll_id: int, gm, bonus: int, key: uuid.UUID, nonce=None) -> Roll:
    """The GM spends 1 of the NPCs' Rozmach to add ``bonus`` (the NPC's category bonus) to the
    result of its test ``roll_id``: the same dice read again, logged as the roll's follow-up."""
    roll = (
        Roll.objects.select_related("session", "scene", "npc")
        .filter(pk=roll_id, session__campaign=campaign)
        .first()
    )
    if roll is None:
        raise ActionRefused(_("That can no longer be done with this roll."))
    # The session's lock every roll takes: a roll or a boost sent meanwhile is seen here.
    GameSession.objects.select_for_update().get(pk=roll.session_id)
    existing = Roll.objects.filter(session_id=roll.session_id, idempotency_key=key).first()
    if existing is not None:
        return existing
    if not isinstance(bonus, int) or not 1 <= bonus <= BONUS_MAX:
        raise ActionRefused(
            _("A category bonus is a whole number from 1 to %(max)s.") % {"max": BONUS_MAX}
        )
    if why := boost_refusal(roll, campaign):
        raise ActionRefused(why)
    left = roll.result["answer"]["rozmach"]
    faces = list(roll.faces)
    made, _created = record_roll(
        RollSpec(
            session=roll.session,
            actor=gm,
            system=roll.system,
            params={**roll.params, "boost": True, "bonus": bonus},
            key=key,
            label=roll.label_words,
            sources=[*roll.sources, source("boost", bonus, words("boost_spent"))],
            npc=roll.npc,
            visibility=roll.visibility,
            kind="boost",
            parent=roll,
            nonce=nonce,
            resolver=lambda module, params, rng: module.resolve(
                params, module.parse_faces(params, faces)
            ),
            on_result=lambda result, _roll: _store(campaign.pk, result.rozmach, expected=left),
        )
    )
    return made


# --- The GM's dashboard -------------------------------------------------------------------------

#: The dashboard's box at its ``npcs`` place (``rolls.dashboard.system_boxes.Box``), in "NPCs at
#: hand".
TEMPLATE = "systems/caerbannog/_npc_rozmach.html"


def box_context(campaign: Campaign, session: GameSession | None, **extra: Any) -> dict[str, Any]:
    """The box: whether the NPCs share a pool, what it holds, and the latest NPC's roll the GM
    may boost now (None when there is none). ``extra``: a refusal and the bonus typed."""
    on = shared(campaign)
    latest = latest_roll(campaign, session) if on else None
    offer = latest if latest is not None and not boost_refusal(latest, campaign) else None
    return {
        "campaign": campaign,
        "session": session,
        "npc_rozmach": {
            "shared": on,
            "pool": pool(campaign) if on else 0,
            "max": engine.ROZMACH_MAX,
            "offer": offer,
            "bonus_max": BONUS_MAX,
            "refusal": extra.get("refusal", ""),
            "bonus": extra.get("bonus", ""),
        },
    }
