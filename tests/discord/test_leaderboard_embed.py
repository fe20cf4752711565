"""The leaderboard embed keeps solo score attacks and AI tables on boards of their own."""

from cogs.scores import leaderboard_embed, stats_embed
from engine.games import get_game
from engine.referee.reports import GameStats, HighScore, LeaderboardPage, PlayerStats, RecentResult


def high(position: int, name: str, score: float) -> HighScore:
    return HighScore(position=position, user_id=name, name=name, score=score, table_id=1, finished_at=0.0)


def test_solo_and_ai_high_scores_are_separate_fields():
    board = LeaderboardPage(guild_id="g", game="orchard", rows=[], total=0, offset=0, limit=10)
    embed = leaderboard_embed(
        get_game("orchard"), board, 0, 1, high=[high(1, "ann", 30)], solo=[high(1, "bea", 52), high(2, "cy", 40)]
    )
    fields = {field.name: field.value for field in embed.fields}
    assert fields["High scores with AI seats"] == "1. ann: 30"
    assert fields["Solo high scores"] == "1. bea: 52\n2. cy: 40"
    assert "No rated game yet" in embed.description


def test_recent_solo_games_read_as_solo_not_as_first_of_one():
    def recent(table_id: int, rank: int, players: int) -> RecentResult:
        return RecentResult(
            table_id=table_id, game="orchard", guild_id="g", finished_at=0.0, rank=rank, players=players,
            score=40, forfeited=False, rated=False, board="solo",
        )

    stats = PlayerStats(
        user_id="bea",
        guild_id="g",
        games=[GameStats(game="orchard", games=2, wins=0, average_score=40, best_score=40, forfeits=0)],
        recent=[recent(2, 1, 1), recent(1, 2, 3)],
    )
    solo, shared = stats_embed("bea", stats).fields[1].value.splitlines()
    assert solo.startswith("Draft Cider #2: solo, score 40")
    assert shared.startswith("Draft Cider #1: 2nd of 3, score 40")
