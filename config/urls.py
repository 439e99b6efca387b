from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from campaigns import views as campaign_views
from config import account_views
from rolls.rules import views as rules_views

accounts = [
    path("signup/", account_views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"
    ),
]

urlpatterns = [
    path("", campaign_views.home, name="home"),
    path("", include("campaigns.urls")),
    path("c/<int:campaign_id>/", include("sheets.urls")),
    path("c/<int:campaign_id>/npcs/", include("sheets.npc_urls")),
    path("c/<int:campaign_id>/", include("rolls.urls")),
    path("accounts/", include(accounts)),
    path("rules/", rules_views.rules_index, name="rules_index"),
    path("rules/<str:system>/", rules_views.rules_page, name="rules"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
