"""The fight's turns: whose turn it is and which round (``fight``), in the order the GM set for
the scene (``order``), shown on every page of the table."""
