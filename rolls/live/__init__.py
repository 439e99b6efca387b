"""The live table: one websocket per open page (the consumer, its places) and what reaches it
when a character changes."""
