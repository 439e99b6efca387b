"""Conditions: what a roll (or the GM) leaves on a character, and what then shapes every test
it takes."""
