"""What the options after a roll cost a system whose rules have none (no ``FollowUps.menu``):
not one query, though the dashboard's box, its live part on every entry and every panel ask for
them; the rules that have a menu (T10) pay for reading it."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rolls import roll_options
from rolls.conditions.views import options_context
from tests.web.test_after_roll import rolled, zarith
from tests.web.test_t10_options import FAIL_BUT, TABLE
from tests.web.test_t10_options import roll as t10_roll

pytestmark = pytest.mark.django_db


def test_fasttests_rolls_ask_no_query_for_options_it_has_not(make_table, django_assert_num_queries):
    table = make_table(**zarith())
    test = rolled(table.session, table.hero, "no")
    assert not roll_options.offers_options(table.campaign.rules)
    with django_assert_num_queries(0):
        assert options_context(table.campaign, table.session)["option_offers"] == []
        assert (
            roll_options.awaiting_pick(table.hero, table.campaign, table.hero.owner, table.session)
            is None
        )
        assert roll_options.panel_view(test, table.hero.owner, table.campaign, table.hero) is None


@TABLE
def test_t10s_rolls_read_their_menu(client, table, dice):
    client.force_login(table.players[0])
    _response, test = t10_roll(client, table, dice, FAIL_BUT)
    with CaptureQueriesContext(connection) as read:
        offers = options_context(table.campaign, table.session)["option_offers"]
    assert [offer["roll"] for offer in offers] == [test]
    assert len(read) > 0
