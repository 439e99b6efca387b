"""The night's story: a session's recap, per person at the table their rolls, successes and
failures and their luck against the exact odds each test had (``luck``); the opposed and group
tests, the conditions that came and went, the entries the GM struck. Each reader's recap is
counted from the entries that reader may see; the Markdown export says the same, and the
Discord bridge posts the public one when the session ends (rolls.discord)."""
