"""Leg VI Carthago rules as pure functions: an elephant's critical hits (Elephant
critical hits) and a leader's die of death (Risk to Leader). Each dice-rolling helper has an
exact twin (``*_dist``) that enumerates the same faces, so a resolution and the odds always
agree.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from app.rules.dice import chance_of_any, faces_dist
from app.rules.mechanics import Dice, Effects, LeaderView
from app.rulesets.leg_vi.tables import Tables
from app.rulesets.leg_vi.units import RAMPAGE, STOP_ATTEMPTS, band_of, faces

# --------------------------------------------------------------------------- elephants

ElephantFate = Literal["unharmed", "rampage", "destroyed"]


def elephant_fate_dist(t: Tables, tests: int, automatic: int = 0) -> dict[ElephantFate, Fraction]:
    """Leg VI, Elephant critical hits: a D6 per DP, 1-2 a critical hit; a combat casualty
    is an automatic critical. Each critical rolls again: 1-2 destroyed, 3-6 rampage.
    Rolling stops once the elephant is destroyed (as :func:`roll_elephant_fate` does)."""
    ec = t.elephant_critical
    p_crit = chance_of_any(ec.die, ec.critical_on)
    outcome = faces_dist(faces(ec.outcome_die))
    p_destroy = sum(
        (p for v, p in outcome.items() if band_of(ec.outcomes, v).result == "destroyed"),
        Fraction(0),
    )
    state: dict[ElephantFate, Fraction] = {"unharmed": Fraction(1)}

    def critical(s: dict[ElephantFate, Fraction], p_c: Fraction) -> dict[ElephantFate, Fraction]:
        out: dict[ElephantFate, Fraction] = {}
        for fate, p in s.items():
            if fate == "destroyed":
                out["destroyed"] = out.get("destroyed", Fraction(0)) + p
                continue
            out[fate] = out.get(fate, Fraction(0)) + p * (1 - p_c)
            out["destroyed"] = out.get("destroyed", Fraction(0)) + p * p_c * p_destroy
            out["rampage"] = out.get("rampage", Fraction(0)) + p * p_c * (1 - p_destroy)
        return out

    for _ in range(tests):
        state = critical(state, p_crit)
    for _ in range(automatic):
        state = critical(state, Fraction(1))
    return {k: v for k, v in state.items() if v}


def roll_elephant_fate(
    t: Tables, tests: int, automatic: int, dice: Dice, name: str
) -> tuple[ElephantFate, list[str]]:
    ec = t.elephant_critical
    fate: ElephantFate = "unharmed"
    words: list[str] = []

    def second_roll(why: str) -> ElephantFate:
        (roll,) = dice.roll(ec.outcome_die, f"critical hit result for {name}")
        band = band_of(ec.outcomes, roll)
        words.append(f"{why}; rolled again {roll}: {band.label}")
        return "destroyed" if band.result == "destroyed" else "rampage"

    for i in range(tests):
        if fate == "destroyed":
            break
        (roll,) = dice.roll(ec.die, f"critical hit test {i + 1} for {name}")
        if roll in ec.critical_on:
            fate = second_roll(f"critical hit test for {name}: {roll}, a critical hit")
        else:
            words.append(f"critical hit test for {name}: {roll}, no critical hit")
    for _ in range(automatic):
        if fate == "destroyed":
            break
        fate = second_roll(f"{name} takes an automatic critical hit for the casualty")
    return fate, words


def elephant_effects(fate: ElephantFate) -> Effects:
    if fate == "destroyed":
        return Effects(eliminated=True)
    if fate == "rampage":
        return Effects(markers_add=frozenset({RAMPAGE}), extra={STOP_ATTEMPTS: 0})
    return Effects()


# --------------------------------------------------------------------------- die of death

LeaderFate = Literal["ok", "wounded", "killed"]


def leader_fate_dist(t: Tables, leader: LeaderView | None) -> dict[LeaderFate, Fraction]:
    """Leg VI, Risk to Leader: a D6, and on a 1 roll again: 1 killed, 2-4 wounded (a
    second wound kills), 5-6 a flesh wound. Flesh wounds count as ``ok``."""
    if leader is None:
        return {"ok": Fraction(1)}
    dd = t.die_of_death
    d = faces_dist(faces(dd.die))
    p_danger = d.get(dd.danger_roll, Fraction(0))
    out: dict[LeaderFate, Fraction] = {"ok": 1 - p_danger}
    for v, p in d.items():
        fate = _fate(t, leader, band_of(dd.results, v).result)
        out[fate] = out.get(fate, Fraction(0)) + p_danger * p
    return {k: v for k, v in out.items() if v}


def _fate(t: Tables, leader: LeaderView, result: str) -> LeaderFate:
    if result == "killed":
        return "killed"
    if result == "wounded":
        return "killed" if leader.wounds + 1 >= t.die_of_death.wounds_to_kill else "wounded"
    return "ok"


def roll_leader_fate(
    t: Tables, leader: LeaderView | None, dice: Dice, why: str
) -> tuple[LeaderFate, list[str]]:
    if leader is None:
        return "ok", []
    dd = t.die_of_death
    (first,) = dice.roll(dd.die, f"die of death for {leader.name}")
    if first != dd.danger_roll:
        return "ok", [f"die of death for {leader.name} ({why}): {first}, unharmed"]
    (second,) = dice.roll(dd.die, f"die of death for {leader.name}, second roll")
    band = band_of(dd.results, second)
    fate = _fate(t, leader, band.result)
    text = f"die of death for {leader.name} ({why}): {first}, then {second} = {band.label}"
    if band.result == "wounded" and fate == "killed":
        text += " (his second wound: killed)"
    return fate, [text]


def leader_morale_dps(t: Tables, leader: LeaderView) -> int:
    """Leg VI, morale DPs: 1 DP when a leader is killed or routed within 4" (2 for the
    General)."""
    trig = t.morale_dps.triggers["leader_lost"]
    if leader.rank == "general" and trig.dps_general is not None:
        return trig.dps_general
    return trig.dps
