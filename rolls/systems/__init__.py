"""The five rule systems of RULES.md, one package each: everything of a system's web side.

``rolls/systems/<key>/`` holds ``system.py`` (its ``campaigns.systems.System`` object: engine,
sheet, panel, log facts, the parts it adds to the table's features, and its receivers of the
table's moments; it registers itself), ``panel.py`` (its test panel and follow-ups),
``vitals.py`` (its party card), ``demo.py`` (its demo campaign) and
``rules_page.py`` (its page under /rules/), and the views only its rules have with their URL
patterns in ``urls.py`` (its ``System.urls``, which ``rolls.urls`` adds for every system); its
templates are in ``templates/systems/<key>/``.
The package's ``__init__`` stays empty on purpose: a module of the package (a panel's limits,
read by ``rolls.dashboard.npc_rolls``) can be imported without the whole System and what it imports.

Two parts of a system live elsewhere, because the apps import one way, ``campaigns <- sheets <-
rolls``: its sheet schema in ``sheets/systems/<key>.py`` (sheets may not import rolls) and its
rules in the pure engine, ``rolls/engine/<key>.py`` (standard library only, serving all).

``rolls.apps`` calls ``register_all`` when the app is ready: a new system is one more package
here with a ``system`` module calling ``register`` (or, like the coin of the tests, a
``register`` call anywhere). A system's own models (``models.py``, FastTest's applied wounds)
and their admin (``admin.py``) are the rolls app's: ``rolls.models`` and ``rolls.admin`` import
each package's (``import_each``), so no module of the app names a system.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil


def register_all() -> None:
    """Import each system package's ``system`` module, which registers its System."""
    import_each("system")


def import_each(module: str) -> None:
    """Import ``module`` of each system package that has one (``system``, ``models``, ``admin``)."""
    for package in pkgutil.iter_modules(__path__):
        name = f"{__name__}.{package.name}.{module}"
        if package.ispkg and importlib.util.find_spec(name) is not None:
            importlib.import_module(name)
