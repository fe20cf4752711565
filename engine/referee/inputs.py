"""What front ends hand the referee, checked at its door; and what it hands back, without the seed.

Every public method of the referee is wrapped by ``checked``: each argument named below is
checked (type, range, size) before the method runs, and refused with the same player-readable
error a wrong value typed on Discord gets (a table id no database could hold is "There is no
game #…", a move that is not text is unreadable notation). Whatever a front end passes, the
referee answers with a GameError and changes nothing, and nothing it keeps grows without bound
(the bounds are in ``engine.core.text``).

On the way out, the same wrapper takes the seed off every table of a running game: the seed and
the options replay every deal, so it stays inside the referee until the game is over (the
exported record of an ended game carries it).
"""

from __future__ import annotations

import functools
import inspect
import unicodedata
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, ParamSpec, TypeVar

import msgspec

from engine.core import GameError, SetupError
from engine.core.text import MAX_ID_CHARS, MAX_KEY_CHARS, MAX_NAME_CHARS, check_move_text, quote
from engine.i18n import number, tr

from .clock import unknown_zone, whole_hours
from .model import (
    RUNNING,
    LobbyError,
    NotInGame,
    Outbox,
    QuietHoursError,
    SkipRefused,
    StaleVersion,
    Table,
    TableNotFound,
)

# SQLite keeps integers in 64 bits: a larger id cannot name a stored table (and makes the driver
# raise OverflowError rather than find nothing).
MAX_TABLE_ID = 2**63 - 1
MAX_SEED = 2**63 - 1
MAX_AI_SEATS = 32
MAX_LISTED = 1_000_000  # rows skipped or returned by one listing


class InvalidRequest(GameError):
    """A value no player could have typed (an id that is not an id): a front end's mistake,
    refused in words all the same."""


def _whole_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def table_id(value: Any) -> int:
    if not _whole_number(value) or not 0 < value <= MAX_TABLE_ID:
        shown = f"#{value}" if _whole_number(value) and abs(value) < 10**20 else f"#{quote(value)}"
        raise TableNotFound(tr("There is no game {table}.", table=shown))
    return int(value)


def user_id(value: Any) -> str:
    """A player's id: never None (AI seats have none, and must not be taken for a player)."""
    if not isinstance(value, str) or not 0 < len(value) <= MAX_ID_CHARS:
        raise NotInGame(tr("You are not playing in this game."))
    return value


def optional_id(value: Any) -> str | None:
    """A server, channel, thread or message id."""
    if value is not None and (not isinstance(value, str) or not 0 < len(value) <= MAX_ID_CHARS):
        raise InvalidRequest(tr("{value} is not a Discord id.", value=quote(value)))
    return value


def name(value: Any) -> str:
    """A seat's shown name: control characters (new lines...) become spaces, and a long name is
    cut (names come from the front end's user, who cannot shorten them)."""
    if not isinstance(value, str):
        raise LobbyError(tr("A seat needs a name written as text."))
    if len(value) > 4 * MAX_NAME_CHARS:
        value = value[: 4 * MAX_NAME_CHARS]  # enough to clean, whatever the length given
    # Control characters and line breaks would break a board's layout; format characters (the
    # joiners inside emoji) stay.
    cleaned = "".join(" " if unicodedata.category(char) in ("Cc", "Zl", "Zp") else char for char in value)
    cleaned = " ".join(cleaned.split())
    if not cleaned:
        raise LobbyError(tr("A seat needs a name with at least one visible character."))
    if len(cleaned) > MAX_NAME_CHARS:
        cleaned = cleaned[: MAX_NAME_CHARS - 1].rstrip() + "…"
    return cleaned


def move_text(value: Any) -> str:
    return check_move_text(value)


def expected_version(value: Any) -> int | None:
    if value is not None and (not _whole_number(value) or not 0 <= value <= MAX_TABLE_ID):
        raise StaleVersion(tr("The board has changed since you looked at it; here is the current one."))
    return None if value is None else int(value)


def seat_number(value: Any) -> int:
    if not _whole_number(value) or not 0 <= value < 1_000:
        raise SkipRefused(tr("There is no such seat at this table."))
    return int(value)


def seed(value: Any) -> int | None:
    if value is not None and (not _whole_number(value) or not 0 <= value <= MAX_SEED):
        raise LobbyError(tr("A seed is a whole number from 0 to {most}.", most=MAX_SEED))
    return None if value is None else int(value)


def _key_name(value: Any, unknown: Callable[[str], GameError]) -> str:
    """A short name from a fixed list (the method says which names there are): text of a key's
    length, else the refusal ``unknown`` makes of the value quoted ("Unknown speed ...")."""
    if not isinstance(value, str) or len(value) > MAX_KEY_CHARS:
        raise unknown(quote(value))
    return value


def ai_kind(value: Any) -> str:
    """An AI kind's name (the method says which kinds the game has)."""
    return _key_name(value, lambda shown: LobbyError(tr("Unknown AI kind {kind}.", kind=shown)))


def speed(value: Any) -> str:
    """A speed's name (the method says which speeds there are)."""
    return _key_name(value, lambda shown: SetupError(tr("Unknown speed {speed}.", speed=shown)))


def ai_seats(value: Any) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, Sequence) or len(value) > MAX_AI_SEATS:
        raise LobbyError(tr("AI seats are given as a short list of AI kinds (at most {most}).", most=MAX_AI_SEATS))
    return tuple(ai_kind(kind) for kind in value)


def count(value: Any) -> int:
    """An offset or a page size of a listing."""
    if not _whole_number(value) or not 0 <= value <= MAX_LISTED:
        raise InvalidRequest(
            tr("A listing goes from 0 to {most} rows, not {value}.", most=number(MAX_LISTED), value=quote(value))
        )
    return int(value)


def time_zone(value: Any) -> str:
    if not isinstance(value, str) or len(value) > MAX_KEY_CHARS:
        raise QuietHoursError(unknown_zone(value))
    return value


def hour(value: Any) -> int:
    if not _whole_number(value) or not 0 <= value <= 23:
        raise QuietHoursError(whole_hours())
    return int(value)


def days(value: Any) -> int:
    """A number of days (a vacation's)."""
    if not _whole_number(value) or not 0 <= value <= 3_650:
        raise InvalidRequest(tr("Give a number of days from 1 to {most}, not {value}.", most=number(3_650), value=quote(value)))
    return int(value)


def flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise InvalidRequest(tr("{value} is not true or false.", value=quote(value)))
    return value


def abandon_rule(value: Any) -> str:
    """An abandon rule's name (abandon.py says which there are)."""
    return _key_name(value, lambda shown: LobbyError(tr("Unknown abandon rule {rule}.", rule=shown)))


# The checks, by the name of the argument they check: every referee method uses these names.
CHECKS: dict[str, Callable[[Any], Any]] = {
    "table_id": table_id,
    "user_id": user_id,
    "by_user": user_id,
    "host_id": user_id,
    "name": name,
    "host_name": name,
    "move_text": move_text,
    "expected_version": expected_version,
    "seat": seat_number,
    "seed": seed,
    "kind": ai_kind,
    "speed": speed,
    "ai_seats": ai_seats,
    "guild_id": optional_id,
    "channel_id": optional_id,
    "thread_id": optional_id,
    "message_id": optional_id,
    "offset": count,
    "limit": count,
    "time_zone": time_zone,
    "start_hour": hour,
    "end_hour": hour,
    "days": days,
    "withdraw": flag,
    "abandon_rule": abandon_rule,
}

R = TypeVar("R")
P = ParamSpec("P")


Checks = tuple[dict[int, Callable[[Any], Any]], dict[str, Callable[[Any], Any]]]


def _checks(parameters: Sequence[inspect.Parameter]) -> Checks:
    """The checks of a method's parameters (without ``self``), by position and by name."""
    # An argument whose default is None may be None (``tables(user_id=None)``: anyone's tables).
    by_name = {
        p.name: CHECKS[p.name] if p.default is not None else _or_none(CHECKS[p.name])
        for p in parameters
        if p.name in CHECKS
    }
    by_position = {index: by_name[p.name] for index, p in enumerate(parameters) if p.name in by_name}
    return by_position, by_name


def _checked_arguments(
    checks: Checks,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> tuple[Any, ...]:
    by_position, by_name = checks
    for argument in kwargs.keys() & by_name.keys():
        kwargs[argument] = by_name[argument](kwargs[argument])
    return tuple(by_position[i](arg) if i in by_position else arg for i, arg in enumerate(args))


def checked(method: Callable[..., Awaitable[R]]) -> Callable[..., Awaitable[R]]:
    """Wrap a referee method: check its arguments by name (``CHECKS``) before it runs, and take
    the seed off the tables of running games it returns."""
    checks = _checks(list(inspect.signature(method).parameters.values())[1:])  # without self

    @functools.wraps(method)
    async def wrapper(self: Any, *args: Any, **kwargs: Any) -> R:
        return without_seed(await method(self, *_checked_arguments(checks, args, kwargs), **kwargs))

    return wrapper


def checked_call(method: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """``checked`` for a room's bound method the referee hands out as it is (``self.create_table
    = checked_call(self._lobby.create_table)``): the signature is written once, in the room, and
    the type checker sees it whole."""
    checks = _checks(list(inspect.signature(method).parameters.values()))

    @functools.wraps(method)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        return without_seed(await method(*_checked_arguments(checks, args, kwargs), **kwargs))

    return wrapper


def _or_none(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda value: None if value is None else check(value)


def hide_seed(table: Table) -> Table:
    """The table as front ends see it: without the seed while the game runs (a copy; the
    referee's own table keeps it)."""
    if table.seed is None or table.status != RUNNING:
        return table
    return msgspec.structs.replace(table, seed=None)


def without_seed(result: R) -> R:
    """A referee method's answer with the seed taken off every table of a running game in it."""
    if isinstance(result, Table):
        return hide_seed(result)  # type: ignore[return-value]
    if isinstance(result, Outbox):
        result.table = hide_seed(result.table)
    elif isinstance(result, list) and result and isinstance(result[0], Table):
        return [hide_seed(table) for table in result]  # type: ignore[return-value]
    return result
