"""Group tests: an initiator and helpers roll one test together (RULES.md, Caerbannog point 9)."""
