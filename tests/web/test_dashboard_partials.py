"""Each part of the GM's dashboard is rendered from its own context, reading only what it shows:
its number of queries is small and does not grow with the session's log."""

import pytest
from django.db import connection
from django.template.loader import render_to_string
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from rolls.dashboard import views as dashboard
from tests.web.test_after_roll import rolled, zarith

pytestmark = [pytest.mark.django_db, pytest.mark.table(**zarith())]

#: Each partial of the dashboard, with the most queries it may run (the login's and the
#: campaign's access check included). Built from the whole dashboard's context, the party ran 12
#: and the tests being shaped 13.
PARTIALS = {
    "dashboard_meta": 4,
    "dashboard_party": 5,  # the party's conditions: one query for every card
    "dashboard_pending": 7,  # with the characters who may take a side in an opposed test
    "after_roll_strip": 7,
    "awards_panel": 4,
    "gm_readings_box": 4,
}


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url, HTTP_HX_REQUEST="true").status_code == 200
    return len(captured)


@pytest.mark.parametrize("name", PARTIALS)
def test_a_partial_runs_at_most_its_few_queries(
    client, table, gm, name, django_assert_max_num_queries
):
    campaign, hero, session = table.campaign, table.hero, table.session
    rolled(session, hero, "no")
    client.force_login(gm)
    url = reverse(name, args=[campaign.pk])
    client.get(url)
    with django_assert_max_num_queries(PARTIALS[name]):
        client.get(url, HTTP_HX_REQUEST="true")


@pytest.mark.parametrize("name", PARTIALS)
def test_a_partials_queries_do_not_grow_with_the_log(client, table, gm, name):
    campaign, hero, session = table.campaign, table.hero, table.session
    client.force_login(gm)
    url = reverse(name, args=[campaign.pk])
    for _ in range(3):
        rolled(session, hero, "no", combat=False)
    client.get(url)
    few = _queries(client, url)
    for _ in range(297):
        rolled(session, hero, "yes", combat=False)
    assert _queries(client, url) == few


#: Each part's context function and template: the template renders from what the function
#: read, so neither it nor a template tag it loads runs a query.
PARTS = [
    ("meta_context", "rolls/dashboard/_meta.html"),
    ("party_context", "rolls/dashboard/_party.html"),
    ("pending_context", "rolls/pending/_list.html"),
    ("after_roll_context", "rolls/dashboard/_after_roll.html"),
    ("awards_context", "rolls/dashboard/_awards.html"),
    ("tables_context", "rolls/tables/_box.html"),
    ("gm_readings_context", "rolls/dashboard/_gm_readings.html"),
]


@pytest.mark.parametrize(("function", "template"), PARTS)
def test_a_part_renders_from_its_context_without_a_query(
    rf, table, gm, function, template, django_assert_num_queries
):
    campaign, hero, session = table.campaign, table.hero, table.session
    rolled(session, hero, "no")
    session = dashboard.open_session(campaign)
    request = rf.get("/")
    request.user = gm
    if function == "awards_context":
        context = dashboard.awards_context(campaign)
    else:
        context = getattr(dashboard, function)(campaign, session)
    with django_assert_num_queries(0):
        render_to_string(template, context, request=request)
