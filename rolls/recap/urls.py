"""A session's recap, its live part and its Markdown export."""

from django.urls import path

from rolls.recap import views

urlpatterns = [
    path("sessions/<int:session_id>/recap/", views.recap_page, name="session_recap"),
    path("sessions/<int:session_id>/recap/part/", views.recap_part, name="session_recap_part"),
    path("sessions/<int:session_id>/recap.md", views.recap_export, name="session_recap_export"),
]
