"""FastTest's web side in one package: ``system`` (its System object), ``panel``, ``demo``.

Its key, here for its own views and actions to refuse what is not FastTest's: its URLs are every
campaign's (``System.urls``), and a forged request may name another system's roll."""

KEY = "fasttest"


def is_ours(system_key: str) -> bool:
    """``system_key`` (a campaign's or a roll's ``system``) is FastTest's."""
    return system_key == KEY
