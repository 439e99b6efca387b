"""Django admin: every model of the app is there, and its list page opens."""

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse

from rolls.demo import seed_demo
from rolls.models import Condition

pytestmark = pytest.mark.django_db
APPS = ("campaigns", "sheets", "rolls")


def test_every_model_is_registered_in_the_admin():
    models = [m for name in APPS for m in apps.get_app_config(name).get_models()]
    assert [m.__name__ for m in models if not admin.site.is_registered(m)] == []


@pytest.mark.parametrize(
    "model", [m for name in APPS for m in apps.get_app_config(name).get_models()],
    ids=lambda m: m.__name__,
)  # fmt: skip
def test_each_admin_list_page_opens(admin_client, model):
    seed_demo()
    meta = model._meta
    url = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
    assert admin_client.get(url).status_code == 200


def test_a_random_tables_dice_and_rows_are_read_only_in_the_admin(admin_client):
    # They are checked against each other when the GM writes the table; changed apart, they
    # would leave totals no row covers.
    table = seed_demo()[0].random_tables.first()
    url = reverse("admin:rolls_randomtable_change", args=[table.pk])
    page = admin_client.get(url).content.decode()
    assert 'name="name"' in page
    assert 'name="dice"' not in page
    assert 'name="rows"' not in page


def test_conditions_are_read_in_the_admin_never_written_there(admin_client):
    """A condition's adding and clearing are entries of the session's log (rolls.conditions):
    an admin write would change the sheet's shaping with no entry saying so."""
    url = reverse("admin:rolls_condition_add")
    assert admin_client.get(url).status_code == 403
    model_admin = admin.site._registry[Condition]
    request = admin_client.get(reverse("admin:rolls_condition_changelist")).wsgi_request
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)
