"""The recap in words: its Markdown export, and the lines the Discord bridge posts (which escapes
them its own way). The same figures as the page, counted from the same entries."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.member_text import isolated_text
from rolls.log import export
from rolls.recap.luck import Person


def percent(chance: float) -> str:
    """A chance as the log writes odds ("23 %"), a rare one with a decimal ("0.4 %")."""
    if 0 < chance < 0.01:
        return f"{100 * chance:.1f} %"
    return f"{round(100 * chance)} %"


def _signed(number: float) -> str:
    return f"{number:+.1f}"


def person_lines(person: Person) -> list[str]:
    """What the recap says of one person, a sentence a line."""
    lines = [
        ngettext("%(count)s roll", "%(count)s rolls", person.rolls) % {"count": person.rolls}
        + ", "
        + ngettext("%(count)s test", "%(count)s tests", len(person.tests))
        % {"count": len(person.tests)}
        + ": "
        + ngettext("%(count)s success", "%(count)s successes", person.successes)
        % {"count": person.successes}
        + ", "
        + ngettext("%(count)s failure", "%(count)s failures", person.failures)
        % {"count": person.failures}
    ]
    if person.tests:
        lines.append(
            _("The odds promised %(expected)s successes: %(surplus)s against them.")
            % {"expected": f"{person.expected:.1f}", "surplus": _signed(person.surplus)}
        )
        lines.append(
            _("Luck %(luck)s (fair dice: 50 %% on average); %(beat)s of %(tests)s beat the odds.")
            % {
                "luck": percent(person.percentile or 0.0),
                "beat": person.beat_odds,
                "tests": len(person.tests),
            }
        )
    if won := person.least_likely_success:
        lines.append(
            _("Least likely success: #%(seq)s, a %(chance)s chance of success.")
            % {"seq": won.seq, "chance": percent(won.p_success)}
        )
    if lost := person.least_likely_failure:
        lines.append(
            _("Least likely failure: #%(seq)s, a %(chance)s chance of failure.")
            % {"seq": lost.seq, "chance": percent(lost.p_failure)}
        )
    if person.criticals or person.catastrophes:
        lines.append(
            _("Criticals: %(criticals)s; catastrophes: %(catastrophes)s.")
            % {"criticals": person.criticals, "catastrophes": person.catastrophes}
        )
    if person.struck:
        lines.append(
            ngettext(
                "%(count)s test struck by the GM, left out of the luck.",
                "%(count)s tests struck by the GM, left out of the luck.",
                person.struck,
            )
            % {"count": person.struck}
        )
    return lines


def event_line(entry: dict[str, Any]) -> str:
    """One listed entry: its number, who, what, and how it went."""
    said = f"#{entry['seq']} {export.roller(entry)}: {export.label_text(entry)}"
    if outcome := export.outcome(entry):
        said += f" ({outcome})"
    if struck := export.struck_text(entry):
        said += f"; {struck}"
    return said


#: The lists of the recap, in its order, with their headings.
SECTIONS: tuple[tuple[str, Callable[[], str]], ...] = (
    ("opposed", lambda: _("Opposed tests")),
    ("group", lambda: _("Group tests")),
    ("conditions", lambda: _("Conditions that came and went")),
    ("struck", lambda: _("Entries the GM struck")),
)


def as_markdown(recap: dict[str, Any]) -> str:
    session, campaign = recap["session"], recap["campaign"]
    title = _("Recap") + f": {isolated_text(str(session))} · {isolated_text(campaign.name)}"
    out = [f"# {title}", ""]
    if not recap["is_gm"]:
        out += [_("Counted from the entries you can see in the log."), ""]
    for person, _chart in recap["people"]:
        out += [f"## {isolated_text(person.name)}", ""]
        out += [f"- {line}" for line in person_lines(person)] + [""]
    for key, heading in SECTIONS:
        if recap[key]:
            out += [f"## {heading()}", ""]
            out += [f"- {event_line(entry)}" for entry in recap[key]] + [""]
    return "\n".join(out).rstrip() + "\n"
