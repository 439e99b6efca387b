"""FastTest's web side in one package: ``system`` (its System object), ``panel``, ``demo``."""
