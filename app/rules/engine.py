"""An engine: one family of rules (``quincunx``, ``leg-vi``, ``gsb``, ``mwan90``, ``d3``),
described by a small value that its package declares (``ENGINE`` in
``app/rulesets/<package>/__init__.py``), where the registry of engines
(:func:`app.rulesets.find_engine`) finds it: no list of engines is kept by hand.

A ruleset folder names its engine in ``ruleset.toml``; a house-rules copy keeps the engine
and changes its ``id``. The engine's code lives in its package (``app.rulesets.<name>``),
imported on first use, so start-up and loading one ruleset import only that ruleset's code:
the package itself gives :class:`EngineSchema` (``SCHEMA``: its troop and tables models and
the cross-check of its data), its ``mechanics`` module the :class:`Mechanics` subclass whose
``engine`` is the engine's name. Nothing is ever imported from a ruleset folder.

This module knows no engine by name: the registry passes its look-up to the loader
(:func:`app.rules.loader.load_ruleset`), so the contract layer stays below the rulesets.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from app.rules.documents import DocumentSpec
from app.rules.leaderfields import LeaderField
from app.rules.schema import Strict, TroopBase

if TYPE_CHECKING:
    from app.rules.errors import Problem
    from app.rules.mechanics import Mechanics
    from app.rules.ruleset import Ruleset


@dataclass(frozen=True)
class EngineSchema:
    """What a ruleset package exports as ``SCHEMA``: the models its ``troops.toml`` and
    ``tables.toml`` are read into, and the cross-checks the data alone cannot express."""

    troop_model: type[TroopBase]
    tables_model: type[Strict]
    check: Callable[[Ruleset], list[Problem]] | None = None


@dataclass(frozen=True)
class SideFlag:
    """A condition a side may start a battle under, kept in its record under ``name`` (D3's
    supply problems): the new-battle dialog shows a check box per side after ``label``, the
    command line takes ``--name a|b|both`` with ``help``, from this declaration alone."""

    name: str
    label: str
    help: str


@dataclass(frozen=True)
class Engine:
    """One engine: its ``name`` (as ``ruleset.toml`` spells it), its ``package`` (the module
    path of its code), the built-in ruleset folder that uses it, and what it can do beyond
    the common contract (capability flags, so that the export, the window and the command
    line never test an engine's name)."""

    name: str
    package: str
    builtin_folder: str
    #: a deck of chance cards per side, printed as a document of its own (D3 Ancients)
    has_chance_cards: bool = False
    #: the documents it prints beyond the common ones (:mod:`app.rules.documents`)
    documents: tuple[DocumentSpec, ...] = ()
    #: the conditions a side may start a battle under (:class:`SideFlag`)
    side_flags: tuple[SideFlag, ...] = ()
    #: the leader fields its rules read beyond the common ones (:class:`LeaderField`)
    leader_fields: tuple[LeaderField, ...] = ()

    @property
    def package_name(self) -> str:
        """The last part of :attr:`package` (``leg_vi``): the name of the engine's module in
        other layers (its printed parts are ``app.export.rulesets.<package_name>``)."""
        return self.package.rpartition(".")[2]

    @property
    def schema(self) -> EngineSchema:
        """The package's ``SCHEMA`` (imports the package, not its mechanics)."""
        return _schema(self.package)

    @property
    def troop_model(self) -> type[TroopBase]:
        return self.schema.troop_model

    @property
    def tables_model(self) -> type[Strict]:
        return self.schema.tables_model

    @property
    def check(self) -> Callable[[Ruleset], list[Problem]] | None:
        return self.schema.check

    @property
    def mechanics(self) -> type[Mechanics]:
        """The engine's mechanics class, from its package's ``mechanics`` module."""
        return _mechanics(self.package, self.name)


def side_flags_of(engines: Iterable[Engine]) -> list[SideFlag]:
    """The conditions ``engines`` declare a side may start a battle under, each once (by
    name), in the order first met."""
    found: dict[str, SideFlag] = {}
    for engine in engines:
        for flag in engine.side_flags:
            found.setdefault(flag.name, flag)
    return list(found.values())


EngineLookup = Callable[[str], Engine]
"""Finds an engine by name or raises ``LookupError`` naming the known ones
(:func:`app.rulesets.find_engine`)."""


@cache
def _schema(package: str) -> EngineSchema:
    module = importlib.import_module(package)
    schema = getattr(module, "SCHEMA", None)
    if not isinstance(schema, EngineSchema):
        raise LookupError(f"engine package {package!r} defines no SCHEMA")
    return schema


@cache
def _mechanics(package: str, engine: str) -> type[Mechanics]:
    # imported here: loading a ruleset (and the window's start) needs no battle code
    from app.rules.mechanics import Mechanics

    module = importlib.import_module(f"{package}.mechanics")
    for value in vars(module).values():
        if (
            isinstance(value, type)
            and issubclass(value, Mechanics)
            and value.__module__ == module.__name__
            and value.engine == engine
        ):
            return value
    raise LookupError(f"{module.__name__} defines no Mechanics subclass with engine = {engine!r}")
