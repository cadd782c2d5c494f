"""Grown Slightly Bald: its compound throws, each rolled and counted from one class.

A melee or a volley throws, one after another: the attacker's dice (elephant terror rolls
some of them again), what the hits cost the target (a morale roll for each base lost, then the
general's death test) and, when an elephant is hurt, the rampage dice of each unit near it.
Each is a :class:`~app.rules.actions.Throw` whose :meth:`roll` makes the recorded rolls in the
rules' order and whose :meth:`exact` is the distribution of what it reads; the tests compare
the two by trying every face (:func:`~app.rules.actions.explore_roll`).

Every number comes from the tables (:class:`~app.rulesets.gsb.rules.LossRules`, the strike).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import TypeVar

from app.rules.actions import Count, Throw, exact_of
from app.rules.dice import Dist, parse_dice
from app.rules.mechanics import Dice
from app.rulesets.gsb.rules import NO_DAMAGE, Body, Damage, LossRules, dice_text, single_die

V = TypeVar("V", bound=Hashable)

# --------------------------------------------------------------------------- the strike


def mixture(parts: Iterable[tuple[Fraction, Mapping[V, Fraction]]]) -> dict[V, Fraction]:
    """Each distribution weighted by its chance, added up: in whole numbers over one
    denominator, then back to exact fractions (much faster than adding fractions)."""
    parts = list(parts)
    den_p = math.lcm(*(p.denominator for p, _ in parts))
    den_d = math.lcm(*(q.denominator for _, d in parts for q in d.values()))
    weights: dict[V, int] = {}
    for p, dist in parts:
        n = p.numerator * (den_p // p.denominator)
        for v, q in dist.items():
            weights[v] = weights.get(v, 0) + n * q.numerator * (den_d // q.denominator)
    den = den_p * den_d
    return {v: Fraction(w, den) for v, w in weights.items() if w}


def terror_hits(n: int, hit: int, miss: int, terror: int, cap: int) -> Dist:
    """Hits from ``n`` dice whose faces are ``hit`` plain hits, ``miss`` misses and
    ``terror`` faces that score and are rolled again (counts of faces), every total of ``cap``
    or more counted as ``cap`` (the target's remaining hit points: more change nothing).

    A die shows some terror faces, then stops on a hit or a miss. Over ``n`` dice the terror
    faces ``t`` before the ``n`` stops are negative binomial, and the hits among the stops
    ``b`` binomial, independently; so with ``s`` faces, P(k hits) is the sum over ``b`` of
    C(n, b) hit^b miss^(n-b) C(n+t-1, t) terror^t / s^(n+t), t = k - b. Summed in whole
    numbers over s^(n+k); the totals of ``cap`` or more take the rest, so the sum is exactly
    1."""
    sides = hit + miss + terror
    if n <= 0 or cap <= 0:
        return {0: Fraction(1)}
    if terror >= sides:
        raise ValueError("a die that always rerolls never stops")
    out: Dist = {}
    for k in range(cap):
        num = 0
        for b in range(min(n, k) + 1):
            t = k - b
            num += (
                math.comb(n, b)
                * hit**b
                * miss ** (n - b)
                * math.comb(n + t - 1, t)
                * terror**t
                * sides**b
            )
        if num:
            out[k] = Fraction(num, sides ** (n + k))
    rest = 1 - sum(out.values(), Fraction(0))
    if rest:
        out[cap] = rest
    return out


@dataclass(frozen=True, kw_only=True)
class StrikeHits(Throw[int]):
    """GSB, Melee and Shooting: the hits of ``spec`` dice (``"4d6"``), counted up to ``cap``.

    A die scores when its face plus ``bonus`` reaches ``need``. An elephant's ``terror`` face
    scores whatever ``need`` is and, with ``reroll``, is rolled again (as a new recorded
    roll of that many dice), as often as it comes up (errata elephant-terror). Unbounded, so
    every total of ``cap`` (the target's remaining hit points) or more is read as ``cap``."""

    need: int = 0
    bonus: int = 0
    terror: int | None = None
    reroll: bool = False
    cap: int = 0

    def kinds(self) -> tuple[int, int, int]:
        """How many faces of one die are (plain hits, misses, faces rolled again)."""
        faces = self.dice.faces
        again = 0
        if self.terror is not None and self.reroll:
            again = sum(1 for f in faces if f == self.terror)
        hits = sum(1 for f in faces if self.scores(f)) - again
        return hits, len(faces) - hits - again, again

    def scores(self, face: int) -> bool:
        return face == self.terror or face + self.bonus >= self.need

    def chances(self) -> tuple[Fraction, Fraction]:
        """(chance a die scores and stops, chance it shows the terror face and is rolled
        again)."""
        hit, miss, again = self.kinds()
        sides = hit + miss + again
        return Fraction(hit, sides), Fraction(again, sides)

    def roll(self, dice: Dice) -> tuple[int, str]:
        """The dice, then a re-roll of as many dice as showed the terror face, and again.
        The words give the faces of each roll and the hits (and how many count)."""
        faces = dice.roll(self.spec, self.purpose)
        shown = [" ".join(map(str, faces))]
        hits = 0
        while True:
            again = 0
            for f in faces:
                if self.scores(f):
                    hits += 1
                    again += 1 if f == self.terror and self.reroll else 0
            if not again:
                break
            die = dice_text(single_die(self.spec), again)
            faces = dice.roll(die, f"elephant terror: {self.terror}s roll again")
            shown.append("terror re-roll " + " ".join(map(str, faces)))
        taken = min(hits, self.cap)
        words = f"{'; '.join(shown)}: {hits} hit(s)" + (f", {taken} count" if taken != hits else "")
        return taken, words

    def exact(self) -> Dist:
        hit, miss, again = self.kinds()
        return terror_hits(self.dice.count, hit, miss, again, self.cap)


# --------------------------------------------------------------------------- hit points


@lru_cache(maxsize=1024)
def morale_after_loss(r: LossRules, bases: int, fighting: bool) -> tuple[tuple[int, Fraction], ...]:
    """Bases left after the morale roll(s) for one base lost, from ``bases`` left."""
    done: Dist = {}
    pending: dict[tuple[int, int], Fraction] = {(bases, 1): Fraction(1)}
    while pending:
        (left, rolls), p = pending.popitem()
        if left == 0 or rolls == 0:
            done[left] = done.get(left, Fraction(0)) + p
            continue
        lose = r.morale_chance(left, fighting)
        more = 1 if r.chain else 0
        for key, q in (((left - 1, rolls - 1 + more), lose), ((left, rolls - 1), 1 - lose)):
            if q:
                pending[key] = pending.get(key, Fraction(0)) + p * q
    return tuple(done.items())


@lru_cache(maxsize=1024)
def bases_left(
    r: LossRules, bases: int, losses: int, fighting: bool
) -> tuple[tuple[int, Fraction], ...]:
    """Bases left (0: destroyed) when ``losses`` bases of a unit of ``bases`` go to hits,
    each followed by its morale roll(s) while any base stands."""
    if losses <= 0:
        return ((bases, Fraction(1)),)
    out: Dist = {}
    for left, p in bases_left(r, bases, losses - 1, fighting):
        if left <= 1:
            out[0] = out.get(0, Fraction(0)) + p
            continue
        for after, q in morale_after_loss(r, left - 1, fighting):
            out[after] = out.get(after, Fraction(0)) + p * q
    return tuple(out.items())


@dataclass(frozen=True, kw_only=True)
class DeathTest(Throw[bool]):
    """GSB, Generals: ``spec`` (2d6); the general dies when the dice show ``dies_on`` (a
    double six), in any order."""

    dies_on: tuple[int, ...]

    def read(self, faces: tuple[int, ...]) -> bool:
        return sorted(faces) == sorted(self.dies_on)


@lru_cache(maxsize=1024)
def fates(
    r: LossRules, bases: int, losses: int, fighting: bool, tested: bool
) -> tuple[tuple[int, bool, Fraction], ...]:
    """(bases left, general killed by his test, chance) when ``losses`` bases of a unit of
    ``bases`` go to hits: :func:`bases_left`, then, if his unit stands and he is ``tested``,
    the general's death test. The same for every number of hits that costs as many bases."""
    death = DeathTest(r.death_test, dies_on=r.dies_on)
    dies = exact_of(death).get(True, Fraction(0)) if tested else Fraction(0)
    out: list[tuple[int, bool, Fraction]] = []
    for left, p in bases_left(r, bases, losses, fighting):
        if left and dies:
            out.append((left, True, p * dies))
            if dies != 1:
                out.append((left, False, p * (1 - dies)))
        else:
            out.append((left, False, p))
    return tuple(out)


@dataclass(frozen=True, kw_only=True)
class Wounds(Throw[Damage]):
    """GSB, Hit points and Generals: what ``taken`` hits (at most the unit's remaining hit
    points) cost ``body``. Each base lost to the hits calls for a morale roll of ``spec``
    (the morale die; 5-6 removes another base, 4-6 for the last base or ``fighting``
    elephants; a base lost on morale calls for no roll unless the data says it chains). Then,
    if the unit stands, its ``general`` is with it and these hits call for his ``test``, the
    death test. A destroyed unit takes its general with it. ``who`` names the unit in the
    words."""

    rules: LossRules
    body: Body
    taken: int
    fighting: bool
    general: bool
    test: bool
    who: str = field(default="", compare=False)

    def _death(self) -> DeathTest:
        r = self.rules
        return DeathTest(
            r.death_test, f"death test for the general with {self.who}", dies_on=r.dies_on
        )

    def _destroyed(self) -> Damage:
        b = self.body
        return Damage(self.taken, b.bases, 0, True, self.general and self.rules.killed_with_unit)

    def _stands(self, left: int, killed: bool = False) -> Damage:
        losses = self.body.losses(self.taken)
        return Damage(self.taken, losses, self.body.bases - losses - left, False, killed)

    def roll(self, dice: Dice) -> tuple[Damage, str]:
        """The morale rolls, one for each base lost to hits while any stands, then the
        death test. The words are one line per roll, joined by newlines."""
        if self.taken <= 0:
            return NO_DAMAGE, ""
        r, name = self.rules, self.who
        left = self.body.bases
        log: list[str] = []
        for _ in range(self.body.losses(self.taken)):
            left -= 1
            rolls = 1
            while rolls and left > 0:
                rolls -= 1
                need = r.morale_need(left, self.fighting)
                face = dice.roll(r.morale_die, self.purpose)[0]
                lost = face >= need
                if lost:
                    left -= 1
                    rolls += 1 if r.chain else 0
                fate = "another base goes" if lost else "holds"
                log.append(f"{name} rolls {face} for morale ({need}+ loses a base): {fate}")
            if left == 0:
                break
        if left == 0:
            damage = self._destroyed()
            with_him = ", and its general with it" if damage.general_killed else ""
            log.append(f"{name} is destroyed{with_him}")
            return damage, "\n".join(log)
        damage = self._stands(left)
        if self.general and self.test:
            killed, shown = self._death().roll(dice)
            fate = "killed" if killed else "survives"
            log.append(f"the general with {name} tests for death: {shown}: {fate}")
            if killed:
                damage = replace(damage, general_killed=True)
        return damage, "\n".join(log)

    def exact(self) -> dict[Damage, Fraction]:
        if self.taken <= 0:
            return {NO_DAMAGE: Fraction(1)}
        tested = self.general and self.test
        out: dict[Damage, Fraction] = {}
        for left, killed, p in fates(
            self.rules, self.body.bases, self.body.losses(self.taken), self.fighting, tested
        ):
            if left == 0:
                out[self._destroyed()] = p
            else:
                out[self._stands(left, killed)] = p
        return out


@dataclass(frozen=True, kw_only=True)
class Rampage(Throw[Damage]):
    """GSB, Elephant rampage: a unit within the radius of an elephant that took
    ``elephant_hits`` rolls one ``spec`` die (the rampage die) for each; each at or above the
    rules' score is a hit on it (at most its remaining hit points), and those hits cost it
    as usual (:class:`Wounds`)."""

    rules: LossRules
    body: Body
    elephant_hits: int
    fighting: bool
    general: bool
    test: bool
    who: str = field(default="", compare=False)

    def _dice(self) -> Count:
        r = self.rules
        return Count(
            dice_text(r.rampage_die, self.elephant_hits),
            f"elephant rampage on {self.who}",
            need=r.rampage_hit_on,
            cap=self.body.remaining,
        )

    def _wounds(self, hits: int) -> Wounds:
        return Wounds(
            self.rules.morale_die,
            f"morale for {self.who} (a base lost)",
            rules=self.rules,
            body=self.body,
            taken=hits,
            fighting=self.fighting,
            general=self.general,
            test=self.test,
            who=self.who,
        )

    def roll(self, dice: Dice) -> tuple[Damage, str]:
        hits, shown = self._dice().roll(dice)
        line = f"rampage on {self.who}: {shown} ({self.rules.rampage_hit_on}s hit): {hits} hit(s)"
        damage, more = self._wounds(hits).roll(dice)
        return damage, "\n".join((line, more)) if more else line

    def exact(self) -> dict[Damage, Fraction]:
        return mixture(
            (p, exact_of(self._wounds(hits))) for hits, p in exact_of(self._dice()).items()
        )


def rampage_table(
    rules: LossRules, body: Body, most: int, fighting: bool, general: bool, test: bool
) -> tuple[int, list[dict[Damage, int]]]:
    """:class:`Rampage` on ``body`` after every number of elephant hits 0..``most`` at once,
    as whole-number weights over one shared denominator (the first value): entry ``k`` is
    ``Rampage(elephant_hits=k).exact()`` times that denominator (tested). The wounds of each
    number of rampage hits are counted once for every ``k``; no fraction is added up (Issue
    14: a 16-base elephant fight answers in milliseconds)."""
    die = parse_dice(single_die(rules.rampage_die))
    sides = die.sides
    hit = sum(1 for f in die.faces if f >= rules.rampage_hit_on)
    miss = sides - hit
    cap = body.remaining
    wounds = [
        exact_of(
            Wounds(
                rules.morale_die,
                rules=rules,
                body=body,
                taken=j,
                fighting=fighting,
                general=general,
                test=test,
            )
        )
        for j in range(min(most, cap) + 1)
    ]
    den_w = math.lcm(*(p.denominator for w in wounds for p in w.values()))
    whole = [{d: p.numerator * (den_w // p.denominator) for d, p in w.items()} for w in wounds]
    table: list[dict[Damage, int]] = []
    for k in range(most + 1):
        scale = sides ** (most - k)
        out: dict[Damage, int] = {}
        rest = sides**k
        for j in range(min(k, cap) + 1):
            if j < cap:
                n = math.comb(k, j) * hit**j * miss ** (k - j)
                rest -= n
            else:  # every count of ``cap`` or more
                n = rest
            if not n:
                continue
            for d, w in whole[j].items():
                out[d] = out.get(d, 0) + n * w * scale
        table.append(out)
    return den_w * sides**most, table
