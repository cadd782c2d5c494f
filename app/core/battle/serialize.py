"""Battle states and rolls as JSON-ready dicts (for the store) and back; a step's dict is
:func:`app.core.battle.session.step_to_dict`, beside :class:`~app.core.battle.session.Step`."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from app.core.battle.dice import Roll
from app.core.battle.state import BattleLeader, BattleState, BattleUnit, SideInfo
from app.core.leaderkeys import BATTLE_KEYS, battle_unflat, flat
from app.rules.mechanics import Side, Status, Victory
from app.rules.table import TerrainPiece
from app.rules.values import frozen_made


def _side(value: Any) -> Side | None:
    if value is None:
        return None
    if value not in (0, 1):
        raise ValueError(f"side must be 0 or 1, not {value!r}")
    return 0 if value == 0 else 1


def status_to_dict(s: Status) -> dict[str, Any]:
    return {
        "strength": int(s.strength),
        "start_strength": int(s.start_strength),
        "hits": int(s.hits),
        "rings": int(s.rings),
        "dps": int(s.dps),
        "grade": s.grade,
        "formation": s.formation,
        "markers": sorted(s.markers),
        "eliminated": bool(s.eliminated),
        "extra": dict(s.extra),
    }


def status_from_dict(d: Mapping[str, Any]) -> Status:
    # made by the thousand as a state is read: every field at once (frozen_made)
    return frozen_made(
        Status,
        {
            "strength": int(d["strength"]),
            "start_strength": int(d["start_strength"]),
            "hits": int(d["hits"]),
            "rings": int(d["rings"]),
            "dps": int(d["dps"]),
            "grade": d["grade"],
            "formation": d["formation"],
            "markers": frozenset(d["markers"]),
            "eliminated": bool(d["eliminated"]),
            "extra": dict(d["extra"]),
        },
    )


def unit_to_dict(u: BattleUnit) -> dict[str, Any]:
    """A unit as JSON-ready data. ``moved`` is written only when it is not 0, so a state
    that never used it (every battle stored before paths) serialises -- and digests --
    exactly as it did."""
    out: dict[str, Any] = {
        "id": u.id,
        "side": u.side,
        "name": u.name,
        "entry": u.entry,
        "troop": u.troop,
        "status": status_to_dict(u.status),
        "x": float(u.x),
        "y": float(u.y),
        "facing": float(u.facing),
        "width": float(u.width),
        "depth": float(u.depth),
        "command": u.command,
        "roster_unit": u.roster_unit,
    }
    if u.moved:
        out["moved"] = float(u.moved)
    return out


def leader_to_dict(ld: BattleLeader) -> dict[str, Any]:
    """A leader as JSON-ready data. The commands he leads are written only when he leads
    some, so a state stored before leaders knew them keeps its digest."""
    out: dict[str, Any] = {
        "id": ld.id,
        "side": ld.side,
        "name": ld.name,
        "rank": ld.rank,
        "status": ld.status,
        "wounds": ld.wounds,
        **flat(ld.fields, BATTLE_KEYS),
        "attached_to": ld.attached_to,
        "x": float(ld.x),
        "y": float(ld.y),
    }
    if ld.commands:
        out["commands"] = list(ld.commands)
    return out


def state_to_dict(st: BattleState) -> dict[str, Any]:
    """The state as JSON-ready data; lengths are always floats (a move to ``x=20`` is stored
    as 20.0, as it reads back), so a state and its stored copy have one digest. Keys added
    since battles were first stored (a unit's ``moved``, a linear piece's ``width``) are
    written only when used, so older states keep their digests (a historical battle's
    ``scenario`` and ``zones`` too)."""
    out = {
        "ruleset": st.ruleset,
        "sides": [
            {"name": s.name, "army": s.army, "roster": s.roster, "record": dict(s.record)}
            for s in st.sides
        ],
        "units": [unit_to_dict(u) for u in st.units],
        "leaders": [leader_to_dict(ld) for ld in st.leaders],
        "terrain": [t.to_dict() for t in st.terrain],
        "width": float(st.width),
        "height": float(st.height),
        "turn": st.turn,
        "round": st.round,
        "phase": st.phase,
        "initiative": st.initiative,
        "started": st.started,
        "result": None
        if st.result is None
        else {"winner": st.result.winner, "reason": st.result.reason},
    }
    if st.scenario is not None:
        out["scenario"] = st.scenario
    if st.zones is not None:
        out["zones"] = [[[float(x), float(y)] for x, y in zone] for zone in st.zones]
    return out


def state_from_dict(d: Mapping[str, Any]) -> BattleState:
    sides = [SideInfo(s["name"], s["army"], s["roster"], dict(s["record"])) for s in d["sides"]]
    units = tuple(
        frozen_made(
            BattleUnit,
            {
                "id": u["id"],
                "side": _side(u["side"]) or 0,
                "name": u["name"],
                "entry": u["entry"],
                "troop": u["troop"],
                "status": status_from_dict(u["status"]),
                "x": float(u["x"]),
                "y": float(u["y"]),
                "facing": float(u["facing"]),
                "width": float(u["width"]),
                "depth": float(u["depth"]),
                "command": u["command"],
                "roster_unit": u["roster_unit"],
                "moved": float(u.get("moved", 0.0)),
            },
        )
        for u in d["units"]
    )
    leaders = tuple(
        BattleLeader(
            id=ld["id"],
            side=_side(ld["side"]) or 0,
            name=ld["name"],
            rank=ld["rank"],
            status=ld["status"],
            wounds=int(ld["wounds"]),
            fields=battle_unflat(ld),
            attached_to=ld["attached_to"],
            x=float(ld["x"]),
            y=float(ld["y"]),
            commands=tuple(str(c) for c in ld.get("commands", ())),
        )
        for ld in d["leaders"]
    )
    terrain = tuple(TerrainPiece.from_dict(t) for t in d["terrain"])
    result = d["result"]
    zones = d.get("zones")
    return BattleState(
        ruleset=d["ruleset"],
        sides=(sides[0], sides[1]),
        units=units,
        leaders=leaders,
        terrain=terrain,
        width=float(d["width"]),
        height=float(d["height"]),
        turn=int(d["turn"]),
        round=int(d.get("round", 1)),
        phase=int(d["phase"]),
        initiative=_side(d["initiative"]),
        started=bool(d["started"]),
        result=None if result is None else Victory(_side(result["winner"]), result["reason"]),
        scenario=d.get("scenario"),
        zones=None
        if zones is None
        else (
            tuple((float(x), float(y)) for x, y in zones[0]),
            tuple((float(x), float(y)) for x, y in zones[1]),
        ),
    )


def rolls_to_list(rolls: tuple[Roll, ...]) -> list[dict[str, Any]]:
    return [{"purpose": r.purpose, "spec": r.spec, "faces": list(r.faces)} for r in rolls]


def rolls_from_list(data: list[Mapping[str, Any]]) -> tuple[Roll, ...]:
    return tuple(Roll(r["purpose"], r["spec"], tuple(int(f) for f in r["faces"])) for r in data)


def state_from_json(text: str) -> Callable[[], BattleState]:
    """A function that decodes the state JSON ``text`` when called, for a :class:`Step` that
    decodes its state only when it is first read."""

    def load() -> BattleState:
        return state_from_dict(json.loads(text))

    return load
