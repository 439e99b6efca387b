"""The roll log of a game session: each viewer's reading of it, its entries as JSON and HTML, the
exports and the dice statistics, and the session's pages."""
