"""Campaign pages: the list, a new campaign, the table page, invites, membership and settings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import actions
from campaigns.access import Request, gm_campaign, member_campaign
from campaigns.forms import CampaignForm, CampaignNameForm, RealDiceForm, settings_form
from campaigns.models import Campaign, Membership
from campaigns.real_dice import real_dice
from campaigns.system_settings import system_settings

# Where an anonymous visitor's invite waits while they log in or sign up.
PENDING_INVITE = "pending_invite"


@require_GET
@login_required
def home(request: Request) -> HttpResponse:
    pending = request.session.pop(PENDING_INVITE, None)
    if pending:
        return redirect("campaign_join", token=pending)
    mine = Membership.objects.filter(user=request.user).values("campaign")
    campaigns = (
        Campaign.objects.filter(pk__in=mine)
        .select_related("gm")
        .annotate(
            player_count=Count(
                "memberships",
                filter=Q(memberships__role=Membership.Role.PLAYER),
                distinct=True,
            ),
            character_count=Count("characters", distinct=True),
        )
        .order_by("name", "pk")
    )
    return render(request, "campaigns/home.html", {"campaigns": campaigns})


@require_http_methods(["GET", "POST"])
@login_required
def campaign_create(request: Request) -> HttpResponse:
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        campaign = actions.create_campaign(
            gm=request.user, name=form.cleaned_data["name"], system=form.cleaned_data["system"]
        )
        messages.success(request, _("Campaign created. Send the invite link to your players."))
        return redirect("campaign_detail", campaign_id=campaign.pk)
    return render(request, "campaigns/create.html", {"form": form})


def _table(campaign: Campaign) -> tuple[list[dict], list]:
    """Members with their characters (GM first), and characters whose player has left.

    Two queries whatever the number of players and characters. Characters and NPCs are the
    sheets app's, which builds on this one: these pages reach them through the campaign's
    reverse relations (``campaign.characters``, ``campaign.npcs``) and never import sheets.
    (A reverse relation sets each row's campaign from ``campaign_id``: it is loaded with them.)
    """
    memberships = list(
        Membership.objects.filter(campaign=campaign)
        .select_related("user")
        .order_by("role", "user__username")
    )
    by_owner: dict[int, list] = {}
    for character in campaign.characters.only("pk", "name", "owner_id", "campaign_id"):
        by_owner.setdefault(character.owner_id, []).append(character)
    members = [{"membership": m, "characters": by_owner.pop(m.user_id, [])} for m in memberships]
    left_behind = sorted(
        (c for characters in by_owner.values() for c in characters), key=lambda c: c.name
    )
    return members, left_behind


def _invite_context(request: HttpRequest, campaign: Campaign) -> dict:
    link = None
    if campaign.invite_token:
        link = request.build_absolute_uri(reverse("campaign_join", args=[campaign.invite_token]))
    return {"campaign": campaign, "invite_link": link}


@require_GET
@login_required
def campaign_detail(request: Request, campaign_id: int) -> HttpResponse:
    campaign = member_campaign(request, campaign_id)
    is_gm = campaign.is_gm(request.user)
    members, left_behind = _table(campaign)
    npcs = campaign.npcs.all()
    if not is_gm:
        npcs = npcs.filter(revealed=True)
    sessions = _sessions(campaign)
    context = {
        "campaign": campaign,
        "is_gm": is_gm,
        "members": members,
        "left_behind": left_behind if is_gm else [],
        "npc_count": npcs.count(),
        "sessions": sessions,
        # The running session, for the cues at the page's top: they need not ask for it again.
        "cues_session": sessions[0] if sessions and sessions[0].is_open else None,
        **(_invite_context(request, campaign) if is_gm else {}),
    }
    return render(request, "campaigns/detail.html", context)


def _sessions(campaign: Campaign) -> list:
    """Newest first; the running one (if any) leads the list."""
    return list(campaign.sessions.order_by("-started_at", "-pk")[:10])


@require_GET
@login_required
def campaign_sessions(request: Request, campaign_id: int) -> HttpResponse:
    """The campaign page's sessions card alone, for its refresh when a session starts or ends."""
    campaign = member_campaign(request, campaign_id)
    context = {
        "campaign": campaign,
        "is_gm": campaign.is_gm(request.user),
        "sessions": _sessions(campaign),
    }
    return render(request, "campaigns/_sessions.html", context)


def _invite_response(request: Request, campaign: Campaign, message: str) -> HttpResponse:
    if request.htmx:
        context = {**_invite_context(request, campaign), "invite_message": message}
        return render(request, "campaigns/_invite.html", context)
    messages.success(request, message)
    return redirect(reverse("campaign_detail", args=[campaign.pk]) + "#invite")


@require_POST
@login_required
def invite_regenerate(request: Request, campaign_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    actions.regenerate_invite(campaign)
    return _invite_response(
        request, campaign, _("New invite link made; the previous link no longer works.")
    )


@require_POST
@login_required
def invite_revoke(request: Request, campaign_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    actions.revoke_invite(campaign)
    return _invite_response(
        request, campaign, _("Invite link turned off; nobody can join until you make a new one.")
    )


def _invite_campaign(token: str) -> Campaign | None:
    return Campaign.objects.select_related("gm").filter(invite_token=token).first()


def _invalid_invite(request: HttpRequest) -> HttpResponse:
    return render(request, "campaigns/join_invalid.html", status=404)


@require_http_methods(["GET", "POST"])
def campaign_join(request: HttpRequest, token: str) -> HttpResponse:
    campaign = _invite_campaign(token)
    if campaign is None:
        request.session.pop(PENDING_INVITE, None)
        return _invalid_invite(request)
    if not request.user.is_authenticated:
        # Signing up lands on the home page, which brings the newcomer back here.
        request.session[PENDING_INVITE] = token
        if request.method == "POST":
            return redirect(f"{reverse('login')}?next={request.path}")
        return render(request, "campaigns/join.html", {"campaign": campaign, "next": request.path})
    request.session.pop(PENDING_INVITE, None)
    already = Membership.objects.filter(campaign=campaign, user=request.user).exists()
    if campaign.is_gm(request.user) or already:
        actions.join_campaign(campaign, request.user)
        if campaign.is_gm(request.user):
            messages.info(request, _("This is the invite link of your own campaign."))
        else:
            messages.info(request, _("You are already in this campaign."))
        return redirect("campaign_detail", campaign_id=campaign.pk)
    if request.method == "POST":
        actions.join_campaign(campaign, request.user)
        messages.success(
            request, _("Welcome to %(name)s! Make your character.") % {"name": campaign.name}
        )
        return redirect("campaign_detail", campaign_id=campaign.pk)
    return render(request, "campaigns/join.html", {"campaign": campaign})


def _player_membership(campaign: Campaign, user_id: int) -> Membership:
    """A player's membership of the campaign, else 404 (the GM's cannot be removed)."""
    return get_object_or_404(
        Membership.objects.select_related("user"),
        campaign=campaign,
        user_id=user_id,
        role=Membership.Role.PLAYER,
    )


@require_http_methods(["GET", "POST"])
@login_required
def member_remove(request: Request, campaign_id: int, user_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    membership = _player_membership(campaign, user_id)
    if request.method == "POST":
        actions.remove_player(campaign, user_id)
        messages.success(
            request,
            _("%(player)s is no longer in the campaign; their characters stay, seen only by you.")
            % {"player": membership.user.get_username()},
        )
        return redirect("campaign_detail", campaign_id=campaign.pk)
    characters = campaign.characters.filter(owner_id=user_id).only("name", "campaign_id")
    return render(
        request,
        "campaigns/member_remove.html",
        {"campaign": campaign, "membership": membership, "characters": characters},
    )


@require_http_methods(["GET", "POST"])
@login_required
def campaign_leave(request: Request, campaign_id: int) -> HttpResponse:
    campaign = member_campaign(request, campaign_id)
    if campaign.is_gm(request.user):
        raise Http404("The GM cannot leave their own campaign.")
    if request.method == "POST":
        actions.remove_player(campaign, request.user.pk)
        messages.success(request, _("You left %(name)s.") % {"name": campaign.name})
        return redirect("home")
    return render(request, "campaigns/leave.html", {"campaign": campaign})


@require_http_methods(["GET", "POST"])
@login_required
def campaign_settings(request: Request, campaign_id: int) -> HttpResponse:
    campaign = gm_campaign(request, campaign_id)
    current = system_settings(campaign)
    data = request.POST if request.method == "POST" else None
    name_form = CampaignNameForm(data, initial={"name": campaign.name})
    system_form = settings_form(campaign, current, data)
    dice_form = RealDiceForm(data, initial={"real_dice": real_dice(campaign)})
    if request.method == "POST":
        name_ok = name_form.is_valid()
        system_ok = system_form is None or system_form.is_valid()
        if name_ok and system_ok and dice_form.is_valid():
            actions.save_settings(
                campaign,
                name=name_form.cleaned_data["name"],
                system_values=system_form.system_values() if system_form else {},
                real_dice=dice_form.cleaned_data["real_dice"] or None,
            )
            messages.success(request, _("Settings saved."))
            return redirect("campaign_settings", campaign_id=campaign.pk)
    context = {
        "campaign": campaign,
        "name_form": name_form,
        "system_form": system_form,
        "dice_form": dice_form,
        "refused": request.method == "POST",
    }
    return render(request, "campaigns/settings.html", context)
