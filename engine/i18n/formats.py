"""Numbers, lists, days and durations written the way the reader's language writes them (Babel).

    number(12345)             "12,345" · "12.345" (it) · "12.345" (pt_BR) · "12,345" (ja)
    join_and(["Ann", "Bo"])   "Ann and Bo" · "Ann e Bo" · "AnnとBo"
    day(at)                   "12 Dec" · "12 dic" · "12 de dez." · "12月12日"
    duration(3900)            "1h 5m" · "1 h 5 min" · "1時間5分"

Times are shown in UTC unless a time zone is given: the engine knows no reader's clock (Discord
shows its own timestamps in each reader's zone; the local table passes the machine's).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta, tzinfo
from functools import cache
from typing import Literal

from babel import Locale
from babel.dates import format_date, format_skeleton, format_timedelta
from babel.lists import format_list
from babel.numbers import format_decimal

from .translate import language

# Narrow units read best where they are letters ("1h 5m"); Japanese narrow units are Latin too,
# so it takes its short ones ("1 時間 5 分").
_Width = Literal["narrow", "short"]
_DURATION_FORMAT: dict[str, _Width] = {"ja": "short"}
_Unit = Literal["day", "hour", "minute", "second"]
_UNITS: tuple[tuple[_Unit, int], ...] = (("day", 86_400), ("hour", 3_600), ("minute", 60), ("second", 1))


@cache
def _locale(code: str) -> Locale:
    return Locale.parse(code)


def _current() -> Locale:
    return _locale(language())


def number(value: float) -> str:
    """A count or score with the language's digit grouping and decimal sign."""
    return format_decimal(value, locale=_current())


def signed(value: float) -> str:
    """A score change with its sign: "+3", "-2", "0"."""
    text = number(abs(value))
    return f"+{text}" if value > 0 else f"-{text}" if value < 0 else text


def join_and(items: Sequence[str]) -> str:
    """Items in a sentence: "a, b and c" in the reader's language."""
    return format_list(list(items), style="standard", locale=_current()) if items else ""


def join_or(items: Sequence[str]) -> str:
    """Alternatives in a sentence: "a, b or c"."""
    return format_list(list(items), style="or", locale=_current()) if items else ""


def ordinal(place: int) -> str:
    """A place in a ranking: "2nd" · "2º" (it, pt_BR) · "2位" (ja)."""
    code = language()
    if code == "ja":
        return f"{place}位"
    if code in ("it", "pt_BR"):
        return f"{place}º"
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def day(at: float, zone: tzinfo = UTC) -> str:
    """A day without its year: "12 Dec"."""
    return format_skeleton("MMMd", datetime.fromtimestamp(at, zone), locale=_current())


def full_day(at: float, zone: tzinfo = UTC) -> str:
    """A day with its year: "Dec 12, 2026"."""
    return format_date(datetime.fromtimestamp(at, zone), format="medium", locale=_current())


def moment(at: float, zone: tzinfo = UTC) -> str:
    """A day and a time of day: "Dec 12, 2026 14:05"."""
    when = datetime.fromtimestamp(at, zone)
    return f"{format_date(when, format='medium', locale=_current())} {format_skeleton('Hm', when, locale=_current())}"


def duration(seconds: float, units: int = 2) -> str:
    """A length of time in its largest ``units`` units, narrow: "1d 11h", "2h 5m", "40s"."""
    remaining = max(0, int(seconds))
    parts: list[str] = []
    for unit, size in _UNITS:
        amount, remaining = divmod(remaining, size)
        if amount or (parts and len(parts) < units):
            if amount:
                parts.append(
                    format_timedelta(
                        timedelta(seconds=amount * size), granularity=unit, threshold=1_000_000,
                        format=_DURATION_FORMAT.get(language(), "narrow"), locale=_current(),
                    )
                )
        if len(parts) == units:
            break
    if not parts:
        parts.append(
            format_timedelta(
                timedelta(0), granularity="second", format=_DURATION_FORMAT.get(language(), "narrow"),
                locale=_current(),
            )
        )
    return " ".join(parts)


__all__ = ["day", "duration", "full_day", "join_and", "join_or", "moment", "number", "ordinal", "signed"]
