"""The test panel after a table event is the panel a reload shows (issue 24, "one table, one
truth"): the page's refresh (static/js/panel.js: the choices form as it stands, posted with
X-Panel-Refresh) is answered with the same HTML as the panel in a fresh load of the sheet, in
all five systems, for every event that leaves the panel showing the table's state: a call that
arrives, the GM's change to it, a change of the sheet, and the end of the session.

(A result the reader is looking at, and a "called off" notice, are the page's own moment: a
refresh keeps them and a reload starts afresh, by design.)"""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns import sessions
from rolls.pending import actions as pending
from tests.web import test_panel_ast, test_panel_caerbannog, test_panel_t10, test_panel_twod6
from tests.web.hostile import parse
from tests.web.test_live_parts import _Elements, _same
from tests.web.test_panel_fasttest import SHEET as FASTTEST
from tests.web.test_pending_twod6 import AMBUSH

pytestmark = pytest.mark.django_db

#: Each system: a sheet, a test the GM calls on it, and a change the GM then makes to it.
SYSTEMS = {
    "fasttest": (FASTTEST, {"attribute": "ZRĘCZNOŚĆ"},
                 ("add_dice", {"kind": "penalty", "amount": 2, "source": "lód"})),
    "ast": (test_panel_ast.SHEET, {}, ("set_challenge", {"value": 1})),
    "t10": (test_panel_t10.SHEET, {"attribute": "Styrka", "skill": "Svärd"},
            ("set_difficulty", {"value": 9})),
    "caerbannog": (test_panel_caerbannog.SHEET,
                   {"skill": ["Dociekliwość"], "defence": [], "form": "combined",
                    "difficulty": "3"},
                   ("set_hindering", {"value": 1})),
    "2d6": (test_panel_twod6.NOMAD, dict(AMBUSH), ("set_difficulty", {"value": 16})),
}  # fmt: skip


def _call(table, gm, system):
    _sheet, target, _change = SYSTEMS[system]
    return pending.call_test(session=table.session, character=table.hero, gm=gm, target=target)


def _change(table, gm, system):
    operation, args = SYSTEMS[system][2]
    pending.change_test(pending.PendingTest.objects.get().pk, gm, operation, **args)


def _rename(table, gm, system):
    table.hero.name = "Bohater Drugi"
    table.hero.save()


def _end(table, gm, system):
    sessions.end_session(table.session)


#: Each event: whether the GM has called a test before it, and what the event does.
EVENTS = {
    "a call arrives": (False, _call),
    "the gm changes the call": (True, _change),
    "the sheet changes": (True, _rename),
    "the session ends": (True, _end),
}


def _panel(html: str) -> str:
    """The panel's element as written, but for what differs between two renders by design."""
    return _same(_raw_panel(html))


def _raw_panel(html: str) -> str:
    return _Elements(html, {"test-panel"}).found["test-panel"]


def _sheet(client, hero) -> str:
    return client.get(
        reverse("character_detail", args=[hero.campaign_id, hero.pk])
    ).content.decode()


def _refresh(client, hero, shown: str):
    """What the page sends after a table event: the panel's choices form as it stands (none for
    the idle slot), to the panel's address, marked as a refresh."""
    url = reverse("test_panel", args=[hero.campaign_id, hero.pk])
    forms = [f for f in parse(shown, url, "player").forms if f.url_name == "test_roll"]
    fields = forms[0].fields if forms else []
    data: dict[str, list[str]] = {}
    for name, value in fields:
        data.setdefault(name, []).append(value)
    return client.post(url, data, HTTP_X_PANEL_REFRESH="1", HTTP_HX_REQUEST="true")


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("event", EVENTS)
def test_the_panel_refreshed_after_an_event_is_the_panel_a_reload_shows(
    client, make_table, gm, player, system, event
):
    called_before, happen = EVENTS[event]
    table = make_table(system, characters=[("Bohater", SYSTEMS[system][0])])
    if called_before:
        _call(table, gm, system)
    client.force_login(player)
    shown = _raw_panel(_sheet(client, table.hero))
    happen(table, gm, system)
    refreshed = _refresh(client, table.hero, shown)
    assert refreshed.status_code == 200
    assert _panel(refreshed.content.decode()) == _panel(_sheet(client, table.hero))


def _cues(html: str) -> str:
    """What the call cues hold (their refresh swaps it in, innerHTML)."""
    element = _Elements(html, {"call-cues"}).found["call-cues"]
    return _same(element[element.index(">") + 1 : element.rindex("</div>")]).strip()


@pytest.mark.parametrize("page", ["campaign_detail", "character_detail"])
@pytest.mark.parametrize("event", EVENTS)
def test_the_call_cues_refreshed_after_an_event_are_the_cues_a_reload_shows(
    client, make_table, gm, player, page, event
):
    called_before, happen = EVENTS[event]
    table = make_table("fasttest", characters=[("Bohater", FASTTEST)])
    if called_before:
        _call(table, gm, "fasttest")
    client.force_login(player)
    hero = table.hero
    args = [hero.campaign_id] if page == "campaign_detail" else [hero.campaign_id, hero.pk]
    happen(table, gm, "fasttest")
    # The page's refresh asks for the cues of every character but the one whose sheet it is.
    query = {"sheet": hero.pk} if page == "character_detail" else {}
    refreshed = client.get(reverse("my_calls", args=[hero.campaign_id]), query)
    reloaded = _cues(client.get(reverse(page, args=args)).content.decode())
    assert _same(refreshed.content.decode()).strip() == reloaded
