"""Dice that need no sheet: the GM's random tables and anyone's quick dice expressions."""
