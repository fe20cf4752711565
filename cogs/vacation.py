"""/settings vacation and vacation-off: a player's clocks stop in every timed game for some days
(engine/referee/vacation.py decides and keeps the allowance; this only answers)."""

from __future__ import annotations

import discord

from engine.core import GameError
from engine.i18n import tr
from engine.referee import Referee, VacationStatus

from . import render
from .replies import reply


async def start_vacation(referee: Referee, interaction: discord.Interaction, days: int) -> None:
    try:
        status = await referee.start_vacation(str(interaction.user.id), days)
    except GameError as error:
        await reply(interaction, str(error))
        return
    until = status.until or 0.0
    await reply(
        interaction,
        tr(
            "You are on vacation until {until}: your clocks stop in every timed game (no reminders, no "
            "timeouts), and the other players see it on the board. {days_left} Back early? "
            "`/settings vacation-off` gives back the days not begun.",
            until=render.timestamp(until, "f"),
            days_left=days_left_text(status),
        ),
    )


async def end_vacation(referee: Referee, interaction: discord.Interaction) -> None:
    try:
        status = await referee.end_vacation(str(interaction.user.id))
    except GameError as error:
        await reply(interaction, str(error))
        return
    await reply(interaction, tr("Welcome back: your clocks run again. {days_left}", days_left=days_left_text(status)))


def days_left_text(status: VacationStatus) -> str:
    return tr(
        "Vacation days left: {left} of {total} over the last 365 days.", left=status.days_left, total=status.days_per_year
    )
