"""``castra campaign ...``: linked battles carrying leaders' fates and losses. Every step is
saved in the store as it is done (one transaction holding the write lock); CAMPAIGN is an id
or a name, BATTLE a campaign battle's id (b1), name or number, SIDE a side's id or name.

A battle fought with ``castra battle`` hands its result over with ``campaign record C B
--fought BATTLE_ID``; ``campaign fight`` makes that battle from the campaign armies."""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from app.cli.campaign_files import cmd_chronicle, cmd_export, cmd_import
from app.cli.common import MAX_ID, CliError, number, print_json, registry, store, table
from app.core.battle.result import FATES, ResultError, hand_result
from app.core.campaign.model import RECOVERIES, Campaign, CampaignError, Participant
from app.core.campaign.session import CampaignSession
from app.core.campaign.steps import (
    AddBattle,
    ApplyResult,
    Promote,
    RecordResult,
    Reinforce,
    ReturnLeader,
    Step,
)
from app.core.roster import RosterValueError, unit_from_entry
from app.rules.mechanics import Side

if TYPE_CHECKING:
    from app.core.campaign.template import Shipped
    from app.rules.ruleset import Ruleset

CAMPAIGN_HELP = "campaign id or name"

#: the templates built on the historical battles' fields, in every ruleset
#: (:data:`app.core.scenario.campaigns.TEMPLATES`), as ``--template``'s help names them
HISTORY_TEMPLATES = "Scipio in Spain, Scipio in Africa, the Metaurus"


def _shipped() -> list[Shipped]:
    """The templates the rulesets ship (:func:`app.core.campaign.template.shipped`)."""
    from app.core.campaign.template import shipped

    return shipped(registry())


def _history_ids() -> tuple[str, ...]:
    from app.core.scenario.campaigns import TEMPLATES

    return tuple(t.id for t in TEMPLATES)


class _TemplateChoices(Sequence[str]):
    """``--template``'s choices: the templates the rulesets ship, then those built on the
    historical battles. Read when asked (a usage line, a choice to check), so that the
    command line's start loads no ruleset; a historical-battles template loads none."""

    def _ids(self) -> tuple[str, ...]:
        return (*(s.id for s in _shipped()), *_history_ids())

    def __contains__(self, value: object) -> bool:
        return value in _history_ids() or value in self._ids()

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids())

    def __len__(self) -> int:
        return len(self._ids())

    def __getitem__(self, i: Any) -> Any:
        return self._ids()[i]


def _default_ruleset() -> Ruleset | None:
    """The ruleset a campaign from a template is made in without ``--ruleset``: the one
    that ships the first template (the template's own armies), or None."""
    found = next(iter(_shipped()), None)
    return None if found is None else found.ruleset


class _TemplateHelp(argparse.HelpFormatter):
    """``campaign new``'s help, naming the shipped templates with their rulesets and the
    default ruleset, read from the registry only when the help is shown."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help
        if text and "{shipped}" in text:
            named = ", ".join(
                f"{t.template.name} ({t.ruleset.meta.short_name})" for t in _shipped()
            )
            text = text.replace("{shipped}", named)
        if text and "{default}" in text:
            rs = _default_ruleset()
            text = text.replace("{default}", "none" if rs is None else rs.id)
        return text


def register(sub: Any) -> None:
    c = sub.add_parser("campaign", help="campaigns: linked battles, leaders' fates, losses")
    cs = c.add_subparsers(dest="campaign_command", metavar="ACTION", required=True)

    p = cs.add_parser(
        "new",
        help="a campaign from rosters (--side NAME=ROSTER) or a template",
        formatter_class=_TemplateHelp,
    )
    p.add_argument("name")
    p.add_argument("--side", action="append", default=[], metavar="NAME=ROSTER")
    template = p.add_argument(
        "--template",
        help=f"a historical campaign: {{shipped}}, {HISTORY_TEMPLATES} "
        "(every ruleset; on the historical battles' fields)",
    )
    # set after add_argument, which lists the choices to check the argument's metavar: read
    # there, every ``castra campaign`` command loaded every ruleset
    template.choices = _TemplateChoices()
    p.add_argument("--ruleset", help="with --template (default {default})")
    p.add_argument("--recovery", choices=RECOVERIES, default="ruleset")
    p.set_defaults(func=cmd_new)

    p = cs.add_parser("list", help="campaigns in the store")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_list)

    p = cs.add_parser("show", help="battles, armies, leaders and lost units")
    p.add_argument("campaign", help=CAMPAIGN_HELP)
    p.add_argument("--step", type=number("--step", 0, 1_000_000), help="as it was after step N")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_show)

    p = cs.add_parser("add-battle", help="a battle between two sides (whole armies or detachments)")
    p.add_argument("campaign", help=CAMPAIGN_HELP)
    p.add_argument("name")
    p.add_argument("side_a", metavar="SIDE_A")
    p.add_argument("side_b", metavar="SIDE_B")
    p.add_argument("--date", default="")
    p.add_argument("--place", default="")
    p.add_argument(
        "--scenario",
        metavar="NAME",
        help="fight it on a historical battle's field in its battle order (castra scenario list)",
    )
    p.add_argument(
        "--detachment",
        action="append",
        default=[],
        metavar="SIDE=UNIT,UNIT",
        help="only these units of the side (ids or names); its leaders: those with them",
    )
    p.add_argument(
        "--leaders", action="append", default=[], metavar="SIDE=LEADER,LEADER", help="who goes"
    )
    p.add_argument("--before", metavar="BATTLE", help="put it before this battle (not applied)")
    p.set_defaults(func=cmd_add_battle)

    p = cs.add_parser("fight", help="make the battle (castra battle) from the campaign armies")
    p.add_argument("campaign", help=CAMPAIGN_HELP)
    p.add_argument("battle", nargs="?", help="default: the next battle")
    p.add_argument("--seed", type=number("--seed", 0, MAX_ID))
    p.set_defaults(func=cmd_fight)

    p = cs.add_parser("record", help="a battle's result: from a fought battle, or by hand")
    p.add_argument("campaign", help=CAMPAIGN_HELP)
    p.add_argument("battle")
    p.add_argument("--fought", type=number("--fought", 1, MAX_ID), help="a castra battle id")
    p.add_argument("--winner", help="SIDE or draw")
    p.add_argument("--reason", default="recorded by hand")
    p.add_argument("--unit", action="append", default=[], metavar="UNIT[#N]=END")
    p.add_argument("--lost", action="append", default=[], metavar="UNIT[#N]=REASON")
    p.add_argument("--leader", action="append", default=[], metavar="LEADER=FATE[:WOUNDS]")
    p.add_argument("--note", action="append", default=[])
    p.set_defaults(func=cmd_record)

    p = cs.add_parser("apply", help="carry a recorded result into the armies (shows the diff)")
    p.add_argument("campaign", help=CAMPAIGN_HELP)
    p.add_argument("battle")
    p.add_argument("--preview", action="store_true", help="show the diff, change nothing")
    p.set_defaults(func=cmd_apply)

    for name in ("undo", "redo"):
        p = cs.add_parser(name, help=f"{name} the last campaign step")
        p.add_argument("campaign", help=CAMPAIGN_HELP)
        p.set_defaults(func=cmd_undo if name == "undo" else cmd_redo)

    p = cs.add_parser("reinforce", help="new units join a side between battles")
    p.add_argument("campaign", help=CAMPAIGN_HELP)
    p.add_argument("side")
    p.add_argument("entry")
    p.add_argument("--count", type=number("--count", 1, 1000), default=1)
    p.add_argument("--size", type=number("--size", 1, 100_000))
    p.add_argument("--name")
    p.set_defaults(func=cmd_reinforce)

    p = cs.add_parser("promote", help="a commander takes a dead or captured leader's place")
    p.add_argument("campaign", help=CAMPAIGN_HELP)
    p.add_argument("side")
    p.add_argument("leader")
    p.add_argument("--replaces")
    p.set_defaults(func=cmd_promote)

    p = cs.add_parser("return", help="a captured leader comes back: ransomed or exchanged")
    p.add_argument("campaign", help=CAMPAIGN_HELP)
    p.add_argument("side")
    p.add_argument("leader")
    p.add_argument("--ransom", metavar="TERMS", help="what was paid")
    p.add_argument("--exchange", metavar="SIDE:LEADER", help="the enemy leader given back")
    p.set_defaults(func=cmd_return)

    p = cs.add_parser(
        "assign", help="on a club server: a member plays a side (the umpire gives sides)"
    )
    p.add_argument("campaign", help=CAMPAIGN_HELP)
    p.add_argument("side", help="the side's id or name")
    p.add_argument("member", help="the member's login name")
    p.set_defaults(func=cmd_assign)

    p = cs.add_parser("chronicle", help="timeline, strength and leaders (or --pdf FILE)")
    p.add_argument("campaign", help=CAMPAIGN_HELP)
    p.add_argument("--pdf", metavar="FILE")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_chronicle)

    p = cs.add_parser("export", help="the campaign to one file (armies, battles, steps)")
    p.add_argument("campaign", help=CAMPAIGN_HELP)
    p.add_argument("file")
    p.set_defaults(func=cmd_export)

    p = cs.add_parser("import", help="a campaign file, all or nothing")
    p.add_argument("file")
    p.set_defaults(func=cmd_import)
    for action in cs.choices.values():
        action.set_defaults(func=_guarded(action.get_default("func")))


# --------------------------------------------------------------------------- helpers


def _guarded(func: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """A campaign step or look-up refused anywhere in a command (an unknown battle, side or
    leader; a step that cannot be done) is one line and exit 1, never a traceback."""

    def run(args: argparse.Namespace) -> int:
        try:
            return func(args)
        except (CampaignError, ResultError, RosterValueError) as exc:
            raise CliError(str(exc)) from None

    return run


def _find(text: str) -> int:
    from app.usecases.campaign import find_campaign

    try:
        return find_campaign(store(), key=text)
    except LookupError as exc:
        raise CliError(str(exc.args[0])) from None


def _load(text: str) -> CampaignSession:
    from app.usecases.campaign import load_campaign

    return load_campaign(store(), campaign_id=_find(text), registry=registry())


@contextmanager
def _updating(text: str) -> Iterator[CampaignSession]:
    from app.usecases.campaign import updating_campaign

    cid = _find(text)
    try:
        with updating_campaign(store(), campaign_id=cid, registry=registry()) as session:
            yield session
    except (CampaignError, ResultError, RosterValueError) as exc:
        raise CliError(str(exc)) from None


def _do(text: str, step: Step | None = None, **kw: Any) -> int:
    with _updating(text) as session:
        s = step if step is not None else kw["make"](session)
        before = session.campaign
        session.do(s)
        _changes(session, before)
    print(f"{s.label}: done")
    return 0


def _changes(session: CampaignSession, before: Campaign) -> None:
    """What the step, undo or redo changed in the armies, a line each."""
    from app.core.campaign.diff import diff

    for line in diff(session.ruleset, before, session.campaign):
        print(line)


def _key(text: str) -> tuple[str, int]:
    name, _, n = text.partition("#")
    if n and (not n.isdigit() or len(n) > 4 or int(n) < 1):
        raise CliError(f"{text}: the unit number after # is a whole number from 1")
    return name, (int(n) - 1 if n else 0)


def _unit_id(session: CampaignSession, battle: str, text: str) -> tuple[Side, str, int]:
    name, i = _key(text)
    b = session.campaign.battle(battle)
    from app.core.campaign.fight import battle_rosters

    for side, roster in enumerate(battle_rosters(session.campaign, b.id)):
        for u in roster.units:
            if name in (u.id, u.name):
                if i >= u.count:
                    raise CliError(f"{text}: {u.name} has {u.count} unit(s), numbered from 1")
                return (0 if side == 0 else 1), u.id, i
    raise CliError(f"no unit {name!r} in {b.name}")


# --------------------------------------------------------------------------- commands


def cmd_new(args: argparse.Namespace) -> int:
    from app.cli.common import resolve_roster
    from app.core.roster import roster_name_problem
    from app.usecases.campaign import create_campaign

    problem = roster_name_problem(args.name)
    if problem:
        raise CliError(problem.replace("roster", "campaign"))
    if args.template:
        from app.core.campaign.template import find_shipped, from_template

        if args.ruleset is None:
            rs = _default_ruleset()
            if rs is None:
                raise CliError("no ruleset ships a campaign template: give --ruleset")
        else:
            try:
                rs = registry().get(args.ruleset)
            except KeyError as exc:
                raise CliError(str(exc.args[0])) from None
        try:
            # the ruleset's own copy of the template, else the one a ruleset ships (made in
            # this ruleset if its ready armies are the template's, else refused)
            template = rs.templates.get(args.template)
            if template is None:
                found = find_shipped(registry(), args.template)
                template = None if found is None else found.template
            if template is not None:
                session = from_template(
                    rs, args.template, template, name=args.name, recovery=args.recovery
                )
            else:
                from app.core.scenario.campaigns import (
                    find_template,
                    library_finder,
                    template_campaign,
                )
                from app.paths import user_scenarios_dir

                history = find_template(args.template)
                assert history is not None  # the parser's choices
                find = library_finder(rs, user_scenarios_dir())
                session = template_campaign(
                    history, rs, find, name=args.name, recovery=args.recovery
                )
        except CampaignError as exc:
            raise CliError(str(exc)) from None
    else:
        from app.core.campaign.start import campaign_from_rosters

        if len(args.side) < 2:
            raise CliError("a campaign needs two or more sides: --side NAME=ROSTER, twice")
        sides = []
        for text in args.side:
            name, eq, roster_key = text.partition("=")
            if not eq or not name.strip():
                raise CliError(f"--side {text}: give NAME=ROSTER")
            sides.append((name, resolve_roster(roster_key)))
        rulesets = {roster.ruleset for _, roster in sides}
        if len(rulesets) != 1:
            raise CliError(f"the rosters are for different rulesets: {', '.join(sorted(rulesets))}")
        rs = registry().get(rulesets.pop())
        try:
            session = campaign_from_rosters(rs, args.name, sides, recovery=args.recovery)
        except CampaignError as exc:
            raise CliError(str(exc)) from None
    cid = create_campaign(store(), session=session)
    print(f"campaign {cid}: {args.name} ({session.ruleset.meta.short_name})")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    from app.usecases.campaign import list_campaigns

    rows = list_campaigns(store())
    if args.json:
        print_json(
            [
                {
                    "id": c.id,
                    "name": c.name,
                    "ruleset": c.ruleset,
                    "steps": c.steps,
                    "updated_at": c.updated_at.isoformat(),
                }
                for c in rows
            ]
        )
        return 0
    print(
        table(
            [(c.id, c.name, c.ruleset, c.steps) for c in rows], ("id", "name", "ruleset", "steps")
        )
    )
    return 0


def _show_dict(session: CampaignSession, campaign: Campaign) -> dict[str, Any]:
    from app.core.campaign.serialize import campaign_to_dict

    d = campaign_to_dict(campaign)
    d["steps"] = [
        {"n": i + 1, "label": x.step.label, "in_force": i < session.cursor}
        for i, x in enumerate(session.done)
    ]
    return d


def cmd_show(args: argparse.Namespace) -> int:
    from app.core.campaign.chronicle import leader_sheet, men

    session = _load(args.campaign)
    n = session.cursor if args.step is None else args.step
    if n > len(session.done):
        raise CliError(f"--step {n}: the campaign has {len(session.done)} steps")
    campaign = session.at(n)
    from app.usecases.campaign import step_makers

    makers = step_makers(store(), campaign_id=_find(args.campaign))
    if args.json:
        d = _show_dict(session, campaign)
        for step, by in zip(d["steps"], makers, strict=False):
            step["by"] = by  # the member who made it on a club server; None locally
        print_json(d)
        return 0
    rs = session.ruleset
    # read before the first line is printed: it reads the armies each battle was fought with
    leaders = [(r.side, r.name, r.rank, r.status, r.battles) for r in leader_sheet(rs, campaign)]
    print(f"{campaign.name} ({rs.meta.short_name}), step {n} of {len(session.done)}")
    for b in campaign.battles:
        print(f"  {b.id}  {b.name}  {b.date}  {b.place}  [{b.state}]")
    for side in campaign.sides:
        print(f"{side.name}: {men(rs, side.army):,} men, {side.army.unit_count()} units")
        for u in side.army.units:
            print(f"    {u.id}  {u.name}  {u.count} x {u.size}")
        for x in side.lost:
            at = next(
                (f"{b.id} ({b.name})" for b in campaign.battles if b.id == x.battle), x.battle
            )
            print(f"    lost at {at}: {x.unit.name} ({x.reason})")
    print(table(leaders, ("side", "leader", "rank", "status", "battles")))
    if any(makers):  # a club server: the log says who made each step
        print("steps:")
        for i, (done, by) in enumerate(zip(session.done, makers, strict=False), 1):
            print(f"  {i}. {done.step.label} (by {by or '?'})")
    return 0


def _lists(texts: list[str], option: str, what: str) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for text in texts:
        side, eq, items = text.partition("=")
        if not eq or not items.strip(","):
            raise CliError(f"{option} {text}: give SIDE={what},{what}")
        out[side] = tuple(x for x in items.split(",") if x)
    return out


def cmd_add_battle(args: argparse.Namespace) -> int:
    det = _lists(args.detachment, "--detachment", "UNIT")
    who = _lists(args.leaders, "--leaders", "LEADER")

    def make(session: CampaignSession) -> Step:
        parts = []
        for key in (args.side_a, args.side_b):
            side = session.campaign.side(key)
            army = side.army
            units = det.get(key) or det.get(side.id) or det.get(side.name)
            if units is not None:
                units = tuple(_named(army.units, u, f"{side.name} has no unit") for u in units)
            leaders = who.get(key) or who.get(side.id) or who.get(side.name)
            if leaders is not None:
                leaders = tuple(_leader_id(session, side.id, ld) for ld in leaders)
            parts.append(Participant(side.id, units, leaders))
        before = None if args.before is None else session.campaign.battle(args.before).id
        scenario = None
        if args.scenario is not None:
            from app.cli.scenario import find

            sc = find(args.scenario)
            if session.ruleset.id not in sc.rulesets:
                raise CliError(f"{sc.name} is not set for {session.ruleset.meta.short_name}")
            scenario = sc.id
        return AddBattle(
            args.name,
            (parts[0], parts[1]),
            args.date,
            args.place,
            before=before,
            scenario=scenario,
        )

    return _do(args.campaign, make=make)


def _named(units: Any, text: str, missing: str) -> str:
    """A unit's id from its id or its name (the name must be one unit line's)."""
    ids = [u.id for u in units if u.id == text] or [u.id for u in units if u.name == text]
    if len(ids) != 1:
        raise CliError(f"{missing} {text!r}" if not ids else f"{text!r} names {len(ids)} units")
    return str(ids[0])


def cmd_fight(args: argparse.Namespace) -> int:
    from app.usecases.campaign import fight

    session = _load(args.campaign)
    battle = session.campaign.battle(args.battle) if args.battle else session.campaign.next_battle()
    if battle is None:
        raise CliError("every battle of the campaign has been applied: add one")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    try:
        fought = fight(store(), session=session, battle=battle.id, seed=seed)
    except (CampaignError, ValueError) as exc:
        raise CliError(str(exc)) from None
    bid, bs = fought.battle_id, fought.battle
    _do(args.campaign, fought.link)
    print(
        f"battle {bid}: {bs.name} (seed {seed}); when it ends: "
        f"castra campaign record {args.campaign} {battle.id} --fought {bid}"
    )
    return 0


def cmd_record(args: argparse.Namespace) -> int:
    if args.fought is not None:
        from app.usecases.campaign import record_fought

        cid = _find(args.campaign)
        try:
            done = record_fought(
                store(),
                campaign_id=cid,
                battle=args.battle,
                fought=args.fought,
                registry=registry(),
            )
        except KeyError as exc:
            raise CliError(str(exc.args[0])) from None
        except (CampaignError, ResultError, RosterValueError) as exc:
            raise CliError(str(exc)) from None
        _changes(done.session, done.before)
        print(f"{done.value.label}: done")
        return 0

    def make(session: CampaignSession) -> Step:
        from app.core.campaign.fight import battle_rosters

        b = session.campaign.battle(args.battle)
        rosters = battle_rosters(session.campaign, b.id)
        winner: Side | None = None
        if args.winner is None:
            raise CliError("give --winner SIDE (or draw), or --fought BATTLE_ID")
        if args.winner.lower() != "draw":
            wid = session.campaign.side(args.winner).id
            sides = [p.side for p in b.participants]
            if wid not in sides:
                raise CliError(f"{args.winner} did not fight at {b.name}")
            winner = 0 if sides.index(wid) == 0 else 1
        ends: dict[Any, int] = {}
        for text in args.unit:
            key, eq, value = text.rpartition("=")
            if not eq or not value.isdigit():
                raise CliError(f"--unit {text}: give UNIT[#N]=END (a whole number)")
            ends[_unit_id(session, b.id, key)] = int(value)
        lost: dict[Any, str] = {}
        for text in args.lost:
            key, eq, reason = text.partition("=")
            if eq and not reason.strip():
                raise CliError(f"--lost {text}: give UNIT[#N]=REASON, or UNIT alone")
            lost[_unit_id(session, b.id, key)] = reason or "lost"
        fates: dict[Any, tuple[Any, int]] = {}
        for text in args.leader:
            who, eq, fate = text.partition("=")
            fate, _, w = fate.partition(":")
            if fate not in FATES or (w and not w.isdigit()):
                raise CliError(f"--leader {text}: give LEADER=fit|wounded|killed|captured[:N]")
            ids = [
                (k, ld.id)
                for k, r in enumerate(rosters)
                for ld in r.leaders
                if who in (ld.id, ld.name)
            ]
            if len(ids) != 1:
                why = "no leader" if not ids else "more than one leader (give his full name)"
                raise CliError(f"{why} {who!r} at {b.name}")
            fates[ids[0]] = (fate, int(w) if w else (1 if fate == "wounded" else 0))
        result = hand_result(
            rosters,
            winner=winner,
            reason=args.reason,
            ends=ends,
            lost=lost,
            fates=fates,
            notes=args.note,
        )
        return RecordResult(b.id, result)

    return _do(args.campaign, make=make)


def cmd_apply(args: argparse.Namespace) -> int:
    from app.core.campaign.diff import diff

    with _updating(args.campaign) as session:
        step = ApplyResult(session.campaign.battle(args.battle).id)
        before = session.campaign
        after = session.preview(step)
        for line in diff(session.ruleset, before, after) or ["(no change to the armies)"]:
            print(line)
        if not args.preview:
            session.do(step)
    print("previewed: nothing changed" if args.preview else f"{step.label}: done")
    return 0


def cmd_undo(args: argparse.Namespace) -> int:
    with _updating(args.campaign) as session:
        before = session.campaign
        step = session.undo()
        _changes(session, before)
    print(f"undone: {step.label}")
    return 0


def cmd_redo(args: argparse.Namespace) -> int:
    with _updating(args.campaign) as session:
        before = session.campaign
        step = session.redo()
        _changes(session, before)
    print(f"redone: {step.label}")
    return 0


def cmd_assign(args: argparse.Namespace) -> int:
    from app.usecases.campaign import assign_side, find_campaign, load_campaign
    from app.usecases.club import club_members

    st = store()
    if not st.on_server:
        raise CliError(
            "sides are given to members on a club server; this store is local (--store URL)"
        )
    try:
        cid = find_campaign(st, key=args.campaign)
    except LookupError as exc:
        raise CliError(str(exc.args[0])) from None
    session = load_campaign(st, campaign_id=cid, registry=registry())
    try:
        side = session.campaign.side(args.side)
    except CampaignError as exc:
        raise CliError(str(exc)) from None
    members = club_members(st)
    if args.member not in members:
        known = ", ".join(members) or "none yet"
        raise CliError(f"{args.member!r} is not a member of the club (members: {known})")
    assign_side(st, campaign_id=cid, side=side.id, member=args.member)
    print(f"{args.member} plays {side.name} in {session.campaign.name}")
    return 0


def cmd_reinforce(args: argparse.Namespace) -> int:
    def make(session: CampaignSession) -> Step:
        side = session.campaign.side(args.side)
        changes: dict[str, Any] = {"count": args.count}
        if args.size is not None:
            changes["size"] = args.size
        if args.name:
            changes["name"] = args.name
        try:
            unit = unit_from_entry(session.ruleset, side.army.army, args.entry, **changes)
        except KeyError as exc:
            raise CliError(str(exc.args[0])) from None
        return Reinforce(side.id, (unit,))

    return _do(args.campaign, make=make)


def _leader_id(session: CampaignSession, side: str, text: str) -> str:
    army = session.campaign.side(side).army
    for ld in army.leaders:
        if text in (ld.id, ld.name):
            return ld.id
    raise CliError(f"{session.campaign.side(side).name} has no leader {text!r}")


def cmd_promote(args: argparse.Namespace) -> int:
    def make(s: CampaignSession) -> Step:
        old = _leader_id(s, args.side, args.replaces) if args.replaces else None
        return Promote(s.campaign.side(args.side).id, _leader_id(s, args.side, args.leader), old)

    return _do(args.campaign, make=make)


def cmd_return(args: argparse.Namespace) -> int:
    if (args.ransom is None) == (args.exchange is None):
        raise CliError("give --ransom TERMS or --exchange SIDE:LEADER")

    def make(s: CampaignSession) -> Step:
        side = s.campaign.side(args.side).id
        lid = _leader_id(s, side, args.leader)
        if args.ransom is not None:
            return ReturnLeader(side, lid, "ransom", terms=args.ransom)
        other, _, who = args.exchange.partition(":")
        oid = s.campaign.side(other).id
        return ReturnLeader(side, lid, "exchange", oid, _leader_id(s, oid, who))

    return _do(args.campaign, make=make)
