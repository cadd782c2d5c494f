"""Load run of a club server (issue 15): simulated members editing rosters and recording
battle steps at once on a real PostgreSQL, on loopback only, bounded in time and count.

A throw-away cluster is started on a free loopback port (``tests/pgcluster.py``), set up
with ``castra server init``, and given ``--members`` members (one in five an umpire, the rest
players). Each member is a thread with its own store connection, working as fast as it can
for ``--seconds`` (and at most ``--max-ops`` operations):

- a player edits their own roster, alternately the window's way (a write from its copy
  naming its version; refused when stale, then reloaded and done again) and the command
  line's (read, change and write in one transaction);
- an umpire records a step in one of two shared battles (two umpires on each), and every
  fifth operation edits a random player's roster (so rosters have two writers).

At the end every acknowledged write is looked for in the store: a unit added, a marker
set by a battle step. Prints throughput, latency (median, p95, max) and lost writes, which
must be 0 (the exit code is 1 otherwise).

    .venv/bin/python scripts/club_load.py            # 20 members, 60 s
    .venv/bin/python scripts/club_load.py --members 4 --seconds 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")

from app.core.battle import Adjust, BattleSession, new_battle  # noqa: E402
from app.core.roster import Roster, Unit, new_roster, unit_from_entry  # noqa: E402
from app.rules.mechanics import mechanics_for  # noqa: E402
from app.rules.registry import BUILTIN_DIR, Registry  # noqa: E402
from app.rulesets import load_registry  # noqa: E402
from app.store import (  # noqa: E402
    StaleWrite,
    Store,
    load_roster,
    load_roster_versioned,
    open_store,
    save_roster,
    update_roster,
    write_roster,
)
from app.store.battles import battle_for_update, create_battle, load_battle  # noqa: E402
from app.store.server import add_member, init_server  # noqa: E402
from tests.pgcluster import running_cluster  # noqa: E402


@dataclass
class Tally:
    """What one member did: latencies of acknowledged operations, what they wrote."""

    latencies: list[float] = field(default_factory=list)
    units: list[tuple[int, str]] = field(default_factory=list)  # (roster id, unit id)
    markers: list[tuple[int, str, str]] = field(default_factory=list)  # (battle, unit, marker)
    stale: int = 0
    errors: list[str] = field(default_factory=list)


def _battle(store: Store, registry: Registry, name: str) -> int:
    rs = registry.get("d3-ancients")
    mech = mechanics_for(rs)
    armies = []
    for army in ("roman", "carthaginian"):
        entry = next(iter(rs.army(army).entries))
        r = new_roster(rs, army, name=army)
        armies.append(replace(r, units=(unit_from_entry(rs, army, entry, count=2),)))
    rosters = (armies[0], armies[1])
    session = BattleSession(rs, mech, new_battle(rs, mech, rosters), seed=1, name=name)
    return create_battle(store, session=session, rosters=rosters)


def _unit(tag: str) -> Unit:
    return Unit(tag, "hastati", tag, 12)


def player(store: Store, rid: int, name: str, stop: float, max_ops: int, tally: Tally) -> None:
    copy, version = load_roster_versioned(store, roster_id=rid)
    for i in range(max_ops):
        if time.monotonic() >= stop:
            return
        unit = _unit(f"{name}-{i}")
        t0 = time.perf_counter()
        if i % 2 == 0:  # the window's way: from its copy, refused when stale
            while True:
                edited = replace(copy, units=(*copy.units, unit))
                try:
                    saved = write_roster(
                        store, roster=edited, roster_id=rid, expected_version=version, base=copy
                    )
                except StaleWrite:
                    tally.stale += 1
                    copy, version = load_roster_versioned(store, roster_id=rid)
                    continue
                copy, version = edited, saved.version
                break
        else:  # the command line's way
            update_roster(
                store, roster_id=rid, change=lambda r, u=unit: replace(r, units=(*r.units, u))
            )
            copy, version = load_roster_versioned(store, roster_id=rid)
        tally.latencies.append(time.perf_counter() - t0)
        tally.units.append((rid, unit.id))


def umpire(
    store: Store,
    registry: Registry,
    battle: int,
    side: str,
    rosters: list[int],
    name: str,
    stop: float,
    max_ops: int,
    tally: Tally,
) -> None:
    for i in range(max_ops):
        if time.monotonic() >= stop:
            return
        t0 = time.perf_counter()
        if i % 5 == 4:
            rid = rosters[i % len(rosters)]
            unit = _unit(f"{name}-{i}")
            update_roster(
                store, roster_id=rid, change=lambda r, u=unit: replace(r, units=(*r.units, u))
            )
            tally.units.append((rid, unit.id))
        else:
            marker = f"{name}-{i}"
            with battle_for_update(store, battle_id=battle, registry=registry) as s:
                s.do(Adjust(unit=side, field="marker", value=f"+{marker}"))
            tally.markers.append((battle, side, marker))
        tally.latencies.append(time.perf_counter() - t0)


def _guarded(work: object, tally: Tally, *args: object) -> None:
    try:
        work(*args)  # type: ignore[operator]
    except Exception as exc:  # counted and shown: a failed member is a failed run
        tally.errors.append(f"{type(exc).__name__}: {exc}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--members", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--max-ops", type=int, default=20_000, help="per member, at most")
    args = parser.parse_args()
    if not 2 <= args.members <= 100 or not 0 < args.seconds <= 600:
        parser.error("--members from 2 to 100, --seconds at most 600")
    registry = load_registry(BUILTIN_DIR, [], only={"d3-ancients"})
    umpires = max(1, args.members // 5)
    players = args.members - umpires
    with running_cluster() as cluster:
        if cluster is None:
            print("no PostgreSQL binaries on this machine (initdb, pg_ctl)", file=sys.stderr)
            return 1
        admin = cluster.create_database("club")
        init_server(admin)
        names = [f"player{k}" for k in range(players)] + [f"umpire{k}" for k in range(umpires)]
        for n in names:
            add_member(admin, name=n, role="umpire" if n.startswith("umpire") else "player")
        stores = {n: open_store(cluster.url("club", user=n)) for n in names}
        rosters = {
            n: save_roster(
                stores[n], roster=Roster(f"{n}'s army", "d3-ancients", "roman", "Rome", None)
            )
            for n in names[:players]
        }
        battles = [_battle(stores[names[players]], registry, f"Battle {k}") for k in (1, 2)]
        tallies = {n: Tally() for n in names}
        stop = time.monotonic() + args.seconds
        threads = []
        for k, n in enumerate(names):
            if k < players:
                work_args: tuple[object, ...] = (stores[n], rosters[n], n, stop, args.max_ops)
                target: object = player
            else:
                u = k - players
                work_args = (
                    stores[n],
                    registry,
                    battles[u % 2],
                    "A1" if (u // 2) % 2 == 0 else "B1",
                    list(rosters.values()),
                    n,
                    stop,
                    args.max_ops,
                )
                target = umpire
            threads.append(
                threading.Thread(target=_guarded, args=(target, tallies[n], *work_args, tallies[n]))
            )
        started = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=args.seconds + 120)
        elapsed = time.monotonic() - started
        # every acknowledged write, looked for in the store
        check = stores[names[-1]]
        stored_units = {
            rid: {u.id for u in load_roster(check, roster_id=rid).units} for rid in rosters.values()
        }
        states = {}
        for b in battles:
            session = load_battle(check, battle_id=b, registry=registry)
            states[b] = session.replay(session.cursor)
        lost = 0
        for tally in tallies.values():
            lost += sum(1 for rid, uid in tally.units if uid not in stored_units[rid])
            lost += sum(
                1 for b, unit, m in tally.markers if m not in states[b].unit(unit).status.markers
            )
        for store in stores.values():
            store.close()
    latencies = sorted(x for t in tallies.values() for x in t.latencies)
    errors = [e for t in tallies.values() for e in t.errors]
    ops = len(latencies)
    p95 = latencies[int(0.95 * (ops - 1))] if ops else 0.0
    print(
        f"{args.members} members ({players} players, {umpires} umpires) for {elapsed:.1f} s on "
        f"PostgreSQL at 127.0.0.1: {ops} acknowledged writes, {ops / elapsed:.1f} a second"
    )
    if ops:
        print(
            f"latency: median {statistics.median(latencies) * 1000:.0f} ms, p95 "
            f"{p95 * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms"
        )
    writes_units = sum(len(t.units) for t in tallies.values())
    writes_steps = sum(len(t.markers) for t in tallies.values())
    print(
        f"roster edits {writes_units}, battle steps {writes_steps}, stale copies refused and "
        f"redone {sum(t.stale for t in tallies.values())}"
    )
    print(f"lost writes: {lost}; members failed: {len(errors)}")
    for e in errors[:5]:
        print(f"  {e}")
    return 0 if lost == 0 and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
