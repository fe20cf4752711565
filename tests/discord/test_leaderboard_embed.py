"""The leaderboard embed keeps solo score attacks and AI tables on boards of their own."""

from cogs.scores import leaderboard_embed
from engine.games import get_game
from engine.referee.reports import HighScore, LeaderboardPage


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
