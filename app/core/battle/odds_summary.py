"""Exact odds put in rows for showing: each outcome with its chance (sorted likeliest first,
as ``castra odds`` prints them) and the expected losses of each side. Plain arithmetic on
the mechanics' exact distribution; nothing here knows a rule."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from app.rules.mechanics import Effects, Odds

#: the effects whose expectation is worth a bar: losses in the ruleset's own coin
LOSS_KEYS = ("casualties", "hits", "dps", "rings")


def effects_words(e: Effects) -> str:
    """``casualties 2, hits 1, shaken`` or ``-`` (the CLI's column text)."""
    parts = [f"{k} {getattr(e, k)}" for k in LOSS_KEYS if getattr(e, k)]
    parts += sorted(e.markers_add)
    if e.eliminated:
        parts.append("eliminated")
    if e.move:
        parts.append(e.move)
    return ", ".join(parts) or "-"


@dataclass(frozen=True)
class OutcomeRow:
    result: str
    attacker: str
    defender: str
    chance: Fraction


def outcome_rows(odds: Odds) -> list[OutcomeRow]:
    rows = sorted(odds.items(), key=lambda kv: (-kv[1], kv[0].result))
    return [
        OutcomeRow(o.result or "-", effects_words(o.attacker), effects_words(o.defender), p)
        for o, p in rows
    ]


def expected_losses(odds: Odds) -> dict[str, Fraction]:
    """``attacker_casualties``, ``defender_hits``, ...: the exact expectation of every loss
    that can happen (zero expectations left out)."""
    out: dict[str, Fraction] = {}
    for o, p in odds.items():
        for side, e in (("attacker", o.attacker), ("defender", o.defender)):
            for key in LOSS_KEYS:
                value = getattr(e, key)
                if value:
                    name = f"{side}_{key}"
                    out[name] = out.get(name, Fraction(0)) + p * value
    return {k: v for k, v in out.items() if v}
