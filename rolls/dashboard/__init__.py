"""The GM's dashboard: the party live, the GM's tools on each card (a turn, a night's rest, an
NPC's own test, awards), what the rules let the GM do after a roll, and the live parts' contexts."""
