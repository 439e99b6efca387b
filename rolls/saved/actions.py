"""Pinning a test and taking a pin away (``rolls.saved``)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from config.text import text_problem
from rolls.actions import ActionRefused
from rolls.models import SavedTest
from sheets.models import Character

#: The most pins one character keeps, and how much of a panel one pin keeps.
MOST = 12
MAX_CHOICES = 40
MAX_VALUE = 200
#: What a panel posts that is the request's, not the test's.
REQUEST_FIELDS = frozenset(
    {
        "csrfmiddlewaretoken",
        "key",
        "shown",
        "pending",
        "revision",
        "visibility",
        "nonce",
        "pin_name",
    }
)


def choices_of(post) -> dict[str, list[str]]:
    """The test's choices as the panel posted them, refused when they are not a panel's."""
    choices = {
        name: [str(value) for value in post.getlist(name)]
        for name in post
        if name not in REQUEST_FIELDS
    }
    choices = {name: values for name, values in choices.items() if any(values)}
    if not choices:
        raise ActionRefused(_("Prepare a test on the panel first, then pin it."))
    texts = [name for name in choices] + [v for values in choices.values() for v in values]
    too_much = len(choices) > MAX_CHOICES or any(len(text) > MAX_VALUE for text in texts)
    if too_much or any(text_problem(text) for text in texts):
        raise ActionRefused(_("These choices are not a test panel's; reload the page."))
    return choices


@transaction.atomic
def pin(character: Character, name: str, choices: dict[str, list[str]]) -> SavedTest:
    """Keep ``choices`` under ``name`` for ``character``; a name it has already is refused."""
    locked = Character.objects.select_for_update().get(pk=character.pk)
    if locked.saved_tests.count() >= MOST:
        raise ActionRefused(
            _("A character keeps at most %(most)s pinned tests; remove one first.") % {"most": MOST}
        )
    try:
        with transaction.atomic():
            return SavedTest.objects.create(character=locked, name=name, choices=choices)
    except IntegrityError as error:
        raise ActionRefused(
            _("%(name)s already has a pinned test called “%(test)s”.")
            % {"name": locked.name, "test": name}
        ) from error


def unpin(character: Character, saved_id: int) -> None:
    deleted, _by_kind = SavedTest.objects.filter(pk=saved_id, character=character).delete()
    if not deleted:
        raise ActionRefused(_("That pinned test is gone already."))
