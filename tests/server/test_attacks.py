"""Attacks on the club server's access rules (issue 22) with a player's own login through a
plain SQL client, as a member with psql might try them. Every one is refused, or changes
nothing: the policies, triggers and functions name every table and function with its schema
and pin their ``search_path``; ``castra server init`` leaves members no temporary objects
and no CREATE in the schema.

Some attacks run with a door opened by hand by the admin (TEMP granted back, as a database
restored from a dump without its privileges would have it; CREATE on the schema for
everyone, as PostgreSQL 14 and older made every database): the functions must hold even
then, or the door must be shut again by ``castra server init``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import psycopg2.errors
import pytest

from app.core.roster import Roster, Unit
from app.rules.registry import Registry
from app.store import load_roster, save_roster
from app.store.campaigns import assign_side, create_campaign, load_campaign
from tests.conftest import Club, add_members
from tests.core.campaign.helpers import leg_vi_campaign
from tests.pgcluster import Cluster, SQLClient, sql_client

Refused = (psycopg2.errors.InsufficientPrivilege,)


def _roster(name: str) -> Roster:
    return Roster(name, "quincunx", "roman", "Rome", None, units=(Unit("u1", "hastati", "H", 12),))


def _open_temp(club: Club, member: str) -> None:
    """The admin grants ``member`` TEMP on the database (as a restore without privileges
    would leave it): the functions themselves must then ignore temporary tables."""
    with sql_client(club.admin_url) as con:
        con.execute(f'GRANT TEMPORARY ON DATABASE "{club.database}" TO "{member}"')


# --------------------------------------------------------------------------- temporary objects

_TEMP_OBJECTS = {
    "table club_member": "CREATE TEMP TABLE club_member (name text, role text)",
    "view club_member": "CREATE TEMP VIEW club_member AS SELECT current_user::text AS name, "
    "'umpire'::text AS role",
    "table roster": "CREATE TEMP TABLE roster (id integer, owner text)",
    "view roster": "CREATE TEMP VIEW roster AS SELECT 1 AS id, current_user::text AS owner",
    "table campaign_side": "CREATE TEMP TABLE campaign_side "
    "(campaign_id integer, side text, member text)",
    "view campaign_side": "CREATE TEMP VIEW campaign_side AS SELECT 1 AS campaign_id, "
    "'rome'::text AS side, current_user::text AS member",
    "table campaign_step": "CREATE TEMP TABLE campaign_step "
    "(campaign_id integer, n integer, made_by text, state text)",
    "view campaign_step": "CREATE TEMP VIEW campaign_step AS SELECT 1 AS campaign_id, "
    "0 AS n, current_user::text AS made_by, '{}'::text AS state",
    "table campaign": "CREATE TEMP TABLE campaign (id integer, start text)",
    "view campaign": "CREATE TEMP VIEW campaign AS SELECT 1 AS id, '{}'::text AS start",
    "function castra_is_umpire": "CREATE FUNCTION pg_temp.castra_is_umpire() RETURNS boolean "
    "LANGUAGE sql AS 'SELECT true'",
}


@pytest.mark.parametrize("what", sorted(_TEMP_OBJECTS))
def test_a_player_cannot_make_temporary_objects(club: Club, what: str) -> None:
    """A temporary table or view of a policy's table's name, or a function of one it calls:
    members may make no temporary objects at all."""
    with club.raw("ann") as con, pytest.raises(Refused):
        con.execute(_TEMP_OBJECTS[what])


def test_init_itself_takes_temp_and_create_from_everyone(
    pg_cluster: Cluster | None, pg_empty: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Straight from ``castra server init`` (not a test copy): no TEMP, no CREATE."""
    from app.cli import main

    assert pg_cluster is not None
    assert main(["server", "init", pg_empty]) == 0
    args = ["server", "add-member", "ann", "--role", "player", "--url", pg_empty]
    assert main([*args, "--existing"]) == 0
    capsys.readouterr()
    database = pg_empty.rsplit("/", 1)[1]
    with sql_client(pg_cluster.url(database, user="ann")) as con:
        with pytest.raises(Refused):
            con.execute("CREATE TEMP TABLE club_member (name text, role text)")
        with pytest.raises(Refused):
            con.execute("CREATE TABLE public.anything (x integer)")


# --------------------------------------------------------------------------- shadowing


@pytest.fixture
def bobs(club: Club) -> int:
    """Bob's roster, the target."""
    return save_roster(club.open("bob"), roster=_roster("Bob's legion"))


Attack = Callable[[SQLClient], None]


def _run(con: SQLClient, *statements: str, args: tuple[Any, ...] = ()) -> None:
    """Each statement; a refusal of one is the attack failing there (a refusal is fine)."""
    for statement in statements:
        try:
            con.execute(statement, args if "%s" in statement else None)
        except Refused:
            return


@pytest.mark.parametrize("search_path", [None, "pg_temp, public", "pg_temp, pg_catalog, public"])
def test_a_temporary_member_list_does_not_make_a_player_umpire(
    club: Club, bobs: int, search_path: str | None
) -> None:
    _open_temp(club, "ann")
    before = load_roster(club.open("bob"), roster_id=bobs)
    with club.raw("ann") as con:
        if search_path:
            con.execute(f"SET search_path = {search_path}")
        _run(
            con,
            "CREATE TEMP TABLE club_member (name text, role text)",
            "INSERT INTO club_member VALUES (current_user, 'umpire')",
        )
        _run(
            con,
            "UPDATE public.roster SET name = 'Taken', updated_by = current_user WHERE id = %s",
            args=(bobs,),
        )
        _run(con, "UPDATE public.roster_unit SET size = 1 WHERE roster_id = %s", args=(bobs,))
    assert load_roster(club.open("bob"), roster_id=bobs) == before


def test_a_temporary_roster_list_does_not_give_a_player_anothers_units(
    club: Club, bobs: int
) -> None:
    _open_temp(club, "ann")
    before = load_roster(club.open("bob"), roster_id=bobs)
    with club.raw("ann") as con:
        _run(con, f"CREATE TEMP VIEW roster AS SELECT {bobs} AS id, current_user::text AS owner")
        _run(con, "UPDATE public.roster_unit SET size = 1 WHERE roster_id = %s", args=(bobs,))
        _run(con, "DELETE FROM public.roster_unit WHERE roster_id = %s", args=(bobs,))
    assert load_roster(club.open("bob"), roster_id=bobs) == before


@pytest.fixture
def campaign(club: Club, registry: Registry) -> Iterator[int]:
    """A campaign of the umpire's (three steps of hers), Rome played by ann."""
    uma = club.open("uma")
    cid = create_campaign(uma, session=leg_vi_campaign(registry))
    assign_side(uma, campaign_id=cid, side="rome", member="ann")
    yield cid


def _campaign_row(club: Club, cid: int) -> tuple[Any, ...]:
    with club.raw("uma") as con:
        row = con.execute(
            "SELECT name, cursor, version, updated_by FROM public.campaign WHERE id = %s", (cid,)
        ).fetchone()
        steps = con.execute(
            "SELECT count(*) FROM public.campaign_step WHERE campaign_id = %s", (cid,)
        ).fetchone()
    assert row is not None and steps is not None
    return (*row, *steps)


def test_a_temporary_side_list_does_not_let_a_player_move_a_campaign_not_theirs(
    club: Club, campaign: int
) -> None:
    _open_temp(club, "bob")  # bob plays no side of it
    before = _campaign_row(club, campaign)
    with club.raw("bob") as con:
        _run(
            con,
            "CREATE TEMP TABLE campaign_side (campaign_id integer, side text, member text)",
            "INSERT INTO campaign_side VALUES (%s, 'rome', current_user)",
            "UPDATE public.campaign SET name = 'Taken', updated_by = current_user WHERE id = %s",
            args=(campaign,),
        )
    assert _campaign_row(club, campaign) == before


def test_a_temporary_step_list_does_not_let_a_player_undo_the_umpires_steps(
    club: Club, campaign: int
) -> None:
    _open_temp(club, "ann")
    before = _campaign_row(club, campaign)
    with club.raw("ann") as con:
        _run(
            con,
            "CREATE TEMP TABLE campaign_step (campaign_id integer, n integer, made_by text)",
            "UPDATE public.campaign SET cursor = 0, updated_by = current_user WHERE id = %s",
            args=(campaign,),
        )
    assert _campaign_row(club, campaign) == before


def test_an_empty_temporary_member_list_does_not_skip_the_step_check(
    club: Club, campaign: int, registry: Registry
) -> None:
    """The trigger holds only players to 'your own side alone'; an empty member list of the
    player's own must not make them someone it does not hold."""
    import copy

    from app.core.timeline import diff, digest

    loaded = load_campaign(club.open("uma"), campaign_id=campaign, registry=registry)
    assert loaded.timeline is not None
    state = loaded.timeline.state_dict(loaded.cursor)
    robbed = copy.deepcopy(state)
    for side in robbed["sides"]:
        if side["id"] == "carthage":
            side["army"]["units"] = []
    _open_temp(club, "ann")
    with club.raw("ann") as con:
        _run(con, "CREATE TEMP TABLE club_member (name text, role text)")
        with pytest.raises(Refused):
            con.execute(
                "INSERT INTO public.campaign_step (campaign_id, n, kind, label, step, digest, "
                "delta, side, made_by) VALUES (%s, %s, 'reinforce', 'Reinforce', '{}', %s, %s, "
                "'rome', current_user)",
                (campaign, loaded.cursor, digest(robbed), json.dumps(diff(state, robbed))),
            )
    got = load_campaign(club.open("uma"), campaign_id=campaign, registry=registry)
    assert got.campaign.side("carthage").army.units


# --------------------------------------------------------------------------- the schema


@pytest.fixture
def old_default_club(
    pg_cluster: Cluster | None, pg_empty: str, capsys: pytest.CaptureFixture[str]
) -> Iterator[Club]:
    """A club store set up by ``castra server init`` on a database where everyone may create
    in the schema ``public`` (PostgreSQL 14 and older made every database so)."""
    from app.cli import main

    assert pg_cluster is not None
    with sql_client(pg_empty) as con:
        con.execute("GRANT CREATE ON SCHEMA public TO PUBLIC")
    assert main(["server", "init", pg_empty]) == 0
    add_members(pg_empty)
    capsys.readouterr()
    c = Club(pg_cluster, pg_empty.rsplit("/", 1)[1], pg_empty)
    yield c
    for store in c.opened:
        store.close()


_SCHEMA_OBJECTS = {
    "table": "CREATE TABLE public.notes (x integer)",
    "view": "CREATE VIEW public.club_members AS SELECT 1 AS x",
    "function": "CREATE FUNCTION public.castra_is_umpire(integer) RETURNS boolean "
    "LANGUAGE sql AS 'SELECT true'",
    "schema": "CREATE SCHEMA mine",
}


@pytest.mark.parametrize("what", sorted(_SCHEMA_OBJECTS))
def test_a_player_cannot_create_in_the_schema(old_default_club: Club, what: str) -> None:
    with old_default_club.raw("ann") as con, pytest.raises(Refused):
        con.execute(_SCHEMA_OBJECTS[what])


def test_an_operator_of_a_players_making_does_not_shadow_the_policies(
    old_default_club: Club,
) -> None:
    """The functions compare ``club_member.name`` (varchar) with ``current_user`` (name): an
    operator ``=`` made for exactly those types would be chosen over PostgreSQL's own, and
    say yes to every member. Making it is refused, and the roster stays Bob's."""
    club = old_default_club
    bobs = save_roster(club.open("bob"), roster=_roster("Bob's legion"))
    before = load_roster(club.open("bob"), roster_id=bobs)
    with club.raw("ann") as con:
        with pytest.raises(Refused):
            con.execute(
                "CREATE FUNCTION public.yes(character varying, name) RETURNS boolean "
                "LANGUAGE sql IMMUTABLE AS 'SELECT true'"
            )
        _run(
            con,
            "CREATE OPERATOR public.= (LEFTARG = character varying, RIGHTARG = name, "
            "FUNCTION = public.yes)",
        )
        _run(
            con,
            "UPDATE public.roster SET name = 'Taken', updated_by = current_user WHERE id = %s",
            args=(bobs,),
        )
    assert load_roster(club.open("bob"), roster_id=bobs) == before


# --------------------------------------------------------------------------- roles, passwords


@pytest.mark.parametrize(
    "statement",
    ["SET ROLE uma", "SET SESSION AUTHORIZATION uma", "SET ROLE castra_admin"],
)
def test_a_player_cannot_become_the_umpire(club: Club, bobs: int, statement: str) -> None:
    before = load_roster(club.open("bob"), roster_id=bobs)
    with club.raw("ann") as con:
        with pytest.raises(Refused):
            con.execute(statement)
        assert (
            con.execute("UPDATE public.roster SET name = 'x' WHERE id = %s", (bobs,)).rowcount == 0
        )
    assert load_roster(club.open("bob"), roster_id=bobs) == before


def test_a_player_reads_no_password_hash(club: Club) -> None:
    with club.raw("ann") as con:
        for table in ("pg_authid", "pg_shadow"):
            with pytest.raises(Refused):
                con.execute(f"SELECT * FROM pg_catalog.{table}")
        rows = con.execute(
            "SELECT rolpassword FROM pg_catalog.pg_roles WHERE rolname IN ('ann', 'uma')"
        ).fetchall()
        assert rows and all(p in (None, "********") for (p,) in rows)


# --------------------------------------------------------------------------- servers made before


def test_init_closes_the_hole_on_a_server_made_before(
    pg_cluster: Cluster | None, pg_empty: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A club store made by the Castra before (schema 0008), where TEMP was everyone's:
    ``castra server init`` upgrades it, and the attack that worked there is refused."""
    from alembic import command

    from app.cli import main
    from app.store.engine import SCHEMA_HEAD, _alembic_config
    from app.store.server import server_engine

    assert pg_cluster is not None
    engine = server_engine(pg_empty)
    with engine.begin() as conn:
        command.upgrade(_alembic_config(conn), "0008")
    engine.dispose()
    database = pg_empty.rsplit("/", 1)[1]
    for name, role in (("ann", "player"), ("bob", "player")):
        with sql_client(pg_empty) as con:  # as 0008's add-member did
            con.execute(
                f"DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{name}') "
                f'THEN CREATE ROLE "{name}" LOGIN; END IF; END $$'
            )
            con.execute(f'GRANT castra_member TO "{name}"')
            con.execute(f'GRANT CONNECT ON DATABASE "{database}" TO "{name}"')
            con.execute("INSERT INTO club_member VALUES (%s, %s)", (name, role))
    club = Club(pg_cluster, database, pg_empty)
    with club.raw("ann") as con:  # the hole, before
        con.execute("CREATE TEMP TABLE club_member (name text, role text)")
        con.execute("INSERT INTO club_member VALUES (current_user, 'umpire')")
        con.execute("DISCARD TEMP")
    assert main(["server", "init", pg_empty]) == 0
    assert f"to {SCHEMA_HEAD}" in capsys.readouterr().out
    bobs = save_roster(club.open("bob"), roster=_roster("Bob's legion"))
    before = load_roster(club.open("bob"), roster_id=bobs)
    with club.raw("ann") as con:
        with pytest.raises(Refused):
            con.execute("CREATE TEMP TABLE club_member (name text, role text)")
        assert (
            con.execute(
                "UPDATE public.roster SET name = 'x', updated_by = current_user WHERE id = %s",
                (bobs,),
            ).rowcount
            == 0
        )
    _open_temp(club, "ann")  # even with TEMP granted back by hand
    with club.raw("ann") as con:
        _run(
            con,
            "CREATE TEMP TABLE club_member (name text, role text)",
            "INSERT INTO club_member VALUES (current_user, 'umpire')",
            "UPDATE public.roster SET name = 'x', updated_by = current_user WHERE id = %s",
            args=(bobs,),
        )
    assert load_roster(club.open("bob"), roster_id=bobs) == before
    for store in club.opened:
        store.close()


def test_init_again_takes_back_what_a_restore_gave(
    club: Club, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.cli import main

    with sql_client(club.admin_url) as con:
        con.execute(f'GRANT TEMPORARY ON DATABASE "{club.database}" TO PUBLIC')
        con.execute("GRANT CREATE ON SCHEMA public TO PUBLIC")
    assert main(["server", "init", club.admin_url]) == 0
    out = capsys.readouterr().out
    assert "took from everyone: temporary tables, CREATE in schema public" in out
    with club.raw("ann") as con, pytest.raises(Refused):
        con.execute("CREATE TEMP TABLE t (x integer)")


# --------------------------------------------------------------------------- add-member


def test_add_member_refuses_an_existing_role_unless_asked(
    club: Club, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.cli import main

    with sql_client(club.admin_url) as con:
        con.execute("DROP ROLE IF EXISTS carl")
        con.execute("CREATE ROLE carl LOGIN PASSWORD 'carls own'")
    args = ["server", "add-member", "carl", "--role", "player", "--url", club.admin_url]
    assert main(args) == 1
    err = capsys.readouterr().err.strip()
    assert "already has a role carl" in err and "--existing" in err and "\n" not in err
    with club.raw("uma") as con:
        assert con.execute("SELECT * FROM club_member WHERE name = 'carl'").fetchall() == []
    assert main([*args, "--existing"]) == 0
    assert "took over the existing login role" in capsys.readouterr().out
    with sql_client(club.admin_url) as con:  # its password kept
        [(kept,)] = con.execute("SELECT rolpassword FROM pg_authid WHERE rolname = 'carl'")
    assert kept is not None
    # a member already: a new role, no --existing needed
    assert main(["server", "add-member", "carl", "--role", "umpire", "--url", club.admin_url]) == 0
    assert "was player" in capsys.readouterr().out


@pytest.mark.parametrize("who", ["castra_admin", "boss"])
def test_add_member_never_takes_a_superuser_or_the_admin(
    club: Club, capsys: pytest.CaptureFixture[str], who: str
) -> None:
    """castra_admin runs the command (and is the test cluster's superuser); boss is another
    superuser."""
    from app.cli import main

    with sql_client(club.admin_url) as con:
        con.execute("DROP ROLE IF EXISTS boss")
        con.execute("CREATE ROLE boss SUPERUSER LOGIN")
    args = ["server", "add-member", who, "--role", "umpire", "--url", club.admin_url]
    assert main([*args, "--existing"]) == 1
    err = capsys.readouterr().err.strip()
    assert "cannot be a member" in err and "\n" not in err
    with club.raw("uma") as con:
        assert con.execute("SELECT * FROM club_member WHERE name = %s", (who,)).fetchall() == []
