"""The options after a roll (RULES.md 3.6): the rules' menu, who picks from it, the pick and the
GM's counter-move, each an entry of the log that follows the roll.

The rules say what follows a roll (their ``FollowUps`` part's ``menu``): the options of its
result, how many to pick, and who picks. A player's menu is on the roller's own panel right
after the roll; the GM's dashboard shows what was picked and may add the GM's own counter-move.
The GM picks where the rules say so (T10: a catastrophe's bad options), and on an absent
player's behalf while the player has not picked (the entry says it was the GM's pick). A roll's
options are picked once, in the session the roll was made in; a request sent again with its key
gets the entry it made. An option with a lasting effect leaves its condition on the roller's
sheet (``rolls.conditions``), with the roll as its source.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from campaigns.models import Campaign, GameSession
from campaigns.systems import get_system
from rolls import labels
from rolls.actions import ActionRefused, record_note
from rolls.conditions.actions import add_condition
from rolls.conditions.in_force import preset_spec
from rolls.labels import WORDS, words
from rolls.log.reading import may_see
from rolls.models import Roll
from rolls.panels import FollowUps
from rolls.tables.random_tables import tables_by_purpose
from sheets.models import Character

# The log's words for the options after a roll: the pick, the GM's pick on a player's behalf,
# and the GM's counter-move.
labels.register(
    kinds={"options": gettext_lazy("options chosen"), "counter_move": gettext_lazy("counter-move")},
    words={
        "options_chosen": gettext_lazy("Chosen: %(options)s"),
        "options_chosen_for": gettext_lazy("Chosen by the GM for %(name)s: %(options)s"),
    },
)

#: The log's kinds: the options picked after a roll, and the GM's counter-move after it.
OPTIONS, COUNTER = "options", "counter_move"
PLAYER, GM = "player", "gm"
#: How many of the open session's latest tests the GM's box looks at.
WINDOW = 10
#: The longest option or counter-move written in one's own words.
OWN_MAX = 200


def _menu_of(system) -> Callable[..., Mapping[str, Any] | None] | None:
    """The rules' menu after a roll (T10's options, RULES.md 3.6): its ``FollowUps``' ``menu``;
    every other system is spared the look for one.

    ``menu(roll, tables=None)``: the menu after ``roll``, None when there is none: ``purpose``,
    ``why``, ``picks`` (how many to choose), ``options`` (``key``, ``text``, ``original``,
    ``condition``: a key of ``ConditionRules.presets`` or ""), ``picker`` ("player": the roller
    picks on their own panel, the GM only on their behalf; "gm": only the GM),
    ``counter_move`` (the GM may add a move of their own) and ``title`` (what the roller's panel
    calls the menu). A menu of no options (``picks`` 0) offers the GM's counter-move alone.
    ``tables``: the campaign's random tables by purpose (``tables_by_purpose``): the options as
    they hold them; None for the rules' own lists."""
    follow_ups = system.part(FollowUps)
    return follow_ups.menu if follow_ups is not None else None


def offers_options(system) -> bool:
    return _menu_of(system) is not None


def menu_for(roll: Roll, tables: Mapping[str, Sequence[Any]] | None = None):
    """The rules' menu after ``roll`` (``FollowUps.menu``), None when they have none.
    ``tables``: the campaign's tables by purpose, when the caller read them for many rolls."""
    menu = _menu_of(get_system(roll.system))
    if menu is None or roll.kind != "test" or roll.character_id is None:
        return None
    if tables is None:
        tables = tables_by_purpose(roll.session.campaign_id)
    return menu(roll, tables)


def answers(roll: Roll) -> tuple[Roll | None, Roll | None]:
    """The entries that answered ``roll``'s menu: the pick and the GM's counter-move (each
    once), read from its follow-ups (prefetched by the GM's box)."""
    found = {f.kind: f for f in roll.follow_ups.all() if f.kind in (OPTIONS, COUNTER)}
    return found.get(OPTIONS), found.get(COUNTER)


def picked_by_gm(entry: Roll | None) -> bool:
    return entry is not None and isinstance(entry.params, dict) and entry.params.get("by") == GM


def _again(session: GameSession, key: uuid.UUID, roll: Roll, actor, kind: str) -> Roll | None:
    """The entry this request already made (its answer was lost and it came again), if any."""
    existing = Roll.objects.filter(session=session, idempotency_key=key).first()
    if existing is None:
        return None
    if existing.kind == kind and existing.parent_id == roll.pk and existing.actor_id == actor.pk:
        return existing
    raise ActionRefused(_("This request is malformed; reload the page and try again."))


def _still_open(session: GameSession, roll: Roll, late: str) -> None:
    if not session.is_open:
        raise ActionRefused(late % {"seq": roll.seq})


def check_pick(menu, chosen: Iterable[str], own: str) -> list[dict[str, Any]]:
    """The menu's options named by ``chosen``, refused when one is not on it or when they and
    ``own`` are none or more than the result gives (the form says it first)."""
    chosen = list(dict.fromkeys(chosen))
    offered = {option["key"]: option for option in menu["options"]}
    if any(key not in offered for key in chosen):
        raise ActionRefused(
            _("That option is not on this result’s list; reload the page to see it.")
        )
    picked = len(chosen) + (1 if own else 0)
    if picked == 0:
        raise ActionRefused(_("Tick an option or write your own."))
    if picked > menu["picks"]:
        raise ActionRefused(too_many(menu["picks"], picked))
    return [offered[key] for key in chosen]


def too_many(picks: int, picked: int) -> str:
    return ngettext(
        "This result gives %(n)s option; you chose %(picked)s.",
        "This result gives %(n)s options; you chose %(picked)s.",
        picks,
    ) % {"n": picks, "picked": picked}


def said(option: Mapping[str, Any]) -> Any:
    """An option as the log says it: the rules' own in each reader's language, else as written."""
    return words(option["key"]) if option["key"] in WORDS else str(option["text"])


def joined(items: list[Any]) -> Any:
    return {"j": "; ", "i": items} if len(items) > 1 else items[0]


@transaction.atomic
def choose_options(
    *, roll: Roll, actor, chosen: Iterable[str], own: str = "", key: uuid.UUID
) -> tuple[Roll, bool]:
    """Log the options picked after ``roll`` (once) and put on the roller's sheet the conditions
    they leave (knocked down: −2 dice until standing up again). Returns (entry, created): a
    request sent again with its ``key`` gets the entry it made."""
    session = GameSession.objects.select_for_update().get(pk=roll.session_id)
    if (entry := _again(session, key, roll, actor, OPTIONS)) is not None:
        return entry, False
    _still_open(
        session, roll, _("The session of #%(seq)s has ended; its options can no longer be picked.")
    )
    menu = menu_for(roll)
    if menu is None or not menu["options"]:
        raise ActionRefused(_("The rules offer no options after this roll."))
    character = Character.objects.select_related("campaign").get(pk=roll.character_id)
    gm, owner = character.campaign.is_gm(actor), character.owner_id == actor.pk
    if not gm and (menu["picker"] != PLAYER or not owner):
        raise ActionRefused(
            _("The GM picks the options after #%(seq)s, not the player.") % {"seq": roll.seq}
        )
    if Roll.objects.filter(parent=roll, kind=OPTIONS).exists():
        raise ActionRefused(
            _("The options after #%(seq)s have already been picked; the log shows which.")
            % {"seq": roll.seq}
        )
    own = " ".join(own.split())
    if len(own) > OWN_MAX:
        raise ActionRefused(_("Write your own option in at most 200 characters."))
    options = check_pick(menu, chosen, own)
    said_all = [said(option) for option in options] + ([own] if own else [])
    on_behalf = menu["picker"] == PLAYER and not owner
    label = (
        words("options_chosen_for", name=character.name, options=joined(said_all))
        if on_behalf
        else words("options_chosen", options=joined(said_all))
    )
    entry, _created = record_note(
        kind=OPTIONS,
        facts={
            "chosen": [option["key"] for option in options],
            "own": own,
            "by": PLAYER if owner else GM,
        },
        session=session,
        actor=actor,
        system=roll.system,
        key=key,
        label=label,
        character=character,
        visibility=roll.visibility,
        parent=roll,
    )
    system = get_system(roll.system)
    for option in options:
        if option.get("condition"):
            add_condition(
                character=character,
                actor=actor,
                spec=preset_spec(system, option["condition"]),
                source_roll=roll,
            )
    return entry, True


@transaction.atomic
def counter_move(*, roll: Roll, actor, text: str, key: uuid.UUID) -> tuple[Roll, bool]:
    """Log the GM's own counter-move after ``roll`` (once), where the rules leave the GM one."""
    session = GameSession.objects.select_for_update().get(pk=roll.session_id)
    if (entry := _again(session, key, roll, actor, COUNTER)) is not None:
        return entry, False
    _still_open(
        session,
        roll,
        _("The session of #%(seq)s has ended; a counter-move follows a roll of this session."),
    )
    menu = menu_for(roll)
    if menu is None or not menu["counter_move"]:
        raise ActionRefused(_("The rules leave no counter-move after this roll."))
    if not session.campaign.is_gm(actor):
        raise ActionRefused(_("Only the GM makes a counter-move."))
    if Roll.objects.filter(parent=roll, kind=COUNTER).exists():
        raise ActionRefused(
            _("The counter-move after #%(seq)s is already in the log.") % {"seq": roll.seq}
        )
    text = " ".join(text.split())
    if not text or len(text) > OWN_MAX:
        raise ActionRefused(_("Write the counter-move in at most 200 characters."))
    return record_note(
        kind=COUNTER,
        facts={"text": text},
        session=session,
        actor=actor,
        system=roll.system,
        key=key,
        label=text,
        character=roll.character,
        visibility=roll.visibility,
        parent=roll,
    )


# --- What the roller's panel shows -------------------------------------------------------------


def panel_view(
    roll: Roll | None, user, campaign: Campaign, character: Character
) -> dict[str, Any] | None:
    """The menu under ``character``'s result on its test panel, as ``user`` may use it: the
    options to pick (the roller's, or the GM's where the rules say so or on the player's
    behalf), or what was picked and the GM's counter-move once in the log; None when nothing
    follows the roll."""
    menu = menu_for(roll) if roll is not None else None
    if menu is None:
        return None
    picked, counter = answers(roll)
    if not menu["options"] and counter is None:
        return None  # the GM's counter-move alone, not made (yet)
    gm = campaign.is_gm(user)
    mine = menu["picker"] == PLAYER and character.owner_id == user.pk
    open_ = bool(menu["options"]) and picked is None and roll.session.is_open
    return {
        "roll": roll,
        "menu": menu,
        "picked": picked,
        "picked_by_gm": picked_by_gm(picked),
        "counter": counter,
        "gm_picks": menu["picker"] == GM and bool(menu["options"]),
        "may_pick": open_ and (gm or mine),
        "on_behalf": menu["picker"] == PLAYER and not mine,
        "key": uuid.uuid4(),
    }


def awaiting_pick(character: Character, campaign: Campaign, user, session) -> Roll | None:
    """The character's latest test of the open ``session`` while its options wait for ``user``
    to pick them: a page's panel opens on it (what must be done now is in the first HTML)."""
    if session is None or not offers_options(campaign.rules):
        return None
    roll = (
        Roll.objects.filter(session=session, character=character, kind="test")
        .select_related("session")
        .order_by("-seq")
        .first()
    )
    if roll is None or not may_see(roll, user, campaign.is_gm(user)):
        return None
    view = panel_view(roll, user, campaign, character)
    return roll if view is not None and view["may_pick"] else None


# --- What the GM's dashboard shows -------------------------------------------------------------


def offers(campaign: Campaign, session: GameSession | None) -> list[dict[str, Any]]:
    """The open session's latest tests (newest first) whose menu still waits for something:
    the GM's pick, the player's pick (the GM may pick on their behalf), or the GM's
    counter-move. A pick stays shown beside the counter-move until that is made too."""
    if session is None or not session.is_open or not offers_options(campaign.rules):
        return []
    rolls = list(
        Roll.objects.filter(session=session, kind="test", character__isnull=False)
        .select_related("session", "character")
        .prefetch_related("follow_ups__actor")
        .order_by("-seq")[:WINDOW]
    )
    tables = tables_by_purpose(campaign) if rolls else {}
    found = []
    for roll in rolls:
        menu = menu_for(roll, tables)
        if menu is None:
            continue
        picked, counter = answers(roll)
        waits_pick = bool(menu["options"]) and picked is None
        waits_counter = menu["counter_move"] and counter is None
        if not waits_pick and not waits_counter:
            continue
        found.append(
            {
                "roll": roll,
                "menu": menu,
                "picked": picked,
                "picked_by_gm": picked_by_gm(picked),
                "counter": counter,
                "gm_picks": menu["picker"] == GM and bool(menu["options"]),
                "waits_pick": waits_pick,
                "waits_counter": waits_counter,
                "key": uuid.uuid4(),
            }
        )
    return found
