"""Template filters that turn the engine's keys into words in the reader's language."""

import json

from django import template
from django.utils import translation
from django.utils.formats import number_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from campaigns import stored_text
from rolls.conditions import actions as conditions
from rolls.conditions import in_force
from rolls.labels import (
    CONTROL_LABELS,
    DIE_REASONS,
    FACT_LABELS,
    GOOD_OUTCOMES,
    KIND_LABELS,
    OUTCOME_LABELS,
    SOURCE_KINDS,
    VALUE_LABELS,
    outcome_word,
    render,
    signed_number,
)
from rolls.labels import source_line as _source_line
from rolls.log import rendered

register = template.Library()


@register.filter
def checkable_in(entry, session) -> bool:
    """Whether the entry offers to check its dice in the log of ``session`` (rolls.log.rendered)."""
    return rendered.checkable(entry, session or None)


@register.simple_tag
def log_entry(entry, session=None):
    """One entry of a log, as ``rolls/log/_entry.html`` renders it: rendered once per process for
    every page and socket that shows it in this language (rolls.log.rendered)."""
    return mark_safe(rendered.entry_html(entry, translation.get_language(), session or None))


@register.filter
def outcome_label(key: str, system: str = "") -> str:
    """``{{ entry.outcome|outcome_label:entry.system }}``: in the words of the rolling system."""
    return outcome_word(key, system)


@register.filter
def words(value) -> str:
    """A label or source stored as data (rolls.labels), or plain text, in the reader's language."""
    return render(value)


@register.filter
def as_read(text):
    """A text the app may have stored in its writer's language (a wound's label, a table the
    rules bring), in the reader's (``campaigns.stored_text``); anyone's own text as typed."""
    return stored_text.as_read(text)


@register.filter
def source_line(entry) -> str:
    """One modifier with its amount, kind and source, in the reader's language."""
    return _source_line(entry)


@register.filter
def outcome_is_good(key: str) -> bool:
    return key in GOOD_OUTCOMES


@register.filter
def fact_label(key: str) -> str:
    return FACT_LABELS.get(key, key.replace("_", " "))


@register.filter
def die_reason(key: str) -> str:
    return DIE_REASONS.get(key, key)


@register.filter
def kind_label(key: str) -> str:
    return KIND_LABELS.get(key, key)


@register.filter
def fact_value(value):
    """Booleans and missing values as words; numbers as they are (signed where it helps)."""
    if value is None:
        return "–"
    if value is True:
        return "✓"
    if value is False:
        return "✗"
    if isinstance(value, str):
        # Keys such as 2d6's automatic "success" or AST's mode read as words.
        return OUTCOME_LABELS.get(value) or VALUE_LABELS.get(value, value)
    return value


@register.filter
def die_group(group: str) -> str:
    """A die's role in words: white/black (AST), batch 2 (T10); names and sizes as they are."""
    if group.startswith("batch "):
        return _("batch %(n)s") % {"n": group.removeprefix("batch ")}
    return VALUE_LABELS.get(group, group)


@register.filter
def source_kind(key: str) -> str:
    return SOURCE_KINDS.get(key, key)


@register.filter
def signed(value) -> str:
    """+3, −2, 0: the sign a modifier reads with."""
    return signed_number(value)


@register.filter
def percent(p: float) -> str:
    """A probability as a percentage a player reads at a glance: 8.3%, <0.1%, >99.9%, 100%."""
    if p <= 0:
        return "0%"
    if p < 0.001:
        return "<0.1%"
    if p >= 1:
        return "100%"
    # Rounded, not cut (number_format drops the digits past the first): 11.67 % reads 11.7 %.
    shown = round(p * 100, 1)
    if shown >= 100:
        return ">99.9%"
    return f"{number_format(shown, 1)}%"


@register.filter
def percent_width(p: float) -> str:
    return f"{max(0.0, min(1.0, p)) * 100:.1f}%"


@register.filter
def get_item(mapping, key):
    return mapping.get(key) if isinstance(mapping, dict) else None


@register.filter
def control_label(key: str) -> str:
    return CONTROL_LABELS.get(key, key)


@register.filter
def die_words(die: dict) -> str:
    """One die for a screen reader and a tooltip: "d10, kept: the most favourable", "d6, white,
    dropped". A group that only repeats the die's size (FastTest's d10 and d6) is said once."""
    size = f"d{die.get('sides')}"
    parts = [size]
    group = die.get("group") or ""
    if group and group != size:
        parts.append(die_group(group))
    if die.get("why"):
        parts.append(str(die_reason(die["why"])))
    elif not die.get("kept"):
        parts.append(_("dropped"))
    return ", ".join(str(part) for part in parts)


@register.filter
def json_attr(value) -> str:
    """A value as compact JSON for a data attribute (autoescaping quotes it safely)."""
    return json.dumps(value, separators=(",", ":"))


@register.filter
def condition_line(condition) -> str:
    """A condition as the sheet and the party card show it (rolls.conditions.actions.line)."""
    return conditions.line(condition)


@register.filter
def condition_name(condition) -> str:
    return render(in_force.name_words(condition))


@register.filter
def condition_tests(condition) -> list:
    """The tests a condition offers on the sheet in one click (``ConditionRules.tests``)."""
    campaign = condition.character.campaign
    return list(in_force.condition_rules(campaign.rules).tests(condition, campaign))
