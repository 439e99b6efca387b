from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaigns.models import Campaign


@require_GET
@login_required
def home(request: HttpRequest) -> HttpResponse:
    campaigns = (
        Campaign.objects.for_member(request.user)
        .select_related("gm")
        .order_by("name", "pk")
        .distinct()
    )
    return render(request, "campaigns/home.html", {"campaigns": campaigns})
