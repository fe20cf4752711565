"""Scoring of Granja: the round's market markers and siesta section (S1, Ruling 45), the sale of
everything at the end (3.10) and the keys that rank the players.

Section and ruling numbers refer to docs/rules/granja.md.
"""

from __future__ import annotations

from engine.i18n import tr

from .config import CONFIG
from .farm import record_sale
from .model import Events, GranjaState, p, say


def score_round(state: GranjaState, events: Events) -> None:
    """S1: market markers, then siesta sections (Ruling 45)."""
    for seat in state.order:
        farm = state.farms[seat]
        markers = sum(owner == seat for owner in state.market)
        section = CONFIG.section_vp(state.siesta_space[seat])
        farm.vp += markers + section
        say(
            events,
            tr("{player} scores {markers} VP for market markers and {section} VP for the siesta.", player=p(seat), markers=markers, section=section),
            seat,
        )


def liquidate(state: GranjaState, events: Events) -> None:
    """3.10: goods and trade goods to silver, then silver to VP."""
    for seat in state.order:
        farm = state.farms[seat]
        earned = 0
        for good, price in CONFIG.sell_price.items():
            earned += farm.goods[good] * price
            farm.goods[good] = 0
        earned += farm.goods["TG"] * CONFIG.trade_good_end_value
        sold = earned > 0
        farm.goods["TG"] = 0
        farm.silver += earned
        if sold:
            record_sale(state, seat, events)
        points = farm.silver // CONFIG.end_silver_per_vp
        farm.vp += points
        farm.silver -= points * CONFIG.end_silver_per_vp
        text = tr(
            "{player} sells everything for {earned} $ and converts silver into {points} VP: {vp} VP, {silver} $ left.",
            player=p(seat), earned=earned, points=points, vp=farm.vp, silver=farm.silver,
        )
        say(events, text, seat)


def final_keys(state: GranjaState) -> list[tuple[int, int]]:
    """Most VP wins; ties go to the most silver left, then stay shared (3.10)."""
    return [(farm.vp, farm.silver) for farm in state.farms]
