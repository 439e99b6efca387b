from django.urls import path

from campaigns import views

urlpatterns = [
    path("c/new/", views.campaign_create, name="campaign_create"),
    path("c/<int:campaign_id>/", views.campaign_detail, name="campaign_detail"),
    path("c/<int:campaign_id>/settings/", views.campaign_settings, name="campaign_settings"),
    path("c/<int:campaign_id>/sessions/", views.campaign_sessions, name="campaign_sessions"),
    path(
        "c/<int:campaign_id>/invite/regenerate/",
        views.invite_regenerate,
        name="invite_regenerate",
    ),
    path("c/<int:campaign_id>/invite/revoke/", views.invite_revoke, name="invite_revoke"),
    path(
        "c/<int:campaign_id>/players/<int:user_id>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path("c/<int:campaign_id>/leave/", views.campaign_leave, name="campaign_leave"),
    path("join/<str:token>/", views.campaign_join, name="campaign_join"),
]
