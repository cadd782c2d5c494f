"""The club server's address read without SQLAlchemy (:class:`app.store.server.ServerURL`):
every part, the address written back, what psycopg2 is given, the password hidden or
refused, each the same as SQLAlchemy's own ``make_url`` and PostgreSQL dialect say, over a
list of addresses and over random ones. SQLAlchemy's answers are computed here, in the test,
as the oracle; the app no longer imports it to read an address."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy.dialects.postgresql.psycopg2 import PGDialect_psycopg2
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from app.store.engine import StoreError, is_server_url
from app.store.server import ServerURL, has_password, parse_url, read_url, shown

ADDRESSES = [
    "postgresql://ann@127.0.0.1:1/club",
    "postgres://ann@h/db",
    "postgresql+psycopg://ann@h:5432/db",
    "postgresql+psycopg2://ann@h/db",
    "POSTGRESQL://ann@h/db",
    " postgresql://ann@h/db ",
    "postgresql://ann:secret@h/db",
    "postgresql://ann:@h/db",
    "postgresql://:pw@h/db",
    "postgresql://ann@h/db?password=x",
    "postgresql://ann@h/db?sslmode=prefer&PASSWORD=x",
    "postgresql://ann@h/db?options=-c%20PGPASSWORD%3Dhunter2",
    "postgresql://ann@h/db?a=1&a=2&password=3",
    "postgresql://ann@h/db?a=password&b=c",
    "postgresql://ann@h/db?sslmode=",
    "postgresql://ann@h/db?x",
    "postgresql://ann@h:0/db",
    "postgresql://ann@h:-1/db",
    "postgresql://ann@h:99999999/db",
    "postgresql://ann@h",
    "postgresql://ann@h/",
    "postgresql://",
    "postgresql:///db",
    "postgresql://h/db",
    "postgresql://[::1]:5432/db",
    "postgresql://ann@[::1]/db",
    "postgresql://a%20nn@h/d%2Fb",
    "postgresql://ann@h/d b+c",
    "postgresql://ann@h/db?host=/tmp&port=5432",
    "postgresql://ann@h/db?host=a,b&port=1,2",
    "postgresql://ann@h/db?host=a:1&host=b:2",
    "postgresql://ann@h/db?host=a:1",
    "postgresql://ann@h/db?host=a,b&port=1",
    "postgresql://ann@h/db?host=a&host=b&port=1&port=2",
    "postgresql://ann@h/***",
    "postgresql://ann@h/db?k=***",
    "postgresql://ann@h/db#frag",
    "postgresql://ann@h/db?q=a%26b&r=+",
    "mysql://ann@h/db",
    "foo",
    "",
    "   ",
    "sqlite:///x.db",
    "postgresql://ann@h/db\x00",
    "postgresql://ann@h/\u202edb",
    "postgresql://ann@h/db?application_name=x&connect_timeout=1",
    "postgresql://ann@h@i/db",
    "postgresql://a:b:c@h/db",
    "postgres ql://x/y",
    "post-gres://x/y",
    "postgresql://ann@h/db?=v",
    "postgresql://é@h/db",
    "postgresql://ann@h:abc/db",
    "postgresql://ann@h:/db",
    "postgresql://ann@h:5432:1/db",
    "postgresql://ann@h/db?port=x",
    "postgresql://ann@h/db?host=a,b&port=1,2,3",
    "postgresql://ann@h/db?host=a:1&port=2",
]


def _parts(url: Any, hidden: str, whole: str) -> tuple[Any, ...]:
    """An address's parts (SQLAlchemy's URL or ours: the same names), and it written out
    with its password hidden and whole."""
    return (
        url.drivername,
        url.username,
        url.password,
        url.host,
        url.port,
        url.database,
        dict(url.query),
        hidden,
        whole,
    )


def _sqlalchemy(text: str) -> tuple[str, Any]:
    """What SQLAlchemy reads ``text`` as: its parts, rendered both ways, and psycopg2's
    arguments; or the kind of failure."""
    try:
        url = make_url(text)
    except ArgumentError:
        return "unreadable", None
    except ValueError:
        return "bad port", None
    parts = _parts(url, url.render_as_string(True), url.render_as_string(False))
    try:
        # its positional argument is a conninfo string: "" (no address at all) says nothing
        args: Any = PGDialect_psycopg2().create_connect_args(url)[1]
    except (ArgumentError, ValueError):
        args = "refused"
    return "read", (parts, args)


def _ours(text: str) -> tuple[str, Any]:
    try:
        url = read_url(text)
    except ValueError as exc:
        return ("bad port", None) if "int()" in str(exc) else ("unreadable", None)
    parts = _parts(url, url.render(hide_password=True), url.render(hide_password=False))
    try:
        args: Any = url.connect_args()
    except ValueError:
        args = "refused"
    return "read", (parts, args)


def _old_shown(url: str) -> str:
    """The address as shown, made as it was with SQLAlchemy (the oracle)."""
    try:
        parsed = make_url(url.strip())
    except ArgumentError:
        return "the URL given"
    hidden = {
        key: "***"
        for key, value in parsed.query.items()
        if "password" in key.lower()
        or any("password" in v.lower() for v in (value if isinstance(value, tuple) else (value,)))
    }
    rendered = parsed.update_query_dict(hidden).render_as_string(hide_password=True)
    return rendered.replace("%2A%2A%2A", "***")


def _old_has_password(url: str) -> bool:
    try:
        parsed = make_url(url.strip())
    except ArgumentError:
        return False
    query = any(
        "password" in k.lower()
        or any("password" in v.lower() for v in (value if isinstance(value, tuple) else (value,)))
        for k, value in parsed.query.items()
    )
    return parsed.password is not None or query


def _comparable(text: str) -> bool:
    """Whether SQLAlchemy reads ``text`` without a traceback of its own (a port that is not
    a number raised ValueError out of ``make_url``)."""
    return _sqlalchemy(text.strip())[0] != "bad port"


@pytest.mark.parametrize("text", ADDRESSES)
def test_an_address_reads_as_sqlalchemy_reads_it(text: str) -> None:
    assert _ours(text) == _sqlalchemy(text)
    if _comparable(text):
        assert shown(text) == _old_shown(text)
        assert has_password(text) is _old_has_password(text)


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet="postgresqlaxn:/@?&=%+[]#,*é 5.\x00-", max_size=40).map(
        lambda s: "postgresql://" + s if len(s) % 2 else s
    )
)
def test_random_addresses_read_as_sqlalchemy_reads_them(text: str) -> None:
    assert _ours(text) == _sqlalchemy(text)
    if _comparable(text):
        assert shown(text) == _old_shown(text)
        assert has_password(text) is _old_has_password(text)


def test_parse_url_refuses_as_before() -> None:
    for text, words in (
        ("foo", "'foo' is not a store URL (postgresql://USER@HOST:PORT/DATABASE)"),
        ("mysql://ann@h/db", "'mysql://ann@h/db' is not a PostgreSQL URL"),
        ("POSTGRESQL://ann@h/db", "is not a PostgreSQL URL"),
        ("postgresql://ann@h", "the URL postgresql://ann@h names no database"),
        (
            "postgresql://ann@h/db?sslmode=prefer&PASSWORD=x",
            "the address postgresql://ann@h/db?PASSWORD=***&sslmode=prefer carries a password "
            "(PASSWORD=… in its query)",
        ),
    ):
        with pytest.raises(StoreError) as got:
            parse_url(text)
        assert words in str(got.value) and "\n" not in str(got.value)
    url = parse_url(" postgres://ann@h:5433/db?sslmode=require ")
    assert url == ServerURL(
        "postgresql+psycopg2", "ann", None, "h", 5433, "db", {"sslmode": "require"}
    )
    made = make_url("postgres://ann@h:5433/db?sslmode=require")
    assert URL.create(
        url.drivername, host=url.host, port=url.port, database=url.database, query=url.query
    ).set(username=url.username) == made.set(drivername="postgresql+psycopg2")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("postgresql://ann@h:abc/db", "the URL's port 'abc' is not a number"),
        ("postgresql://ann:pw@h:/db", "the URL's port '' is not a number"),
        ("postgresql://ann@h:5432:1/db", "the URL's port '5432:1' is not a number"),
        ("postgresql://ann@h/db?port=x", "cannot be used: its query's port 'x' is not a number"),
        ("postgresql://ann@h/db?host=a,b&port=1,2,3", "its query names 2 hosts and 3 ports"),
        ("postgresql://ann@h/db?host=a:1&host=b:2&port=3", "both in host=HOST:PORT and in port="),
        ("postgresql://ann@h/db?host=a:1:2&host=b:2:3", "are not HOST or HOST:PORT"),
    ],
)
def test_a_port_that_is_no_number_is_one_line(text: str, words: str) -> None:
    """SQLAlchemy raised its own error out of these (a traceback on the command line):
    refused now in one line naming what is wrong, and never showing the password."""
    with pytest.raises(StoreError) as got:
        parse_url(text)
    said = str(got.value)
    assert words in said and "\n" not in said and "pw" not in said, said
    from app.cli import main

    assert main(["--store", text, "roster", "list"]) == 1


def test_a_password_beside_a_bad_port_is_still_seen() -> None:
    assert has_password("postgresql://ann:pw@h:abc/db")
    assert has_password("postgresql://ann@h:abc/db?password=x")
    assert not has_password("postgresql://ann@h:abc/db")
    assert shown("postgresql://ann:pw@h:abc/db") == "the URL given"


@pytest.mark.parametrize(
    "scheme", ["postgresql", "postgres", "postgresql+psycopg2", "postgresql+psycopg"]
)
def test_every_spelling_of_a_server_goes_through_psycopg2(scheme: str) -> None:
    """An address written for psycopg 3 (``postgresql+psycopg://``, which Castra took
    before) still names a club server, and is read onto the one driver Castra has."""
    text = f" {scheme}://ann@h:5433/db "
    assert is_server_url(text)
    assert parse_url(text).drivername == "postgresql+psycopg2"
    assert not is_server_url("postgresql+asyncpg://ann@h/db")


@pytest.mark.parametrize(
    "text",
    [
        "postgresql://ann@h/d%00b",
        "postgresql://a%00nn@h/db",
        "postgresql://ann:p%00w@h/db",
        "postgresql://ann@h/db?application_name=%00",
        "postgresql://ann@h/db?options%00=x",
    ],
)
def test_a_nul_in_an_address_is_one_line(text: str) -> None:
    """libpq's settings are C strings: psycopg2 raised a ValueError (a traceback at the
    command line) for a NUL in one, psycopg 3 cut the setting short there."""
    with pytest.raises(StoreError) as got:
        parse_url(text)
    assert str(got.value).endswith(
        "holds a NUL character (%00), which no connection setting may hold"
    )
    assert "\n" not in str(got.value) and "p%00w" not in str(got.value)
