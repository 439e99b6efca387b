"""The five rule systems of RULES.md as ``campaigns.systems.System`` objects, one module each.

Each module gathers what its system offers the table (engine, sheet, panel, settings, log facts,
party vitals, awards, NPC tests, hooks) and registers it; ``rolls.apps`` imports them when the
app is ready. A new system is one more module here (or anywhere) calling ``register``.
"""
