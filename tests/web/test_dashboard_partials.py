"""Each part of the GM's dashboard is rendered from its own context, reading only what it shows:
its number of queries is small and does not grow with the session's log."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.web.test_after_roll import make_table, rolled

pytestmark = pytest.mark.django_db

#: Each partial of the dashboard, with the most queries it may run (the login's and the
#: campaign's access check included). Built from the whole dashboard's context, the party ran 12
#: and the tests being shaped 13.
PARTIALS = {
    "dashboard_meta": 5,
    "dashboard_party": 4,
    "dashboard_pending": 7,
    "after_roll_strip": 7,
    "awards_panel": 4,
}


@pytest.fixture
def table(gm, player, other_player):
    return make_table(gm, player, other_player)


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url, HTTP_HX_REQUEST="true").status_code == 200
    return len(captured)


@pytest.mark.parametrize("name", PARTIALS)
def test_a_partial_runs_at_most_its_few_queries(
    client, table, gm, name, django_assert_max_num_queries
):
    campaign, hero, session = table
    rolled(session, hero, "no")
    client.force_login(gm)
    url = reverse(name, args=[campaign.pk])
    client.get(url)
    with django_assert_max_num_queries(PARTIALS[name]):
        client.get(url, HTTP_HX_REQUEST="true")


@pytest.mark.parametrize("name", PARTIALS)
def test_a_partials_queries_do_not_grow_with_the_log(client, table, gm, name):
    campaign, hero, session = table
    client.force_login(gm)
    url = reverse(name, args=[campaign.pk])
    for _ in range(3):
        rolled(session, hero, "no", combat=False)
    client.get(url)
    few = _queries(client, url)
    for _ in range(297):
        rolled(session, hero, "yes", combat=False)
    assert _queries(client, url) == few
