"""The events both variants of Vege tables word alike (a seat is named ``{p0}``, filled with a
player's name by the front end), in the language of the moment: the table's, when a move is played.
"""

from __future__ import annotations

from engine.core import Event
from engine.i18n import tr


def seat_field(seat: int) -> str:
    """The placeholder an event names a seat with (``{p0}``), filled with a name by the front end."""
    return f"{{p{seat}}}"


def tractor_discarded(seat: int, card: str) -> Event:
    """M4: the event of a Tractor discarded as the turn's play (either variant)."""
    return Event(
        text=tr("{player} discards a Tractor ({card}) and ends the turn.", player=seat_field(seat), card=card),
        actor=seat,
    )


def card_played(seat: int, card: str, sequence: str) -> Event:
    """M2: the event of a sequence card played (either variant)."""
    return Event(
        text=tr("{player} plays {card} on sequence {sequence}.", player=seat_field(seat), card=card, sequence=sequence),
        actor=seat,
    )


def tractor_played(seat: int, tractor: str, card: str, following: str, rival: int | None = None) -> Event:
    """M3: the event of a Tractor played in place of ``card``, then ``following`` on it (either
    variant). In the 2-player game only the ``rival`` can hold the dead card, so it is named."""
    fields = {"player": seat_field(seat), "tractor": tractor, "card": card, "following": following}
    if rival is None:
        text = tr(
            "{player} plays Tractor {tractor} for {card}, then {following}. {card} is now dead: whoever holds "
            "it can only discard it.",
            **fields,
        )
    else:
        text = tr(
            "{player} plays Tractor {tractor} for {card}, then {following}. {card} is now dead: {rival} can "
            "only discard it.",
            rival=seat_field(rival),
            **fields,
        )
    return Event(text=text, actor=seat)


def dead_discarded(seat: int, card: str, asked_earlier: bool) -> Event:
    """A3: the event of a dead card discarded, now or at the turn's start (either variant)."""
    if asked_earlier:
        text = tr("{player} discards the dead card {card} (asked earlier).", player=seat_field(seat), card=card)
    else:
        text = tr("{player} discards the dead card {card}.", player=seat_field(seat), card=card)
    return Event(text=text, actor=seat)


def player_done(seat: int) -> str:
    return tr("{player} is done.", player=seat_field(seat))
