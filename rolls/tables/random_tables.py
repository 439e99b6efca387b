"""The GM's random tables: the form of quick entry, import and export, and the table roll.

A table's rows are written only here (``save_table``), after the engine has read them
(``rolls.engine.tables``); a roll on a table goes through ``record_roll`` like every roll (seq,
idempotency key, the page's nonce, visibility), with the table as its engine.
"""

from __future__ import annotations

import csv
import io
import json
import uuid
from typing import Any

from django import forms
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from campaigns.models import Campaign, GameSession
from campaigns.systems import all_systems, get_system
from config import csv_cells
from config.text import MAX_JSON_DEPTH, TextField, TooDeep, has_unsafe_text, load_json
from rolls import labels
from rolls.actions import ActionRefused, RollSpec, record_roll
from rolls.engine import EngineError
from rolls.engine import tables as engine_tables
from rolls.engine.tables import Problem, Row, TableDice, parse_dice, parse_table
from rolls.engine.tables import rows_text as engine_rows_text
from rolls.labels import WORDS, words
from rolls.models import RandomTable, Roll, Visibility
from rolls.tables.rules import NO_TABLE_RULES, table_rules

# The log's kind and label of a table roll; a table the rules call for after a roll, with what
# for (``purpose_word``).
labels.register(
    kinds={"table": gettext_lazy("table")},
    words={
        "table_roll": gettext_lazy("Table: %(name)s (%(dice)s)"),
        "table_roll_for": gettext_lazy("Table: %(name)s (%(dice)s), %(why)s"),
    },
)

#: The table roll's kind in the log.
TABLE = "table"
#: How many of the open session's latest rolls are looked at for a table the rules call for.
OFFER_WINDOW = 10
#: The largest file an import reads.
MAX_IMPORT_BYTES = 64 * 1024
DICE_EXAMPLES = "1d6, 2d6, 1d20, d66, 1d100"


def rows_of(table: RandomTable) -> list[Row]:
    """The stored rows as the engine's (a row that is not [low, high, text] is skipped)."""
    rows = []
    for item in table.rows if isinstance(table.rows, list) else []:
        if isinstance(item, list) and len(item) == 3:
            low, high, text = item
            if isinstance(low, int) and isinstance(high, int) and isinstance(text, str):
                rows.append(Row(low, high, text))
    return rows


def rows_text(table: RandomTable) -> str:
    return engine_rows_text(rows_of(table))


def _lines(problem: Problem) -> str:
    return ", ".join(str(line) for line in problem.lines)


def _span(problem: Problem) -> str:
    if problem.low == problem.high:
        return str(problem.low)
    return f"{problem.low}-{problem.high}"


def problem_message(problem: Problem, dice: TableDice) -> str:
    """One problem of the rows as a sentence naming its lines."""
    count = len(problem.lines)
    args = {"lines": _lines(problem), "span": _span(problem), "dice": dice.expression}
    if problem.kind == "unreadable":
        return (
            _(
                "Line %(lines)s cannot be read: write a range, a colon and the text, "
                "e.g. “1-3: a gust of wind”."
            )
            % args
        )
    if problem.kind == "empty_text":
        return _("Line %(lines)s has a range but no text.") % args
    if problem.kind == "long":
        return _("Line %(lines)s is longer than 300 characters.") % args
    if problem.kind == "backwards":
        return _(
            "Line %(lines)s: the range %(span)s runs backwards; put the lower number first."
        ) % {
            **args,
            "span": f"{problem.low}-{problem.high}",
        }
    if problem.kind == "outside":
        return _("Line %(lines)s lies outside what %(dice)s can roll (%(span)s).") % args
    if problem.kind == "overlap":
        return _("Lines %(lines)s overlap on %(span)s.") % args
    if problem.kind == "gap":
        if not count:
            return _("No row covers %(span)s.") % args
        return (
            ngettext(
                "No row covers %(span)s (next to line %(lines)s).",
                "No row covers %(span)s (between lines %(lines)s).",
                count,
            )
            % args
        )
    if problem.kind == "too_many":
        return _("A table holds at most 200 rows.")
    return _("Write at least one row, e.g. “1-3: a gust of wind”.")


class TableForm(forms.Form):
    """A table's name, dice, purpose and rows (quick entry, one row per line)."""

    name = TextField(label=gettext_lazy("Name"), max_length=80)
    dice = TextField(
        label=gettext_lazy("Dice"), max_length=10, help_text=DICE_EXAMPLES, initial="1d6"
    )
    purpose = forms.ChoiceField(label=gettext_lazy("Offered"), required=False)
    rows = TextField(
        label=gettext_lazy("Rows, one per line"),
        widget=forms.Textarea(attrs={"rows": 10, "placeholder": "1-3: …\n4: …\n5-6: …"}),
        max_length=20000,
    )

    def __init__(
        self, *args, campaign: Campaign | None = None, table: RandomTable | None = None, **kwargs
    ):
        # ``campaign`` may be left out only to look the form's fields over (the text rule's
        # test); its purposes then are none but the default, and a bound form needs it.
        super().__init__(*args, **kwargs)
        self.campaign, self.table = campaign, table
        rules = table_rules(get_system(campaign.system)) if campaign is not None else NO_TABLE_RULES
        self.fields["purpose"].choices = [("", _("only when I roll it"))] + [
            (key, label) for key, label in rules.purposes.items()
        ]
        self.fields["purpose"].help_text = rules.hint
        self.parsed: tuple[TableDice, list[Row]] | None = None

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError(_("Give the table a name."))
        others = RandomTable.objects.filter(campaign=self.campaign, name=name)
        if self.table is not None:
            others = others.exclude(pk=self.table.pk)
        if others.exists():
            raise forms.ValidationError(_("This campaign already has a table of that name."))
        return name

    def clean_dice(self) -> str:
        try:
            return parse_dice(self.cleaned_data["dice"]).expression
        except EngineError:
            raise forms.ValidationError(
                _("Write the dice as d66 or NdS, e.g. %(examples)s.") % {"examples": DICE_EXAMPLES}
            ) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if "dice" not in data or "rows" not in data:
            return data
        dice, rows, problems = parse_table(data["dice"], data["rows"])
        if problems:
            for problem in problems:
                self.add_error("rows", problem_message(problem, dice))
        else:
            self.parsed = (dice, rows)
        return data


@transaction.atomic
def save_table(form: TableForm) -> RandomTable:
    """Create or change the table from a valid form (its rows as the engine read them)."""
    dice, rows = form.parsed
    table = form.table or RandomTable(campaign=form.campaign)
    table.name = form.cleaned_data["name"]
    table.dice = dice.expression
    table.purpose = form.cleaned_data.get("purpose") or ""
    table.rows = [[row.low, row.high, row.text] for row in rows]
    try:
        with transaction.atomic():
            table.save()
    except IntegrityError as error:  # the same name saved twice in the same instant
        raise ActionRefused(_("This campaign already has a table of that name.")) from error
    return table


def add_default_tables(campaign: Campaign) -> list[RandomTable]:
    """The tables the campaign's rules bring (RULES.md), in the GM's language; a name the
    campaign already has is left alone."""
    made = []
    for default in table_rules(get_system(campaign.system)).defaults:
        lines = "\n".join(f"{at}: {text}" for at, text in enumerate(default["rows"], start=1))
        data = {
            "name": str(default["name"]),
            "dice": default["dice"],
            "purpose": default["purpose"],
            "rows": lines,
        }
        form = TableForm(data, campaign=campaign)
        if form.is_valid():
            made.append(save_table(form))
    return made


def campaign_created(sender, instance: Campaign, created: bool, raw: bool = False, **kwargs):
    """``post_save`` of a campaign: a new one gets its rules' tables (fixtures load as they are)."""
    if created and not raw:
        add_default_tables(instance)


# --- Export and import --------------------------------------------------------------------------


def export_json(table: RandomTable) -> str:
    document = {
        "name": table.name,
        "dice": table.dice,
        "purpose": table.purpose,
        "rows": [{"from": r.low, "to": r.high, "text": r.text} for r in rows_of(table)],
    }
    return json.dumps(document, ensure_ascii=False, indent=2)


def export_csv(table: RandomTable) -> str:
    out = io.StringIO()
    writer = csv_cells.writer(out)  # a row's text typed as a formula stays text
    writer.writerow(["from", "to", "text"])
    for row in rows_of(table):
        writer.writerow([row.low, row.high, row.text])
    return out.getvalue()


class ImportRefused(Exception):
    """A file that cannot be read as a table; the message says why."""


def _cell(value: Any) -> str:
    return str(value).strip().replace("\n", " ")


def read_import(name: str, content: bytes) -> dict[str, str]:
    """A CSV (columns from, to, text) or JSON file (as exported) as a TableForm's data."""
    if len(content) > MAX_IMPORT_BYTES:
        raise ImportRefused(_("The file is larger than 64 KB."))
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportRefused(_("The file is not UTF-8 text.")) from None
    if name.lower().endswith(".json"):
        data = _read_json(text)
    elif name.lower().endswith(".csv"):
        data = _read_csv(text)
    else:
        raise ImportRefused(_("Choose a .csv or .json file."))
    if has_unsafe_text(data):
        # Refused here, not at the form: a lone surrogate (JSON's "\ud800") is no text at all,
        # and the refusal page showing the rows back could not even be written as UTF-8.
        raise ImportRefused(
            _(
                "The file holds a character that cannot be stored (a control character such as "
                "NUL, or a broken one such as a lone surrogate); remove it and import again."
            )
        )
    return data


def _row_line(low: Any, high: Any, words_: Any) -> str:
    low, high = _cell(low), _cell(high) or _cell(low)
    return f"{low}-{high}: {_cell(words_)}" if low != high else f"{low}: {_cell(words_)}"


def _read_json(text: str) -> dict[str, str]:
    try:
        document = load_json(text)
    except ValueError:
        raise ImportRefused(_("The file is not valid JSON.")) from None
    except TooDeep:
        raise ImportRefused(
            _("This file is nested more than %(n)s levels deep; an exported table is not.")
            % {"n": MAX_JSON_DEPTH}
        ) from None
    rows = document.get("rows") if isinstance(document, dict) else None
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        raise ImportRefused(
            _("The JSON file needs “name”, “dice” and a list of “rows” with from, to and text.")
        )
    lines = [_row_line(r.get("from", ""), r.get("to", ""), r.get("text", "")) for r in rows]
    return {
        "name": _cell(document.get("name", "")),
        "dice": _cell(document.get("dice", "")),
        "purpose": _cell(document.get("purpose", "")),
        "rows": "\n".join(lines),
    }


def _read_csv(text: str) -> dict[str, str]:
    # strict: a quote left open at the end is a broken file, not a field running to the end.
    reader = csv.reader(io.StringIO(text), strict=True)
    try:
        records = list(reader)
    except csv.Error:  # a bare carriage return in an unquoted field, a quote left open
        raise ImportRefused(
            _(
                "Line %(line)s of the CSV file cannot be read: put a field that holds a line "
                "break in double quotes."
            )
            % {"line": max(reader.line_num, 1)}
        ) from None
    lines = []
    for number, record in enumerate(records, start=1):
        if number == 1 and [c.strip().lower() for c in record[:3]] == ["from", "to", "text"]:
            continue
        if not any(cell.strip() for cell in record):
            continue
        if len(record) != 3:
            raise ImportRefused(
                _("Line %(line)s of the CSV file needs three columns: from, to, text.")
                % {"line": number}
            )
        low, high, text = record
        lines.append(_row_line(low, high, csv_cells.restored(text)))  # our export's quote off
    return {"rows": "\n".join(lines)}


# --- Rolling a table ----------------------------------------------------------------------------


def roll_on_table(
    *,
    table: RandomTable,
    session: GameSession,
    gm,
    key: uuid.UUID,
    visibility: str,
    nonce: str | None = None,
    parent: Roll | None = None,
) -> tuple[Roll, bool]:
    """The GM's roll on ``table`` into the session's log (public or hidden). With ``parent``,
    the table the rules call for after that roll (as offered); the entry says what for."""
    if visibility not in (Visibility.PUBLIC, Visibility.HIDDEN):
        raise ActionRefused(_("A table is rolled public or hidden."))
    label = words("table_roll", name=table.name, dice=table.dice)
    if parent is not None:
        if parent.session_id != session.pk:
            raise ActionRefused(_("That roll is not of this session."))
        purpose = _purpose_after(parent, table)
        if purpose is None:  # a forged follow-up: the offer names only the tables called for
            raise ActionRefused(
                _("The rules do not call for the table “%(name)s” after #%(seq)s.")
                % {"name": table.name, "seq": parent.seq}
            )
        why = words(purpose_word(session.campaign.system, purpose))
        label = words("table_roll_for", name=table.name, dice=table.dice, why=why)
    rows = tuple(rows_of(table))
    if not rows:
        raise ActionRefused(_("This table has no rows yet."))
    dice = _fitting_dice(table, list(rows))
    return record_roll(
        RollSpec(
            session=session,
            actor=gm,
            system=session.campaign.system,
            params=engine_tables.table_params(table.name, dice, list(rows), table.pk),
            key=key,
            label=label,
            visibility=visibility,
            kind=TABLE,
            parent=parent,
            nonce=nonce,
            engine=engine_tables,
        )
    )


def _fitting_dice(table: RandomTable, rows: list[Row]) -> TableDice:
    """The table's dice, if its rows still cover every total of them once. The form checks both
    together, but a table changed outside it (an old admin, the shell) is told to be edited."""
    try:
        dice = parse_dice(table.dice)
    except EngineError:
        dice = None
    if dice is None or engine_tables.check_rows(dice, list(enumerate(rows, start=1))):
        raise ActionRefused(
            _("The rows of the table “%(name)s” do not fit its dice (%(dice)s); edit the table.")
            % {"name": table.name, "dice": table.dice}
        )
    return dice


def tables_by_purpose(campaign: Campaign | int) -> dict[str, list[RandomTable]]:
    """The campaign's (or the campaign id's) tables the rules call for, by purpose (one query)."""
    campaign_id = campaign if isinstance(campaign, int) else campaign.pk
    by_purpose: dict[str, list[RandomTable]] = {}
    for table in RandomTable.objects.filter(campaign_id=campaign_id).exclude(purpose=""):
        by_purpose.setdefault(table.purpose, []).append(table)
    return by_purpose


def _called_for(
    system, roll: Roll, by_purpose: dict[str, list[RandomTable]]
) -> list[tuple[str, RandomTable]]:
    """The tables the rules call for after ``roll``, each with the purpose it serves there: the
    tables of that purpose, else those of the purpose the system falls back on."""
    found = []
    rules = table_rules(system)
    for purpose in rules.after(roll):
        tables = by_purpose.get(purpose) or by_purpose.get(rules.fallbacks.get(purpose), [])
        found.extend((purpose, table) for table in tables)
    return found


def _purpose_after(parent: Roll, table: RandomTable) -> str | None:
    """The purpose ``table`` serves after ``parent``, None when the rules do not call for it."""
    system = get_system(parent.system)
    called = _called_for(system, parent, tables_by_purpose(table.campaign))
    return next((purpose for purpose, found in called if found.pk == table.pk), None)


def offers(campaign: Campaign, session: GameSession | None) -> list[dict[str, Any]]:
    """The tables the rules call for after the open session's latest rolls, newest first: each
    ``{"roll", "table", "purpose", "why"}``, once per roll and table (gone once that table was
    rolled)."""
    if session is None or not session.is_open:
        return []
    system = get_system(campaign.system)
    purposes = table_rules(system).purposes
    if not purposes:
        return []
    by_purpose = tables_by_purpose(campaign)
    if not by_purpose:
        return []
    rolls = list(
        Roll.objects.filter(session=session)
        .exclude(kind=TABLE)
        .select_related("character")
        .prefetch_related("follow_ups")
        .order_by("-seq")[:OFFER_WINDOW]
    )
    found = []
    for roll in rolls:
        rolled = {
            follow.params.get("id") for follow in roll.follow_ups.all() if follow.kind == TABLE
        }
        for purpose, table in _called_for(system, roll, by_purpose):
            if table.pk not in rolled:
                why = purposes[purpose]
                found.append({"roll": roll, "table": table, "purpose": purpose, "why": why})
    return found


def latest_roll(session) -> Roll | None:
    """The open session's latest table roll: what the GM's tables box shows as rolled."""
    if session is None or not session.is_open:
        return None
    return table_rolls(session).first()


def table_rolls(session):
    """The session's table rolls, newest first: read through the ``roll_kind_in_session`` index,
    so a session with none costs nothing however long its log."""
    return Roll.objects.filter(session=session, kind=TABLE).order_by("-seq")


def purpose_word(system_key: str, purpose: str) -> str:
    """The log's message naming what a table was rolled for (``register_purpose_words``)."""
    return f"table_purpose:{system_key}:{purpose}"


def register_purpose_words() -> None:
    """Every system's table purposes as messages of the log (rolls.apps, once the systems are
    registered), so an entry rolled after a roll says what for in each reader's language."""
    for system in all_systems():
        purposes = table_rules(system).purposes
        WORDS.update({purpose_word(system.key, key): why for key, why in purposes.items()})
