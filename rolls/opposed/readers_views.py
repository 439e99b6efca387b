"""What each page shows of an opposed test (rolls.opposed.actions): the exact odds of winning,
the view of a side's panel, of the side that settles in turn, and of the GM's dashboard. Each
viewer sees a side's result only where the log would show it to them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import Q

from campaigns.models import GameSession
from campaigns.systems import get_system
from rolls.log.reading import may_see
from rolls.models import OpposedTest, PendingTest, Roll
from rolls.opposed.actions import (
    a_settled,
    final_roll,
    initiator_only,
    npc_side,
    opposed_of,
    side_pending,
    side_roll,
)
from rolls.opposed.rules import OpposedRules, rules_of
from rolls.panels import follow_ups_after
from rolls.pending.actions import card_panel, pending_view


def _side_params(opposed: OpposedTest, side: str, choices: Mapping[str, Any] | None):
    """The engine's params of one side before its roll: its panel's now, with the viewer's own
    ``choices`` when it is their side, else with its player's draft (the choices their panel
    shows: the called defaults only until they change one), or the NPC's numbers."""
    campaign = opposed.session.campaign
    system = get_system(campaign.system)
    pending = side_pending(opposed, side)
    if pending is None:
        return system.engine.parse_params(opposed.npc_params)
    if choices is None:
        panel = card_panel(system, campaign, pending)
    else:
        panel = system.panel.build(
            pending.character, campaign, choices, pending=pending_view(pending)
        )
    if not panel.ready:
        return None
    return system.engine.parse_params(panel.params)


def _seen_result(opposed: OpposedTest, side: str, rules: OpposedRules, viewer) -> tuple | None:
    """``(params, result)`` of a side already rolled, as the result entry will read it (its
    final roll where the sides settle in turn), when ``viewer`` may see that roll; else None:
    a roll hidden from them must not move their numbers, or the numbers would tell it."""
    roll = side_roll(opposed, side)
    if roll is None:
        return None
    if rules.settle_in_turn:
        roll = final_roll(roll)
    if not may_see(roll, viewer, opposed.session.campaign.gm_id == viewer.pk):
        return None
    engine = get_system(opposed.session.campaign.system).engine
    params = engine.parse_params(roll.params)
    return params, engine.resolve(params, engine.parse_faces(params, roll.faces))


def win_odds(
    opposed: OpposedTest,
    side: str | None = None,
    choices: Mapping[str, Any] | None = None,
    *,
    viewer,
) -> dict[str, float] | None:
    """The exact odds of each side winning (and of a draw) as ``viewer`` may know them:
    ``choices`` are the panel's of ``side`` (the player looking at their own side), the other
    side's are its player's draft; a side rolled where the viewer sees it counts with its
    result. None when a side cannot be rolled yet."""
    rules = rules_of(opposed.session.campaign.system)
    if rules is None:
        return None
    params: dict[str, Any] = {}
    results: dict[str, Any] = {}
    for key in ("a", "b"):
        seen = _seen_result(opposed, key, rules, viewer)
        if seen is not None:
            params[key], results[f"{key}_result"] = seen
        else:
            params[key] = _side_params(opposed, key, choices if side == key else None)
    if params["a"] is None or params["b"] is None:
        return None
    return rules.win_odds(params["a"], params["b"], **results)


def view(opposed: OpposedTest, side: str | None = None, choices=None, *, viewer) -> dict[str, Any]:
    """The opposed test as ``viewer``'s page shows it: both sides, who has rolled, the odds of
    winning."""
    a_roll, b_roll = side_roll(opposed, "a"), side_roll(opposed, "b")
    names = {
        key: pending.character.name if pending is not None else opposed.npc_name
        for key, pending in (("a", side_pending(opposed, "a")), ("b", side_pending(opposed, "b")))
    }
    open_ = opposed.status == "open"
    odds = win_odds(opposed, side, choices, viewer=viewer) if open_ else None
    other = {"a": "b", "b": "a"}.get(side or "")
    return {
        **_settling(opposed, a_roll, b_roll),
        "opposed": opposed,
        "side": side,
        "mine": odds[side] if odds and side else None,
        "theirs": odds[other] if odds and other else None,
        "initiator_name": names["a"],
        "opponent_name": names["b"],
        "a_roll": a_roll,
        "b_roll": b_roll,
        "odds": odds,
        "npc_side": npc_side(opposed),
    }


def _settling(opposed: OpposedTest, a_roll: Roll | None, b_roll: Roll | None) -> dict:
    """Whose turn it is to settle (sides settled in turn, both rolled): "a", "b" or None, and
    each side's final roll so far (its last boost or re-roll)."""
    rules = rules_of(opposed.session.campaign.system)
    settling = (
        rules is not None
        and rules.settle_in_turn
        and opposed.status == OpposedTest.Status.OPEN
        and a_roll is not None
        and b_roll is not None
    )
    if not settling:
        return {"settling": False, "turn": None}
    turn = "b" if a_settled(opposed) else "a"
    return {
        "settling": True,
        "turn": turn,
        "a_final": final_roll(a_roll),
        "b_final": final_roll(b_roll),
    }


def settle_view(character, user) -> dict[str, Any] | None:
    """The opposed test ``character``'s rolled side waits in, to settle in turn, as its
    player's panel shows it (may they settle now?); None when there is none."""
    rules = rules_of(character.campaign.system)
    if rules is None or not rules.settle_in_turn:
        return None  # no query on a panel whose rules settle nothing in turn
    found = (
        OpposedTest.objects.filter(status=OpposedTest.Status.OPEN)
        .filter(
            Q(initiator__character=character, initiator__roll__isnull=False)
            | Q(opponent__character=character, opponent__roll__isnull=False)
        )
        .select_related("session__campaign", "initiator")
        .first()
    )
    if found is None:
        return None
    side = (
        "a" if found.initiator is not None and found.initiator.character_id == character.pk else "b"
    )
    shown = view(found, side, viewer=user)
    if not shown["settling"]:
        return None
    campaign = found.session.campaign
    final = shown["a_final" if side == "a" else "b_final"]
    # A side the GM rolled hidden is the GM's to settle: its follow-ups would show its faces.
    mine = (
        shown["turn"] == side
        and user.pk in (character.owner_id, campaign.gm_id)
        and may_see(final, user, campaign.gm_id == user.pk)
    )
    offered, declare = [], None
    if mine:
        offered = [
            f
            for f in follow_ups_after(get_system(campaign.system), final, character, campaign)
            if not initiator_only(final, f.kind)
        ]
        if side == "a" and rules.declared is not None:
            declare = rules.declared.offer(final, character, campaign)
    return shown | {"may_settle": mine, "final": final, "follow_ups": offered, "declare": declare}


def panel_view(pending: PendingTest | None, choices=None, *, viewer) -> dict[str, Any] | None:
    """The opposed test a player's panel shows beside their side, to ``viewer``: with their own
    choices in the odds of winning. None when ``pending`` is no side of one."""
    if pending is None:
        return None
    opposed, side = opposed_of(pending)
    if opposed is None:
        return None
    return view(opposed, side, choices, viewer=viewer)


def dashboard_view(session: GameSession | None) -> list[dict[str, Any]]:
    """The session's opposed tests as the GM's dashboard lists them (waiting ones first)."""
    if session is None or rules_of(session.campaign.system) is None:
        return []
    tests = (
        OpposedTest.objects.filter(session=session)
        .exclude(status=OpposedTest.Status.CANCELLED)
        .select_related(
            "session__campaign__gm",
            "initiator__character",
            "opponent__character",
            "npc_roll",
            "result",
        )
        .order_by("status", "-created_at")[:6]
    )
    return [_gm_view(opposed) for opposed in tests]


def _gm_view(opposed: OpposedTest) -> dict[str, Any]:
    # The GM may settle the side whose turn it is for its player (a player away from the table).
    shown = view(opposed, viewer=opposed.session.campaign.gm)
    return shown | {"may_settle": shown["settling"]}
