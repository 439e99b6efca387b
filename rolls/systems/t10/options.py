"""T10's options after a roll (RULES.md 3.6): the seed's lists, the menu each result offers,
how many to pick and who picks.

The menu holds the options as the campaign's random tables of the result's purpose hold them (a
new campaign starts with the seed's lists as its tables, ``system.DEFAULT_TABLES``, and the GM
may edit them), else the seed's lists. A row that is one of the seed's options, written in any
of the app's languages, is that option: it reads in each reader's language with the Swedish
beside it, and leaves its condition (``system.CONDITIONS``); a row of the GM's own is offered
as written. The player picks, on their own panel ("Du får chansen att vrida din handling"),
except a catastrophe's bad options, which the GM picks; after 0 successes the GM may make a
counter-move (motdrag) and nobody picks anything.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from rolls.tables.random_tables import rows_of

#: The seed's option lists (RULES.md 3.6), one per result: each option in the project's words
#: with the seed's Swedish beside it, and the condition it leaves (``CONDITIONS``), if any.
#: The GM's default random tables (``DEFAULT_TABLES``) are made of the same rows.
OPTIONS = {
    "catastrophe": (
        (_("You fail badly and get hurt, while the foe slips away untouched."),
         "Du misslyckas fatalt och tar själv skada, medan din fiende med lätthet undviker din "
         "klumpiga attack.", ""),
        (_("You break something that was helping you."),
         "Du förstör något som hjälpte dig.", ""),
    ),
    "fail_but": (
        (_("You deal harm and take some too."), "Du både ger och tar skada", ""),
        (_("Half an effect, and something you need is lost or broken."),
         "Du lyckas halvdant (halv skada/effekt), men tappar eller förstör något objekt viktigt "
         "för dig", ""),
        (_("Half an effect, and you fall: −2 dice on everything until you are up again."),
         "Du lyckas halvdant (halv skada/effekt) men faller och kommer få -2 tärningar på alla "
         "handlingar tills du lyckats resa dig igen", "knocked_down"),
        (_("It works, but you are caught in the act."),
         "Du lyckas men ertappas på bar gärning med vad du gör.", ""),
        (_("It works, but it will cost you dearly later."),
         "Du lyckas men detta kommer stå dig dyrt senare", ""),
    ),
    "success_but": (
        (_("It works, but you take half harm."), "Du lyckas men tar lite skada (halv skada) också",
         ""),
        (_("A poor hit (−1 harm, at least 0), and hostile eyes turn to you."),
         "Du lyckas med en eventuellt dålig träff (-1 i skada, som lägst 0) och drar på dig "
         "fientlig uppmärksamhet", ""),
        (_("It works, but an object is damaged."), "Du lyckas men ett objekt tar lite skada.", ""),
        (_("It works, but someone notices and acts."),
         "Du lyckas men någon upptäcker dig och agerar.", ""),
        (_("It works, but you leave tracks that lead back to you."),
         "Du lyckas men lämnar spår efter dig som kommer leda tillbaka till dig senare.", ""),
        (_("It works, but it takes far longer than you hoped."),
         "Du lyckas men det tar betydligt längre tid än du väntat dig", ""),
        (_("It works, but this may become a problem later."),
         "Du lyckas, men detta kan bli ett problem senare", ""),
    ),
    "impressive": (
        (_("The target is disarmed."), "Avväpnar offret", ""),
        (_("The target is knocked to the ground."), "Offret slås till marken", ""),
        (_("You leave no trace at all."), "Du lämnar inga som helst spår efter dig", ""),
        (_("So smooth that nobody even notices."), "Du lyckas så bra att ingen ens märker det",
         ""),
        (_("A gap in the defence: armour counts half."),
         "Du hittar en glipa i försvaret, skydd halveras", ""),
        (_("+1 harm."), "Du gör +1 i skada", ""),
        (_("Better work than usual: +1 die or −1 difficulty, as the GM decides."),
         "Du skapar något bättre än normalt, SL avgör om det ger +1 tärning eller -1 i "
         "Svårighetsgrad", ""),
        (_("Done in half the time."), "Du gör det snabbare än väntat, halvera tiden", ""),
        (_("A good way of doing it: −1 difficulty to do it again later (same target or case)."),
         "Du hittade ett bra sätt att göra detta på, och har -1 i Svårighet på att göra det igen "
         "senare (Gäller endast samma offer eller liknande omständigheter. SL avgör).",
         "good_method"),
    ),
}  # fmt: skip


#: When the rules call for a list after a test, by its result (``TableRules.purposes``).
PURPOSES = {
    "catastrophe": _("after a Katastrof (bad options)"),
    "fail_but": _("after a Misslyckande, men… (1 success)"),
    "success_but": _("after a Lyckat, men… (2 successes)"),
    "impressive": _("after an Imponerande (extra options)"),
}
#: The results whose options the GM picks: a catastrophe's bad options (RULES.md 3.6).
GM_PICKS = frozenset({"catastrophe"})
#: 0 successes: no options; the GM has a free hand for a counter-move ("motdrag").
COUNTER_ONLY = "fail"
#: What the roller's panel calls the menu: the seed's own words for it.
TITLE = _("Your chance to twist your action (Du får chansen att vrida din handling)")
COUNTER_WHY = _("after a Misslyckande (0 successes): the GM's counter-move (motdrag)")


def option_key(purpose: str, at: int) -> str:
    """The log's message key of the seed's option ``at`` (from 1) after ``purpose``."""
    return f"t10_option:{purpose}:{at}"


def seed_options(purpose: str) -> list[dict[str, Any]]:
    """The seed's list after ``purpose``, as menu options."""
    return [
        {"key": option_key(purpose, at), "text": text, "original": original,
         "condition": condition}
        for at, (text, original, condition) in enumerate(OPTIONS[purpose], start=1)
    ]  # fmt: skip


def _plain(text: Any) -> str:
    return " ".join(str(text).split()).casefold()


@functools.cache
def _seed_rows(language: str) -> dict[tuple[str, str], int]:
    """The seed's options as a table written in ``language`` holds them: (purpose, text) → at."""
    with translation.override(language):
        return {
            (purpose, _plain(row[0])): at
            for purpose, rows in OPTIONS.items()
            for at, row in enumerate(rows, start=1)
        }


def _seed_at(purpose: str, text: str) -> int | None:
    """Which of the seed's options after ``purpose`` a table's row is, in any language."""
    plain = _plain(text)
    for language, _name in settings.LANGUAGES:
        at = _seed_rows(language).get((purpose, plain))
        if at is not None:
            return at
    return None


def table_options(purpose: str, tables: Sequence[Any]) -> list[dict[str, Any]]:
    """The options as ``tables`` (the campaign's of that purpose) hold them, each once: the
    seed's own where a row is one, else the row as the GM wrote it."""
    seeds = seed_options(purpose)
    options: list[dict[str, Any]] = []
    seen: set[str] = set()
    for table in tables:
        for row in rows_of(table):
            at = _seed_at(purpose, row.text)
            option = seeds[at - 1] if at else {
                "key": f"t10_row:{table.pk}:{row.low}", "text": row.text, "original": "",
                "condition": "",
            }  # fmt: skip
            if option["key"] not in seen:
                seen.add(option["key"])
                options.append(option)
    return options


def menu(roll: Any, tables: Mapping[str, Sequence[Any]] | None = None) -> dict[str, Any] | None:
    """``FollowUps.menu`` for T10: the options of the test's result, how many to pick (the
    severity of a catastrophe, result − 3 extra after an impressive one, else one) and who picks;
    after 0 successes the GM's counter-move alone; None for the other results."""
    answer = roll.result.get("answer", {}) if isinstance(roll.result, dict) else {}
    answer = answer if isinstance(answer, dict) else {}
    purpose = answer.get("outcome")
    if roll.kind != "test":
        return None
    if purpose == COUNTER_ONLY:
        return {"purpose": purpose, "why": COUNTER_WHY, "picks": 0, "options": [],
                "picker": "gm", "counter_move": True, "title": COUNTER_WHY}  # fmt: skip
    if purpose not in OPTIONS:
        return None
    found = (tables or {}).get(purpose)
    options = table_options(purpose, found) if found else seed_options(purpose)
    count = {"catastrophe": answer.get("severity"), "impressive": answer.get("extra_options")}
    picks = count.get(purpose)
    gm = purpose in GM_PICKS
    return {
        "purpose": purpose,
        "why": PURPOSES[purpose],
        "picks": picks if isinstance(picks, int) and picks > 0 else 1,
        "options": options,
        "picker": "gm" if gm else "player",
        "counter_move": not gm,
        "title": PURPOSES[purpose] if gm else TITLE,
    }
