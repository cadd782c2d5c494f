"""Ready armies: an army list's standard army as a roster to play at once.

Every ruleset ships a Roman and a Carthaginian army ready to fight: the source's own where it
gives one (the Quincunx model armies, GSB's sample armies), else one Castra built from the
lists and the history (``StandardArmy.origin``). The same roster is the sample put in the
library on first start (:func:`app.store.repo.seed_samples`), the side a New battle may take
without a roster in the store, and what ``castra battle new RULESET:ARMY`` fights with.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Literal

from app.core.roster import Roster, new_roster

if TYPE_CHECKING:
    from app.rules.ruleset import Ruleset


@dataclass(frozen=True)
class ReadyArmy:
    """What a list offers for a picker: its ruleset and army ids, the roster's name and
    side, whose army it is and how many units it fields."""

    ruleset: str
    army: str
    name: str
    side: str
    origin: Literal["source", "castra"]
    units: int

    @property
    def key(self) -> str:
        """``RULESET:ARMY``, as the command line takes it (``leg-vi-carthago:roman``)."""
        return f"{self.ruleset}:{self.army}"


def ready_name(rs: Ruleset, army_id: str) -> str:
    """``"<ruleset short name>: <army list name>"`` ("Leg VI: Republican Roman")."""
    return f"{rs.meta.short_name}: {rs.army(army_id).name}"


def ready_armies(rs: Ruleset) -> tuple[ReadyArmy, ...]:
    """The ruleset's ready armies in its lists' order."""
    out = []
    for army_id, army in rs.armies.items():
        std = army.standard
        if std is None:
            continue
        out.append(
            ReadyArmy(
                ruleset=rs.id,
                army=army_id,
                name=ready_name(rs, army_id),
                side=army.side,
                origin=std.origin,
                units=sum(u.count for u in std.units),
            )
        )
    return tuple(out)


def first_samples(rulesets: Iterable[Ruleset]) -> set[tuple[str, str]]:
    """The ready armies whose sample roster opens on a first start, as ``(ruleset id, army
    id)``: those the data marks ``first_sample`` (a choice of the app: Quincunx's Roman
    model legion, the army the README's pictures show)."""
    return {
        (rs.id, army_id)
        for rs in rulesets
        for army_id, army in rs.armies.items()
        if army.standard is not None and army.standard.first_sample
    }


def ready_notes(rs: Ruleset, army_id: str) -> str:
    """The roster's notes: whose army it is and where it comes from, then the data's own
    notes (who the leaders were)."""
    std = rs.army(army_id).standard
    if std is None:
        raise ValueError(f"army list {rs.army(army_id).name!r} has no ready army")
    if std.origin == "source":
        head = f"Ready army: {std.name}, as the source gives it ({std.source})."
    else:
        head = (
            f"Ready army: {std.name}. Built by Castra: the {rs.meta.short_name} source gives "
            f"no army to start from, so this one is made from its army lists and the history "
            f"({std.source})."
        )
    return f"{head} {std.notes}" if std.notes else head


def ready_roster(rs: Ruleset, army_id: str) -> Roster:
    """The ready army of ``army_id`` as a new roster, named :func:`ready_name`, with its
    notes (ValueError when the list has none)."""
    roster = new_roster(rs, army_id, name=ready_name(rs, army_id), standard=True)
    return replace(roster, notes=ready_notes(rs, army_id))


def find_ready(rulesets: Iterable[Ruleset], text: str) -> tuple[Ruleset, str] | None:
    """The ruleset and army that ``text`` names as a ready army: ``RULESET:ARMY``, each side
    of the colon the id or the name (the ruleset's short name, the army list's name), in any
    case, so ``leg-vi-carthago:roman`` and ``Leg VI: Republican Roman`` both name one. None
    when it names none."""
    head, colon, tail = text.partition(":")
    if not colon:
        return None
    want_rs, want_army = head.strip().casefold(), tail.strip().casefold()
    for rs in rulesets:
        if want_rs not in (rs.id.casefold(), rs.meta.short_name.casefold()):
            continue
        for army_id, army in rs.armies.items():
            if army.standard is not None and want_army in (
                army_id.casefold(),
                army.name.casefold(),
            ):
                return rs, army_id
    return None
