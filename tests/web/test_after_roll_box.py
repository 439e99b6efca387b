"""The frame both of the GM's after-roll boxes share (``{% after_roll_box %}``): the options after
a roll and Caerbannog's results keep their own section id, heading, refusal and list, written once
in ``rolls/_after_roll_box.html``; the live updates find each box by its id in its first tag."""

import re
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from rolls.dashboard.live_parts import out_of_band

BOXES = [
    ("rolls/_roll_options.html", "roll-options", "option_offers", "options_refusal"),
    ("systems/caerbannog/_results_box.html", "roll-results", "result_offers", "results_refusal"),
]


def _section(html: str) -> str:
    return re.search(r"<section[^>]*>", html).group(0)


@pytest.mark.parametrize(("template", "box", "offers", "refusal"), BOXES)
def test_an_empty_box_is_its_bare_section_with_its_refusal(template, box, offers, refusal):
    with translation.override("en"):
        html = render_to_string(template, {"campaign": SimpleNamespace(pk=1), offers: []})
        refused = render_to_string(
            template, {"campaign": SimpleNamespace(pk=1), offers: [], refusal: "Not <now>"}
        )
    assert html.lstrip().startswith("<section")
    assert _section(html) == (
        f'<section id="{box}" class="roll-options" aria-labelledby="{box}-title">'
    )
    assert "<h2" not in html
    assert "after-list" not in html
    assert "form-errors" not in html
    assert '<p class="form-errors" role="alert">Not &lt;now&gt;</p>' in refused
    assert out_of_band(html).lstrip().startswith(f'<section hx-swap-oob="morph" id="{box}"')


def test_each_box_has_its_own_heading_and_list_in_the_frame():
    roll = SimpleNamespace(
        pk=4, session_id=2, seq=9, label_words=None, character_name="Ann", system="t10",
        result={"answer": {}}, params={},
    )  # fmt: skip
    with translation.override("en"):
        options = render_to_string(
            "rolls/_roll_options.html",
            {"campaign": SimpleNamespace(pk=1), "option_offers": [
                {"roll": roll, "menu": {"options": [], "picks": 1}, "waits_pick": False}
            ]},
        )  # fmt: skip
        results = render_to_string(
            "systems/caerbannog/_results_box.html",
            {"campaign": SimpleNamespace(pk=1), "result_offers": [
                {"roll": roll, "roller": "Ann", "successes": 2, "target": None}
            ]},
        )  # fmt: skip
    assert '<h2 id="roll-options-title">After the roll: options</h2>' in options
    assert '<li class="after-item" id="options-4">' in options
    assert '<h2 id="roll-results-title">After the roll: damage, healing, states</h2>' in results
    assert '<li class="after-item" id="results-4">' in results
    assert 'hx-target="#roll-results"' in results
    for html in (options, results):
        inside = html.split("</h2>", 1)[1]
        assert inside.index('<ol class="after-list">') < inside.index("</section>")
