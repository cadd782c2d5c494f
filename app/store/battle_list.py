"""The list of stored battles (name, ruleset, sides, turn, result), read with plain
``sqlite3`` and no battle code, so that the main window's Battles panel costs its start-up
nothing but the query (:mod:`app.store.battles` loads the battle core)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from app.store.engine import Store, StoreDamaged
from app.store.read import parse_time, reading


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


def list_battles(store: Store) -> list[BattleSummary]:
    with reading(store) as con:
        rows = con.execute(
            "SELECT b.id, b.name, b.ruleset, b.initial_state, b.cursor, b.winner, b.result, "
            "b.updated_at, s.turn FROM battle AS b LEFT OUTER JOIN battle_step AS s "
            "ON s.battle_id = b.id AND s.n = b.cursor - 1 ORDER BY b.updated_at DESC"
        ).fetchall()
    out = []
    for bid, name, ruleset, initial_text, cursor, winner, result, updated, turn in rows:
        where = f"battle {bid}"
        try:
            initial = json.loads(initial_text)
            sides = initial["sides"]
            names = (str(sides[0]["name"]), str(sides[1]["name"]))
            first_turn = int(initial["turn"])
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise StoreDamaged(f"{where} cannot be read ({type(exc).__name__}: {exc})") from None
        out.append(
            BattleSummary(
                int(bid),
                str(name),
                str(ruleset),
                names,
                int(cursor),
                int(turn) if cursor and turn is not None else first_turn,
                winner,
                result,
                parse_time(updated, f"{where} updated_at"),
            )
        )
    return out
