"""The forms of FastTest's own GM tools on the dashboard (``rolls.systems.fasttest.gm_views``):
the combat wound's weapon classes, read through a Django form that refuses a forged class in
the rule's own sentence, like the shared GM forms of ``rolls.forms``.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _


class WoundForm(forms.Form):
    """FastTest's combat wound: the weapon class of each side."""

    player_weapon = forms.ChoiceField()
    enemy_weapon = forms.ChoiceField()

    def __init__(self, data=None, weapon_classes=()) -> None:
        super().__init__(data)
        refusal = _("Choose the weapon class of each side: light, hand or heavy.")
        for field in self.fields.values():
            if isinstance(field, forms.ChoiceField):
                field.choices = [(name, name) for name in weapon_classes]
                field.error_messages |= {"required": refusal, "invalid_choice": refusal}

    def refusal(self) -> str:
        return next(str(m) for messages in self.errors.values() for m in messages)
