"""A loaded ruleset: the validated contents of one ``rulesets/<id>/`` folder."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.rules.engine import Engine
from app.rules.record import Record
from app.rules.scale import Scale
from app.rules.schema import (
    ArmyEntry,
    ArmyList,
    CampaignRules,
    CampaignTemplate,
    Erratum,
    Leaders,
    Meta,
    Organisation,
    TroopBase,
    TurnSequence,
)


@dataclass(frozen=True)
class Ruleset:
    """Everything a ruleset folder says, typed. ``tables`` is the engine's own tables model;
    ``engine`` the engine ``meta.engine`` names (its code and capabilities)."""

    meta: Meta
    turn: TurnSequence
    leaders: Leaders
    organisation: Organisation
    campaign: CampaignRules
    troops: Mapping[str, TroopBase]
    tables: Record
    engine: Engine
    armies: Mapping[str, ArmyList]
    errata: tuple[Erratum, ...]
    folder: Path
    builtin: bool = True
    #: the historical campaigns its armies make (``[templates.<id>]`` of ``armies.toml``)
    templates: Mapping[str, CampaignTemplate] = field(default_factory=dict)
    raw: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def id(self) -> str:
        return self.meta.id

    @property
    def name(self) -> str:
        return self.meta.name

    @property
    def counts_figures(self) -> bool:
        return self.meta.counts == "figures"

    def army(self, army_id: str) -> ArmyList:
        try:
            return self.armies[army_id]
        except KeyError:
            known = ", ".join(sorted(self.armies))
            raise KeyError(
                f"ruleset {self.id!r} has no army list {army_id!r} (known: {known})"
            ) from None

    def troop(self, troop_id: str) -> TroopBase:
        try:
            return self.troops[troop_id]
        except KeyError:
            raise KeyError(f"ruleset {self.id!r} has no troop type {troop_id!r}") from None

    def entry(self, army_id: str, entry_id: str) -> ArmyEntry | None:
        return self.army(army_id).entries.get(entry_id)

    def erratum(self, erratum_id: str) -> Erratum:
        for e in self.errata:
            if e.id == erratum_id:
                return e
        raise KeyError(f"ruleset {self.id!r} has no erratum {erratum_id!r}")

    def errata_for(self, prefix: str) -> tuple[Erratum, ...]:
        """Errata whose ``applies_to`` names ``prefix`` or something inside it."""
        return tuple(
            e
            for e in self.errata
            if any(a == prefix or a.startswith(prefix + ".") for a in e.applies_to)
        )

    def men_per_figure(self, scale: Scale | str | None) -> int | None:
        """Men one figure represents: 10 at 1:10, 100 at 1:100; None for base-counting
        rulesets or when no scale is chosen."""
        if not self.counts_figures or scale is None:
            return None
        return Scale.parse(scale).men_per_figure

    @property
    def credit(self) -> str:
        """Source line for printed sheets: name, author, year, publication."""
        parts = [self.meta.name]
        if self.meta.author:
            parts.append(f"by {self.meta.author}")
        elif self.meta.author_note:
            parts.append(self.meta.author_note)
        if self.meta.year:
            parts.append(str(self.meta.year))
        if self.meta.publication:
            parts.append(self.meta.publication)
        return ", ".join(parts)
