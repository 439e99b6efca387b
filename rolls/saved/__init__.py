"""Saved tests (issue 28 item 5): a player pins a test as the panel prepares it ("axe attack":
the attribute, skill, traits, split...) and rolls it again from the sheet in one click. What is
kept is the panel's choices as posted; a roll of them goes through the panel and its form like
any roll, so a choice the sheet no longer allows is refused with the panel's own sentence."""
