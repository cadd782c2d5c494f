"""The engines: one package per family of rules, each holding its schema (the typed tables
and troop types of its ``tables.toml`` and ``troops.toml``, with the cross-checks the data
alone cannot express), its pure rules helpers and its mechanics (the hooks of
:class:`app.rules.mechanics.Mechanics`), and :data:`ENGINES`, the registry that names them.

The data stays in ``rulesets/<id>/`` as TOML; a ruleset folder names the engine it uses in
``ruleset.toml``, and a house-rules copy in the user data folder never brings code of its own.
A sixth ruleset is a package here, its printed parts in ``app/export/rulesets/``, and one line
in :data:`ENGINES`. No package here imports another (an import-linter contract).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from app.rules import loader
from app.rules.engine import Engine
from app.rules.registry import BUILTIN_DIR, Registry
from app.rules.ruleset import Ruleset

#: Every engine, in the order ``castra rulesets`` and the errors list them.
ENGINES: tuple[Engine, ...] = (
    Engine("quincunx", f"{__name__}.quincunx", "quincunx"),
    Engine("leg-vi", f"{__name__}.leg_vi", "leg-vi-carthago"),
    Engine("gsb", f"{__name__}.gsb", "grown-slightly-bald"),
    Engine("mwan90", f"{__name__}.mwan90", "mwan90"),
    Engine("d3", f"{__name__}.d3", "d3-ancients", has_chance_cards=True),
)


def find_engine(name: str) -> Engine:
    """The engine called ``name``; ``LookupError`` naming the known engines otherwise."""
    for engine in ENGINES:
        if engine.name == name:
            return engine
    known = ", ".join(e.name for e in ENGINES)
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
