"""Text and embeds shown on Discord. The games render their own text; this only frames it.

Everything here is pure (tables and strings in, embeds and strings out) and respects Discord's
length limits, so a long board or log can never make a message fail to send.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from typing import Any

import discord

from engine.core import Game, GameError, Outcome
from engine.games import get_game
from engine.i18n import CODES, N_, tr, tr_ctx, tr_n, use_language
from engine.referee import (
    ABANDONED,
    ABANDONED_BOARD,
    FINISHED,
    FRIENDLY_BOARD,
    HOST_MAJORITY,
    LOBBY,
    RUNNING,
    SOLO_BOARD,
    SPEEDS,
    STACKED_BOARD,
    UNANIMOUS,
    WITH_AI_BOARD,
    GameResult,
    RatingChange,
    SeatClockView,
    Table,
    format_duration,
    level_label,
    presentation,
)

CONTENT_LIMIT = 2000
DESCRIPTION_LIMIT = 4096
EMBEDS_LIMIT = 6000  # all the embeds of one message together
CUT_NOTE = N_("… (cut here: the whole text is in the attached file)")
# How every private view's embed title ends, in every language (``shown_private_view`` reads it).
PRIVATE_TITLE_END = N_(": your hand")
_BLOCK = re.compile(r"```\n(.*)\n```", re.S)
FIELD_LIMIT = 1024
LOG_LIMIT = 1200  # the private log lines above a private view

LOBBY_COLOUR = discord.Colour.blurple()
BOARD_COLOUR = discord.Colour.dark_teal()
PRIVATE_COLOUR = discord.Colour.gold()
OVER_COLOUR = discord.Colour.green()
CANCELLED_COLOUR = discord.Colour.dark_grey()


def block_body(text: str) -> str:
    """What a code block shows of ``text`` (uncut)."""
    return text.replace("```", "`\u200b``").rstrip() or " "


def fits_block(text: str, limit: int = DESCRIPTION_LIMIT) -> bool:
    """Whether ``text`` fits uncut in a code block of ``limit`` characters."""
    return len(block_body(text)) <= limit - len("```\n\n```")


def code_block(text: str, limit: int = DESCRIPTION_LIMIT, cut_note: str = "…") -> str:
    """Monospace text in a code block, cut (with ``cut_note`` on a last line) to fit ``limit``."""
    body = block_body(text)
    room = limit - len("```\n\n```")
    if len(body) > room:
        body = body[: room - len(cut_note) - 1] + "\n" + cut_note
    return f"```\n{body}\n```"


def text_file(text: str, filename: str) -> discord.File:
    """A text too long for an embed, whole, as an attached file Discord shows inline."""
    return discord.File(io.BytesIO(text.encode("utf-8")), filename=filename)


def embeds_total(embeds: Sequence[discord.Embed]) -> int:
    """The characters Discord counts against its 6000 limit for all the embeds of one message."""
    total = 0
    for embed in embeds:
        total += len(embed.title or "") + len(embed.description or "")
        total += sum(len(field.name or "") + len(field.value or "") for field in embed.fields)
        total += len(embed.footer.text or "") + len(embed.author.name or "")
    return total


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def clip_lines_from_start(lines: Sequence[str], limit: int) -> str:
    """Join lines, dropping the oldest ones first when they do not fit (the latest matter most)."""
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        line = clip(line, limit)
        if used + len(line) + 1 > limit:
            kept.append("…")
            break
        kept.append(line)
        used += len(line) + 1
    return "\n".join(reversed(kept))


def game_label(table: Table, game: Game[Any, Any]) -> str:
    return tr("{game} #{number}", game=tr(game.title), number=table.id)


def game_title(name: str) -> str:
    """A game's title from its name (the name itself if the game is no longer installed)."""
    try:
        return tr(get_game(name).title)
    except GameError:
        return name


def thread_url(table: Table) -> str | None:
    channel = table.thread_id or table.channel_id
    if channel is None:
        return None
    if table.guild_id is None:
        return f"https://discord.com/channels/@me/{channel}"
    return f"https://discord.com/channels/{table.guild_id}/{channel}"


def lobby_url(table: Table) -> str | None:
    if table.guild_id is None or table.channel_id is None or table.message_id is None:
        return None
    return f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{table.message_id}"


def mention(user_id: str) -> str:
    return f"<@{user_id}>"


def timestamp(at: float, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone ("in 3 hours")."""
    return f"<t:{int(at)}:{style}>"


def speed_text(speed_name: str) -> str:
    """ "Daily: about 2 moves a day (...); rated" for the lobby and the board."""
    speed = SPEEDS.get(speed_name)
    if speed is None:
        return speed_name
    if not speed.rated:
        return tr(speed.label)
    return tr("{speed}; rated when every seat is a person", speed=tr(speed.label))


def seat_line(table: Table, index: int, number: int | None = None) -> str:
    """A seat with its number: the lobby's order until the game has drawn its seating."""
    seat = table.seats[index]
    number = index + 1 if number is None else number
    if seat.is_ai:
        return f"{number}. {seat.name} · {tr(level_label(seat.ai_kind))}"
    if seat.user_id == table.host:
        return tr("{number}. {player} (host)", number=number, player=mention(seat.user_id or ""))
    return f"{number}. {mention(seat.user_id or '')}"


def player_count_text(game: Game[Any, Any]) -> str:
    if game.min_players == game.max_players:
        return tr_n("{n} player", "{n} players", game.min_players)
    return tr("{low}-{high} players", low=game.min_players, high=game.max_players)


def options_text(game: Game[Any, Any], options: dict[str, Any]) -> str:
    """Every option of the game that applies with the others' values, with its value for this
    table (defaults filled in): ``target_score`` is not shown for a match of a number of hands."""
    lines = []
    chosen = {option.name: options.get(option.name, option.default) for option in game.options}
    for option in game.options:
        if not option.applies(None, chosen):  # the player count may still change in a lobby
            continue
        value = chosen[option.name]
        setting = f"`{option.name}={_option_value(value)}`"
        if option.house_rule:
            lines.append(tr("{setting} (house rule): {description}", setting=setting, description=tr(option.description)))
        else:
            lines.append(f"{setting}: {tr(option.description)}")
    if "deck" in options:
        lines.append(tr("`deck`: stacked (a fixed card order)"))
    return clip("\n".join(lines), FIELD_LIMIT) if lines else tr_ctx("options", "none")


def _option_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def lobby_embed(table: Table, game: Game[Any, Any]) -> discord.Embed:
    status = tr(
        {
            LOBBY: N_("Waiting for players: press **Join**. The host adds AI seats and starts."),
            RUNNING: N_("Started."),
            FINISHED: N_("Finished."),
            ABANDONED: N_("Cancelled."),
        }[table.status]
    )
    if table.rematch_of is not None and table.status == LOBBY:
        rematch = tr("A rematch of game #{number}: its players sit one place round.", number=table.rematch_of)
        status = f"{status} {rematch}"
    colour = LOBBY_COLOUR if table.status == LOBBY else CANCELLED_COLOUR
    embed = discord.Embed(title=tr("{game}: lobby", game=game_label(table, game)), description=status, colour=colour)
    seats = "\n".join(seat_line(table, index) for index in range(len(table.seats))) or tr("nobody yet")
    embed.add_field(
        name=tr("Seats ({count}; {players})", count=len(table.seats), players=player_count_text(game)),
        value=clip(seats, FIELD_LIMIT),
        inline=False,
    )
    if game.players_note:
        embed.add_field(
            name=tr("Rules by player count"), value=clip(tr(game.players_note), FIELD_LIMIT), inline=False
        )
    embed.add_field(name=tr_ctx("embed", "Options"), value=options_text(game, table.options), inline=False)
    embed.add_field(name=tr_ctx("embed", "Speed"), value=speed_text(table.speed), inline=False)
    embed.add_field(
        name=tr("Abandon by vote"),
        value=tr(ABANDON_RULE_TEXT[table.abandon_rule]) if table.abandon_rule in ABANDON_RULE_TEXT else table.abandon_rule,
        inline=False,
    )
    return embed


ABANDON_RULE_TEXT = {
    UNANIMOUS: N_("every player must vote (`/game abandon`)"),
    HOST_MAJORITY: N_("the host and a majority of the players (`/game abandon`)"),
}


def started_embed(table: Table, game: Game[Any, Any], seating: Sequence[int] | None = None) -> discord.Embed:
    """The lobby message once the game started: its seats in play order, numbered as the board
    numbers them (``Game.seating``)."""
    description = (
        tr("The game is played in {thread}.", thread=f"<#{table.thread_id}>")
        if table.thread_id
        else tr("The game is played in this channel.")
    )
    embed = discord.Embed(
        title=tr("{game}: started", game=game_label(table, game)), description=description, colour=BOARD_COLOUR
    )
    order = presentation.play_order(seating, len(table.seats))
    seats = "\n".join(seat_line(table, index, place + 1) for place, index in enumerate(order))
    embed.add_field(name=tr_ctx("embed", "Seats"), value=clip(seats, FIELD_LIMIT), inline=False)
    return embed


def cancelled_embed(table: Table, game: Game[Any, Any], by_user: str) -> discord.Embed:
    return discord.Embed(
        title=tr("{game}: cancelled", game=game_label(table, game)),
        description=tr("Cancelled by {player}.", player=mention(by_user)),
        colour=CANCELLED_COLOUR,
    )


def board_embed(
    table: Table,
    game: Game[Any, Any],
    board: str,
    clocks: Sequence[SeatClockView] = (),
    *,
    limit: int = DESCRIPTION_LIMIT,
) -> discord.Embed:
    """The public board (the referee adds a line of every seat's clock at timed tables); the
    seats to move get a live "runs out in ..." that Discord keeps up to date."""
    colour = OVER_COLOUR if table.status == FINISHED else BOARD_COLOUR
    description = code_block(board, limit, CUT_NOTE)
    embed = discord.Embed(title=game_label(table, game), description=description, colour=colour)
    running = [view for view in clocks if view.running and view.deadline is not None and not view.absent]
    if running:
        lines = [
            tr("{player}: out of time (the others may skip the seat)", player=view.name)
            if view.ran_out
            else tr(
                "{player}: {left}, runs out {when}",
                player=view.name,
                left=presentation.time_left(view),
                when=timestamp(view.deadline or 0),
            )
            for view in running
        ]
        embed.add_field(name=tr_ctx("embed", "Clock"), value=clip("\n".join(lines), FIELD_LIMIT), inline=False)
    speed = SPEEDS.get(table.speed)
    footer = move_footer(table.version)
    if speed is not None and speed.timed:
        footer = f"{tr(speed.label)} · {footer}"
    embed.set_footer(text=footer)
    return embed


def move_footer(version: int) -> str:
    # Translators: an embed's footer; keep the number LAST (readers take the version from the end).
    return tr("move {version}", version=version)


def board_embeds(
    table: Table,
    game: Game[Any, Any],
    board: str,
    clocks: Sequence[SeatClockView] = (),
    extra: Sequence[discord.Embed] = (),
) -> tuple[list[discord.Embed], list[discord.File]]:
    """The board's embed followed by ``extra`` ones, within Discord's limits: a board too long
    for them is cut in the embed and attached whole as a text file."""
    limit = DESCRIPTION_LIMIT
    embed = board_embed(table, game, board, clocks, limit=limit)
    excess = embeds_total([embed, *extra]) - EMBEDS_LIMIT
    if excess > 0:
        limit -= excess
        embed = board_embed(table, game, board, clocks, limit=limit)
    files = [] if fits_block(board, limit) else [text_file(board, f"{game.name}-{table.id}-board.txt")]
    return [embed, *extra], files


def rating_line(change: RatingChange) -> str:
    before, after = change.before.ordinal, change.after.ordinal
    line = f"{change.name}: {before:.1f} → {after:.1f} ({after - before:+.1f})"
    return tr("{rating} (provisional)", rating=line) if change.provisional else line


def rating_changes_embed(changes: Sequence[RatingChange]) -> discord.Embed:
    season = changes[0].season if changes else None  # a season's ratings say which season
    return discord.Embed(
        title=clip(tr("Rating changes") + (f" · {season}" if season else ""), 256),
        description=clip("\n".join(rating_line(change) for change in changes), DESCRIPTION_LIMIT),
        colour=OVER_COLOUR,
    )


def unrated_reason(result: GameResult) -> str:
    """Why a finished game changed no rating."""
    if result.board == FRIENDLY_BOARD:
        return tr("Unrated: an untimed game for friends.")
    if result.board in (SOLO_BOARD, WITH_AI_BOARD):
        return tr("Unrated: a game with AI seats or a single player (it counts for high scores).")
    if result.board == STACKED_BOARD:
        return tr("Unrated: a stacked deal (it counts for no board).")
    if result.board == ABANDONED_BOARD:
        return tr("Unrated: abandoned by its players' vote.")
    return tr("Unrated.")


def outcome_text(table: Table, outcome: Outcome) -> str:
    """The final scores, best first, with each seat's team as the local table shows it."""
    return clip(presentation.outcome_text(outcome, [seat.name for seat in table.seats]), DESCRIPTION_LIMIT)


DMS_CLOSED_NOTE = N_("Your DMs are closed, so clock reminders reach you only here.")  # on the board
DMS_CLOSED_PRIVATE_NOTE = N_("Your DMs are closed, so clock reminders reach you only here and on the board.")


def board_tail(
    table: Table,
    to_act: Iterable[int],
    *,
    finished: bool = False,
    clocks: Sequence[SeatClockView] = (),
    dms_closed: Iterable[str] = (),
) -> str:
    """The end of the text above a board: game over, or who must act now (the only mentions),
    then, at a timed table, the clock of each one whose DMs are closed (``dms_closed``: no
    reminder reaches them, so this is where they see it) or who ran out or was skipped."""
    if finished:
        return tr("**Game over.**")
    users = humans_to_act(table, to_act)
    if not users:
        return ""
    lines = [
        tr(
            "{players}: your turn; press **Play your turn** below for your hand and your moves.",
            players=" ".join(mention(user) for user in users),
        )
    ]
    by_seat = {view.seat: view for view in clocks}
    closed = set(dms_closed)
    for index in dict.fromkeys(to_act):
        seat, view = table.seats[index], by_seat.get(index)
        if view is None or seat.is_ai or not seat.user_id:
            continue
        warning = clock_warning(view)
        if seat.user_id in closed and warning:
            lines.append(f"{mention(seat.user_id)}: {warning} {tr(DMS_CLOSED_NOTE)}")
        elif warning and (view.ran_out or view.absent):  # the others read it too: they may skip, or wait
            lines.append(f"{mention(seat.user_id)}: {warning}")
    return "\n".join(lines)


def clock_warning(view: SeatClockView) -> str:
    """A seat's clock in its player's words ("your clock: 2h 05m left, runs out in 2 hours; ..."),
    for the board's ping line and their private view; empty when there is nothing to say."""
    if view.forfeited:
        return ""
    if view.absent:
        return tr("you were skipped: play a move, or press **I'm back**, to take your seat again.")
    if view.ran_out:
        return tr("your clock ran out: play now, or you may be skipped.")
    if view.running and view.deadline is not None:
        return tr(
            "your clock: {left}, runs out {when}; then you may be skipped.",
            left=presentation.time_left(view),
            when=timestamp(view.deadline),
        )
    return ""


def ran_out_text(table: Table, game: Game[Any, Any], *, skipped: bool, game_waits: bool) -> str:
    """The private notice to a player whose clock ran out (``skipped``: and whose seat was skipped;
    ``game_waits``: nobody else plays, so the game waits for them rather than an AI)."""
    label = f"**{game_label(table, game)}**"
    if not skipped:
        return tr(
            "{game}: you ran out of time. Play now to keep your seat: "
            "the other players may skip you, and an AI would play for you.",
            game=label,
        )
    if game_waits:
        speed = SPEEDS.get(table.speed)
        if speed is not None and speed.bank is not None:
            return tr(
                "{game}: you ran out of time and were skipped; the game waits for you. Play a move, or press "
                "**I'm back**, within a further full bank ({bank}), or you forfeit.",
                game=label,
                bank=format_duration(speed.bank),
            )
        return tr(
            "{game}: you ran out of time and were skipped; the game waits for you. Play a move, or press "
            "**I'm back**, within a further full bank, or you forfeit.",
            game=label,
        )
    return tr(
        "{game}: you ran out of time and were skipped; an AI plays for you now. Press **I'm back** "
        "(or play a move) to take your seat again.",
        game=label,
    )


def humans_to_act(table: Table, to_act: Iterable[int]) -> list[str]:
    """The users of the seats to act that a person plays (not AI seats)."""
    named = [table.seats[index].user_id for index in to_act if not table.seats[index].is_ai]
    return [user for user in named if user]


def log_fits(log_lines: Sequence[str], tail: str) -> bool:
    """Whether the whole log goes above the board, in the board's message."""
    return len("\n".join([*log_lines, tail])) <= CONTENT_LIMIT


def log_messages(log_lines: Sequence[str], limit: int = CONTENT_LIMIT) -> list[str]:
    """A long log as whole lines packed into as few messages as fit (a line too long is cut)."""
    return line_chunks("\n".join(log_lines), limit)


def board_content(
    table: Table,
    log_lines: Sequence[str],
    to_act: Iterable[int],
    *,
    finished: bool = False,
    clocks: Sequence[SeatClockView] = (),
    dms_closed: Iterable[str] = (),
) -> str:
    """The text above a board: what happened, then who must act now (the only mentions).

    A log too long for the message loses its oldest lines here; the desk sends such a log in
    messages of its own first (see ``log_fits``), so this cut is a last resort."""
    tail = board_tail(table, to_act, finished=finished, clocks=clocks, dms_closed=dms_closed)
    if log_fits(log_lines, tail):
        return "\n".join(part for part in [*log_lines, tail] if part)
    room = CONTENT_LIMIT - len(tail) - 1
    return "\n".join(part for part in [clip_lines_from_start(list(log_lines), room), tail] if part)


def private_embed(
    table: Table, game: Game[Any, Any], private_text: str, log_lines: Sequence[str] = ()
) -> discord.Embed:
    """One seat's private view (its hand); shown only by DM or ephemerally."""
    url = thread_url(table)
    head = _private_head(log_lines)
    embed = discord.Embed(
        title=f"{game_label(table, game)}{tr(PRIVATE_TITLE_END)}",
        url=url,
        description=head + code_block(private_text, DESCRIPTION_LIMIT - len(head), CUT_NOTE),
        colour=PRIVATE_COLOUR,
    )
    if url:
        embed.add_field(name=tr("Game thread"), value=url, inline=False)
    embed.set_footer(text=move_footer(table.version))
    return embed


def private_files(
    table: Table, game: Game[Any, Any], private_text: str, log_lines: Sequence[str] = ()
) -> list[discord.File]:
    """The whole private view as a file, when ``private_embed`` had to cut it."""
    if fits_block(private_text, DESCRIPTION_LIMIT - len(_private_head(log_lines))):
        return []
    return [text_file(private_text, f"{game.name}-{table.id}-your-hand.txt")]


def _private_head(log_lines: Sequence[str]) -> str:
    return clip_lines_from_start(list(log_lines), LOG_LIMIT) + "\n" if log_lines else ""


def shown_private_view(embeds: Sequence[discord.Embed]) -> str | None:
    """The private view shown on a message (the code block of its last "your hand" embed)."""
    for embed in reversed(embeds):
        if (embed.title or "").endswith(_private_title_ends()):
            match = _BLOCK.search(embed.description or "")
            return match.group(1) if match else None
    return None


def _private_title_ends() -> tuple[str, ...]:
    """The end of a private view's title in every language: a view shown before the reader
    changed language is still found."""
    ends = []
    for code in CODES:
        with use_language(code):
            ends.append(tr(PRIVATE_TITLE_END))
    return tuple(ends)


def rules_embed(game: Game[Any, Any]) -> discord.Embed:
    """/rules: the summary, then how to write moves (monospace, so its columns line up, in as
    many fields as it takes), then the options; within an embed's 6000 characters."""
    embed = discord.Embed(title=tr("{game}: rules", game=tr(game.title)))
    players = player_count_text(game) + (f"\n{tr(game.players_note)}" if game.players_note else "")
    embed.add_field(name=tr_ctx("embed", "Players"), value=clip(players, FIELD_LIMIT), inline=False)
    if game.notation_help:
        pieces = line_chunks(tr(game.notation_help), FIELD_LIMIT - len("```\n\n```"))
        for index, piece in enumerate(pieces[:20]):
            name = tr("Writing moves (/play)") if index == 0 else tr("Writing moves (continued)")
            embed.add_field(name=name, value=code_block(piece, FIELD_LIMIT), inline=False)
    if game.options:
        embed.add_field(
            name=tr("Options (/game new ... options: NAME=VALUE)"), value=options_text(game, {}), inline=False
        )
    room = min(DESCRIPTION_LIMIT, EMBEDS_LIMIT - embeds_total([embed]))
    embed.description = clip(tr(game.summary) if game.summary else tr("No summary yet."), room)
    return embed


def line_chunks(text: str, limit: int) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut between lines (a longer line is cut)."""
    pieces: list[str] = []
    current: list[str] = []
    for line in text.splitlines():
        line = clip(line, limit)
        if current and len("\n".join([*current, line])) > limit:
            pieces.append("\n".join(current))
            current = []
        current.append(line)
    if current:
        pieces.append("\n".join(current))
    return pieces


STATUS_TEXT = {LOBBY: N_("lobby"), RUNNING: N_("running"), FINISHED: N_("finished"), ABANDONED: N_("cancelled")}


def status_text(status: str) -> str:
    return tr(STATUS_TEXT[status]) if status in STATUS_TEXT else status


def table_summary_line(table: Table, game: Game[Any, Any]) -> str:
    players = ", ".join(seat.name for seat in table.seats)
    label = f"**{game_label(table, game)}**"
    if table.status == LOBBY:
        where = lobby_url(table) or status_text(LOBBY)
        return tr(
            "{game}: lobby, {count} seated ({players}) · {speed} {where}",
            game=label, count=len(table.seats), players=players, speed=table.speed, where=where,
        ).rstrip()
    where = f"<#{table.thread_id}>" if table.thread_id else ""
    speed = f" · {table.speed}" if table.speed in SPEEDS else ""
    status = status_text(table.status)
    return tr(
        "{game}: {status}, move {version} ({players}){speed} {where}",
        game=label, status=status, version=table.version, players=players, speed=speed, where=where,
    ).rstrip()
