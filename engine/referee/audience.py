"""Whose language a referee text is written in: the reader's, or the table's audience's.

Most of what a referee call writes goes to the player who made it (a refusal, their hand, a
hint): it is written in the current language (``engine.i18n.use_language``, set by the front end
for that reader). Some of it goes to everybody at the table (the public board of a snapshot, the
lines of ``Outbox.public_log``: "Bob took back 7c.", "Alice votes to abandon the game."): those
are written in the *public* language, the server's, which a front end sets beside the reader's:

    with use_language(user_locale), use_public_language(server_language):
        outbox = await referee.play(table_id, user_id, "7c")   # a refusal in the user's language
        post(outbox.public_log)                                # the public lines in the server's

Without a public language set, public texts are written in the current language (the local
table has one reader; a test or a tool gets English). Like the reader's language, it is a
context variable: each interaction handled at once keeps its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token

from engine.core import format_event
from engine.games import get_game
from engine.i18n import language, language_or_source, use_language

from .model import Outbox

_public: ContextVar[str | None] = ContextVar("public_language", default=None)


def public_language() -> str:
    """The code of the language public texts are written in now."""
    return _public.get() or language()


@contextmanager
def use_public_language(tag: object) -> Iterator[str]:
    """Write the public texts of referee calls in the language serving ``tag`` inside the block
    (None: the current language); yields its code."""
    token = _public.set(None if tag is None else language_or_source(tag))
    try:
        yield public_language()
    finally:
        _public.reset(token)


def set_public_language(tag: object) -> Token[str | None]:
    """Switch the current context's public language (None: the current language), for a task
    that serves one interaction to its end (a front end's command check); ``use_public_language``
    elsewhere."""
    return _public.set(None if tag is None else language_or_source(tag))


@contextmanager
def in_public() -> Iterator[str]:
    """Inside the referee: write what everybody at the table reads (yields the code)."""
    with use_language(public_language()) as code:
        yield code


def private_lines(outbox: Outbox, seat: int) -> list[str]:
    """The private lines of ``seat`` in the current language (the reader's): the moves of the
    call wrote them in the public language, so they are played again, from the state before each,
    in this one when it differs."""
    written = list(outbox.private_log.get(seat, []))
    if not written or not outbox.private_rewritable or language() == outbox.private_language:
        return written
    lines: list[str] = []
    for replay in outbox.private_replays:
        if seat not in replay.readers:
            continue
        game = get_game(replay.game)
        state = game.decode_state(replay.before)
        for event in game.play(state, replay.seat, game.parse_move(replay.move)):
            if event.visible_to is not None and seat in event.visible_to:
                lines.append(format_event(event.text, replay.names))
    return lines if len(lines) == len(written) else written  # (always equal: the rules are pure)


__all__ = ["in_public", "private_lines", "public_language", "set_public_language", "use_public_language"]
