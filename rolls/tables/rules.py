"""What a system's rules say about the GM's random tables (its ``TableRules`` part): when
they call for one after a roll, and the tables they bring. ``rolls.tables.random_tables``
offers and rolls them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar


def _none_called(roll) -> list[str]:
    return []


@dataclass(frozen=True)
class TableRules:
    """A system's part (``campaigns.systems.Part``): when its rules call for one of the GM's
    random tables after a roll, and the tables they bring."""

    key: ClassVar[str] = "tables"
    #: {purpose key: what a table of it is for}: the table form offers each.
    purposes: Mapping[str, Any] = field(default_factory=dict)
    #: The ``purposes`` keys whose table the rules call for after a roll.
    after: Callable[[Any], list[str]] = _none_called
    #: {purpose key: the purpose whose tables are offered in its place when the campaign has
    #: no table of its own for it} (FastTest's minor side effect falls back to the ordinary one).
    fallbacks: Mapping[str, str] = field(default_factory=dict)
    #: A word under the table form's "Offered" on how the purposes go together, "" for none.
    hint: Any = ""
    #: Tables the rules bring (RULES.md's lists): dicts of ``name``, ``dice``, ``purpose`` and
    #: ``rows`` (quick entry lines); a new campaign gets them, and the GM edits them.
    defaults: tuple[Mapping[str, Any], ...] = ()


#: What a system without the part has: no purpose, no table of its own.
NO_TABLE_RULES = TableRules()


def table_rules(system) -> TableRules:
    return system.part(TableRules) or NO_TABLE_RULES
