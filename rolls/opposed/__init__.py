"""Opposed tests: the GM starts one between two sides, each side rolls, one entry says who won."""
