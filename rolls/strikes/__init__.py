"""The GM's correction, append-only (issue 28 item 4): the GM strikes an entry of the running
session's log (a mistaken test, a line that should not stand) with a reason. Nothing is
deleted or edited: a ``Strike`` beside the entry (like a ``Seal``) says who struck it, why and
with which entry, and that entry (kind "struck", a follow-up of the struck one with its
visibility) tells the log's story in order. Every page that shows the struck entry shows it
struck through at once; the fair-dice check still covers it; the statistics count the struck.
"""
