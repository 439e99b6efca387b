"""Writes to characters: one function per action, each validating with the system's module.

Views call these and render what they return; no view saves a character itself. Each action
returns the errors keyed by form field (empty when it saved), so a refused write can be shown at
the field that caused it with everything typed kept. A rule system's own writes (FastTest's
wounds, say) live in its folder, ``rolls/systems/<key>/``, built on the helpers here (``locked``,
``save_validated``, ``save_rule_write``, ``change_sheet``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.systems import get_system
from config.text import MESSAGE as UNSAFE_TEXT
from config.text import has_unsafe_text, text_problem
from sheets.models import NPC, Character
from sheets.systems import Section

Errors = dict[str, list[str]]
NAME_FIELD = "name"
OWNER_FIELD = "owner"


def clean_name(name: Any) -> tuple[str, Errors]:
    """A character's name: required, at most the model's length."""
    text = name.strip() if isinstance(name, str) else ""
    limit = Character._meta.get_field("name").max_length
    if not text:
        return "", {NAME_FIELD: [_("Give the character a name.")]}
    if problem := text_problem(name):
        return "", {NAME_FIELD: [problem]}
    if len(text) > limit:
        return "", {NAME_FIELD: [_("Keep the name to %(max)d characters.") % {"max": limit}]}
    return text, {}


def validate_sheet(campaign: Campaign, data: Any, *, creating: bool) -> tuple[dict, Errors]:
    """The system's validation, and the text rule over whatever it kept: a field a system
    forgot to check can still never carry a NUL or a lone surrogate into the database."""
    clean, errors = get_system(campaign.system).sheet.validate(data, campaign, creating=creating)
    if not errors and has_unsafe_text(clean):
        errors = {"": [str(UNSAFE_TEXT)]}
    return clean, errors


def owner_choices(campaign: Campaign, by) -> list:
    """Who a new character may belong to: the GM picks any member; a player only themselves."""
    if not campaign.is_gm(by):
        return [by]
    users = get_user_model().objects.filter(memberships__campaign=campaign).order_by("username")
    return list(users)


def create_character(
    campaign: Campaign, *, by, name: Any, data: Any, owner_id: Any = None
) -> tuple[Character | None, Errors]:
    """A new character with a sheet that passes the system's creation rules."""
    clean_data, errors = validate_sheet(campaign, data, creating=True)
    errors = dict(errors)
    text, name_errors = clean_name(name)
    errors.update(name_errors)
    owner = by
    if owner_id not in (None, ""):
        owner = next((u for u in owner_choices(campaign, by) if str(u.pk) == str(owner_id)), None)
        if owner is None:
            errors[OWNER_FIELD] = [_("Choose a member of this campaign.")]
    if errors:
        return None, errors
    character = Character.objects.create(campaign=campaign, owner=owner, name=text, data=clean_data)
    return character, {}


def _get_path(data: dict, path: str) -> tuple[bool, Any]:
    node: Any = data
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return False, None
        node = node[part]
    return True, node


def _set_path(data: dict, path: str, present: bool, value: Any) -> None:
    *parents, last = path.split(".")
    node = data
    for part in parents:
        if not isinstance(node.get(part), dict):
            node[part] = {}
        node = node[part]
    if present:
        node[last] = value
    else:
        node.pop(last, None)


def merge_section(stored: dict, section: Section, posted: dict) -> dict:
    """The stored sheet with the section's parts replaced by what was posted."""
    if section.fields == ("*",):
        return copy.deepcopy(posted)
    merged = copy.deepcopy(stored) if isinstance(stored, dict) else {}
    for path in section.fields:
        present, value = _get_path(posted, path)
        _set_path(merged, path, present, value)
    return merged


def update_section(character: Character, section: Section, posted: dict) -> tuple[dict, Errors]:
    """Save one box of the sheet; returns the merged values (as typed) and the errors."""
    campaign = character.campaign
    merged = merge_section(character.data, section, posted)
    clean, errors = validate_sheet(campaign, merged, creating=False)
    if not errors:
        character.data = clean
        character.save(update_fields=["data", "updated_at"])
    return merged, dict(errors)


def rename_character(character: Character, name: Any) -> Errors:
    text, errors = clean_name(name)
    if not errors:
        character.name = text
        character.save(update_fields=["name", "updated_at"])
    return errors


def locked(character: Character) -> Character:
    """The character re-read under a row lock, so two quick clicks cannot lose a write."""
    row = Character.objects.select_for_update().get(pk=character.pk)
    row.campaign = character.campaign
    return row


def save_validated(character: Character, data: dict, field: str) -> Errors:
    """Validate a changed sheet as an edit; errors of the sheet land on ``field``."""
    clean, errors = validate_sheet(character.campaign, data, creating=False)
    if errors:
        return {field: [message for messages in errors.values() for message in messages]}
    character.data = clean
    character.save(update_fields=["data", "updated_at"])
    return {}


def save_rule_write(character: Character, data: dict, field: str) -> Errors:
    """Save a write the rules or the GM make in play (a wound, dice spent, XP): refused, with
    the schema's messages on ``field``, for what the write itself breaks. A sheet already
    outside its schema elsewhere (one made before a rule was tightened) keeps being played:
    its other faults are not this write's, and stay for the sheet's own form to show."""
    clean, errors = validate_sheet(character.campaign, data, creating=False)
    if errors:
        _clean, before = validate_sheet(character.campaign, character.data, creating=False)
        errors = {
            key: new
            for key, messages in errors.items()
            if (new := [message for message in messages if message not in before.get(key, [])])
        }
        if errors:
            return {field: [message for messages in errors.values() for message in messages]}
        clean = data
    character.data = clean
    character.save(update_fields=["data", "updated_at"])
    return {}


def _messages(errors: Errors) -> str:
    return " ".join(message for messages in errors.values() for message in messages)


class SheetRefused(Exception):
    """A write the rules make refused by the sheet's schema; the message is the player's."""


@transaction.atomic
def change_sheet(
    character: Character,
    change: Callable[[dict[str, Any]], None],
    spend: Mapping[str, int] | None = None,
    numbers_changed: list | None = None,
) -> Character:
    """A write the rules make after a roll or at a moment of play (dice or FUNT spent, FUNT
    gained, Rozmach after the roll, the magic die, XP): ``spend`` takes whole numbers off the
    sheet's top-level counters, then ``change`` edits a copy of the locked sheet; the result is
    saved only when it passes the system's schema (``SheetRefused`` otherwise). Returns the
    locked character as saved, so the caller shows the sheet without reading it again.
    ``numbers_changed``, when given, receives each whole number the write changed
    (``changed_numbers``)."""
    character = locked(character)
    before = character.data if isinstance(character.data, dict) else {}
    data = copy.deepcopy(before)
    for name, amount in (spend or {}).items():
        have = data.get(name, 0)
        if not isinstance(have, int) or have < amount:
            raise SheetRefused(_("Not enough left to spend; look at the sheet again."))
        data[name] = have - amount
    change(data)
    if errors := save_rule_write(character, data, ""):
        raise SheetRefused(_messages(errors))
    if numbers_changed is not None:
        numbers_changed.extend(changed_numbers(before, data))
    return character


def changed_numbers(before: Any, after: Any, path: tuple[str, ...] = ()) -> list[list]:
    """Each whole number at a path of nested objects that differs between two sheets, as
    ``[path, before, after]`` (a number that appeared counts from 0): what a roll spent or
    gained, so that it can be given back (``rolls.strikes``)."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return []
    found = []
    for key, now in after.items():
        was = before.get(key, 0)
        if isinstance(now, dict):
            found += changed_numbers(was if isinstance(was, dict) else {}, now, (*path, key))
        elif _whole(now) and _whole(was) and now != was:
            found.append([[*path, key], was, now])
    return found


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def set_numbers(character: Character, numbers: Mapping[tuple[str, ...], int]) -> Character:
    """Whole numbers the GM or the rules set on the sheet ({path: value}: XP given, an
    experience die, dice turned into XP), validated as one write (``SheetRefused``)."""

    def change(data: dict[str, Any]) -> None:
        for path, value in numbers.items():
            node = data
            for key in path[:-1]:
                if not isinstance(node.get(key), dict):
                    node[key] = {}
                node = node[key]
            node[path[-1]] = value

    return change_sheet(character, change)


# --- NPCs ------------------------------------------------------------------------------------
# The GM's NPC trait lists. ``traits`` is always the checked list of {"name", "dice"}.


#: NPCs one campaign may hold: each is a field of the turn order and a card of the GM's tools
#: (one account quick-entered 300 to roll all their dice at once: issue 37); a long campaign's
#: cast and its battles fit many times over.
NPCS_PER_CAMPAIGN = 200


def _room_for_npcs(campaign: Campaign, count: int) -> None:
    """Refuses ``count`` more NPCs past ``NPCS_PER_CAMPAIGN``, saying how many still fit."""
    have = NPC.objects.filter(campaign=campaign).count()
    if have + count > NPCS_PER_CAMPAIGN:
        raise SheetRefused(
            _(
                "A campaign holds at most %(most)s NPCs and this one has %(have)s, so %(left)s "
                "more fit; delete some first, or add fewer."
            )
            % {"most": NPCS_PER_CAMPAIGN, "have": have, "left": max(0, NPCS_PER_CAMPAIGN - have)}
        )


@transaction.atomic
def create_npcs(campaign: Campaign, parsed: list) -> list[NPC]:
    """NPCs from quick entry (``ParsedNPC`` items), all or none (``SheetRefused`` past the
    campaign's room for NPCs)."""
    _room_for_npcs(campaign, len(parsed))
    return NPC.objects.bulk_create(
        NPC(campaign=campaign, name=npc.name, traits=npc.as_traits()) for npc in parsed
    )


def create_npc(
    campaign: Campaign,
    *,
    name: str,
    traits: list[dict],
    notes: str,
    revealed: bool,
    stats: dict | None = None,
) -> NPC:
    _room_for_npcs(campaign, 1)
    return NPC.objects.create(
        campaign=campaign,
        name=name,
        traits=traits,
        stats=stats or {},
        notes=notes,
        revealed=revealed,
    )


def update_npc(
    npc: NPC,
    *,
    name: str,
    traits: list[dict],
    notes: str,
    revealed: bool,
    stats: dict | None = None,
) -> NPC:
    npc.name, npc.traits, npc.notes, npc.revealed = name, traits, notes, revealed
    fields = ["name", "traits", "notes", "revealed"]
    if stats is not None:
        npc.stats = stats
        fields.append("stats")
    npc.save(update_fields=fields)
    return npc


def set_npc_revealed(npc: NPC, revealed: bool) -> NPC:
    npc.revealed = revealed
    npc.save(update_fields=["revealed"])
    return npc


def delete_npc(npc: NPC) -> None:
    npc.delete()
