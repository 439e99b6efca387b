"""The GM's read-only view of a player's table (campaigns/view_as.py, rolls/live/view_as.py).

The GM opens ``/view/<campaign>/<player>/c/<campaign>/...``: the player's own page, byte for
byte once the differences named in ``NORMALISATIONS`` are taken out, on a table whose log holds
what each viewer sees differently (a GM's hidden roll, another player's secret roll, a whisper
to the viewed player and one to another, a test called on the viewed player). Only the GM of
that campaign may open it, on one of its players; nothing under the prefix writes.
"""

from __future__ import annotations

import re
import uuid
from html import escape

import pytest
from django.apps import apps
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import CookieStorage
from django.db import transaction
from django.http import HttpRequest
from django.urls import get_resolver, reverse

from campaigns.models import Membership
from campaigns.view_as import ViewAsMiddleware, WriteRefused, read_only_refusal
from rolls import limits
from rolls.models import PendingTest, Roll
from rolls.pending import actions as pending
from tests.web.hostile import url_names
from tests.web.live import roll
from tests.web.test_hostile_whispers import say
from tests.web.test_panel_fasttest import SHEET

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.table(name="Zarith", characters=[("Brunhilda", SHEET), ("Gunnar", SHEET)]),
]

HX = {"HTTP_HX_REQUEST": "true"}
REFRESH = {"HTTP_X_PANEL_REFRESH": "1"}
TO_VIEWED = "Szept-do-Brunhildy-q81"
TO_OTHER = "Szept-do-Gunnara-z52"
BANNER = "You are viewing the table as"

#: What may differ between the player's own page and the GM's view of it, each named: a
#: difference anywhere else fails the equality.
NORMALISATIONS = (
    ("the CSRF token in htmx's headers", r'"X-CSRFToken": "[^"]*"', '"X-CSRFToken": "-"'),
    ("the CSRF token of each form", r'name="csrfmiddlewaretoken" value="[^"]*"', "csrf"),
    ("an idempotency key, new on every render", r'name="key" value="[^"]*"', "key"),
    ("the moment the presence list was read", r'data-presence-at="[^"]*"', "at"),
    ("presence's seconds left, counted from that moment", r' data-(away|gone)-in="[^"]*"', ""),
    ("the view's banner", r'\n\n<div class="view-as" role="status".*?</div>\n', ""),
)


def normalised(html: str, prefix: str = "") -> str:
    """``html`` with each of ``NORMALISATIONS`` made alike, and the view's URL prefix taken out
    of every link (``prefix``: ``/view/<c>/<u>``)."""
    for _why, pattern, same in NORMALISATIONS:
        html = re.sub(pattern, same, html, flags=re.S)
    return html.replace(f"{prefix}/", "/") if prefix else html


def prefix_of(table, user) -> str:
    return f"/view/{table.campaign.pk}/{user.pk}"


@pytest.fixture
def evening(table, gm, player, other_player):
    """The table's log: what the GM, the viewed player and the other player each see
    differently, and a test called on the viewed player's character."""
    session, campaign = table.session, table.campaign
    master = table.client(gm)
    roll(session, player, character=table.hero)
    roll(session, gm, "hidden")
    roll(session, other_player, "secret", character=table.characters[1])
    say(master, campaign, TO_VIEWED, to=f"u{player.pk}")
    say(master, campaign, TO_OTHER, to=f"u{other_player.pk}")
    roll(session, other_player, character=table.characters[1])
    pending.call_test(
        session=session, character=table.hero, gm=gm, target={"attribute": "ZRĘCZNOŚĆ", "skill": []}
    )
    return table


def pages(table) -> list[tuple[str, dict]]:
    """The player's pages (the table page, the sheets, the log and its parts), with the
    headers they are asked with."""
    c, session = table.campaign.pk, table.session
    hero, other = table.characters
    called = PendingTest.objects.get(character=hero).pk
    return [
        (reverse("session_detail", args=[c, session.pk]), {}),
        (reverse("character_detail", args=[c, hero.pk]), {}),
        (reverse("character_detail", args=[c, other.pk]), {}),
        (reverse("campaign_detail", args=[c]), {}),
        (reverse("session_log", args=[c]), HX),
        (reverse("session_log_earlier", args=[c, session.pk]) + "?before=6", HX),
        (reverse("session_side", args=[c, session.pk]), HX),
        (reverse("test_panel", args=[c, hero.pk]), HX),
        # The panel's refresh after a table event, which the view asks by GET (static/js/panel.js).
        (reverse("test_panel", args=[c, hero.pk]) + f"?pending={called}", HX | REFRESH),
        (reverse("my_calls", args=[c]), HX),
    ]


def test_the_view_is_the_players_own_page_byte_for_byte(evening, gm, player):
    own, view = evening.client(player), evening.client(gm)
    prefix = prefix_of(evening, player)
    for url, headers in pages(evening):
        mine = own.get(url, **headers)
        seen = view.get(prefix + url, **headers)
        assert (url, seen.status_code, mine.status_code) == (url, 200, 200)
        assert normalised(seen.content.decode(), prefix) == normalised(mine.content.decode())


def test_the_equality_is_not_the_gms_page(evening, gm, player):
    # The GM's own table page shows the hidden roll and both whispers: the view is not it.
    url = reverse("session_log", args=[evening.campaign.pk])
    gms = evening.client(gm).get(url, **HX).content.decode()
    seen = evening.client(gm).get(prefix_of(evening, player) + url, **HX).content.decode()
    assert TO_OTHER in gms
    assert TO_OTHER not in seen
    assert TO_VIEWED in seen
    assert normalised(seen, prefix_of(evening, player)) != normalised(gms)


def test_the_view_says_whose_it_is_and_the_way_back(evening, gm, player):
    url = reverse("session_detail", args=[evening.campaign.pk, evening.session.pk])
    html = evening.client(gm).get(prefix_of(evening, player) + url).content.decode()
    banner = re.search(r'<div class="view-as" role="status".*?</div>', html, re.S)[0]
    assert f"{BANNER} <strong><bdi>{player.username}</bdi></strong> (read-only)" in banner
    assert f'href="{reverse("dashboard", args=[evening.campaign.pk])}"' in banner
    assert f'href="{url}"' in banner
    assert f'data-view-as="/ws/view/{evening.campaign.pk}/{player.pk}/"' in banner


def test_the_views_static_files_are_the_sites_own(evening, gm, player, settings):
    view, page = evening.client(gm), f"{prefix_of(evening, player)}/c/{evening.campaign.pk}/"
    view.get(page)  # the client's middleware made (whitenoise reads the setting as it starts)
    # Then, as in a process whose first page is the view's, the setting (relative: Django adds
    # the script prefix as it first reads it) and the static files' storage are read afresh.
    settings.STATIC_URL = "static/"
    prefix = prefix_of(evening, player)
    html = view.get(page).content.decode()
    assert 'href="/static/css/app.css"' in html
    assert f"{prefix}/static/" not in html


def test_links_on_the_view_stay_in_the_view(evening, gm, player):
    c, prefix = evening.campaign.pk, prefix_of(evening, player)
    html = evening.client(gm).get(f"{prefix}/c/{c}/").content.decode()
    sheet = reverse("character_detail", args=[c, evening.hero.pk])
    assert f'href="{prefix}{sheet}"' in html


def test_a_page_outside_the_viewed_table_leaves_the_view(evening, make_table, make_user, gm):
    elsewhere = make_table(gm=make_user("gm2"), players=1, characters=())
    view = evening.client(gm)
    prefix = prefix_of(evening, evening.players[0])
    home = view.get(f"{prefix}/?next=1")
    other_table = view.get(f"{prefix}/c/{elsewhere.campaign.pk}/")
    assert (home.status_code, home["Location"]) == (302, "/?next=1")
    assert (other_table.status_code, other_table["Location"]) == (
        302,
        f"/c/{elsewhere.campaign.pk}/",
    )


def test_an_htmx_request_outside_the_table_leaves_the_whole_page(evening, gm, player):
    response = evening.client(gm).get(f"{prefix_of(evening, player)}/rules/", **HX)
    assert response["HX-Redirect"] == "/rules/"


# --- Who may open it ---------------------------------------------------------------------------


def test_a_player_cannot_view_anyone(evening, gm, player, other_player):
    page = f"/c/{evening.campaign.pk}/"
    own = evening.client(player)
    for viewed in (player, other_player, gm):
        response = own.get(prefix_of(evening, viewed) + page)
        assert (viewed.username, response.status_code) == (viewed.username, 404)
        assert BANNER not in response.content.decode()


def test_the_gm_cannot_view_as_the_gm(evening, gm):
    response = evening.client(gm).get(f"{prefix_of(evening, gm)}/c/{evening.campaign.pk}/")
    assert response.status_code == 404


def test_a_gm_cannot_view_another_tables_player(evening, make_table, make_user, gm):
    stranger = make_user("stranger")
    elsewhere = make_table(gm=make_user("gm2"), players=[stranger], characters=())
    c = elsewhere.campaign.pk
    response = evening.client(gm).get(f"/view/{c}/{stranger.pk}/c/{c}/")
    assert response.status_code == 404


def test_a_gm_cannot_view_a_player_of_another_table_through_their_own(
    evening, make_table, make_user, gm
):
    stranger = make_user("stranger")
    make_table(gm=make_user("gm2"), players=[stranger], characters=())
    c = evening.campaign.pk
    assert evening.client(gm).get(f"/view/{c}/{stranger.pk}/c/{c}/").status_code == 404


def test_a_gm_cannot_view_a_player_who_left(evening, gm, player):
    Membership.objects.filter(campaign=evening.campaign, user=player).delete()
    page = f"{prefix_of(evening, player)}/c/{evening.campaign.pk}/"
    assert evening.client(gm).get(page).status_code == 404


def test_a_visitor_is_asked_to_log_in(evening, client, player):
    page = f"{prefix_of(evening, player)}/c/{evening.campaign.pk}/"
    response = client.get(page)
    assert response.status_code == 302
    assert response["Location"].startswith(f"{reverse('login')}?next=/view/")


# --- Nothing under the prefix writes -----------------------------------------------------------


def _rows() -> dict[str, int]:
    return {model._meta.label: model.objects.count() for model in apps.get_models()}


def _table_urls(table, player) -> list[str]:
    """Every URL of the project under ``c/<campaign_id>/``, with the table's own objects."""
    hero = table.hero
    found = Roll.objects.filter(session=table.session).first()
    called = PendingTest.objects.first()
    values = {
        "campaign_id": table.campaign.pk,
        "pk": hero.pk,
        "session_id": table.session.pk,
        "user_id": player.pk,
        "roll_id": found.pk,
        "pending_id": called.pk,
        "kind": "reroll",
        "section": "attributes",
        "fmt": "json",
        "group_id": 1,
        "opposed_id": 1,
        "saved_id": 1,
        "condition_id": 1,
        "index": 0,
    }
    resolver, urls = get_resolver(), []
    for name in url_names(resolver.url_patterns):
        for possibilities, *_rest in resolver.reverse_dict.getlist(name):
            for _format, params in possibilities:
                if _format.startswith("c/%(campaign_id)s"):
                    urls.append(reverse(name, kwargs={p: values[p] for p in params}))
    return sorted(set(urls))


def test_every_write_under_the_prefix_is_refused_and_writes_nothing(
    evening, gm, player, monkeypatch
):
    view, prefix = evening.client(gm), prefix_of(evening, player)
    urls = _table_urls(evening, player)
    assert len(urls) > 90  # every page of the table, every one of its forms' actions
    budgets = []  # refused before the budgets are read: a refused write spends none of them
    monkeypatch.setattr(limits, "spend", lambda *args, **kwargs: budgets.append(args))
    before = _rows()
    forged = {"key": str(uuid.uuid4()), "text": "x", "to": "all", "attribute": "BUDOWA"}
    for url in urls:
        for method, headers in (("post", {}), ("post", HX), ("put", HX), ("delete", {})):
            response = getattr(view, method)(prefix + url, forged, **headers)
            assert (url, method, response.status_code) == (url, method, 403)
    assert _rows() == before
    assert budgets == []


def test_every_page_of_the_table_reads_in_the_view_as_it_reads_to_the_player(evening, gm, player):
    """Every URL of the table by GET, as the player and through the view: the same status, the
    same place to go, the same body (``NORMALISATIONS``); what a player may not open (the GM's
    pages) the view may not either, and nothing answers 500 or 403 for a write refused."""
    own, view = evening.client(player), evening.client(gm)
    prefix, answered = prefix_of(evening, player), set()
    for url in _table_urls(evening, player):
        for headers in ({}, HX):
            mine, seen = own.get(url, **headers), view.get(prefix + url, **headers)
            answered.add(seen.status_code)
            assert (url, seen.status_code) == (url, mine.status_code)
            went = seen.get("Location", "").replace(f"{prefix}/", "/")
            assert (url, went) == (url, mine.get("Location", ""))
            if not getattr(mine, "streaming", False):
                body = normalised(seen.content.decode(errors="replace"), prefix)
                assert (url, body) == (url, normalised(mine.content.decode(errors="replace")))
    assert {200, 404, 405} <= answered  # pages shown, the GM's pages not, forms' actions not


def test_a_refused_write_says_why_where_the_page_shows_refusals(evening, gm, player):
    url = reverse("test_roll", args=[evening.campaign.pk, evening.hero.pk])
    view = evening.client(gm)
    htmx = view.post(prefix_of(evening, player) + url, {"attribute": "BUDOWA"}, **HX)
    plain = view.post(prefix_of(evening, player) + url, {"attribute": "BUDOWA"})
    assert htmx["HX-Retarget"] == "#request-refusal"
    assert escape(read_only_refusal()) in htmx.content.decode()
    assert escape(read_only_refusal()) in plain.content.decode()
    assert Roll.objects.filter(session=evening.session).count() == 6


def test_a_player_or_a_visitor_posting_under_the_prefix_is_refused_too(evening, client, player):
    url = f"{prefix_of(evening, player)}{reverse('say_line', args=[evening.campaign.pk])}"
    own = evening.client(player)
    before = _rows()
    assert own.post(url, {"text": "x", "key": "k"}).status_code == 403
    assert client.post(url, {"text": "x", "key": "k"}).status_code == 403
    assert _rows() == before


def test_a_write_a_page_of_the_view_would_make_is_refused(evening, gm, player, rf):
    """The guard behind every GET of the view: a page that wrote would be refused, not obeyed."""
    c = evening.campaign.pk

    def writes(request):
        evening.campaign.__class__.objects.filter(pk=c).update(name="Zmienione")
        return None

    request = rf.get(f"{prefix_of(evening, player)}/c/{c}/")
    request.user = gm
    middleware = ViewAsMiddleware(writes)
    with pytest.raises(WriteRefused), transaction.atomic():  # a savepoint, as the test's own
        middleware(request)
    assert middleware.process_exception(request, WriteRefused("UPDATE")).status_code == 403
    evening.campaign.refresh_from_db()
    assert evening.campaign.name == "Zarith"


def test_the_gms_queued_messages_wait_for_the_gms_own_pages(evening, gm, player):
    view = evening.client(gm)
    waiting = [Message(constants.SUCCESS, "Kanał Discorda podłączony.")]
    view.cookies[CookieStorage.cookie_name] = CookieStorage(HttpRequest())._encode(waiting)
    page = f"{prefix_of(evening, player)}/c/{evening.campaign.pk}/"
    assert 'class="messages"' not in view.get(page).content.decode()
    assert 'class="messages"' in view.get(f"/c/{evening.campaign.pk}/").content.decode()


# --- The way in --------------------------------------------------------------------------------


def test_the_dashboard_offers_to_view_as_each_player(evening, gm, player, other_player):
    c, session = evening.campaign.pk, evening.session.pk
    html = evening.client(gm).get(reverse("dashboard", args=[c])).content.decode()
    for viewed in (player, other_player):
        assert f'href="/view/{c}/{viewed.pk}/c/{c}/sessions/{session}/"' in html


def test_the_campaign_page_offers_it_to_the_gm_alone(evening, gm, player):
    c = evening.campaign.pk
    mine = evening.client(gm).get(reverse("campaign_detail", args=[c])).content.decode()
    theirs = evening.client(player).get(reverse("campaign_detail", args=[c])).content.decode()
    assert f'href="/view/{c}/{player.pk}/c/{c}/sessions/' in mine
    assert "/view/" not in theirs
