"""AST positive states are one white die each (RULES.md 2, Sheet; issue 25): a state's value,
which used to give that many dice, is dropped. Each sheet that had a state worth more than one
die is named, with what it gave, so the GM can tell the table what changed."""

from django.db import migrations


def one_die_each(data):
    """The sheet's data with its positive states unvalued, and each state that gave more than
    one die with what it gave: ``(data, [(name, value), ...])``."""
    states = data.get("positive_states") if isinstance(data, dict) else None
    if not isinstance(states, list):
        return data, []
    changed, kept = [], []
    for state in states:
        if not isinstance(state, dict):
            kept.append(state)
            continue
        value = state.get("value")
        if isinstance(value, int) and not isinstance(value, bool) and value > 1:
            changed.append((state.get("name"), value))
        kept.append({key: item for key, item in state.items() if key != "value"})
    return {**data, "positive_states": kept}, changed


def forwards(apps, schema_editor):
    Character = apps.get_model("sheets", "Character")
    for character in Character.objects.filter(campaign__system="ast"):
        data, changed = one_die_each(character.data)
        if data == character.data:
            continue
        character.data = data
        character.save(update_fields=["data"])
        for name, value in changed:
            print(
                f"  {character.name}: positive state “{name}” gave {value} white dice, "
                "now 1 (AST: each positive state is one white die)"
            )


class Migration(migrations.Migration):
    dependencies = [
        ("sheets", "0002_npc_stats"),
    ]

    operations = [
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
