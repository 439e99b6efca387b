"""What a Caerbannog test does to the Rozmach pool before its dice (RULES.md section 4, point 12
and "Tables the text refers to but does not contain"): surprise in the first round, a reaction
paid at the cost the GM's Reaction-cost table gives, and a forced spending of Rozmach one lacks
paid with Determinacja.

Decisions (the rules leave them open):

- Surprise is the GM's, set on a called test (a control on its card): the surprised side's pool
  is halved (rounded down), the surprising side's doubled (at most 10), when that first-round
  test is made; the test then starts from that pool and the sheet keeps what it leaves.
- A reaction is paid when it is made, before its dice: the Rozmach the reaction's own roll
  gains cannot pay for it (it is gained after). The cost is the GM's table's, as it stands when
  the test is rolled.
- A reaction costing more than the pool holds is refused, unless the spending is forced: that
  is the rules' or the GM's, never the player's choice (RULES.md 4.12: Rozmach cannot be
  replaced by any other resource), so the GM sets it on a called test's card; then the
  pool pays what it holds and the shortfall is lost as the same amount of Determinacja
  (``caerbannog_pool.force_spend``). A forced spending the sheet's Determinacja cannot pay
  either is refused: the sheet never goes below 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from campaigns.system_settings import system_settings
from rolls import labels
from rolls.actions import ActionRefused
from rolls.engine import caerbannog_pool
from rolls.labels import words
from rolls.panels import source

# The log's words for Rozmach before a test's dice: surprise in the first round, a reaction's
# cost, a forced spending paid with Determinacja, and the Rozmach a test spent.
labels.register(
    words={
        "rozmach_surprised": gettext_lazy(
            "surprised in the first round: the pool of %(before)s halved"
        ),
        "rozmach_surprising": gettext_lazy(
            "surprising in the first round: the pool of %(before)s doubled"
        ),
        "reaction": gettext_lazy("reaction: %(reaction)s"),
        "forced_spending": gettext_lazy(
            "forced spending (%(reaction)s): the Rozmach the pool lacked"
        ),
    },
    counted={
        "rozmach_spent": ngettext_lazy("%(n)s Rozmach spent", "%(n)s Rozmach spent", "n"),
        "determinacja_lost": ngettext_lazy(
            "%(n)s Determinacja lost", "%(n)s Determinacja lost", "n"
        ),
    },
    unsigned={"rozmach_spent", "determinacja_lost"},
    sources={
        "rozmach_spent": gettext_lazy("Rozmach spent"),
        "rozmach_surprise": gettext_lazy("Rozmach (surprise)"),
        "determinacja_lost": gettext_lazy("Determinacja lost"),
    },
)

SURPRISED, SURPRISING = "surprised", "surprising"
SURPRISE_LABELS = {
    "": gettext_lazy("no surprise"),
    SURPRISED: gettext_lazy("surprised: Rozmach halved in the first round"),
    SURPRISING: gettext_lazy("surprising: Rozmach doubled in the first round"),
}


def reaction_costs(campaign) -> dict[str, int]:
    """The GM's Reaction-cost table: {reaction: cost in Rozmach}, empty until the GM fills it."""
    rows = system_settings(campaign).get("reaction_costs") or []
    return {
        str(row["reaction"]): row["cost"]
        for row in rows
        if isinstance(row, dict)
        and row.get("reaction")
        and isinstance(row.get("cost"), int)
        and not isinstance(row.get("cost"), bool)
    }


@dataclass(frozen=True)
class Spending:
    """The pool before the test (``pool``), after surprise (``surprised``), what the reaction
    takes from it (``paid``) and from Determinacja (``lacking``), and the pool the dice start
    from (``start``)."""

    pool: int
    surprise: str = ""
    surprised: int = 0
    reaction: str = ""
    cost: int = 0
    forced: bool = False
    paid: int = 0
    lacking: int = 0

    @property
    def start(self) -> int:
        return self.surprised - self.paid

    @property
    def changes(self) -> bool:
        return bool(self.surprise or self.reaction)


def plan(
    *, pool: int, determinacja: int, surprise: str, reaction: str, cost: int, forced: bool
) -> tuple[Spending, dict[str, list[str]]]:
    """The spending before a test's dice, with the panel's refusals by field."""
    errors: dict[str, list[str]] = {}
    after_surprise = pool
    if surprise == SURPRISED:
        after_surprise = caerbannog_pool.surprised(pool)
    elif surprise == SURPRISING:
        after_surprise = caerbannog_pool.surprising(pool)
    paid = lacking = 0
    if reaction:
        after, lacking = caerbannog_pool.force_spend(after_surprise, cost)
        paid = after_surprise - after
        if lacking and not forced:
            errors["reaction"] = [
                _(
                    "%(reaction)s costs %(cost)s Rozmach and the pool holds %(have)s: Rozmach "
                    "cannot be replaced by another resource. Only where the rules or the GM "
                    "force the spending (the GM sets it on a called test) are the %(lacking)s "
                    "lacking lost as Determinacja."
                )
                % {"reaction": reaction, "cost": cost, "have": after_surprise, "lacking": lacking}
            ]
        elif lacking > determinacja:
            errors["forced"] = [
                _(
                    "This forced spending lacks %(lacking)s Rozmach, to be lost as "
                    "Determinacja, and the sheet holds %(have)s Determinacja."
                )
                % {"lacking": lacking, "have": determinacja}
            ]
    spending = Spending(
        pool=pool,
        surprise=surprise,
        surprised=after_surprise,
        reaction=reaction,
        cost=cost,
        forced=forced,
        paid=paid,
        lacking=lacking,
    )
    return spending, errors


def sources(spending: Spending) -> list[dict[str, Any]]:
    """What the log shows of it beside the test's other sources."""
    found = []
    if spending.surprise:
        found.append(
            source(
                "rozmach_surprise",
                spending.surprised - spending.pool,
                words(f"rozmach_{spending.surprise}", before=spending.pool),
            )
        )
    if spending.reaction:
        found.append(
            source("rozmach_spent", spending.paid, words("reaction", reaction=spending.reaction))
        )
    if spending.lacking:
        found.append(
            source(
                "determinacja_lost",
                spending.lacking,
                words("forced_spending", reaction=spending.reaction),
            )
        )
    return found


def is_reaction(sources) -> bool:
    """Whether a logged test's ``sources`` (as ``sources`` above wrote them) paid a reaction."""
    return isinstance(sources, list) and any(
        isinstance(s, dict)
        and s.get("kind") == "rozmach_spent"
        and isinstance(s.get("source"), dict)
        and s["source"].get("w") == "reaction"
        for s in sources
    )


def pay_lacking(lacking: int):
    """``on_result`` part: the Determinacja a forced spending costs, from the locked sheet."""

    def on_result(sheet: dict, _result: Any) -> None:
        if not lacking:
            return
        resources = sheet.setdefault("resources", {})
        have = resources.get("determinacja", 0)
        if not isinstance(have, int) or have < lacking:
            raise ActionRefused(
                _("Determinacja changed meanwhile; look at the sheet and roll again.")
            )
        resources["determinacja"] = have - lacking

    return on_result
