"""The GM striking an entry from the log."""

from django.urls import path

from rolls.strikes import views

urlpatterns = [path("dashboard/strike/", views.strike_entry, name="strike_entry")]
