"""A live part of the GM's dashboard after a table event is exactly the part a reload shows: for
every part the one map (rolls/dashboard/live_parts.py) refreshes and every kind of event, in all
five systems, the refresher's answer carries the same HTML as a fresh page load."""

from __future__ import annotations

import re
import uuid
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from campaigns import sessions
from rolls.dashboard import live_parts
from rolls.turns import fight as turns

pytestmark = pytest.mark.django_db

SYSTEMS = ["fasttest", "caerbannog", "ast", "t10", "2d6"]
VOID = {"input", "br", "img", "hr", "meta", "link", "source", "wbr", "col", "area"}


class _Elements(HTMLParser):
    """The outer HTML of each element with an id among ``ids``, as written in the page."""

    def __init__(self, html: str, ids: set[str]) -> None:
        super().__init__(convert_charrefs=False)
        self.html, self.ids, self.found, self.open = html, ids, {}, []
        self.lines = [0]
        for line in html.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.feed(html)

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        self.open.append((tag, dict(attrs).get("id"), self._offset()))

    def handle_endtag(self, tag):
        while self.open:
            name, id_, start = self.open.pop()
            if name == tag:
                break
        else:
            return
        if id_ in self.ids and id_ not in self.found:
            end = self.html.index(">", self._offset()) + 1
            self.found[id_] = self.html[start:end]


def _same(html: str) -> str:
    """What differs between two renders by design: fresh keys, CSRF tokens, the oob mark."""
    html = html.replace(' hx-swap-oob="morph"', "")
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "csrf", html)
    return re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "key", html)


def _parts_after(client, table, event: str) -> tuple[dict, dict]:
    url = reverse("dashboard_live", args=[table.campaign.pk])
    answer = client.get(url, {"event": f"table:{event}"})
    refreshed = answer.content.decode() if answer.status_code == 200 else ""
    ids = set(re.findall(r'<\w+ hx-swap-oob="morph"[^>]*? id="([^"]+)"', refreshed))
    page = client.get(reverse("dashboard", args=[table.campaign.pk])).content.decode()
    return _Elements(refreshed, ids).found, _Elements(page, ids).found


def _roll_quick_dice(client, table):
    url = reverse("quick_roll", args=[table.campaign.pk])
    client.post(url, {"expression": "2d6", "key": str(uuid.uuid4())}, HTTP_HX_REQUEST="true")


def _call_with_nothing_chosen(client, table):
    # Refused: the refusal stands on the part, after a refresh as after a reload.
    url = reverse("call_test", args=[table.campaign.pk, table.characters[0].pk])
    client.post(url, {}, HTTP_HX_REQUEST="true")


def _rename(client, table):
    character = table.characters[0]
    character.name = "Zmieniona"
    character.save()


def _new_scene(client, table):
    sessions.new_scene(table.session, "Most")


def _end_session(client, table):
    sessions.end_session(table.session)


def _start_a_turn(client, table):
    turns.start_turn(table.session, table.characters[1])


EVENTS = {
    "entry": _roll_quick_dice,
    "pending": _call_with_nothing_chosen,
    "sheet": _rename,
    "scene": _new_scene,
    "session": _end_session,
    "turn": _start_a_turn,
    "reconnect": _roll_quick_dice,
}


def test_the_map_names_every_event_the_refresher_listens_for():
    assert set(EVENTS) == set(live_parts.EVENTS)


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("event", EVENTS)
def test_a_part_refreshed_after_an_event_is_the_part_a_reload_shows(
    client, make_table, system, event
):
    table = make_table(system, characters=[("Brunhilda", {}), ("Zbyszko", {})])
    client.force_login(table.gm)
    EVENTS[event](client, table)
    refreshed, reloaded = _parts_after(client, table, event)
    assert refreshed, "the event refreshes some part"
    assert {i: _same(h) for i, h in refreshed.items()} == {i: _same(h) for i, h in reloaded.items()}


@pytest.mark.parametrize("event", EVENTS)
def test_the_refresher_answers_with_exactly_the_parts_the_map_gives_its_event(
    client, make_table, event
):
    table = make_table("caerbannog")
    client.force_login(table.gm)
    refreshed, _ = _parts_after(client, table, event)
    mapped = {p.id for p in live_parts.DASHBOARD if event in p.events or event == "reconnect"}
    page = client.get(reverse("dashboard", args=[table.campaign.pk])).content.decode()
    in_this_game = {id_ for id_ in mapped if f'id="{id_}"' in page}  # Caerbannog's own parts
    assert set(refreshed) == in_this_game
