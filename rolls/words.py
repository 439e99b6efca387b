"""Words stored as data, rendered in each reader's language.

A log entry outlives the request that made it and is read by people in other languages, so its
label and the sources of its modifiers are not stored as prose in the roller's language but as
data: ``{"w": key, "a": {name: argument}}``, where ``key`` names a message of
``rolls.labels.WORDS`` and each argument is a number, a text typed by someone (a name, "slippery
ice": shown as it is), another message, or a joined list ``{"j": separator, "i": [items]}``.
``render`` turns any of these into text in the active language, ``source_line`` a whole modifier;
a plain string (the rows logged before this, or a text nobody translates) renders as itself,
unless it is one of the app's own messages once stored as text (``campaigns.stored_text``: the
test ending a rules' condition, a table the rules bring), which reads in the reader's language.
This module reads ``rolls.labels``' messages; labels never reads this module.
"""

from __future__ import annotations

from typing import Any

from campaigns.stored_text import as_read
from rolls import labels

#: The most a stored message may nest (a message in a list in a message...): forged or broken
#: data renders as far as this and no further.
MAX_DEPTH = 6


def words(key: str, **args: Any) -> dict[str, Any]:
    """A message of ``rolls.labels.WORDS`` with its arguments, to be rendered when read."""
    return {"w": key, "a": args} if args else {"w": key}


def joined(items: list[Any], separator: str = ", ") -> dict[str, Any] | Any:
    """Items rendered one by one and joined (a single item stays itself)."""
    if len(items) == 1:
        return items[0]
    return {"j": separator, "i": list(items)}


def render(value: Any, depth: int = 0) -> str:
    """``value`` as text in the active language (see the module's notes)."""
    if value is None or depth > MAX_DEPTH:
        return ""
    if isinstance(value, dict):
        if "w" in value:
            message = labels.WORDS.get(value["w"])
            args = value.get("a") if isinstance(value.get("a"), dict) else {}
            if message is None:
                return str(value["w"])
            shown = {
                name: arg if _is_number(arg) else render(arg, depth + 1)
                for name, arg in args.items()
            }
            try:
                return str(message % shown) if shown else str(message)
            except (KeyError, TypeError, ValueError):
                return str(message)
        if "j" in value:
            items = value.get("i") if isinstance(value.get("i"), list) else []
            return str(value["j"]).join(render(item, depth + 1) for item in items)
        return ""
    if isinstance(value, list):
        return ", ".join(render(item, depth + 1) for item in value)
    return as_read(str(value))


def _is_number(value: Any) -> bool:
    # Numbers stay numbers, so a plural message picks its form from them.
    return isinstance(value, int | float) and not isinstance(value, bool)


def source_line(entry) -> str:
    """One modifier in words: "+1 penalty die: slippery ice", "4 dice rolled: Jazda 3d8 + …"."""
    if not isinstance(entry, dict):
        return render(entry)
    kind, amount = entry.get("kind", ""), entry.get("amount")
    counted = labels.COUNTED_SOURCE_KINDS.get(kind)
    if counted is not None and isinstance(amount, int) and not isinstance(amount, bool):
        text = str(counted % {"n": abs(amount)})
        if kind not in labels.UNSIGNED_SOURCE_KINDS:
            sign = "+" if amount > 0 else ("−" if amount < 0 else "")
            text = sign + text
    else:
        text = f"{labels.signed_number(amount)} {labels.SOURCE_KINDS.get(kind, kind)}".strip()
    where = render(entry.get("source"))
    return f"{text}: {where}" if where else text
