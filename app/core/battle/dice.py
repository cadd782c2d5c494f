"""Dice for a battle: every roll recorded with what it was for, so redo and replay feed the
same faces back and never roll again."""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.dice import ScriptedDice, SeededDice
from app.rules.mechanics import Dice


@dataclass(frozen=True)
class Roll:
    purpose: str
    spec: str
    faces: tuple[int, ...]

    def __str__(self) -> str:
        faces = ", ".join(str(f) for f in self.faces)
        return f"{self.purpose}: {self.spec} -> {faces}"


class RecordingDice:
    """Wraps a dice source and keeps each roll."""

    def __init__(self, source: Dice) -> None:
        self._source = source
        self.rolls: list[Roll] = []

    def roll(self, spec: str, purpose: str) -> tuple[int, ...]:
        faces = self._source.roll(spec, purpose)
        self.rolls.append(Roll(purpose, spec, tuple(faces)))
        return faces


def fresh_dice(seed: int, serial: int) -> RecordingDice:
    """New dice for the ``serial``-th command of a battle seeded with ``seed``: the battle's
    generator, reproducible from the seed and the command count."""
    return RecordingDice(SeededDice(f"{seed}:{serial}"))


def replay_dice(rolls: tuple[Roll, ...]) -> tuple[RecordingDice, ScriptedDice]:
    """Dice that give back ``rolls`` in order (and fail if the command asks for others)."""
    script = ScriptedDice([(r.spec, r.faces) for r in rolls])
    return RecordingDice(script), script
