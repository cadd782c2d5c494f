"""Grown Slightly Bald's deployment: "Players deploy their armies secretly, up to 1 foot in
from their respective board edges. When armies are revealed, Carthaginian player may have two
units swap places if desired." The numbers are ``tables.deployment``; the swap is an action
open while deploying is (errata carthage-swap), so it is a battle step like any other, undone
and replayed with the rest.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from app.rules.actions import Throws
from app.rules.geometry import Footprint, aspect, bearing
from app.rules.measure import MM_PER, from_mm
from app.rules.mechanics import (
    Effects,
    Outcome,
    Resolution,
    Scalar,
    Side,
    SideUpdate,
    Situation,
    TurnView,
)
from app.rulesets.gsb.movement import GSBMovement

DEPLOY_RULE = "GSB, Deployment"
#: the side record that says the swap has been made
SWAPPED = "swapped"


class GSBDeploymentNeeds(Protocol):
    """What :class:`GSBDeployment` uses of the turn (:class:`~app.rulesets.gsb.turn.GSBTurn`,
    which its base :class:`~app.rulesets.gsb.movement.GSBMovement` brings)."""

    def _side_named(self, view: TurnView, key: str) -> Side | None: ...


class GSBDeployment(GSBMovement, GSBDeploymentNeeds):
    """GSB, Deployment: the zones 1 foot deep, and Carthage's swap of two units."""

    deployment_rule = DEPLOY_RULE

    def deployment_depth(self, view: TurnView) -> float:
        """GSB, Deployment: up to 1 foot from a side's own edge, in unit widths (3.81 UW
        with the 8 cm unit width)."""
        return from_mm(self.ruleset, self.t.deployment.depth_feet * float(MM_PER["ft"]))

    def melee_terrain(self, view: TurnView, a_id: str, b_id: str) -> str | None:
        """The melee cap the table gives a fight between the two units: the first of them
        standing in hills or woods (or what errata terrain-kinds reads as such)."""
        for uid in (a_id, b_id):
            cap = self.melee_cap_at(view, view.unit(uid))
            if cap is not None:
                return cap
        return None

    def derive_options(self, action: str, sit: Situation) -> dict[str, Scalar]:
        """For a melee between two units on the table: which side of the target is attacked
        (the side of it the attacker's centre is off: "units attacking flank or rear add 1
        die"), and the terrain cap: "Units in hills or woods or meleeing into hills or woods
        use 2 dice maximum"."""
        out = super().derive_options(action, sit)
        a, d = sit.actor, sit.target
        if action != "melee" or sit.view is None or a is None or d is None:
            return out
        if not (a.footprint.has_size and d.footprint.has_size):
            return out
        out["attack"] = aspect(d.footprint, a.x, a.y)
        cap = self.melee_terrain(sit.view, a.unit_id, d.unit_id)
        if cap is not None:
            out["terrain"] = cap
        return out

    # -- the swap -------------------------------------------------------------------------

    def swap_side(self, view: TurnView) -> Side | None:
        """The side allowed the swap (``tables.deployment.swap_army``: Carthage), found by
        army id, army name or side name; None when neither or both sides match."""
        return self._side_named(view, self.t.deployment.swap_army)

    def prepare_swap(self, sit: Situation) -> tuple[Footprint, Footprint]:
        """GSB, Deployment: the two units' new poses (each at the other's centre, keeping
        its facing). Refused outside deployment, for the side without the swap, once it is
        made, for units of two sides or off the table, and where a unit could not stand."""
        view = sit.view
        a, b = sit.attacker, sit.defender
        d = self.t.deployment
        if view is None:
            raise ValueError(f"{DEPLOY_RULE}: the swap is made on the table of a battle")
        if a.unit_id == b.unit_id:
            raise ValueError(f"{DEPLOY_RULE}: name two different units to swap")
        side = self.swap_side(view)
        if d.swap_units < 2 or side is None or a.side != side:
            who = (
                self.ruleset.armies[d.swap_army].name
                if d.swap_army in self.ruleset.armies
                else d.swap_army
            )
            raise ValueError(f"{DEPLOY_RULE}: only {who} may swap two of its units")
        if b.side != a.side:
            raise ValueError(f"{DEPLOY_RULE}: {b.name} ({b.unit_id}) is not of {a.name}'s side")
        if view.sides[side].get(SWAPPED):
            raise ValueError(
                f"{DEPLOY_RULE}: {view.side_names[side]} has already swapped two units"
            )
        for u in (a, b):
            closed = self.may_deploy(view, u.unit_id)
            if closed is not None:
                raise ValueError(
                    f"{DEPLOY_RULE}: the swap is made as the armies are revealed; {closed}"
                )
            if not u.footprint.has_size:
                raise ValueError(f"{DEPLOY_RULE}: {u.name} ({u.unit_id}) is not on the table")
        pa = replace(a.footprint, x=b.x, y=b.y)
        pb = replace(b.footprint, x=a.x, y=a.y)
        swapped = replace(
            view,
            units=tuple(
                replace(u, x=pa.x, y=pa.y)
                if u.unit_id == a.unit_id
                else replace(u, x=pb.x, y=pb.y)
                if u.unit_id == b.unit_id
                else u
                for u in view.units
            ),
        )
        for uid, pose in ((a.unit_id, pa), (b.unit_id, pb)):
            problems = self.check_deploy(swapped, uid, pose)
            if problems:
                raise ValueError(f"{DEPLOY_RULE}: after the swap {problems[0]}")
        return pa, pb

    def play_swap(
        self, sit: Situation, plan: tuple[Footprint, Footprint], th: Throws
    ) -> Resolution:
        """GSB, Deployment: the two units change places (their leaders with them) and the
        side's swap is spent."""
        a, b = sit.attacker, sit.defender
        pa, pb = plan

        def shift(frm: Footprint, to: Footprint) -> Effects:
            gap = ((to.x - frm.x) ** 2 + (to.y - frm.y) ** 2) ** 0.5
            if gap == 0:
                return Effects()
            return Effects(shift=(bearing(frm.x, frm.y, to.x, to.y), gap))

        sides: list[SideUpdate] = [None, None]
        sides[a.side] = {SWAPPED: True}
        return Resolution(
            outcome=Outcome(
                attacker=shift(a.footprint, pa), defender=shift(b.footprint, pb), result="swapped"
            ),
            sides=(sides[0], sides[1]),
            explanation=(
                f"{a.name} ({a.unit_id}) and {b.name} ({b.unit_id}) swap places ({DEPLOY_RULE}).",
            ),
        )
