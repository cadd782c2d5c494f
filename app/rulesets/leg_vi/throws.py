"""Leg VI Carthago: the dice that score (shooting, combat, free hacks) as throws read by how
many dice hit, and a round of combat's two throws read together as each side's result band.

A combat's outcome depends on the hits only through the result bands, so reading both sides'
dice as the pair of bands (:class:`CombatHits`) lets the odds branch over a handful of bands
rather than over every pair of hit counts. Its exact distribution is a convolution of the two
binomials in whole numbers (over the common denominator), which stays fast at any number of
dice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from app.rules.actions import Count, Throw, exact_of
from app.rules.dice import parse_dice
from app.rules.mechanics import Dice
from app.rulesets.leg_vi.tables_schema import Tables


def hits_on(spec: str, on: tuple[int, ...], purpose: str = "") -> Count:
    """The dice of ``spec`` read as how many show one of the faces ``on`` (5-6, or 6): a
    :class:`Count` needing the lowest of them, never scoring the faces above it that are not
    among them."""
    need = min(on)
    never = frozenset(f for f in parse_dice(spec).faces if f >= need and f not in on)
    return Count(spec, purpose, need=need, never=never)


def faces_shown(text: str) -> tuple[int, ...]:
    """The faces a :class:`Count` roll showed, back from its words ("6 2 5")."""
    return tuple(int(f) for f in text.split())


class Bands(NamedTuple):
    """A round of combat read as the result band of each side, and whether the attacker
    scored at least as many hits (who is settled first, Leg VI, After Combat Moves)."""

    attacker: str
    defender: str
    attacker_ahead: bool


#: the result bands as plain values: (band id, lowest difference, highest difference)
BandLimits = tuple[tuple[str, int | None, int | None], ...]


def band_limits(t: Tables) -> BandLimits:
    return tuple((bid, b.min_diff, b.max_diff) for bid, b in t.combat_results.bands.items())


def _weights(count: Count) -> tuple[dict[int, int], int]:
    """``count``'s exact distribution as whole-number weights over one denominator."""
    dist = exact_of(count)
    den = math.lcm(*(p.denominator for p in dist.values()))
    return {k: p.numerator * (den // p.denominator) for k, p in dist.items()}, den


_ONE_D6 = Count("d6")


@dataclass(frozen=True)
class CombatHits(Throw[Bands]):
    """Leg VI, Resolving combat and Results: the attacker's combat dice, then the
    defender's (two recorded rolls, in that order), each side's hits plus its automatic hits
    (``auto``: an attached leader's), and the hit difference read as each side's band.
    The text is the two rolls' faces, "attacker; defender"."""

    spec: str = ""
    attacker: Count = _ONE_D6
    defender: Count = _ONE_D6
    auto: tuple[int, int] = (0, 0)
    bands: BandLimits = ()

    def band(self, diff: int) -> str:
        for bid, low, high in self.bands:
            if (low is None or low <= diff) and (high is None or diff <= high):
                return bid
        raise LookupError(f"no result band holds {diff}")

    def difference(self, hits_a: int, hits_d: int) -> int:
        return hits_a + self.auto[0] - hits_d - self.auto[1]

    def reading(self, hits_a: int, hits_d: int) -> Bands:
        diff = self.difference(hits_a, hits_d)
        return Bands(self.band(diff), self.band(-diff), diff >= 0)

    def roll(self, dice: Dice) -> tuple[Bands, str]:
        hits_a, shown_a = self.attacker.roll(dice)
        hits_d, shown_d = self.defender.roll(dice)
        return self.reading(hits_a, hits_d), f"{shown_a}; {shown_d}"

    def exact(self) -> dict[Bands, Fraction]:
        wa, den_a = _weights(self.attacker)
        wd, den_d = _weights(self.defender)
        by_diff: dict[int, int] = {}
        for ha, pa in wa.items():
            for hd, pd in wd.items():
                diff = self.difference(ha, hd)
                by_diff[diff] = by_diff.get(diff, 0) + pa * pd
        out: dict[Bands, int] = {}
        for diff, w in by_diff.items():
            key = Bands(self.band(diff), self.band(-diff), diff >= 0)
            out[key] = out.get(key, 0) + w
        den = den_a * den_d
        return {k: Fraction(w, den) for k, w in out.items() if w}

    def hits(self, shown: str) -> tuple[int, int]:
        """Each side's hits (automatic hits included) from the words of a roll."""
        faces_a, faces_d = shown.split("; ")
        return (
            self.attacker.read(faces_shown(faces_a)) + self.auto[0],
            self.defender.read(faces_shown(faces_d)) + self.auto[1],
        )


def combat_hits(
    t: Tables,
    dice: tuple[int, int],
    on: tuple[tuple[int, ...], tuple[int, ...]],
    auto: tuple[int, int],
    names: tuple[str, str],
) -> CombatHits:
    die = t.combat_dice.die
    return CombatHits(
        attacker=hits_on(f"{dice[0]}{die}", on[0], f"combat dice for {names[0]}"),
        defender=hits_on(f"{dice[1]}{die}", on[1], f"combat dice for {names[1]}"),
        auto=auto,
        bands=band_limits(t),
    )
