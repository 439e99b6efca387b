"""An outcome key several systems share reads in the words of the system that rolled it, and
that system brings those words itself (``System.outcome_words``), through the registry."""

import pytest
from django.utils import translation

from campaigns.systems import BaseSystem, get_system, register, unregister
from rolls.labels import OUTCOME_LABELS, outcome_word


class Herald(BaseSystem):
    key = "herald"
    outcome_words = {"success": "Huzzah (success)"}


@pytest.fixture
def herald():
    register(Herald())
    yield
    unregister("herald")


def test_a_system_names_a_shared_outcome_in_its_own_words(herald):
    assert outcome_word("success", "herald") == "Huzzah (success)"


def test_the_outcomes_a_system_does_not_name_read_in_the_shared_words(herald):
    assert outcome_word("failure", "herald") == str(OUTCOME_LABELS["failure"])


def test_a_roll_of_a_system_no_longer_registered_reads_in_the_shared_words():
    assert outcome_word("success", "retired") == str(OUTCOME_LABELS["success"])


def test_t10_brings_its_swedish_success_from_its_own_system():
    with translation.override("en"):
        assert str(get_system("t10").outcome_words["success"]) == "Lyckat (success)"
        assert outcome_word("success", "t10") == "Lyckat (success)"
        assert outcome_word("success", "caerbannog") == "Sukces (success)"
