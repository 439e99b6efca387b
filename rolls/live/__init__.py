"""The live table: one websocket per open page (the consumer, its places, presence) and the map of
which table event refreshes which part of a page."""
