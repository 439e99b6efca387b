"""Django's one-line comment `{# ... #}` does not span lines: one left open at the end of its line
is printed on the page as text (it once put htmx notes above every page on a phone)."""

from pathlib import Path

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


def test_no_template_opens_a_one_line_comment_it_does_not_close_on_that_line():
    open_comments = [
        f"{path.relative_to(TEMPLATES)}:{number}"
        for path in sorted(TEMPLATES.rglob("*.html"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if line.rfind("{#") > line.rfind("#}")
    ]
    assert open_comments == []
