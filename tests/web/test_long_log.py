"""A long evening: with 2,000 entries in the log every page shows the latest page of it and
loads earlier ones on demand, so its weight and its queries do not grow with the log."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns import sessions
from rolls.log.reading import PAGE_SIZE
from tests.web.long_log import HIDDEN_EVERY, SECRET_EVERY, long_log
from tests.web.renders import renders_of
from tests.web.test_after_roll import zarith

pytestmark = [pytest.mark.django_db, pytest.mark.table(**zarith())]

LONG = 2000
MAX_BYTES = 100 * 1024


def page_urls(table) -> dict[str, str]:
    """Every page and partial that shows the log or reads the session, as the GM opens them."""
    c, s = table.campaign.pk, table.session.pk
    named = {name: reverse(name, args=[c]) for name in [
        "dashboard", "dashboard_meta", "dashboard_party", "dashboard_pending", "after_roll_strip",
        "awards_panel", "random_tables_box", "session_log",
    ]}  # fmt: skip
    return named | {
        "session_detail": reverse("session_detail", args=[c, s]),
        "character_detail": reverse("character_detail", args=[c, table.hero.pk]),
        "session_log_earlier": earlier_url(table, LONG - PAGE_SIZE + 1),
    }


def earlier_url(table, before) -> str:
    url = reverse("session_log_earlier", args=[table.campaign.pk, table.session.pk])
    return f"{url}?before={before}"


def seqs(html: str) -> list[int]:
    return [int(seq) for seq in re.findall(r'<li class="entry[^"]*" id="roll-\d+-(\d+)"', html)]


def get(client, url, htmx=True):
    return client.get(url, HTTP_HX_REQUEST="true") if htmx else client.get(url)


@pytest.fixture
def long_evening(table):
    long_log(table.session, table.players[0], table.gm, LONG, character=table.hero)
    return table


#: The pages a player opens too; the others are the GM's dashboard and its partials.
PLAYERS_PAGES = {"session_detail", "character_detail", "session_log", "session_log_earlier"}


@pytest.mark.parametrize("viewer", ["gm", "player"])
def test_every_page_weighs_at_most_100_kb_with_a_2000_entry_log(client, long_evening, viewer):
    user = long_evening.gm if viewer == "gm" else long_evening.players[0]
    client.force_login(user)
    pages = page_urls(long_evening)
    if viewer == "player":
        pages = {name: url for name, url in pages.items() if name in PLAYERS_PAGES}
    responses = {name: get(client, url, htmx=name != "dashboard") for name, url in pages.items()}
    assert {name: r.status_code for name, r in responses.items() if r.status_code != 200} == {}
    weights = {name: len(response.content) for name, response in responses.items()}
    assert {name: size for name, size in weights.items() if size > MAX_BYTES} == {}


@pytest.mark.parametrize("name", ["session_detail", "character_detail", "dashboard", "session_log"])
def test_a_page_shows_the_latest_page_of_the_log_and_a_link_to_the_earlier(
    client, long_evening, name
):
    client.force_login(long_evening.gm)
    html = client.get(page_urls(long_evening)[name]).content.decode()
    assert seqs(html) == list(range(LONG, LONG - PAGE_SIZE, -1))
    assert f"?before={LONG - PAGE_SIZE + 1}" in html
    assert f"Earlier entries (before #{LONG - PAGE_SIZE + 1})" in html


def test_a_short_log_has_no_earlier_link(client, table):
    long_log(table.session, table.players[0], table.gm, PAGE_SIZE, character=table.hero)
    client.force_login(table.gm)
    html = client.get(page_urls(table)["session_detail"]).content.decode()
    assert len(seqs(html)) == PAGE_SIZE
    assert "?before=" not in html


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert get(client, url).status_code == 200
    return len(captured)


#: The player's own pages among them, measured as the player too.
PLAYERS_OWN = ("session_detail", "character_detail")


def every_page(table, clients, latest: int) -> dict[tuple[str, str], tuple[Client, str]]:
    """Every page and partial as the GM opens them, and the player's own pages as the player:
    ``(viewer, page)`` to ``(client, url)``; the earlier entries are those before the
    ``latest``, a whole page of them in a long log."""
    urls = page_urls(table) | {"session_log_earlier": earlier_url(table, latest)}
    gms = {("gm", name): (clients["gm"], url) for name, url in urls.items()}
    return gms | {("player", name): (clients["player"], urls[name]) for name in PLAYERS_OWN}


def _counted(pages) -> dict[tuple[str, str], int]:
    return {page: _queries(client, url) for page, (client, url) in pages.items()}


def test_every_page_runs_the_same_queries_with_3_or_5000_entries(table):
    """Issue 42: no page's queries grow with the log. Each page is opened once before it is
    measured, so what it caches is filled; the 5,000 entries are written once (~1 s)."""
    clients = {"gm": table.client(table.gm), "player": table.client(table.players[0])}
    long_log(table.session, table.players[0], table.gm, 3, character=table.hero)
    pages = every_page(table, clients, latest=3)
    for client, url in pages.values():
        get(client, url)
    few = _counted(pages)
    long_log(table.session, table.players[0], table.gm, 5000, character=table.hero)
    many = _counted(every_page(table, clients, latest=5000))
    assert {page: (few[page], n) for page, n in many.items() if n != few[page]} == {}


def test_earlier_entries_page_back_to_the_first_without_gaps_or_repeats(client, long_evening):
    client.force_login(long_evening.gm)
    html = client.get(page_urls(long_evening)["session_log"]).content.decode()
    shown, before = seqs(html), re.search(r"\?before=(\d+)", html)
    while before:
        html = get(client, earlier_url(long_evening, before.group(1))).content.decode()
        page = seqs(html)
        assert 0 < len(page) <= PAGE_SIZE
        shown += page
        before = re.search(r"\?before=(\d+)", html)
    assert shown == list(range(LONG, 0, -1))


def test_the_earlier_answer_replaces_the_link_out_of_band(client, long_evening):
    client.force_login(long_evening.gm)
    html = get(client, earlier_url(long_evening, 1001)).content.decode()
    assert seqs(html) == list(range(1000, 1000 - PAGE_SIZE, -1))
    assert re.search(
        rf'id="log-earlier" hx-swap-oob="true">\s*<a href="[^"]*\?before={1001 - PAGE_SIZE}"', html
    )


def test_the_first_page_brings_an_empty_link_place(client, long_evening):
    client.force_login(long_evening.gm)
    html = get(client, earlier_url(long_evening, 20)).content.decode()
    assert seqs(html) == list(range(19, 0, -1))
    assert 'id="log-earlier" hx-swap-oob="true">' in html
    assert "?before=" not in html


def test_earlier_entries_keep_the_visibility_rules(client, long_evening, other_player):
    client.force_login(other_player)
    html = get(client, earlier_url(long_evening, 1001)).content.decode()
    redacted = {int(s) for s in re.findall(r'entry-redacted" id="roll-\d+-(\d+)"', html)}
    expected = {
        s for s in range(1001 - PAGE_SIZE, 1001) if s % SECRET_EVERY == 0 or s % HIDDEN_EVERY == 0
    }
    assert redacted == expected


def test_the_roller_sees_their_secret_entries_whole_and_the_gms_hidden_ones_hidden(
    client, long_evening
):
    client.force_login(long_evening.players[0])
    html = get(client, earlier_url(long_evening, 1001)).content.decode()
    redacted = {int(s) for s in re.findall(r'entry-redacted" id="roll-\d+-(\d+)"', html)}
    assert redacted == {s for s in range(1001 - PAGE_SIZE, 1001) if s % HIDDEN_EVERY == 0}


def test_the_gm_sees_every_earlier_entry_whole(client, long_evening):
    client.force_login(long_evening.gm)
    html = get(client, earlier_url(long_evening, 1001)).content.decode()
    assert "entry-redacted" not in html
    assert len(seqs(html)) == PAGE_SIZE


def test_without_javascript_earlier_entries_are_a_page_with_a_plain_link(client, long_evening):
    client.force_login(long_evening.players[0])
    html = get(client, earlier_url(long_evening, 1001), htmx=False).content.decode()
    assert "<h1>Earlier entries</h1>" in html
    assert seqs(html) == list(range(1000, 1000 - PAGE_SIZE, -1))
    assert f"?before={1001 - PAGE_SIZE}" in html
    assert "hx-get" not in html.split('id="log-earlier"')[1]


def test_the_page_without_javascript_offers_no_dice_check_it_cannot_run(client, long_evening):
    sessions.end_session(long_evening.session)
    client.force_login(long_evening.players[0])
    html = get(client, earlier_url(long_evening, 1001), htmx=False).content.decode()
    assert len(seqs(html)) == PAGE_SIZE
    assert "data-fair-check" not in html


def test_the_earlier_answer_of_an_ended_session_offers_the_dice_check(client, long_evening):
    sessions.end_session(long_evening.session)
    client.force_login(long_evening.players[0])
    html = get(client, earlier_url(long_evening, 1001)).content.decode()
    assert "data-fair-check" in html


def test_the_earlier_link_speaks_polish(client, long_evening):
    client.force_login(long_evening.players[0])
    html = client.get(
        page_urls(long_evening)["session_log"], HTTP_ACCEPT_LANGUAGE="pl"
    ).content.decode()
    assert f"Wcześniejsze wpisy (przed #{LONG - PAGE_SIZE + 1})" in html


@pytest.mark.parametrize(
    "before", ["abc", "-1", "0", "", "1.5", "1e3", "99999999999999999999", str(2**31)]
)
def test_a_hostile_before_is_refused_with_a_clear_400(client, table, before):
    client.force_login(table.players[0])
    response = get(client, earlier_url(table, before))
    assert response.status_code == 400
    assert "asked for with the number of an entry" in response.content.decode()
    assert response["HX-Retarget"] == "#log-earlier"


def test_a_missing_before_is_refused_in_polish_too(client, table):
    client.force_login(table.players[0])
    url = reverse("session_log_earlier", args=[table.campaign.pk, table.session.pk])
    response = client.get(url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="pl")
    assert response.status_code == 400
    assert "O wcześniejsze wpisy prosi się numerem wpisu" in response.content.decode()


def test_a_visitor_who_is_not_logged_in_is_sent_to_log_in(client, table):
    response = get(client, earlier_url(table, 5))
    # The page's htmx request takes the whole page there (config.redirects.HtmxLoginMiddleware).
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith(f"{reverse('login')}?next=")
    assert response.content == b""


def test_the_exports_still_carry_the_whole_log(client, long_evening):
    client.force_login(long_evening.gm)
    url = reverse("session_export", args=[long_evening.campaign.pk, long_evening.session.pk, "csv"])
    assert client.get(url).content.decode().count("\n") == LONG + 1


def _entries_rendered(client, urls) -> list[str]:
    """The ``rolls/log/_entry.html`` renders the pages at ``urls`` cost, asked for one after
    another."""
    with renders_of() as rendered:
        for url in urls:
            assert get(client, url).status_code == 200
    return rendered


def test_the_log_renders_each_entry_once_for_every_page_and_viewer_of_a_language(
    client, table, other_player
):
    long_log(table.session, table.players[0], table.gm, 5, character=table.hero)
    log = reverse("session_log", args=[table.campaign.pk])
    client.force_login(table.players[0])
    assert len(_entries_rendered(client, [log])) == 5
    assert _entries_rendered(client, [log]) == []
    assert _entries_rendered(client, [page_urls(table)["session_detail"]]) == []
    # Another player sees the same entries the same way, but for the first one's secret roll
    # (#2), which they see as a hidden one: that one is rendered for them.
    client.force_login(other_player)
    assert _entries_rendered(client, [log]) == ["rolls/log/_entry.html"]
    assert "A hidden roll was made." in get(client, log).content.decode()


def test_an_entry_shown_before_the_session_ended_offers_the_dice_check_after(client, long_evening):
    table = long_evening
    client.force_login(table.gm)
    log = reverse("session_log", args=[table.campaign.pk])
    assert "data-fair-check" not in get(client, log).content.decode()
    sessions.end_session(table.session)
    ended = page_urls(table)["session_detail"]
    assert get(client, ended, htmx=False).content.decode().count("data-fair-check>") == PAGE_SIZE
