"""Real dice at a real table: whether the GM lets the campaign's tests be rolled with real dice
and typed in, for everyone or for the GM alone (docs/rules-decisions.md, "Real dice").

A campaign-level setting, whatever its rule system: stored in ``Campaign.settings`` under
``KEY`` (beside each system's own settings, ``campaigns.system_settings``), read here alone and
written by ``campaigns.actions.save_settings``. Off by default.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

KEY = "real_dice"
OFF, EVERYONE, GM_ONLY = "off", "everyone", "gm"

CHOICES = [
    (OFF, _("Off: the server draws every die")),
    (EVERYONE, _("Everyone may type the real dice they rolled")),
    (GM_ONLY, _("The GM only (rolling behind the screen)")),
]


def real_dice(campaign) -> str:
    """Who may type real dice in ``campaign``: ``OFF``, ``EVERYONE`` or ``GM_ONLY``."""
    mode = (campaign.settings or {}).get(KEY, OFF)
    return mode if mode in (EVERYONE, GM_ONLY) else OFF


def may_type_dice(campaign, user) -> bool:
    """Whether ``user`` may roll real dice and type them in ``campaign``'s tests."""
    mode = real_dice(campaign)
    return mode == EVERYONE or (mode == GM_ONLY and campaign.is_gm(user))
