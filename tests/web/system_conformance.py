"""What every rule system must do at the table, written once for any ``campaigns.systems.System``.

A test class that inherits ``SystemConformance`` and provides a ``system`` fixture (a registered
system) runs the whole suite against it: ``test_system_conformance.py`` over the registry, and
a system that exists only in the tests (``tests/coin/``, in ``test_system_coin.py``) over
itself. Everything the suite needs comes from the system's own members: the demo character
(``System.demo``), the roll targets its sheet renders, the GM's "call for a test" form
(``panel.target_fields``).
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
import uuid
from urllib.parse import urlencode

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from campaigns.sessions import end_session, start_session
from campaigns.systems import Engine, PanelModule, Part, SheetModule
from rolls.labels import render
from rolls.models import PendingTest, Roll
from sheets.models import Character
from tests.web.live import panel_url, seat

_DATA_ROLL = re.compile(r'class="roll-target[^"]*"[^>]*data-roll="([^"]*)"')


class Table:
    """One table of a system: its campaign, the GM, the player's hero, another player, the
    running session (None with ``session=False``: the table before its first game night)."""

    def __init__(self, system, gm, player, other_player, session: bool = True) -> None:
        self.system = system
        self.gm, self.player, self.other_player = gm, player, other_player
        self.campaign = Campaign.objects.create(name="Stół", system=system.key, gm=gm)
        seat(self.campaign, gm, player, other_player)
        _player, name, data = system.demo.CHARACTERS[0]
        clean, errors = system.sheet.validate(data, self.campaign, creating=False)
        assert not errors, errors
        self.hero = Character.objects.create(
            campaign=self.campaign, owner=player, name=name, data=clean
        )
        self.session = start_session(self.campaign, "Noc pierwsza") if session else None

    def targets(self, client) -> dict[tuple[str, ...], list[dict]]:
        """The roll targets the hero's sheet offers, by kind (the keys of a target)."""
        client.force_login(self.player)
        page = client.get(reverse("character_detail", args=[self.campaign.pk, self.hero.pk]))
        assert page.status_code == 200
        kinds: dict[tuple[str, ...], list[dict]] = {}
        for raw in _DATA_ROLL.findall(page.content.decode()):
            target = json.loads(html.unescape(raw))
            kinds.setdefault(tuple(sorted(target)), []).append(target)
        return kinds

    def first_target(self, client) -> dict:
        kinds = self.targets(client)
        assert kinds, "the sheet offers no roll target"
        return next(iter(kinds.values()))[0]


def _query(target: dict) -> str:
    return urlencode({key: value for key, value in target.items()}, doseq=True)


def open_panel(client, hero, target: dict):
    return client.get(panel_url(hero) + "?" + _query(target))


def roll_post(client, hero, target: dict, key=None, **extra):
    data = {**target, "key": str(key or uuid.uuid4()), "visibility": "public", **extra}
    return client.post(panel_url(hero, "test_roll"), data)


def ready_panel(client, table: Table, target: dict):
    response = open_panel(client, table.hero, target)
    assert response.status_code == 200
    panel = response.context["panel"]
    assert panel.ready, panel.errors
    return panel


class SystemConformance:
    """The suite; a subclass provides the ``system`` fixture."""

    @pytest.fixture
    def table(self, system, gm, player, other_player) -> Table:
        return Table(system, gm, player, other_player)

    @pytest.fixture
    def idle_table(self, system, gm, player, other_player) -> Table:
        return Table(system, gm, player, other_player, session=False)

    def test_its_engine_sheet_and_panel_keep_their_interfaces(self, system):
        assert isinstance(system.engine, Engine)
        assert isinstance(system.sheet, SheetModule)
        assert isinstance(system.panel, PanelModule)

    def test_its_scale_orders_every_outcome_and_succeeds_as_its_panel_says(self, client, table):
        scale = table.system.engine.SCALE
        assert scale.successes <= set(scale.order)
        assert {scale.critical, scale.catastrophe} - {None} <= set(scale.order)
        for targets in table.targets(client).values():
            panel = open_panel(client, table.hero, targets[0]).context["panel"]
            if panel.ready:
                assert {outcome for outcome, _p in panel.odds} <= set(scale.order)
                succeeding = sum(p for outcome, p in panel.odds if outcome in scale.successes)
                assert succeeding == pytest.approx(panel.success)

    def test_each_of_its_parts_is_found_by_its_own_type(self, system):
        for part in system.parts:
            assert isinstance(part, Part)
            assert system.part(type(part)) is part
            assert system.offered[type(part).key] is part

    def test_the_panel_opens_from_every_kind_of_stat_on_the_sheet(self, client, table):
        kinds = table.targets(client)
        assert kinds, "the sheet offers no roll target"
        for kind, targets in kinds.items():
            response = open_panel(client, table.hero, targets[0])
            assert response.status_code == 200, kind
            assert response.context["panel"].system == table.system.key
            assert 'id="test-panel"' in response.content.decode()

    def test_the_odds_of_every_ready_panel_sum_to_one(self, client, table):
        ready = 0
        for targets in table.targets(client).values():
            panel = open_panel(client, table.hero, targets[0]).context["panel"]
            if panel.ready:
                ready += 1
                assert panel.odds, panel.label
                assert sum(p for _outcome, p in panel.odds) == pytest.approx(1.0)
                assert 0.0 <= panel.success <= 1.0
        assert ready, "no kind of stat opens a panel ready to roll"

    def test_a_roll_is_logged_with_every_source_of_the_panel(self, client, table):
        target = table.first_target(client)
        panel = ready_panel(client, table, target)
        response = roll_post(client, table.hero, target)
        assert response.status_code == 200
        roll = Roll.objects.get(session=table.session)
        assert roll.system == table.system.key
        assert render(roll.label_words) == render(panel.label)
        assert roll.sources == panel.sources
        assert roll.character == table.hero
        log = client.get(reverse("session_log", args=[table.campaign.pk])).content.decode()
        assert html.escape(roll.label) in log
        for source in roll.sources:
            if source["source"]:  # stored as text or as words (rolls.labels), read in words
                assert html.escape(render(source["source"])) in log

    def test_an_outsider_gets_404_from_the_panel_and_its_roll(self, client, table, outsider):
        target = table.first_target(client)
        client.force_login(outsider)
        assert client.get(panel_url(table.hero)).status_code == 404
        assert open_panel(client, table.hero, target).status_code == 404
        assert roll_post(client, table.hero, target).status_code == 404
        assert not Roll.objects.exists()

    def test_another_player_cannot_roll_for_the_hero(self, client, table):
        target = table.first_target(client)
        client.force_login(table.other_player)
        assert client.get(panel_url(table.hero)).status_code == 404
        assert open_panel(client, table.hero, target).status_code == 404
        assert roll_post(client, table.hero, target).status_code == 404
        assert not Roll.objects.exists()

    def test_a_roll_without_a_session_is_refused_with_its_message(self, client, table):
        target = table.first_target(client)
        end_session(table.session)
        response = roll_post(client, table.hero, target)
        assert response.status_code == 409
        assert "No game session is running; the GM starts one." in response.content.decode()
        assert not Roll.objects.exists()

    def test_a_roll_before_the_first_session_is_refused_with_its_message(self, client, idle_table):
        target = idle_table.first_target(client)
        response = roll_post(client, idle_table.hero, target)
        assert response.status_code == 409
        assert "No game session is running; the GM starts one." in response.content.decode()
        assert not Roll.objects.exists()

    def test_a_double_submit_makes_one_roll(self, client, table):
        target = table.first_target(client)
        key = uuid.uuid4()
        first = roll_post(client, table.hero, target, key=key)
        second = roll_post(client, table.hero, target, key=key)
        assert first.status_code == second.status_code == 200
        assert Roll.objects.filter(session=table.session).count() == 1
        # The second answer is the first roll, not a new one under the next seq.
        assert first.context["rolled"]["seq"] == second.context["rolled"]["seq"] == 1

    def _call_test(self, client, table) -> tuple[PendingTest, dict, dict]:
        """The GM calls for a test as the form comes (a select's first choice, a multiple
        select's first choice ticked); returns the pending test, the GM's choices and other
        choices (each field's last) a player might post instead."""
        fields = table.system.panel.target_fields(table.hero, table.campaign)
        called, other = {}, {}
        for field in fields:
            values = [str(value) for value, _text in field["choices"]]
            if field["type"] == "multiselect":
                values = [value for value in values if value]
            if not values:
                continue
            called[field["name"]] = values[0]
            if values[-1] != values[0]:
                other[field["name"]] = values[-1]
        client.force_login(table.gm)
        url = reverse("call_test", args=[table.campaign.pk, table.hero.pk])
        response = client.post(url, called)
        assert response.status_code in (200, 302)
        pending = PendingTest.objects.get(character=table.hero, status=PendingTest.Status.OPEN)
        return pending, called, other

    def test_a_gms_pending_test_reaches_the_players_panel(self, client, table):
        pending, _called, _other = self._call_test(client, table)
        client.force_login(table.player)
        response = client.get(panel_url(table.hero) + f"?pending={pending.pk}")
        assert response.status_code == 200
        assert response.context["pending"] == pending
        assert "The GM calls for a test" in response.content.decode()
        assert response.context["panel"].ready, response.context["panel"].errors

    def test_a_field_the_gm_fixed_cannot_be_overridden_by_a_posted_value(self, client, table):
        pending, _called, other = self._call_test(client, table)
        if not other:
            fields = table.system.panel.target_fields(table.hero, table.campaign)
            assert not fields, "the demo sheet offers the GM's form one choice per field only"
            pytest.skip("the GM fixes nothing when calling a test in this system (AST)")
        client.force_login(table.player)
        shown = client.get(panel_url(table.hero) + f"?pending={pending.pk}").context["panel"]
        response = roll_post(
            client, table.hero, other, pending=pending.pk, revision=pending.revision
        )
        assert response.status_code == 200
        roll = Roll.objects.get(session=table.session)
        assert render(roll.label_words) == render(shown.label)
        assert roll.params == shown.params
        pending.refresh_from_db()
        assert pending.status == PendingTest.Status.ROLLED
        assert pending.roll == roll

    def test_the_log_exports_in_every_format(self, client, table):
        target = table.first_target(client)
        roll_post(client, table.hero, target)
        roll = Roll.objects.get(session=table.session)
        args = [table.campaign.pk, table.session.pk]
        document = json.loads(client.get(reverse("session_export", args=[*args, "json"])).content)
        assert [entry["label"] for entry in document["entries"]] == [roll.label]
        assert document["entries"][0]["faces"] == roll.faces
        rows = list(
            csv.reader(
                io.StringIO(
                    client.get(reverse("session_export", args=[*args, "csv"])).content.decode()
                )
            )
        )
        assert [row[0] for row in rows] == ["seq", "1"]
        markdown = client.get(reverse("session_export", args=[*args, "md"])).content.decode()
        line = next(line for line in markdown.splitlines() if line.startswith("- **#1** "))
        assert f" {table.hero.name} (rolled by " in line
        assert f" — {roll.label}: " in line
