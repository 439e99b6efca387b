"""The coin's test panel (``rolls.panels``' protocol): a value of the sheet names the toss.

``build`` turns the player's choices (or the GM's call, ``pending``) into a ``Panel``: what is
offered, the engine's params, the log's sources and the exact odds. ``target_fields`` and
``target_from_post`` are the GM's side: what a call may fix, and reading it back."""

from __future__ import annotations

from typing import Any

from rolls.panels import Name, Panel, PanelForm, posted, source
from sheets.systems import generic
from tests.coin import engine


def _values(character) -> dict[str, int]:
    cleaned, _errors = generic.validate(character.data, None, creating=False)
    return {row["name"]: row["value"] for row in cleaned["attributes"]}


def build(character, campaign, choices, pending=None) -> Panel:
    values = _values(character)
    target = (pending or {}).get("target") or {}
    chosen = (
        target.get("attribute") or posted(choices).get("attribute", "") or next(iter(values), "")
    )
    panel = Panel(system=campaign.system, template="rolls/panels/generic.html")
    panel.context = {
        "choices": [
            {
                "name": "attribute",
                "legend": "Value",
                "fixed": bool(target),
                "options": [
                    {"value": name, "label": f"{name} {value}", "checked": name == chosen}
                    for name, value in values.items()
                ],
            }
        ]
    }
    if chosen not in values:
        panel.errors["attribute"] = ["Not a value on this sheet."]
        return panel
    panel.label = f"{chosen}: heads?"
    panel.params = {}
    panel.sources = [source("attribute", values[chosen], chosen)]
    panel.odds = list(engine.odds({}).items())
    panel.success = 0.5
    return panel


def target_fields(character, campaign) -> list[dict[str, Any]]:
    values = _values(character)
    choices = [(name, f"{name} {value}") for name, value in values.items()]
    return [{"name": "attribute", "label": "Value", "type": "select", "choices": choices}]


class CoinCall(PanelForm):
    """The GM's call as posted: the value that names the toss."""

    attribute = Name()


def target_from_post(
    post, character, campaign, prefix: str = ""
) -> tuple[dict[str, Any], list[str]]:
    target = {"attribute": str(CoinCall(post, prefix=prefix).raw("attribute") or "")}
    wrong = [] if target["attribute"] in _values(character) else ["Not a value on this sheet."]
    return target, wrong
