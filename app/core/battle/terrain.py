"""The table as part of the battle: its size and terrain, changed only by these commands, so
every edit is undone, redone and replayed like any other step."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from app.core.battle.base import BattleCommand, CommandError, Context, Executed, ended, unit_symbol
from app.core.battle.state import BattleState
from app.rules.measure import mm_per_unit
from app.rules.table import (
    LINEAR_KINDS,
    MAX_PIECES,
    Table,
    TerrainError,
    TerrainKind,
    TerrainPiece,
    default_width,
)

Points = tuple[tuple[float, float], ...]


def _points(value: object) -> Points:
    if not isinstance(value, list | tuple):
        raise CommandError("the points must be a list of x,y pairs")
    return tuple(tuple(p) if isinstance(p, list | tuple) else p for p in value)


def _piece(ctx: Context, **fields: Any) -> TerrainPiece:
    """A piece with a linear kind's default width in the ruleset's unit when none is given
    (a road 1", a river 3": :data:`app.rules.table.DEFAULT_WIDTH_MM`)."""
    kind = fields["kind"]
    if kind in LINEAR_KINDS and fields.get("width") is None:
        fields["width"] = default_width(kind, mm_per_unit(ctx.ruleset))
    if kind not in LINEAR_KINDS:
        fields["width"] = None if fields.get("width") is None else fields["width"]
    try:
        return TerrainPiece(**fields)
    except TerrainError as exc:
        raise CommandError(str(exc)) from None


def _on_table(piece: TerrainPiece, width: float, height: float) -> None:
    """Refuse a piece with a point off a ``width`` by ``height`` table."""
    for i, (x, y) in enumerate(piece.points):
        if not (-1e-6 <= x <= width + 1e-6 and -1e-6 <= y <= height + 1e-6):
            raise CommandError(
                f"point {i + 1} ({x:g},{y:g}) of terrain {piece.id} is off the {width:g} by "
                f"{height:g} table; terrain lies on the table"
            )


def _describe(piece: TerrainPiece, u: str) -> str:
    name = f' "{piece.name}"' if piece.name else ""
    shape = f"{len(piece.points)} points"
    if piece.width is not None:
        shape += f", {piece.width:g}{u} wide"
    return f"{piece.kind} {piece.id}{name} ({shape})"


@dataclass(frozen=True)
class SetTable(BattleCommand):
    """Give the table another size (in the ruleset's unit). Refused when a unit or a piece
    of terrain would be left off it."""

    kind: ClassVar[str] = "table"
    width: float = 72.0
    height: float = 48.0

    @property
    def label(self) -> str:
        return "Table size"

    def execute(self, state: BattleState, ctx: Context) -> Executed:
        ended(state)
        try:
            table = Table(self.width, self.height, state.terrain)
        except TerrainError as exc:
            raise CommandError(str(exc)) from None
        off = [
            u.id
            for u in state.units
            if not u.status.eliminated and not table.holds(u.footprint.corners())
        ]
        if off:
            raise CommandError(
                f"{', '.join(off[:10])}{' ...' if len(off) > 10 else ''} would be off a "
                f"{self.width:g} by {self.height:g} table; move them first"
            )
        for piece in state.terrain:
            if not table.holds(piece.points):
                raise CommandError(
                    f"terrain {piece.id} would be off a {self.width:g} by {self.height:g} "
                    "table; move or remove it first"
                )
        u = unit_symbol(ctx)
        state = replace(state, width=table.width, height=table.height)
        return Executed(state, (f"The table is now {table.width:g}{u} by {table.height:g}{u}.",))


@dataclass(frozen=True)
class AddTerrain(BattleCommand):
    """Place a terrain piece; ``id`` is given the next free ``T<n>`` when not set, and a
    river, road or stream its kind's default width when none is given."""

    kind: ClassVar[str] = "terrain_add"
    terrain: TerrainKind = "woods"
    points: Points = ()
    name: str = ""
    width: float | None = None
    id: str | None = None

    @property
    def label(self) -> str:
        return f"Place {self.terrain}"

    @classmethod
    def from_dict(cls, fields: Mapping[str, Any]) -> BattleCommand:
        return cls(**{**fields, "points": _points(fields.get("points", ()))})

    def execute(self, state: BattleState, ctx: Context) -> Executed:
        ended(state)
        table = state.table
        if len(table.terrain) >= MAX_PIECES:
            raise CommandError(f"a table has at most {MAX_PIECES} terrain pieces")
        piece_id = self.id or table.next_id()
        if any(p.id == piece_id for p in table.terrain):
            raise CommandError(f"there is already a terrain piece {piece_id}")
        piece = _piece(
            ctx,
            id=piece_id,
            kind=self.terrain,
            points=self.points,
            name=self.name,
            width=self.width,
        )
        _on_table(piece, state.width, state.height)
        state = replace(state, terrain=(*state.terrain, piece))
        return Executed(state, (f"Terrain placed: {_describe(piece, unit_symbol(ctx))}.",))


@dataclass(frozen=True)
class EditTerrain(BattleCommand):
    """Change a piece: its kind, points, name or width (None: unchanged)."""

    kind: ClassVar[str] = "terrain_edit"
    id: str = ""
    terrain: TerrainKind | None = None
    points: Points | None = None
    name: str | None = None
    width: float | None = None

    @property
    def label(self) -> str:
        return f"Edit terrain {self.id}"

    @classmethod
    def from_dict(cls, fields: Mapping[str, Any]) -> BattleCommand:
        points = fields.get("points")
        return cls(**{**fields, "points": None if points is None else _points(points)})

    def execute(self, state: BattleState, ctx: Context) -> Executed:
        ended(state)
        try:
            old = state.table.piece(self.id)
        except KeyError as exc:
            raise CommandError(str(exc.args[0])) from None
        kind = self.terrain or old.kind
        width = self.width if self.width is not None else old.width
        if kind != old.kind and self.width is None:
            width = None  # a piece of another kind takes its new kind's default width
        new = _piece(
            ctx,
            id=old.id,
            kind=kind,
            points=self.points if self.points is not None else old.points,
            name=self.name if self.name is not None else old.name,
            width=width,
        )
        if new == old:
            raise CommandError(f"terrain {self.id} is unchanged")
        _on_table(new, state.width, state.height)
        terrain = tuple(new if p.id == old.id else p for p in state.terrain)
        state = replace(state, terrain=terrain)
        return Executed(state, (f"Terrain changed: {_describe(new, unit_symbol(ctx))}.",))


@dataclass(frozen=True)
class RemoveTerrain(BattleCommand):
    kind: ClassVar[str] = "terrain_remove"
    id: str = ""

    @property
    def label(self) -> str:
        return f"Remove terrain {self.id}"

    def execute(self, state: BattleState, ctx: Context) -> Executed:
        ended(state)
        try:
            piece = state.table.piece(self.id)
        except KeyError as exc:
            raise CommandError(str(exc.args[0])) from None
        state = replace(state, terrain=tuple(p for p in state.terrain if p.id != self.id))
        return Executed(state, (f"Terrain removed: {_describe(piece, unit_symbol(ctx))}.",))


@dataclass(frozen=True)
class LayOutTable(BattleCommand):
    """Replace all the terrain by a layout's pieces (a ready-made table or one the user
    saved), already fitted to this table: the command holds the pieces themselves, so a
    layout changed or deleted later does not change the battle's replay."""

    kind: ClassVar[str] = "layout"
    layout: str = ""
    pieces: tuple[TerrainPiece, ...] = ()

    @property
    def label(self) -> str:
        return f"Lay out {self.layout}" if self.layout else "Lay out the table"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "layout": self.layout,
            "pieces": [p.to_dict() for p in self.pieces],
        }

    @classmethod
    def from_dict(cls, fields: Mapping[str, Any]) -> BattleCommand:
        pieces = fields.get("pieces", ())
        if not isinstance(pieces, list | tuple):
            raise CommandError("a layout's pieces must be a list")
        return cls(
            layout=fields.get("layout", ""),
            pieces=tuple(TerrainPiece.from_dict(p) for p in pieces),
        )

    def execute(self, state: BattleState, ctx: Context) -> Executed:
        ended(state)
        if len(self.pieces) > MAX_PIECES:
            raise CommandError(f"a table has at most {MAX_PIECES} terrain pieces")
        ids = [p.id for p in self.pieces]
        if len(set(ids)) != len(ids):
            raise CommandError("the layout has two pieces with one id")
        for piece in self.pieces:
            _on_table(piece, state.width, state.height)
        state = replace(state, terrain=tuple(self.pieces))
        what = f'"{self.layout}"' if self.layout else "a layout"
        kinds = sorted({p.kind for p in self.pieces})
        made = f"{len(self.pieces)} pieces ({', '.join(kinds)})" if kinds else "no terrain"
        return Executed(state, (f"The table is laid out as {what}: {made}.",))


TERRAIN_COMMANDS: tuple[type[BattleCommand], ...] = (
    SetTable,
    AddTerrain,
    EditTerrain,
    RemoveTerrain,
    LayOutTable,
)
