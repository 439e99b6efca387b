"""The table's log in the group's Discord channel: the GM connects a webhook, and what every
member may read (public entries, the session's start and end, whose turn it is) is posted there.

A post leaves through an outbox (``models.Post``): queued in the transaction that writes what it
tells (``outbox``), delivered afterwards by a courier thread of the server (``courier``), in
order, batched, within Discord's rate limits, to the hosts a setting allows (``webhook``).
"""
