"""Finding every form of the app, to feed it hostile input (tests/web/test_hostile_input.py).

The forms are read from the pages themselves: a crawl of the demo table as its GM and as a
player fetches every page a member reaches (each sheet box opened for editing, each test panel
opened from each roll target of each sheet, the dashboard with a test called, the after-roll
tools with a roll made) and parses each ``<form method="post">`` on them into its URL and the
values the browser would send. A form added to a template is therefore probed without anyone
listing it; a URL no crawled form posts to must be named in the test module's tables.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from html.parser import HTMLParser
from urllib.parse import quote, urljoin, urlsplit

import pytest
from django.core.handlers.wsgi import WSGIRequest
from django.db import transaction
from django.http import HttpResponse
from django.test import Client
from django.test import client as test_client
from django.urls import ResolverMatch, URLResolver, get_resolver, resolve, reverse

from campaigns.models import Campaign
from rolls import actions
from rolls.group.actions import rules_of as group_rules_of
from rolls.models import PendingTest, RandomTable, Roll
from rolls.systems.fasttest import sheet_actions
from sheets.models import NPC, Character
from sheets.systems import sections, sheet_module
from sheets.systems.fasttest import SEVERITIES
from sheets.views import NAME_SECTION


@dataclass
class Form:
    """One POST form as a browser would submit it: its URL, who sees it, its fields."""

    url: str
    user: str
    fields: list[tuple[str, str]]
    files: tuple[str, ...] = ()
    #: The fields a person types text into (text inputs, text areas), not a number or a choice.
    texts: frozenset[str] = frozenset()

    @cached_property
    def _match(self) -> ResolverMatch:
        # Resolved once: the sweeps ask every form its signature again and again.
        return resolve(urlsplit(self.url).path)

    @property
    def url_name(self) -> str:
        return self._match.url_name

    @property
    def names(self) -> list[str]:
        return sorted({name for name, _value in self.fields} | set(self.files))

    def signature(self) -> tuple:
        """Forms alike but for the rows they stand on (one per NPC, per wound) are probed once;
        the campaign (its system) and the operation chosen by a hidden field keep them apart."""
        match = self._match
        ops = tuple(value for name, value in self.fields if name in ("op", "kind", "change"))
        return (self.user, match.url_name, match.kwargs.get("campaign_id"), tuple(self.names), ops)


@dataclass
class _Open:
    action: str
    fields: list[tuple[str, str]] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    texts: set[str] = field(default_factory=set)
    buttons: list[tuple[str, str, str]] = field(default_factory=list)  # name, value, formaction
    select: str | None = None
    select_first: str | None = None
    select_chosen: bool = False
    textarea: str | None = None
    text: str = ""


class FormParser(HTMLParser):
    """Every ``<form method="post">`` of a page, one ``Form`` per submit button that differs."""

    def __init__(self, page_url: str, user: str) -> None:
        super().__init__(convert_charrefs=True)
        self.page_url = page_url
        self.user = user
        self.forms: list[Form] = []
        self.rolls: list[dict] = []
        self._open: _Open | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-roll" in a:
            self.rolls.append(json.loads(a["data-roll"]))
        if tag == "form" and a.get("method", "get").lower() == "post":
            self._open = _Open(action=urljoin(self.page_url, a.get("action") or self.page_url))
            if a.get("hx-post"):  # htmx posts the same fields elsewhere (the running totals)
                self._open.buttons.append(("", "", a["hx-post"]))
            return
        form = self._open
        if form is None:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text").lower()
            if kind == "file":
                form.files.append(name)
            elif kind in ("checkbox", "radio"):
                if "checked" in a:
                    form.fields.append((name, a.get("value", "on")))
            elif kind in ("submit", "image", "button"):
                form.buttons.append((name, a.get("value", ""), a.get("formaction", "")))
            else:
                form.fields.append((name, a.get("value", "")))
                if kind in ("text", "search"):
                    form.texts.add(name)
        elif tag == "button" and a.get("type", "submit").lower() == "submit":
            form.buttons.append((name or "", a.get("value", ""), a.get("formaction", "")))
        elif tag == "select" and name:
            form.select, form.select_first, form.select_chosen = name, None, False
        elif tag == "option" and form.select:
            value = a.get("value", "")
            if form.select_first is None:
                form.select_first = value
            if "selected" in a and not form.select_chosen:
                form.fields.append((form.select, value))
                form.select_chosen = True
        elif tag == "textarea" and name:
            form.textarea, form.text = name, ""
            form.texts.add(name)

    def handle_data(self, data):
        if self._open is not None and self._open.textarea:
            self._open.text += data

    def handle_endtag(self, tag):
        form = self._open
        if form is None:
            return
        if tag == "select" and form.select:
            if not form.select_chosen and form.select_first is not None:
                form.fields.append((form.select, form.select_first))
            form.select = None
        elif tag == "textarea" and form.textarea:
            form.fields.append((form.textarea, form.text))
            form.textarea = None
        elif tag == "form":
            self._close(form)
            self._open = None

    def _close(self, form: _Open) -> None:
        variants = form.buttons or [("", "", "")]
        if all(formaction for _name, _value, formaction in variants):
            variants = [("", "", ""), *variants]
        seen = set()
        for name, value, formaction in variants:
            action = urljoin(self.page_url, formaction) if formaction else form.action
            fields = list(form.fields) + ([(name, value)] if name else [])
            key = (action, tuple(fields))
            if key in seen:
                continue
            seen.add(key)
            self.forms.append(
                Form(action, self.user, fields, tuple(form.files), frozenset(form.texts))
            )


def parse(html: str, page_url: str, user: str) -> FormParser:
    parser = FormParser(page_url, user)
    parser.feed(html)
    return parser


def encode(fields: list[tuple[str, str]]) -> bytes:
    """An urlencoded body; text a browser could not encode (a lone surrogate) is sent as the
    bytes Python would write for it, as a hostile client could."""

    def part(text: str) -> str:
        return quote(text.encode("utf-8", "surrogatepass"), safe="")

    return "&".join(f"{part(name)}={part(value)}" for name, value in fields).encode("ascii")


class Crawl:
    """The forms a GM and a player meet at the demo table, gathered page by page."""

    def __init__(self, clients: dict) -> None:
        self.clients = clients
        self.forms: list[Form] = []
        self.pages: set[str] = set()
        self._signatures: set[tuple] = set()

    def page(self, user: str, url: str, *, method: str = "get", data=None) -> FormParser:
        client = self.clients[user]
        if method == "get":
            response = client.get(url, data or {}, follow=True)
        else:
            response = client.post(url, data or {}, follow=True)
        assert response.status_code < 500, (user, url)
        self.pages.add(resolve(urlsplit(url).path).url_name)
        parser = parse(response.content.decode(), url, user)
        for form in parser.forms:
            if form.signature() not in self._signatures:
                self._signatures.add(form.signature())
                self.forms.append(form)
        return parser

    def table(self, gm: str, player: str) -> None:
        """Every page of every demo campaign, as its GM and as ``player``."""
        from campaigns.sessions import start_session

        self.page(gm, reverse("home"))
        self.page(gm, reverse("campaign_create"))
        self.page(gm, reverse("password_change"))
        for campaign in Campaign.objects.order_by("pk"):
            self.page(gm, reverse("campaign_detail", args=[campaign.pk]))  # before a session
            session = start_session(campaign)
            hero = Character.objects.filter(campaign=campaign, owner__username=player).first()
            if campaign.system == "fasttest":  # a wound to tend, a magic die a rest restores
                from rolls.engine.fasttest_sheet import MAGIC_DICE

                for character in Character.objects.filter(campaign=campaign):
                    character.data["magic_die"] = min(MAGIC_DICE)
                    character.save()
                hero.refresh_from_db()
                hero.campaign = campaign
                sheet_actions.add_wound(hero, "cut", SEVERITIES[0])
                hero.refresh_from_db()
            other = Character.objects.filter(campaign=campaign).exclude(pk=hero.pk).first()
            npc = NPC.objects.filter(campaign=campaign).first() or NPC.objects.create(
                campaign=campaign, name="Ogr", traits=[{"name": "wielki", "dice": 3}]
            )
            c = campaign.pk
            for url in (
                reverse("campaign_detail", args=[c]),
                reverse("campaign_settings", args=[c]),
                reverse("discord_bridge", args=[c]),
                reverse("character_create", args=[c]),
                reverse("character_import", args=[c]),
                reverse("npc_list", args=[c]),
                reverse("npc_create", args=[c]),
                reverse("npc_edit", args=[c, npc.pk]),
                reverse("npc_delete", args=[c, npc.pk]),
                reverse("session_detail", args=[c, session.pk]),
                reverse("session_end", args=[c, session.pk]),
                reverse("random_tables", args=[c]),
                *(
                    reverse("random_table_edit", args=[c, table.pk])
                    for table in RandomTable.objects.filter(campaign=campaign).order_by("pk")[:1]
                ),
                reverse("character_delete", args=[c, other.pk]),
                reverse("member_remove", args=[c, hero.owner_id]),
            ):
                self.page(gm, url)
            for url in (
                reverse("campaign_detail", args=[c]),
                reverse("character_create", args=[c]),
                reverse("character_import", args=[c]),
                reverse("campaign_leave", args=[c]),
            ):
                self.page(player, url)
            self._sheet(gm, campaign, other)
            # A result to apply: Caerbannog's after-roll box offers its forms for successes.
            caerbannog = campaign.system == "caerbannog"
            with _first_roll_succeeds() if caerbannog else contextlib.nullcontext():
                self._sheet(player, campaign, hero)
            if campaign.system == "fasttest":  # a spell, so the strip offers its magic die
                self._spell(gm, campaign)
            dashboard = self.page(gm, reverse("dashboard", args=[c]))
            call = reverse("call_test", args=[c, hero.pk])
            form = next(f for f in dashboard.forms if urlsplit(f.url).path == call)
            self.page(gm, form.url, method="post", data=_as_dict(form.fields))
            self.page(player, reverse("character_detail", args=[c, hero.pk]))
            test = PendingTest.objects.get(character=hero, status=PendingTest.Status.OPEN)
            self.page(player, reverse("test_panel", args=[c, hero.pk]) + f"?pending={test.pk}")
            for url in (
                reverse("dashboard", args=[c]),
                reverse("awards_panel", args=[c]),
                reverse("after_roll_strip", args=[c]),
            ):
                self.page(gm, url)
            self._recap(gm, player, c, session.pk)  # after the rolls above, so it counts some
            if group_rules_of(campaign.system) is not None:
                self._group_test(gm, player, c)

    def _recap(self, gm: str, player: str, c: int, session_id: int) -> None:
        """The night's recap, its live part and its export, as the GM and as the player."""
        for user in (gm, player):
            for name in ("session_recap", "session_recap_part", "session_recap_export"):
                self.page(user, reverse(name, args=[c, session_id]))

    def _group_test(self, gm: str, player: str, c: int) -> None:
        """The group test screen at each step: the player starts it, the GM gathers a helper
        and rolls everyone's dice, so its forms to boost, re-roll and settle show too."""
        page = reverse("group_test", args=[c])

        def post(user: str, name: str) -> None:
            form = next(f for f in self.page(user, page).forms if f.url_name == name)
            self.page(user, form.url, method="post", data=_as_dict(form.fields))

        post(player, "group_start")
        post(gm, "group_add")
        for _participant in range(2):  # the initiator and the helper
            post(gm, "group_roll")
        self.page(player, page)
        self.page(gm, page)

    def _spell(self, user: str, campaign: Campaign) -> None:
        """A caster of the table casts a spell (a test marked as one) through the roll view."""
        import uuid

        for caster in Character.objects.filter(campaign=campaign).order_by("pk"):
            if any(t.get("magic") for t in caster.data.get("traits", [])):
                url = reverse("test_roll", args=[campaign.pk, caster.pk])
                data = {"attribute": "DUCH", "spell": "on", "spell_name": "pocisk"}
                self.page(user, url, method="post", data=data | {"key": str(uuid.uuid4())})
                return

    def _sheet(self, user: str, campaign: Campaign, character: Character) -> None:
        """The sheet, each of its boxes opened, a test panel from each roll target, one roll."""
        c, pk = campaign.pk, character.pk
        detail = reverse("character_detail", args=[c, pk])
        sheet = self.page(user, detail)
        for section in (NAME_SECTION, *sections(sheet_module(campaign.system))):
            self.page(user, f"{detail}?edit={section.key}")
        panel_url = reverse("test_panel", args=[c, pk])
        for target in sheet.rolls:
            panel = self.page(user, panel_url, data=_as_query(target))
            rolls = [f for f in panel.forms if f.url_name == "test_roll"]
            for form in rolls[:1]:
                if Roll.objects.filter(character=character, actor__username=user).count() < 3:
                    self.page(user, form.url, method="post", data=_as_dict(form.fields))


class _Highest:
    """A random source that gives every die its highest face."""

    def randint(self, low: int, high: int) -> int:
        return high


@contextlib.contextmanager
def _first_roll_succeeds():
    """The next roll made through a view gets every die's highest face; the rest are drawn as
    ever. Caerbannog's after-roll box offers its forms to apply a result only for a test with
    successes, and the crawl's drawn rolls had none in some runs (the hostile sweep then missed
    ``caerbannog_apply_result`` and failed); highest faces give a Caerbannog test successes."""
    drawn = actions.dice_source
    made: list[int] = []

    def source(*stream):
        made.append(1)
        return _Highest() if len(made) == 1 else drawn(*stream)

    actions.dice_source = source
    try:
        yield
    finally:
        actions.dice_source = drawn


def _as_query(target: dict) -> dict:
    return {k: v if isinstance(v, list) else str(v) for k, v in target.items()}


def _as_dict(fields: list[tuple[str, str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for name, value in fields:
        out.setdefault(name, []).append(value)
    return out


def url_names(patterns) -> list[str]:
    """The name of every URL of ``patterns`` (a ``urlpatterns``), in order, those of each
    ``include()`` among them too."""
    names: list[str] = []
    for entry in patterns:
        if isinstance(entry, URLResolver):
            names += url_names(entry.url_patterns)
        elif entry.name:
            names.append(entry.name)
    return names


def url_arguments(name: str, values: dict[str, list]) -> list[dict]:
    """Every combination of ``values`` for the parameters of URL ``name`` (the full URL, the
    prefix its app is mounted under included); a parameter with no values fails the test,
    asking for them, so an endpoint added later is walked too."""
    [(possibilities, *_rest)] = get_resolver().reverse_dict.getlist(name)
    [(_format, names)] = possibilities
    unknown = [param for param in names if param not in values]
    if unknown:
        pytest.fail(f"{name}: say here which values to try for {unknown}")
    combos: list[dict] = [{}]
    for param in names:
        combos = [combo | {param: value} for combo in combos for value in values[param]]
    return combos


class _Watched(WSGIRequest):
    """A request that notes whether anything read what it carried: its query, its body."""

    carried_read = False

    def __getattribute__(self, name: str):
        if name in ("GET", "POST", "FILES", "body", "read", "readline", "readlines"):
            object.__setattr__(self, "carried_read", True)
        return super().__getattribute__(name)


def walk(client: Client, url: str, requests) -> Iterator[tuple[str, dict, HttpResponse]]:
    """``(method, data, response)`` for each ``(method, data, headers)`` of ``requests`` sent to
    ``url``, each in a savepoint rolled back after it, so that every request meets the same
    table. Of the requests of one method and headers, the first is sent, and the others only
    when its answer read what it carried: an answer that read neither its query nor its body
    (a viewer refused at the campaign's door or the GM's, a follow-up of a roll they may not
    see, a method the view does not take) is what every other one would be answered, on the
    same table, whatever it carried. Headers are no such shortcut: every answer's request is
    asked whether htmx sent it (config.redirects.HtmxLoginMiddleware)."""
    unread = set()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(test_client, "WSGIRequest", _Watched)
        for method, data, headers in requests:
            kind = (method, tuple(sorted(headers.items())))
            if kind in unread:
                continue
            with transaction.atomic():
                response = getattr(client, method)(url, data, **headers)
                transaction.set_rollback(True)
            if not response.wsgi_request.carried_read:
                unread.add(kind)
            yield method, data, response
