"""The table's chat (issue 28): a line from any member goes into the session's log as an entry
of its own, to everyone, to the GM only, or whispered to one member. It takes the log's path
(seq, visibility, broadcast, gapless replay, exports), so the evening reads in one list; what a
viewer may not see of it never reaches their page (``rolls.log.payload.UNSHOWN_KINDS``).
"""
