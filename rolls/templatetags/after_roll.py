"""The frame of a GM's box of what to apply after a roll on the dashboard (the options after a
roll, Caerbannog's damage, healing and states): one section, its refusal, its title, and the
box's own list inside, written once in ``rolls/_after_roll_box.html``."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.simple_block_tag(takes_context=True)
def after_roll_box(context, content: str, box: str, *, title: Any, shown: Any, refusal: Any = ""):
    """``{% after_roll_box "roll-options" title=_("...") shown=offers refusal=... %}`` the list
    ``{% endafter_roll_box %}``: the section ``box`` (its heading ``box``-title, which labels
    it), the refusal said inside it, and the title and list only while ``shown`` has any."""
    frame = context.template.engine.get_template("rolls/_after_roll_box.html")
    return frame.render(
        context.new(
            {"box": box, "title": title, "shown": shown, "refusal": refusal, "content": content}
        )
    )
