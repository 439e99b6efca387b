"""FastTest's own writes to a sheet: a wound added (``add_wound``, the one way one goes on),
taken back, bandaged or removed; the magic die after a night's rest; development, a trait raised
or a new one paid for in XP; and the campaign's six skills renamed on every sheet and NPC
(``rename_skills``, FastTest's receiver of ``settings_saved``). Each locks and validates through the
generic helpers of ``sheets.actions``, which holds no system's writes."""

from __future__ import annotations

import copy
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.system_settings import DEFAULT_FASTTEST_SKILLS
from config.text import text_problem
from rolls.engine.core import EngineError
from rolls.engine.fasttest_sheet import spend_development
from sheets import actions as sheet_actions
from sheets.actions import Errors
from sheets.models import NPC, Character
from sheets.systems.fasttest_checks import MAX_WOUNDS, NAME_MAX, SEVERITIES

# --- Wounds, the magic die, development ---------------------------------------------------------


@transaction.atomic
def add_wound(character: Character, label: Any, severity: Any) -> Errors:
    """The one way a wound goes on a sheet: the owner's form, a combat wound the GM applies,
    the wound a test adds by ignoring wounds. Refused, with the messages by form field, when the
    wound would break the sheet's schema (a label too long, no such severity, past
    ``MAX_WOUNDS``)."""
    locked = sheet_actions.locked(character)
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
    errors = sheet_actions.save_rule_write(locked, {**locked.data, "wounds": wounds}, "wound_label")
    # The caller's object shows the sheet as saved, without reading it again.
    character.data, character.updated_at = locked.data, locked.updated_at
    return errors


@transaction.atomic
def take_back_wound(character: Character, label: str, severity: str) -> Errors:
    """Remove the newest wound of this label and severity (the armor turned it aside after a
    wound test); nothing when the sheet no longer holds it."""
    character = sheet_actions.locked(character)
    wounds = character.data.get("wounds", [])
    wounds = wounds if isinstance(wounds, list) else []
    for index in range(len(wounds) - 1, -1, -1):
        wound = wounds[index]
        if isinstance(wound, dict) and (wound.get("label"), wound.get("severity")) == (
            label,
            severity,
        ):
            kept = wounds[:index] + wounds[index + 1 :]
            return sheet_actions.save_rule_write(
                character, {**character.data, "wounds": kept}, "wounds"
            )
    return {}


def set_magic_die(character: Character, die: int | None) -> Character:
    """The magic die after a night's rest (``SheetRefused`` when the sheet refuses it)."""
    return sheet_actions.change_sheet(character, lambda data: data.update(magic_die=die))


def _wound_index(character: Character, index: int) -> int | None:
    wounds = character.data.get("wounds", [])
    return index if isinstance(wounds, list) and 0 <= index < len(wounds) else None


@transaction.atomic
def set_wound_bandaged(character: Character, index: int, bandaged: bool) -> Errors:
    character = sheet_actions.locked(character)
    if _wound_index(character, index) is None:
        return {"wounds": [_("That wound is no longer on the sheet.")]}
    wounds = copy.deepcopy(character.data["wounds"])
    wounds[index]["bandaged"] = bandaged
    return sheet_actions.save_validated(character, {**character.data, "wounds": wounds}, "wounds")


@transaction.atomic
def remove_wound(character: Character, index: int) -> Errors:
    character = sheet_actions.locked(character)
    if _wound_index(character, index) is None:
        return {"wounds": [_("That wound is no longer on the sheet.")]}
    wounds = copy.deepcopy(character.data["wounds"])
    del wounds[index]
    return sheet_actions.save_validated(character, {**character.data, "wounds": wounds}, "wounds")


@transaction.atomic
def develop(character: Character, target: Any, new_name: Any = "", magic: bool = False) -> Errors:
    """FastTest development: +1 level on trait ``target`` (its index) or, with ``target`` "new",
    a new trait at level 1; paid with the current sum of trait levels in XP."""
    character = sheet_actions.locked(character)
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
    clean, errors = sheet_actions.validate_sheet(character.campaign, data, creating=False)
    if errors:
        field = "develop_name" if target == "new" else "develop"
        return {field: [message for messages in errors.values() for message in messages]}
    character.data = clean
    character.save(update_fields=["data", "updated_at"])
    return {}


# --- A campaign's FastTest skills renamed on every sheet (settings_saved) ---------------------


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
