"""Every registered rule system's sheet passes the same suite (tests/web/sheet_conformance).

Each system's row of ``SHEETS`` is all the suite needs beyond the system itself: what its blank
sheet answers, and for a sheet of free named lists, its blank sheet and the rows it takes. A
new system is one more row. The per-system modules (test_sheet_*) keep only what is their
system's own: its bounds and messages, its totals, its roll targets, its pages.
"""

import pytest

from campaigns.systems import all_systems, get_system
from tests.web.sheet_conformance import (
    NamedList,
    NamedListConformance,
    NamedLists,
    SheetCase,
    SheetConformance,
)

SHEETS: dict[str, SheetCase] = {
    "fasttest": SheetCase(
        blank_errors={"traits": ["Write at least the first trait: your concept or profession."]}
    ),
    "ast": SheetCase(
        named_lists=NamedLists(
            blank={
                "attributes": [],
                "advantages": [],
                "equipment": [],
                "positive_states": [],
                "negative_states": [],
                "funt": 0,
            },
            lists={
                "attributes": NamedList(),
                "advantages": NamedList(),
                "equipment": NamedList(),
                "positive_states": NamedList(),
                "negative_states": NamedList({"value": 2}, blank={"value": "1"}),
            },
            refreshes={
                box: ["funt"]
                for box in (
                    "attributes",
                    "advantages",
                    "equipment",
                    "positive_states",
                    "negative_states",
                )
            },
        )
    ),
    "t10": SheetCase(
        named_lists=NamedLists(
            blank={"attributes": [], "skills": [], "equipment": []},
            lists={
                "attributes": NamedList({"value": 4}),
                "skills": NamedList({"value": 4}),
                "equipment": NamedList({"dice": 1}, blank={"dice": "0"}),
            },
            refreshes={"attributes": ["skills"]},  # the largest pool needs the best attribute
        )
    ),
    "caerbannog": SheetCase(),
    "2d6": SheetCase(
        named_lists=NamedLists(
            blank={"attributes": [], "skills": [], "specialisations": [], "advantages": []},
            lists={
                "attributes": NamedList({"value": 7}),
                "specialisations": NamedList({"skill": "Skradanie"}),
                "advantages": NamedList(
                    {"category": "personal", "modifier": -2}, blank={"category": "personal"}
                ),
            },
        )
    ),
}

KEYS = [system.key for system in all_systems()]
NAMED_LISTS = [key for key in KEYS if key in SHEETS and SHEETS[key].named_lists]


def test_every_registered_system_has_its_row_in_the_table():
    assert sorted(SHEETS) == sorted(KEYS)


class TestEverySheet(SheetConformance):
    @pytest.fixture(params=KEYS)
    def system(self, request):
        return get_system(request.param)

    @pytest.fixture
    def case(self, system) -> SheetCase:
        return SHEETS[system.key]


class TestEverySheetOfNamedLists(NamedListConformance):
    @pytest.fixture(params=NAMED_LISTS)
    def system(self, request):
        return get_system(request.param)

    @pytest.fixture
    def lists(self, system) -> NamedLists:
        return SHEETS[system.key].named_lists
