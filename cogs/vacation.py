"""/settings vacation and vacation-off: a player's clocks stop in every timed game for some days
(engine/referee/vacation.py decides and keeps the allowance; this only answers)."""

from __future__ import annotations

import discord

from engine.core import GameError
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
        f"You are on vacation until {render.timestamp(until, 'f')}: your clocks stop in every timed game "
        f"(no reminders, no timeouts), and the other players see it on the board. {days_left_text(status)} "
        "Back early? `/settings vacation-off` gives back the days not begun.",
    )


async def end_vacation(referee: Referee, interaction: discord.Interaction) -> None:
    try:
        status = await referee.end_vacation(str(interaction.user.id))
    except GameError as error:
        await reply(interaction, str(error))
        return
    await reply(interaction, f"Welcome back: your clocks run again. {days_left_text(status)}")


def days_left_text(status: VacationStatus) -> str:
    return f"Vacation days left: {status.days_left} of {status.days_per_year} over the last 365 days."
