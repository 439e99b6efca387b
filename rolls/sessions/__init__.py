"""A game session's pages: the table page (the log beside the panel), its start and end, scenes,
the exports and the dice statistics."""
