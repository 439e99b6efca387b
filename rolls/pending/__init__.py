"""The GM's pending tests: call one, shape it live, and roll it exactly as the player saw it."""
