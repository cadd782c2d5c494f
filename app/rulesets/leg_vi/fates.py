"""Leg VI Carthago rules as pure functions: an elephant's critical hits (Elephant critical
hits) and a leader's die of death (Risk to Leader).

Both are compound throws (a die rolled again on some faces), so each is a :class:`Throw` of its
own (:class:`ElephantCriticals`, :class:`DeathRoll`): ``roll`` makes the recorded rolls one by
one, as the rules do, and ``exact`` gives the closed form of what they come to, which the tests
hold equal to trying every face of every roll (``explore_roll``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

from app.rules.actions import Throw
from app.rules.dice import faces_dist
from app.rules.mechanics import Dice, Effects, LeaderView
from app.rulesets.leg_vi.tables_schema import DieOfDeath, ElephantCritical, Tables
from app.rulesets.leg_vi.units import RAMPAGE, STOP_ATTEMPTS, band_of, faces

# --------------------------------------------------------------------------- elephants

ElephantFate = Literal["unharmed", "rampage", "destroyed"]


def _chance(die: str, wanted: tuple[int, ...]) -> Fraction:
    return sum((p for v, p in faces_dist(faces(die)).items() if v in wanted), Fraction(0))


def critical_dist(
    ec: ElephantCritical, tests: int, automatic: int = 0
) -> dict[ElephantFate, Fraction]:
    """Leg VI, Elephant critical hits, in closed form. Each test is a critical hit with chance
    ``c`` and each critical destroys with chance ``d`` (else the elephant rampages), so each
    test destroys with chance ``c*d`` whatever came before, and each automatic critical with
    ``d``: the elephant survives with chance ``(1-c*d)**tests * (1-d)**automatic``; it is
    unharmed only with no critical at all, ``(1-c)**tests`` when there is no automatic one;
    it rampages otherwise."""
    p_crit = _chance(ec.die, ec.critical_on)
    outcome = faces_dist(faces(ec.outcome_die))
    p_destroy = sum(
        (p for v, p in outcome.items() if band_of(ec.outcomes, v).result == "destroyed"),
        Fraction(0),
    )
    alive = (1 - p_crit * p_destroy) ** tests * (1 - p_destroy) ** automatic
    unharmed = (1 - p_crit) ** tests if automatic == 0 else Fraction(0)
    out: dict[ElephantFate, Fraction] = {
        "unharmed": unharmed,
        "rampage": alive - unharmed,
        "destroyed": 1 - alive,
    }
    return {k: v for k, v in out.items() if v}


def elephant_fate_dist(t: Tables, tests: int, automatic: int = 0) -> dict[ElephantFate, Fraction]:
    """:func:`critical_dist` with the ruleset's table."""
    return critical_dist(t.elephant_critical, tests, automatic)


@dataclass(frozen=True)
class ElephantCriticals(Throw[ElephantFate]):
    """Leg VI, Elephant critical hits: a die (``spec``) for each DP a result would give the
    elephant (``tests``), 1-2 a critical hit; a combat casualty is an automatic critical hit
    (``automatic``). Each critical rolls the outcome die again: 1-2 destroyed, 3-6 rampage.
    No more dice are rolled once the elephant is destroyed. The text is one line per roll, in
    words; ``name`` names the elephant in them."""

    spec: str = "d6"
    table: ElephantCritical | None = None
    tests: int = 0
    automatic: int = 0
    name: str = field(default="", compare=False)

    @property
    def ec(self) -> ElephantCritical:
        if self.table is None:
            raise TypeError("ElephantCriticals needs the elephant critical table")
        return self.table

    def roll(self, dice: Dice) -> tuple[ElephantFate, str]:
        ec, name = self.ec, self.name
        fate: ElephantFate = "unharmed"
        words: list[str] = []

        def second_roll(why: str) -> ElephantFate:
            (roll,) = dice.roll(ec.outcome_die, f"critical hit result for {name}")
            band = band_of(ec.outcomes, roll)
            words.append(f"{why}; rolled again {roll}: {band.label}")
            return "destroyed" if band.result == "destroyed" else "rampage"

        for i in range(self.tests):
            if fate == "destroyed":
                break
            (roll,) = dice.roll(ec.die, f"critical hit test {i + 1} for {name}")
            if roll in ec.critical_on:
                fate = second_roll(f"critical hit test for {name}: {roll}, a critical hit")
            else:
                words.append(f"critical hit test for {name}: {roll}, no critical hit")
        for _ in range(self.automatic):
            if fate == "destroyed":
                break
            fate = second_roll(f"{name} takes an automatic critical hit for the casualty")
        return fate, "\n".join(words)

    def exact(self) -> dict[ElephantFate, Fraction]:
        return critical_dist(self.ec, self.tests, self.automatic)


def elephant_criticals(t: Tables, tests: int, automatic: int, name: str) -> ElephantCriticals:
    ec = t.elephant_critical
    return ElephantCriticals(ec.die, table=ec, tests=tests, automatic=automatic, name=name)


def elephant_effects(fate: ElephantFate) -> Effects:
    if fate == "destroyed":
        return Effects(eliminated=True)
    if fate == "rampage":
        return Effects(markers_add=frozenset({RAMPAGE}), extra={STOP_ATTEMPTS: 0})
    return Effects()


# --------------------------------------------------------------------------- die of death

LeaderFate = Literal["ok", "wounded", "killed"]


def _fate(dd: DieOfDeath, wounds: int, result: str) -> LeaderFate:
    if result == "killed":
        return "killed"
    if result == "wounded":
        return "killed" if wounds + 1 >= dd.wounds_to_kill else "wounded"
    return "ok"


def death_dist(dd: DieOfDeath, wounds: int) -> dict[LeaderFate, Fraction]:
    """Leg VI, Risk to Leader: a D6, and on a 1 roll again: 1 killed, 2-4 wounded (a second
    wound kills), 5-6 a flesh wound. Flesh wounds count as ``ok``."""
    d = faces_dist(faces(dd.die))
    p_danger = d.get(dd.danger_roll, Fraction(0))
    out: dict[LeaderFate, Fraction] = {"ok": 1 - p_danger}
    for v, p in d.items():
        fate = _fate(dd, wounds, band_of(dd.results, v).result)
        out[fate] = out.get(fate, Fraction(0)) + p_danger * p
    return {k: v for k, v in out.items() if v}


def leader_fate_dist(t: Tables, leader: LeaderView | None) -> dict[LeaderFate, Fraction]:
    """:func:`death_dist` for ``leader`` (no leader: nothing at risk)."""
    if leader is None:
        return {"ok": Fraction(1)}
    return death_dist(t.die_of_death, leader.wounds)


@dataclass(frozen=True)
class DeathRoll(Throw[LeaderFate]):
    """Leg VI, Risk to Leader: the die of death for a leader with ``wounds`` wounds already
    (``spec`` is the die); only on the danger roll is it rolled again. The text names the
    leader (``leader``) and why he is at risk (``why``)."""

    spec: str = "d6"
    table: DieOfDeath | None = None
    wounds: int = 0
    leader: str = field(default="", compare=False)
    why: str = field(default="", compare=False)

    @property
    def dd(self) -> DieOfDeath:
        if self.table is None:
            raise TypeError("DeathRoll needs the die of death table")
        return self.table

    def roll(self, dice: Dice) -> tuple[LeaderFate, str]:
        dd, name, why = self.dd, self.leader, self.why
        (first,) = dice.roll(dd.die, f"die of death for {name}")
        if first != dd.danger_roll:
            return "ok", f"die of death for {name} ({why}): {first}, unharmed"
        (second,) = dice.roll(dd.die, f"die of death for {name}, second roll")
        band = band_of(dd.results, second)
        fate = _fate(dd, self.wounds, band.result)
        text = f"die of death for {name} ({why}): {first}, then {second} = {band.label}"
        if band.result == "wounded" and fate == "killed":
            text += " (his second wound: killed)"
        return fate, text

    def exact(self) -> dict[LeaderFate, Fraction]:
        return death_dist(self.dd, self.wounds)


def death_roll(t: Tables, leader: LeaderView, why: str) -> DeathRoll:
    dd = t.die_of_death
    return DeathRoll(dd.die, table=dd, wounds=leader.wounds, leader=leader.name, why=why)


def leader_morale_dps(t: Tables, leader: LeaderView) -> int:
    """Leg VI, morale DPs: 1 DP when a leader is killed or routed within 4" (2 for the
    General)."""
    trig = t.morale_dps.triggers["leader_lost"]
    if leader.rank == "general" and trig.dps_general is not None:
        return trig.dps_general
    return trig.dps
