"""Battle use cases over a :class:`~app.store.engine.Store`: a battle is saved after every
command (one transaction), so a kill loses at most the action in flight, and it resumes
where it stopped.

Loading is cheap however long the battle: each step's state stays JSON until it is read
(usually only the cursor's), since every command of the CLI loads the battle again.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from sqlmodel import col, delete, select

from app.core.battle.commands import command_from_dict
from app.core.battle.serialize import (
    rolls_from_list,
    state_from_dict,
    state_from_json,
    state_to_dict,
    step_to_dict,
)
from app.core.battle.session import BattleSession, DataStamp, Step
from app.core.roster import Roster
from app.core.rosterfile import from_dict as roster_from_dict
from app.core.rosterfile import to_dict as roster_to_dict
from app.rules.mechanics import mechanics_for
from app.store.engine import Store
from app.store.models import BattleRow, BattleStepRow

if TYPE_CHECKING:
    from app.rules.registry import Registry


@dataclass(frozen=True)
class BattleSummary:
    id: int
    name: str
    ruleset: str
    sides: tuple[str, str]
    steps: int
    turn: int
    winner: int | None
    result: str | None
    updated_at: datetime


def _now() -> datetime:
    return datetime.now(UTC)


def create_battle(store: Store, *, session: BattleSession, rosters: tuple[Roster, Roster]) -> int:
    """Save a new battle and the steps it already has, in one transaction; returns its id.
    The battle records the ruleset data it is played with (``session.recorded``, else the
    data as it is now)."""
    now = _now()
    stamp = session.recorded or session.current_data
    row = BattleRow(
        name=session.name or f"{rosters[0].name} vs {rosters[1].name}",
        ruleset=session.ruleset.id,
        seed=session.seed,
        initial_state=json.dumps(state_to_dict(session.initial)),
        rosters=json.dumps([roster_to_dict(r) for r in rosters]),
        cursor=session.cursor,
        serial=session.serial,
        created_at=now,
        updated_at=now,
        data_version=stamp.data_version,
        data_fingerprint=stamp.fingerprint,
    )
    with store.session() as db:
        db.add(row)
        db.flush()
        assert row.id is not None
        for n in range(len(session.steps)):
            db.add(_step_row(row.id, n, session))
        _stamp(row, session)
        return row.id


def _step_row(battle_id: int, n: int, session: BattleSession) -> BattleStepRow:
    d = step_to_dict(session.steps[n])
    return BattleStepRow(
        battle_id=battle_id,
        n=n,
        command=json.dumps(d["command"]),
        rolls=json.dumps(d["rolls"]),
        lines=json.dumps(d["lines"]),
        turn=d["turn"],
        phase=d["phase"],
        state=json.dumps(d["state"]),
    )


def _stamp(row: BattleRow, session: BattleSession) -> None:
    row.cursor = session.cursor
    row.serial = session.serial
    result = session.state.result
    row.winner = None if result is None else result.winner
    row.result = None if result is None else result.reason
    row.updated_at = _now()


def _row(db: object, battle_id: int) -> BattleRow:
    from sqlmodel import Session

    assert isinstance(db, Session)
    row = db.get(BattleRow, battle_id)
    if row is None:
        raise KeyError(f"no battle with id {battle_id}")
    return row


def save_step(store: Store, *, battle_id: int, session: BattleSession) -> None:
    """After ``session.do``: store the step just done, drop any stored redo branch beyond it,
    and record the cursor -- in one transaction."""
    n = session.cursor - 1
    if n < 0:
        raise ValueError("the session has no step to save")
    with store.session() as db:
        row = _row(db, battle_id)
        db.exec(
            delete(BattleStepRow).where(
                col(BattleStepRow.battle_id) == battle_id, col(BattleStepRow.n) >= n
            )
        )
        db.add(_step_row(battle_id, n, session))
        _stamp(row, session)
        db.add(row)


def save_cursor(store: Store, *, battle_id: int, session: BattleSession) -> None:
    """After ``undo`` or ``redo``: the steps are stored already; record where we are."""
    with store.session() as db:
        row = _row(db, battle_id)
        _stamp(row, session)
        db.add(row)


def load_battle(store: Store, *, battle_id: int, registry: Registry) -> BattleSession:
    """The battle as it was left: every stored step (the redo branch too) and the cursor.
    Step states are decoded when first read; the session knows the data it was recorded
    with (None for a battle made before that was kept)."""
    with store.session() as db:
        row = _row(db, battle_id)
        steps = db.exec(
            select(BattleStepRow)
            .where(col(BattleStepRow.battle_id) == battle_id)
            .order_by(col(BattleStepRow.n))
        ).all()
        rs = registry.get(row.ruleset)
        recorded = None
        if row.data_version is not None and row.data_fingerprint is not None:
            recorded = DataStamp(row.data_version, row.data_fingerprint)
        session = BattleSession(
            rs,
            mechanics_for(rs),
            state_from_dict(json.loads(row.initial_state)),
            seed=row.seed,
            steps=[
                Step(
                    command=command_from_dict(json.loads(s.command)),
                    rolls=rolls_from_list(json.loads(s.rolls)),
                    lines=tuple(json.loads(s.lines)),
                    turn=s.turn,
                    phase=s.phase,
                    state=state_from_json(s.state),
                )
                for s in steps
            ],
            cursor=row.cursor,
            serial=row.serial,
            name=row.name,
            recorded=recorded,
        )
    return session


def battle_rosters(store: Store, *, battle_id: int, registry: Registry) -> tuple[Roster, Roster]:
    with store.session() as db:
        data = json.loads(_row(db, battle_id).rosters)
    a, b = (roster_from_dict(d, registry) for d in data)
    return a, b


def list_battles(store: Store) -> list[BattleSummary]:
    with store.session() as db:
        rows = db.exec(select(BattleRow).order_by(col(BattleRow.updated_at).desc())).all()
        out = []
        for row in rows:
            assert row.id is not None
            initial = json.loads(row.initial_state)
            turn = initial["turn"]
            if row.cursor:
                last = db.exec(
                    select(BattleStepRow.turn).where(
                        col(BattleStepRow.battle_id) == row.id,
                        col(BattleStepRow.n) == row.cursor - 1,
                    )
                ).first()
                turn = last if last is not None else turn
            sides = initial["sides"]
            out.append(
                BattleSummary(
                    row.id,
                    row.name,
                    row.ruleset,
                    (sides[0]["name"], sides[1]["name"]),
                    row.cursor,
                    turn,
                    row.winner,
                    row.result,
                    row.updated_at,
                )
            )
    return out


def delete_battle(store: Store, *, battle_id: int) -> None:
    with store.session() as db:
        db.delete(_row(db, battle_id))
