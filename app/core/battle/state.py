"""A battle as an immutable value: units with position, facing and their ruleset's status,
leaders, terrain, the sides' records, turn, phase and initiative.

Every change goes through a command (``app.core.battle.commands``) that returns a new state;
the session keeps the states, so undo is exact and replay reproduces them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from app.rules.geometry import Footprint
from app.rules.leaderfields import NO_FIELDS, FieldValue, FieldValues
from app.rules.mechanics import Combatant, LeaderView, Scalar, Side, Status, TurnView, Victory
from app.rules.table import Table, TerrainKind, TerrainPiece
from app.rules.values import frozen_made

__all__ = [
    "BattleLeader",
    "BattleState",
    "BattleUnit",
    "SideInfo",
    "TerrainKind",
    "TerrainPiece",
]


@dataclass(frozen=True)
class BattleUnit:
    """One unit on the table. ``id`` is short and stable (``A3``: side A's third unit)."""

    id: str
    side: Side
    name: str
    entry: str
    troop: str
    status: Status
    x: float = 0.0
    y: float = 0.0
    facing: float = 0.0
    width: float = 1.0
    depth: float = 1.0
    command: str | None = None
    roster_unit: str | None = None
    #: distance (cost, in the ruleset's unit) moved this turn or round: every committed path
    #: move adds its cost; 0 again when a new round or turn begins
    moved: float = 0.0

    @property
    def footprint(self) -> Footprint:
        return Footprint(self.x, self.y, self.facing, self.width, self.depth)

    def as_combatant(self, leader: LeaderView | None = None, army: str | None = None) -> Combatant:
        """The unit as the mechanics see it (with its leader and its army, where known)."""
        # every unit's, each time a state is shown: every field at once (frozen_made)
        return frozen_made(
            Combatant,
            {
                "unit_id": self.id,
                "name": self.name,
                "troop": self.troop,
                "side": self.side,
                "status": self.status,
                "leader": leader,
                "army": army,
                "x": self.x,
                "y": self.y,
                "facing": self.facing,
                "width": self.width,
                "depth": self.depth,
                "moved": self.moved,
                "command": self.command,
            },
        )


@dataclass(frozen=True)
class BattleLeader:
    id: str
    side: Side
    name: str
    rank: Literal["general", "commander"]
    status: Literal["fit", "wounded", "killed", "captured"] = "fit"
    wounds: int = 0
    #: the fields his engine reads (:mod:`app.rules.leaderfields`), only those set
    fields: Mapping[str, FieldValue] = NO_FIELDS
    attached_to: str | None = None
    x: float = 0.0
    y: float = 0.0
    #: the roster's commands (battlegroups) he leads
    commands: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.fields, FieldValues):
            object.__setattr__(self, "fields", FieldValues(self.fields))

    @property
    def active(self) -> bool:
        return self.status in ("fit", "wounded")


@dataclass(frozen=True)
class SideInfo:
    """A side: the roster it came from and its record (stars, decks, initiative die, ...),
    kept by the ruleset's mechanics."""

    name: str
    army: str
    roster: str
    record: Mapping[str, Scalar] = field(default_factory=dict)


#: The combatants of the last view made, by the id of their unit (each entry holds its
#: unit, so no id is reused while it is here): the next state's view, which shares most of
#: its units with it (a command replaces only the units it changes), takes theirs instead of
#: making them again (a Next phase made three views of a 1,000-unit battle). Kept apart from
#: the units themselves: a unit's attributes read fastest while Python keeps them without a
#: ``__dict__`` of their own.
_LAST_MADE: list[dict[int, tuple[BattleUnit, BattleLeader | None, str, Combatant]]] = [{}]

#: The last view's units and leaders as its state held them, its armies, and what was made
#: of them: its combatants and its leaders' views. A state holding the very same two tuples
#: and the same armies (the phase, the turn or a side's record moved on: most of a Next
#: phase's three views) takes them whole rather than unit by unit.
_LAST_WHOLE: list[
    tuple[
        tuple[BattleUnit, ...],
        tuple[BattleLeader, ...],
        tuple[str, str],
        tuple[Combatant, ...],
        tuple[LeaderView, ...],
    ]
    | None
] = [None]


@dataclass(frozen=True)
class BattleState:
    ruleset: str
    sides: tuple[SideInfo, SideInfo]
    units: tuple[BattleUnit, ...]
    leaders: tuple[BattleLeader, ...] = ()
    terrain: tuple[TerrainPiece, ...] = ()
    width: float = 72.0
    height: float = 48.0
    turn: int = 1
    round: int = 1
    phase: int = 0
    initiative: Side | None = None
    started: bool = False
    result: Victory | None = None
    #: the historical battle it was set up from (``app.core.scenario``), None for others
    scenario: str | None = None
    #: that battle's own deployment zones, in fractions of the table (:class:`Table`)
    zones: tuple[tuple[tuple[float, float], ...], tuple[tuple[float, float], ...]] | None = None

    # ------------------------------------------------------------------ look-ups

    def unit(self, unit_id: str) -> BattleUnit:
        index = self.__dict__.get("_units_by_id")
        if index is None:  # made once a state (the state never changes)
            index = {}
            for u in self.units:
                index.setdefault(u.id, u)
            self.__dict__["_units_by_id"] = index
        found = index.get(unit_id)
        if found is not None:
            return found  # type: ignore[no-any-return]
        known = ", ".join(u.id for u in self.units[:12])
        raise KeyError(f"no unit {unit_id!r} in this battle (units: {known}, ...)")

    def leader(self, leader_id: str) -> BattleLeader:
        for ld in self.leaders:
            if ld.id == leader_id:
                return ld
        raise KeyError(f"no leader {leader_id!r} in this battle")

    def leader_of(self, unit_id: str) -> BattleLeader | None:
        for ld in self.leaders:
            if ld.attached_to == unit_id and ld.active:
                return ld
        return None

    def replace_unit(self, unit: BattleUnit) -> BattleState:
        return replace(self, units=tuple(unit if u.id == unit.id else u for u in self.units))

    def replace_units(self, changed: Mapping[str, BattleUnit]) -> BattleState:
        """The state with the units in ``changed`` (by id) in place of their old selves, in
        one pass (replacing them one at a time rebuilt the units once each)."""
        if not changed:
            return self
        return replace(self, units=tuple(changed.get(u.id, u) for u in self.units))

    @property
    def table(self) -> Table:
        """The table the mechanics see: size and terrain."""
        return Table(self.width, self.height, self.terrain, self.zones)

    def replace_leader(self, leader: BattleLeader) -> BattleState:
        return replace(
            self, leaders=tuple(leader if ld.id == leader.id else ld for ld in self.leaders)
        )

    # ------------------------------------------------------------------ what mechanics see

    @staticmethod
    def leader_view(leader: BattleLeader) -> LeaderView:
        return LeaderView(
            id=leader.id,
            name=leader.name,
            rank=leader.rank,
            wounds=leader.wounds,
            fields=leader.fields,
            side=leader.side,
            attached_to=leader.attached_to,
            x=leader.x,
            y=leader.y,
            commands=leader.commands,
        )

    def combatant(self, unit: BattleUnit) -> Combatant:
        leader = self.leader_of(unit.id)
        view = None if leader is None else self.leader_view(leader)
        return unit.as_combatant(view, self.sides[unit.side].army)

    def view(self) -> TurnView:
        """What the mechanics see of this state: made once (the state never changes; a
        command's checks, the map's and the docks' questions ask it many times)."""
        made = self.__dict__.get("_view")
        if made is None:
            made = self.__dict__["_view"] = self._make_view()
        return made

    def _make_view(self) -> TurnView:
        armies = (self.sides[0].army, self.sides[1].army)
        whole = _LAST_WHOLE[0]
        if (
            whole is not None
            and whole[0] is self.units
            and whole[1] is self.leaders
            and whole[2] == armies
        ):
            units, leaders = whole[3], whole[4]
        else:
            units, leaders = self._make_combatants(armies)
            _LAST_WHOLE[0] = (self.units, self.leaders, armies, units, leaders)
        return TurnView(
            turn=self.turn,
            phase=self.phase,
            initiative=self.initiative,
            units=units,
            sides=(self.sides[0].record, self.sides[1].record),
            armies=armies,
            side_names=(self.sides[0].name, self.sides[1].name),
            round=self.round,
            leaders=leaders,
            table=self.table,
        )

    def _make_combatants(
        self, armies: tuple[str, str]
    ) -> tuple[tuple[Combatant, ...], tuple[LeaderView, ...]]:
        """Each unit's combatant, as :meth:`combatant` makes it (taken from the last view
        made where its unit, leader and army are the same: :data:`_LAST_MADE`), and the
        active leaders' views."""
        attached: dict[str, BattleLeader] = {}  # as leader_of finds them: the first active
        for ld in self.leaders:
            if ld.attached_to is not None and ld.active:
                attached.setdefault(ld.attached_to, ld)
        last = _LAST_MADE[0]
        made: dict[int, tuple[BattleUnit, BattleLeader | None, str, Combatant]] = {}
        units = []
        for u in self.units:  # as combatant(u), each made once for the same unit and leader
            leader, army = attached.get(u.id), armies[u.side]
            entry = last.get(id(u))
            if entry is None or entry[0] is not u or entry[1] is not leader or entry[2] != army:
                view = None if leader is None else self.leader_view(leader)
                entry = (u, leader, army, u.as_combatant(view, army))
            made[id(u)] = entry
            units.append(entry[3])
        _LAST_MADE[0] = made
        return tuple(units), tuple(self.leader_view(ld) for ld in self.leaders if ld.active)
