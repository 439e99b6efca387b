"""The GM's dashboard: the party live, the GM's tools on each card (a turn, a night's rest, an
NPC's own test, awards), what the rules let the GM do after a roll, the GM's side of opposed
tests (rolls.opposed holds their rules), and the live parts' contexts. The dashboard composes
the features below it, so a feature's tool that answers with a dashboard part lives here."""
