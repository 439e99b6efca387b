"""axe-core in a test's page: the automated accessibility audit the browser tests run.

axe-core is vendored for the tests only (tests/web/vendor/axe-core/, its README says which
version and from where): it is injected into the page under test, never served by the app.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
#: What fails the audit: axe's two worst impacts. "moderate" and "minor" are counted in the
#: report (docs/accessibility.md) but left to judgement.
FAILING = ("serious", "critical")
IMPACTS = ("critical", "serious", "moderate", "minor")

# WCAG 2.x A and AA and axe's best practices, as the page is now (open panels, dialogs...).
_RUN = """async () => {
  const results = await axe.run(document, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa",
                                      "best-practice"] },
    resultTypes: ["violations"],
  });
  return results.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({ target: n.target.join(" "), summary: n.failureSummary })),
  }));
}"""


def audit(page) -> list[dict]:
    """axe's violations of the page as it is now: each rule's id, impact, help and nodes."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate(_RUN)


def failing(violations: list[dict]) -> list[dict]:
    """The violations that fail the audit (serious or critical)."""
    return [violation for violation in violations if violation["impact"] in FAILING]


def readable(found: dict[str, list[dict]]) -> str:
    """The failing violations of every page, a line per element, for a test's failure."""
    lines = []
    for where, violations in found.items():
        for violation in failing(violations):
            lines.append(f"{where}: {violation['id']} ({violation['impact']}): {violation['help']}")
            lines += [f"    {node['target']}: {node['summary']}" for node in violation["nodes"]]
    return "\n".join(lines)


def counts(found: dict[str, list[dict]]) -> dict[str, Counter]:
    """Per page, the number of elements in violation by impact and by "impact rule-id"."""
    tally: dict[str, Counter] = {}
    for where, violations in found.items():
        counter: Counter = Counter()
        for violation in violations:
            counter[violation["impact"]] += len(violation["nodes"])
            counter[f"{violation['impact']} {violation['id']}"] += len(violation["nodes"])
        tally[where] = counter
    return tally


def save(found: dict[str, list[dict]], path: str) -> None:
    """Every violation of every page (all impacts) to ``path``, as JSON, for the report."""
    Path(path).write_text(json.dumps(found, indent=1, ensure_ascii=False))


def before_after(before: dict[str, list[dict]], after: dict[str, list[dict]]) -> str:
    """A Markdown table per page: elements in violation by impact, then by rule, before and
    after (``python -m tests.web.axe BEFORE.json AFTER.json`` prints it)."""
    was, now = counts(before), counts(after)
    lines = ["| page | " + " | ".join(IMPACTS) + " |", "| --- |" + " ---: |" * len(IMPACTS)]
    for where in list(dict.fromkeys([*before, *after])):
        old, new = was.get(where, Counter()), now.get(where, Counter())
        lines.append(f"| {where} | " + " | ".join(f"{old[i]} → {new[i]}" for i in IMPACTS) + " |")
    rules = sorted(
        {key for tally in (*was.values(), *now.values()) for key in tally if " " in key},
        key=lambda key: (IMPACTS.index(key.split()[0]), key),
    )
    lines += ["", "| impact rule | pages before → after | elements before → after |",
              "| --- | ---: | ---: |"]  # fmt: skip
    for rule in rules:
        pages = [sum(1 for t in tally.values() if t[rule]) for tally in (was, now)]
        elements = [sum(t[rule] for t in tally.values()) for tally in (was, now)]
        lines.append(f"| {rule} | {pages[0]} → {pages[1]} | {elements[0]} → {elements[1]} |")
    return "\n".join(lines)


if __name__ == "__main__":
    import sys

    first, second = (json.loads(Path(name).read_text()) for name in sys.argv[1:3])
    print(before_after(first, second))
