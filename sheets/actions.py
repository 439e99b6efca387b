"""Writes to characters: one function per action, each validating with the system's module.

Views call these and render what they return; no view saves a character itself. Each action
returns the errors keyed by form field (empty when it saved), so a refused write can be shown at
the field that caused it with everything typed kept.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.system_settings import DEFAULT_FASTTEST_SKILLS
from campaigns.systems import get_system
from config.text import MESSAGE as UNSAFE_TEXT
from config.text import has_unsafe_text, text_problem
from rolls.engine.core import EngineError
from rolls.engine.fasttest_sheet import spend_development
from sheets.models import NPC, Character
from sheets.systems import Section
from sheets.systems.fasttest import MAX_WOUNDS, NAME_MAX, SEVERITIES

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


def _locked(character: Character) -> Character:
    """The character re-read under a row lock, so two quick clicks cannot lose a write."""
    locked = Character.objects.select_for_update().get(pk=character.pk)
    locked.campaign = character.campaign
    return locked


def _save_validated(character: Character, data: dict, field: str) -> Errors:
    """Validate a changed sheet as an edit; errors of the sheet land on ``field``."""
    clean, errors = validate_sheet(character.campaign, data, creating=False)
    if errors:
        return {field: [message for messages in errors.values() for message in messages]}
    character.data = clean
    character.save(update_fields=["data", "updated_at"])
    return {}


def _save_rule_write(character: Character, data: dict, field: str) -> Errors:
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
) -> Character:
    """A write the rules make after a roll or at a moment of play (dice or FUNT spent, FUNT
    gained, Rozmach after the roll, the magic die, XP): ``spend`` takes whole numbers off the
    sheet's top-level counters, then ``change`` edits a copy of the locked sheet; the result is
    saved only when it passes the system's schema (``SheetRefused`` otherwise). Returns the
    locked character as saved, so the caller shows the sheet without reading it again."""
    character = _locked(character)
    data = copy.deepcopy(character.data) if isinstance(character.data, dict) else {}
    for name, amount in (spend or {}).items():
        have = data.get(name, 0)
        if not isinstance(have, int) or have < amount:
            raise SheetRefused(_("Not enough left to spend; look at the sheet again."))
        data[name] = have - amount
    change(data)
    if errors := _save_rule_write(character, data, ""):
        raise SheetRefused(_messages(errors))
    return character


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


# FastTest: wounds and development -------------------------------------------------------------


@transaction.atomic
def add_wound(character: Character, label: Any, severity: Any) -> Errors:
    """The one way a wound goes on a sheet: the owner's form, a combat wound the GM applies,
    the wound a test adds by ignoring wounds. Refused, with the messages by form field, when the
    wound would break the sheet's schema (a label too long, no such severity, past
    ``MAX_WOUNDS``)."""
    locked = _locked(character)
    errors: Errors = {}
    label = label.strip() if isinstance(label, str) else ""
    if len(label) > NAME_MAX:
        errors["wound_label"] = [_("Keep the label to %(max)d characters.") % {"max": NAME_MAX}]
    elif problem := text_problem(label):
        errors["wound_label"] = [problem]
    if severity not in SEVERITIES:
        errors["wound_severity"] = [_("Choose how severe the wound is.")]
    wounds = list(locked.data.get("wounds", []))
    if len(wounds) >= MAX_WOUNDS:
        errors["wound_label"] = [
            _("%(name)s's sheet already holds %(max)s wounds; remove one first.")
            % {"name": locked.name, "max": MAX_WOUNDS}
        ]
    if errors:
        return errors
    wounds.append({"label": label, "severity": severity, "bandaged": False})
    errors = _save_rule_write(locked, {**locked.data, "wounds": wounds}, "wound_label")
    # The caller's object shows the sheet as saved, without reading it again.
    character.data, character.updated_at = locked.data, locked.updated_at
    return errors


@transaction.atomic
def take_back_wound(character: Character, label: str, severity: str) -> Errors:
    """Remove the newest wound of this label and severity (the armor turned it aside after a
    wound test); nothing when the sheet no longer holds it."""
    character = _locked(character)
    wounds = character.data.get("wounds", [])
    wounds = wounds if isinstance(wounds, list) else []
    for index in range(len(wounds) - 1, -1, -1):
        wound = wounds[index]
        if isinstance(wound, dict) and (wound.get("label"), wound.get("severity")) == (
            label,
            severity,
        ):
            kept = wounds[:index] + wounds[index + 1 :]
            return _save_rule_write(character, {**character.data, "wounds": kept}, "wounds")
    return {}


def set_magic_die(character: Character, die: int | None) -> Character:
    """The magic die after a night's rest (``SheetRefused`` when the sheet refuses it)."""
    return change_sheet(character, lambda data: data.update(magic_die=die))


def _wound_index(character: Character, index: int) -> int | None:
    wounds = character.data.get("wounds", [])
    return index if isinstance(wounds, list) and 0 <= index < len(wounds) else None


@transaction.atomic
def set_wound_bandaged(character: Character, index: int, bandaged: bool) -> Errors:
    character = _locked(character)
    if _wound_index(character, index) is None:
        return {"wounds": [_("That wound is no longer on the sheet.")]}
    wounds = copy.deepcopy(character.data["wounds"])
    wounds[index]["bandaged"] = bandaged
    return _save_validated(character, {**character.data, "wounds": wounds}, "wounds")


@transaction.atomic
def remove_wound(character: Character, index: int) -> Errors:
    character = _locked(character)
    if _wound_index(character, index) is None:
        return {"wounds": [_("That wound is no longer on the sheet.")]}
    wounds = copy.deepcopy(character.data["wounds"])
    del wounds[index]
    return _save_validated(character, {**character.data, "wounds": wounds}, "wounds")


@transaction.atomic
def develop(character: Character, target: Any, new_name: Any = "", magic: bool = False) -> Errors:
    """FastTest development: +1 level on trait ``target`` (its index) or, with ``target`` "new",
    a new trait at level 1; paid with the current sum of trait levels in XP."""
    character = _locked(character)
    data = copy.deepcopy(character.data)
    traits = data.get("traits", [])
    levels = [trait["level"] for trait in traits]
    try:
        xp_left = spend_development(data.get("xp", 0), levels)
    except EngineError:
        cost = sum(levels)
        return {
            "develop": [
                _("The next development costs %(cost)d XP; this character has %(xp)d.")
                % {"cost": cost, "xp": data.get("xp", 0)}
            ]
        }
    if target == "new":
        name = new_name.strip() if isinstance(new_name, str) else ""
        if not name:
            return {"develop_name": [_("Name the new trait.")]}
        if problem := text_problem(name):
            return {"develop_name": [problem]}
        traits.append({"name": name, "level": 1, "magic": magic})
    else:
        try:
            index = int(target)
        except (TypeError, ValueError):
            index = -1
        if not 0 <= index < len(traits):
            return {"develop": [_("Choose a trait to raise, or a new trait.")]}
        traits[index]["level"] += 1
    data["traits"] = traits
    data["xp"] = xp_left
    clean, errors = validate_sheet(character.campaign, data, creating=False)
    if errors:
        field = "develop_name" if target == "new" else "develop"
        return {field: [message for messages in errors.values() for message in messages]}
    character.data = clean
    character.save(update_fields=["data", "updated_at"])
    return {}


# --- A campaign's FastTest skills renamed on every sheet (System.settings_saved) ----------


def renamed_skills(skills: Any, old: list[str], new: list[str]) -> Any:
    """A character's FastTest skill values under the new names, matched by position.

    The value a character had under the n-th old name moves to the n-th new name, so swapping two
    names swaps nothing in the numbers; a value that was missing becomes 0 (the neutral value).
    Anything that is not a dict of skills is left as it is for the sheet's own validation.
    """
    if not isinstance(skills, dict):
        return skills
    return {new_name: skills.get(old_name, 0) for old_name, new_name in zip(old, new, strict=True)}


def _six(names: Any) -> list[str]:
    names = [str(name) for name in names] if isinstance(names, list) else []
    return (names + DEFAULT_FASTTEST_SKILLS[len(names) :])[:6]


def rename_skills(campaign: Campaign, old: Any, new: list[str]) -> None:
    """FastTest: the campaign's six skills renamed from ``old`` to ``new`` on every sheet."""
    old = _six(old)
    if old != new:
        _rename_fasttest_skills(campaign, old, new)


def _rename_fasttest_skills(campaign: Campaign, old: list[str], new: list[str]) -> None:
    changed = []
    for character in Character.objects.select_for_update().filter(campaign=campaign):
        if not isinstance(character.data, dict) or "skills" not in character.data:
            continue
        skills = renamed_skills(character.data["skills"], old, new)
        if skills != character.data["skills"]:
            character.data = {**character.data, "skills": skills}
            changed.append(character)
    Character.objects.bulk_update(changed, ["data"])
    # NPCs with full stats carry the same six skills.
    npcs = []
    for npc in NPC.objects.select_for_update().filter(campaign=campaign):
        skills = npc.stats.get("skills") if isinstance(npc.stats, dict) else None
        if isinstance(skills, dict) and (moved := renamed_skills(skills, old, new)) != skills:
            npc.stats = {**npc.stats, "skills": moved}
            npcs.append(npc)
    NPC.objects.bulk_update(npcs, ["stats"])


# --- NPCs ------------------------------------------------------------------------------------
# The GM's NPC trait lists. ``traits`` is always the checked list of {"name", "dice"}.


@transaction.atomic
def create_npcs(campaign: Campaign, parsed: list) -> list[NPC]:
    """NPCs from quick entry (``ParsedNPC`` items), all or none."""
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
