"""The engines: one package per family of rules, each holding its schema (the typed tables
and troop types of its ``tables.toml`` and ``troops.toml``, with the cross-checks the data
alone cannot express), its pure rules helpers and its mechanics (the hooks of
:class:`app.rules.mechanics.Mechanics`), and the registry that finds them.

The registry is this package's folder: every sub-package is an engine, and declares itself
in its ``__init__`` as ``ENGINE`` (:class:`app.rules.engine.Engine`: its name, as
``ruleset.toml`` spells it, with ``-`` for the package's ``_``) beside its ``SCHEMA``. No
list is kept by hand: a sixth ruleset is its package here and its data in ``rulesets/``
(docs/reference/adding-a-ruleset.md). Looking an engine up imports only its own package.

The data stays in ``rulesets/<id>/`` as TOML; a ruleset folder names the engine it uses in
``ruleset.toml``, and a house-rules copy in the user data folder never brings code of its own
(only a package found here is ever imported). No package here imports another (an
import-linter contract).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterable
from pathlib import Path

from app.rules import loader
from app.rules.engine import Engine
from app.rules.registry import BUILTIN_DIR, Registry
from app.rules.ruleset import Ruleset

_NAME = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*\Z")


def package_names() -> list[str]:
    """The engine packages in this folder, by name (``d3``, ``leg_vi``, ...), sorted; none
    is imported."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if m.ispkg)


def _declared(package: str) -> Engine:
    module = importlib.import_module(f"{__name__}.{package}")
    engine = getattr(module, "ENGINE", None)
    if not isinstance(engine, Engine):
        raise LookupError(f"engine package {module.__name__!r} declares no ENGINE")
    if engine.package != module.__name__ or engine.name.replace("-", "_") != package:
        raise LookupError(
            f"engine package {module.__name__!r} declares the engine {engine.name!r} "
            f"of {engine.package!r} (its ENGINE must be named after the package)"
        )
    return engine


def engines() -> tuple[Engine, ...]:
    """Every engine, by name (imports every engine package: for listings and errors, never
    for loading one ruleset)."""
    return tuple(_declared(p) for p in package_names())


def find_engine(name: str) -> Engine:
    """The engine called ``name`` (imports its package only); ``LookupError`` naming the
    known engines otherwise."""
    package = name.replace("-", "_")
    if _NAME.match(name) and package in package_names():
        engine = _declared(package)
        if engine.name == name:
            return engine
    known = ", ".join(e.name for e in engines())
    raise LookupError(f"unknown engine {name!r} (known: {known})")


def load_ruleset(folder: Path, *, builtin: bool = True, cache_dir: Path | None = None) -> Ruleset:
    """:func:`app.rules.loader.load_ruleset` with these engines."""
    return loader.load_ruleset(folder, find_engine, builtin=builtin, cache_dir=cache_dir)


def load_registry(
    builtin: Path | None = BUILTIN_DIR,
    user: Iterable[Path] = (),
    *,
    only: Iterable[str] | None = None,
    cache_dir: Path | None = None,
) -> Registry:
    """:meth:`Registry.load <app.rules.registry.Registry.load>` with these engines."""
    return Registry.load(find_engine, builtin, user, only=only, cache_dir=cache_dir)
