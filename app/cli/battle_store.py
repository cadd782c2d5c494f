"""The stored battle as ``castra battle`` and its table commands (:mod:`app.cli.table`)
read and change it, through the battle use cases (:mod:`app.usecases.battle`): one place,
so neither command module borrows from the other."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from app.cli.common import CliError, registry, store
from app.core.battle import BattleCommand, BattleSession, CommandError
from app.usecases.access import Store


def load(battle_id: int) -> tuple[Store, BattleSession]:
    """The battle for a command that only reads it (no write lock, no ORM)."""
    from app.usecases.battle import load_battle

    st = store()
    try:
        return st, load_battle(st, battle_id=battle_id, registry=registry())
    except KeyError as exc:
        raise CliError(str(exc.args[0])) from None


@contextmanager
def updating(battle_id: int) -> Iterator[BattleSession]:
    """The battle for a command that changes it: loaded, changed and saved in one
    transaction holding the store's write lock (another writer waits; no step is lost)."""
    from app.usecases.battle import updating_battle

    try:
        with updating_battle(store(), battle_id=battle_id, registry=registry()) as session:
            yield session
    except KeyError as exc:
        raise CliError(str(exc.args[0])) from None


def run(
    battle_id: int,
    command: BattleCommand | Callable[[BattleSession], BattleCommand],
    faces: list[int] | None = None,
) -> int:
    """Execute ``command`` (or the one built from the loaded session: its options need the
    ruleset's mechanics) on the battle and save the step; the battle is loaded once.
    ``faces``: dice thrown at the table (``--dice``) instead of the battle's own."""
    with updating(battle_id) as session:
        cmd = command(session) if callable(command) else command
        try:
            step = session.do(cmd, faces=faces)
        except CommandError as exc:
            raise CliError(str(exc)) from None
    for line in step.lines:
        print(line)
    for roll in step.rolls:
        print(f"  roll {roll}")
    return 0
