"""Ratings with OpenSkill (Plackett-Luce by default): free-for-all with ties, and teams.

Pure functions over plain values, so the store can apply them inside the transaction that ends a
game, and rebuild every rating from the stored results with the very same code (and so with the
very same floating-point results) when the model changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import msgspec

PROVISIONAL_GAMES = 5  # fewer rated games than this and a rating is shown as provisional


class Rating(msgspec.Struct, frozen=True):
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative skill estimate (mu - 3 sigma) used to order leaderboards."""
        return self.mu - 3 * self.sigma


class RatedSeat(msgspec.Struct, frozen=True, kw_only=True):
    """One rated player in one game: lower rank is better, equal ranks are ties."""

    user_id: str
    rank: int
    team: int | None = None  # seats with the same team number play (and are rated) together


ModelFactory = Callable[[], Any]


def default_model() -> Any:
    # Imported here: the rating library costs tens of milliseconds at start-up and is needed
    # only when a rated game ends (or ratings are rebuilt).
    from openskill.models import PlackettLuce

    return PlackettLuce()


def initial_rating(model: Any | None = None) -> Rating:
    model = model or default_model()
    rating = model.rating()
    return Rating(rating.mu, rating.sigma)


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


def rate_game(
    seats: Sequence[RatedSeat], current: Mapping[str, Rating], model: Any | None = None
) -> dict[str, Rating]:
    """New ratings of the players of one game. ``current`` lacks players who have none yet.

    Seats without a team are each their own team. A team's rank is its best member's rank (team
    members share their rank anyway). With fewer than two teams nothing can be learned, and the
    ratings come back unchanged.
    """
    model = model or default_model()
    groups: dict[Any, list[RatedSeat]] = {}
    for seat in seats:
        key = ("team", seat.team) if seat.team is not None else ("seat", seat.user_id)
        groups.setdefault(key, []).append(seat)
    before = {seat.user_id: current.get(seat.user_id) or initial_rating(model) for seat in seats}
    if len(groups) < 2:
        return before
    teams = [
        [model.rating(mu=before[s.user_id].mu, sigma=before[s.user_id].sigma) for s in group]
        for group in groups.values()
    ]
    ranks = [min(s.rank for s in group) for group in groups.values()]
    rated = model.rate(teams, ranks=ranks)
    after: dict[str, Rating] = {}
    for group, new_team in zip(groups.values(), rated, strict=True):
        for seat, new in zip(group, new_team, strict=True):
            after[seat.user_id] = Rating(new.mu, new.sigma)
    return after


def replay_ratings(
    games: Iterable[tuple[Any, Sequence[RatedSeat]]], model: Any | None = None
) -> dict[tuple[Any, str], Rating]:
    """Ratings from a whole history, in order: ``games`` yields (scope, seats), where scope is
    whatever separates rating pools (server and game). Returns {(scope, user_id): rating}."""
    model = model or default_model()
    ratings: dict[tuple[Any, str], Rating] = {}
    for scope, seats in games:
        current = {s.user_id: ratings[(scope, s.user_id)] for s in seats if (scope, s.user_id) in ratings}
        for user_id, rating in rate_game(seats, current, model).items():
            ratings[(scope, user_id)] = rating
    return ratings
