"""Who plays a side: a person at the table, or Castra with a temperament per command and a
seed (issue 30). Kept in the side's record from the battle's start, so a stored battle
knows which sides Castra plays and how, and replay and undo never lose it.

The record's keys: ``castra`` (the side's temperament: Castra plays the side),
``castra_seed`` (its seed) and ``castra_commands`` (``command=temperament`` pairs joined by
``;`` for the commands that differ from the side's).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from app.core.battle.advisor import Measure
from app.core.battle.state import BattleState, BattleUnit
from app.rules.mechanics import Scalar, Side

CASTRA = "castra"
SEED = "castra_seed"
COMMANDS = "castra_commands"


class Temperament(StrEnum):
    """How Castra weighs what it may win against what it may lose."""

    BOLD = "bold"
    STEADY = "steady"
    CAUTIOUS = "cautious"


#: each temperament's measure (:class:`~app.core.battle.advisor.Measure`)
MEASURES: dict[Temperament, Measure] = {
    Temperament.BOLD: Measure(
        caution=0.6, rout_weight=0.8, leader_weight=1.0, boldness=1.5, risk=0.2
    ),
    Temperament.STEADY: Measure(),
    Temperament.CAUTIOUS: Measure(
        caution=1.5, rout_weight=0.4, leader_weight=3.0, boldness=0.6, risk=1.0
    ),
}
#: the least score an action must reach for a unit of each temperament to take it
THRESHOLDS: dict[Temperament, float] = {
    Temperament.BOLD: -0.02,
    Temperament.STEADY: 0.0,
    Temperament.CAUTIOUS: 0.01,
}


def temperament(text: str) -> Temperament:
    """``text`` as a temperament; ValueError naming the three otherwise."""
    try:
        return Temperament(text.strip().lower())
    except ValueError:
        names = ", ".join(t.value for t in Temperament)
        raise ValueError(f"a temperament is one of {names}, not {text!r}") from None


@dataclass(frozen=True)
class Player:
    """Castra playing ``side``: its temperament, the commands that differ from it, and the
    seed its choices are drawn with (two opponents with the same seed on the same battle
    choose the same)."""

    side: Side
    temperament: Temperament = Temperament.STEADY
    commands: Mapping[str, Temperament] = field(default_factory=dict)
    seed: int = 0

    def of(self, unit: BattleUnit) -> Temperament:
        """The temperament of ``unit``'s command."""
        if unit.command is not None and unit.command in self.commands:
            return self.commands[unit.command]
        return self.temperament

    def record(self) -> dict[str, Scalar]:
        """What the side's record keeps of this player."""
        out: dict[str, Scalar] = {CASTRA: self.temperament.value, SEED: self.seed}
        if self.commands:
            out[COMMANDS] = ";".join(f"{k}={v.value}" for k, v in sorted(self.commands.items()))
        return out

    def words(self) -> str:
        """ "Castra (steady; the right wing bold)"."""
        more = ", ".join(f"{k} {v.value}" for k, v in sorted(self.commands.items()))
        return f"Castra ({self.temperament.value}{'; ' + more if more else ''})"


def player_of(state: BattleState, side: Side) -> Player | None:
    """The player the battle's record gives ``side``: Castra with its temperaments, or None
    (a person plays it)."""
    record = state.sides[side].record
    found = record.get(CASTRA)
    if not isinstance(found, str):
        return None
    try:
        main = temperament(found)
    except ValueError:
        return None
    seed = record.get(SEED, 0)
    commands: dict[str, Temperament] = {}
    for pair in str(record.get(COMMANDS, "") or "").split(";"):
        key, _, value = pair.partition("=")
        if key and value:
            try:
                commands[key] = temperament(value)
            except ValueError:
                continue
    return Player(side, main, commands, int(seed) if isinstance(seed, int | float) else 0)


def players_of(state: BattleState) -> dict[Side, Player]:
    """The sides Castra plays in ``state``."""
    out: dict[Side, Player] = {}
    for side in (0, 1):
        s: Side = 0 if side == 0 else 1
        found = player_of(state, s)
        if found is not None:
            out[s] = found
    return out
