"""The bot in its readers' languages on the simulated Discord (cogs/language.py, cogs/translator.py).

- The slash commands' descriptions and choices reach Discord translated in the sync payload,
  their names stay English (``/play`` everywhere).
- Each player reads their private texts in their language: their ``/settings language`` choice,
  else their Discord client's (the interaction's locale); the server's posts are in the server's
  language: its ``/settings server-language`` choice, else its preferred locale.
- A whole game played by people whose client is in Italian, Brazilian Portuguese or Japanese, on a
  server in that language, shows them no English text of the front end: no English message of
  cogs/ reached them untranslated, and the front end's own frame (titles, fields, footers,
  buttons, menus) has no English word left (tests/i18n/english.py), names and notation aside.

SimCord sends every interaction with the locale en-US: ``locales`` gives each user their own and
each interaction its server's preferred locale, as Discord does.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Iterator
from functools import cache
from typing import Any

import discord
import pytest
import simcord
import simcord.interactions

from cogs.translator import CatalogueTranslator, translated
from engine.games import get_game
from engine.i18n import tr, use_language
from engine.referee import HEARTBEAT_SECONDS, SPEEDS, Outbox
from tools.messages import extract

from ..i18n.english import english_fragments
from ..i18n.game_texts import notation_words
from .helpers import (
    choose_in_private_message,
    components,
    dm_messages,
    stored_bot_messages,
    text_of,
)
from .whole_games import wanted_move

DISCORD_LOCALE = {"it": "it", "pt_BR": "pt-BR", "ja": "ja"}
# Every game in every language, as short as it plays.
GAMES = {
    "figures": "match_end=hands number_of_hands=1",
    "orchard": None,
    "granja": None,
    "vegetables": None,
}


@pytest.fixture
def locales(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[int, str]]:
    """user id -> Discord locale of their client; every interaction also carries its server's."""
    chosen: dict[int, str] = {}
    original = simcord.interactions.base_payload

    def with_locales(backend: Any, **kwargs: Any) -> Any:
        record, payload = original(backend, **kwargs)
        payload["locale"] = chosen.get(kwargs["user_id"], "en-US")
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", with_locales)
    yield chosen


def server(env: simcord.Env, locale: str, names: list[str], locales: dict[int, str], user_locale: str | None = None):
    guild = env.create_guild("Tavolo", preferred_locale=locale)
    channel = guild.create_text_channel("giochi")
    managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    people = []
    for index, name in enumerate(names):
        member = guild.add_member(env.create_user(name), roles=[managers] if index == 0 else [])
        locales[member.id] = user_locale or locale
        people.append(member)
    return guild, channel, people


# ----- the commands ---------------------------------------------------------------------------------


def synced_commands(env: simcord.Env) -> list[dict[str, Any]]:
    [sync] = [request for request in env.http_requests if request.method == "PUT" and "/commands" in request.path]
    return sync.json


def walk(command: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield command
    for option in command.get("options") or []:
        yield from walk(option)


async def test_the_commands_are_synced_with_their_texts_in_every_language(world) -> None:
    commands = synced_commands(world.env)
    play = next(command for command in commands if command["name"] == "play")
    for code, locale in DISCORD_LOCALE.items():
        with use_language(code):
            assert play["description_localizations"][locale] == tr(
                "Play a move (autocomplete lists your legal moves)"
            )
        assert play["description_localizations"][locale] != play["description"]
    checked = 0
    localised: set[tuple[str, Any]] = set()
    for command in commands:
        for item in walk(command):
            # Names stay English (typed and quoted everywhere); the descriptions are translated.
            assert not item.get("name_localizations"), item["name"]
            for code, locale in DISCORD_LOCALE.items():
                text = (item.get("description_localizations") or {}).get(locale)
                assert text, f"{item['name']}: no {locale} description"
                with use_language(code):  # whole, not cut by the translator to Discord's 100
                    assert 1 <= len(tr(item["description"])) <= 100, tr(item["description"])
                checked += 1
            for choice in item.get("choices") or []:
                # The referee's own texts (speeds, levels, limits, carries) are translated once
                # it marks them; the languages' names are their own in every language.
                for text in (choice.get("name_localizations") or {}).values():
                    assert 1 <= len(text) <= 100, choice
                localised.update((item["name"], choice["value"]) for _ in choice.get("name_localizations") or [])
    assert checked > 150
    assert {("abandon", "unanimous"), ("abandon", "host-majority"), ("language", "auto")} <= localised, localised
    new = next(command for command in commands if command["name"] == "game")
    [abandon] = [o for o in new["options"][0]["options"] if o["name"] == "abandon"]
    assert abandon["choices"][0]["name_localizations"]["it"].startswith("Unanimità")


async def test_the_translator_leaves_english_and_unknown_languages_to_the_default() -> None:
    translator = CatalogueTranslator()
    text = discord.app_commands.locale_str("Post the current board again")
    context = discord.app_commands.TranslationContext(
        discord.app_commands.TranslationContextLocation.command_description, None
    )
    assert await translator.translate(text, discord.Locale.american_english, context) is None
    assert await translator.translate(text, discord.Locale.german, context) is None
    assert await translator.translate(text, discord.Locale.japanese, context) == translated(text, "ja")
    name = discord.app_commands.TranslationContext(discord.app_commands.TranslationContextLocation.command_name, None)
    assert await translator.translate(discord.app_commands.locale_str("board"), discord.Locale.italian, name) is None


# ----- whose language ------------------------------------------------------------------------------


async def test_private_replies_follow_the_reader_and_public_posts_the_server(world, locales) -> None:
    env = world.env
    _guild, channel, (host, guest) = server(env, "it", ["mara", "kenji"], locales)
    locales[guest.id] = "ja"
    rules = await guest.slash(channel, "rules", game="figures")
    assert rules.ephemeral and rules.response.embeds[0].title.endswith("：ルール")  # the reader's client
    lobby = await guest.slash(channel, "game new", game="figures")
    assert not lobby.ephemeral
    assert lobby.response.embeds[0].title.endswith(": sala d'attesa")  # the server's preferred locale
    # The guest chooses Portuguese for themself: their private replies follow, the server's posts do not.
    chosen = await guest.slash(channel, "settings language", language="pt_BR")
    assert chosen.response.content == "Suas respostas, mãos e DMs agora estão em Português (Brasil)."
    rules = await guest.slash(channel, "rules", game="figures")
    assert rules.response.embeds[0].title.endswith(": regras")
    refused = await guest.slash(channel, "settings server-language", language="ja")
    assert refused.ephemeral and "Gerenciar servidor" in refused.response.content
    # A manager sets the server's language: its posts change, and so does a new lobby.
    changed = await host.slash(channel, "settings server-language", language="ja")
    assert "日本語" in changed.response.content
    lobby = await host.slash(channel, "game new", game="orchard")
    assert lobby.response.embeds[0].title.endswith("：ロビー")
    joined = await guest.click(lobby.response, custom_id=f"ref:lobby:{lobby_id(lobby.response)}:join")
    assert joined.response.message.embeds[0].title.endswith("：ロビー")  # the lobby stays the server's
    # Auto again: the guest's client (ja), the server's preferred locale (it).
    await guest.slash(channel, "settings language", language="auto")
    assert (await guest.slash(channel, "rules", game="orchard")).response.embeds[0].title.endswith("：ルール")
    await host.slash(channel, "settings server-language", language="auto")
    lobby = await host.slash(channel, "game new", game="vegetables")
    assert lobby.response.embeds[0].title.endswith(": sala d'attesa")
    # Stored: a new referee reads the same choices.
    referee = env.bot.referee
    await referee.user_settings.set_language(str(guest.id), "it")
    assert await type(referee)(referee.store).user_settings.language(str(guest.id)) == "it"


def lobby_id(message: Any) -> int:
    title = message.embeds[0].title if not isinstance(message.embeds[0], dict) else message.embeds[0]["title"]
    return int(re.search(r"#(\d+)", title).group(1))


# ----- a whole game in each language -------------------------------------------------------------------


@cache
def front_end_fragments(code: str) -> tuple[tuple[str, str], ...]:
    """The fixed English pieces (between fields, of three words or more) of every message of the
    Discord front end, with the message they come from, for the messages translated differently."""
    pieces: list[tuple[str, str]] = []
    for message in extract():
        if not message.id or not any(path.startswith(("cogs/", "bot.py")) for path, _ in message.locations):
            continue
        texts = message.id if isinstance(message.id, tuple) else (message.id,)
        with use_language(code):
            if tr(texts[0]) == texts[0] and message.context is None:
                continue
        for text in texts:
            for literal, *_ in string.Formatter().parse(text):
                for piece in re.split(r"[*`]+", literal or ""):
                    piece = piece.strip(" .,:;()")
                    if len(piece.split()) >= 3:
                        pieces.append((piece, text))
    return tuple(pieces)


# The keys of an embed or a component whose values a reader sees (not ids, urls or types).
SHOWN_KEYS = {"title", "description", "name", "value", "text", "label", "placeholder"}


def shown_text(message: Any) -> str:
    """What a reader sees of a stored message: its content, and the visible strings of its
    embeds and components."""
    found: list[str] = [message.content or ""]

    def walk(value: Any, key: str | None = None) -> None:
        if isinstance(value, dict):
            for inner_key, inner in value.items():
                walk(inner, inner_key)
        elif isinstance(value, list):
            for item in value:
                walk(item, key)
        elif isinstance(value, str) and key in SHOWN_KEYS:
            found.append(value)

    walk([embed if isinstance(embed, dict) else embed.to_dict() for embed in message.embeds])
    walk(message.components)
    return "\n".join(found)


def frame_texts(message: Any) -> list[str]:
    """The front end's own frame of a message: embed titles, field names, footers, buttons and
    menus (the boards, hands and logs inside are the games' and the referee's texts)."""
    texts = []
    for embed in message.embeds:
        embed = embed if isinstance(embed, dict) else embed.to_dict()
        texts.append(embed.get("title") or "")
        texts.append((embed.get("footer") or {}).get("text") or "")
        texts.extend(field.get("name") or "" for field in embed.get("fields") or [])
    for component in components(message):
        if component.get("custom_id", "").startswith(("ref:mv:", "ref:ms:")):
            continue  # a move's button or menu: notation, and what the game says the move does
        texts.append(component.get("label") or "")
        texts.append(component.get("placeholder") or "")
    return texts


async def play_whole_game(
    env: simcord.Env, channel: simcord.ChannelHandle, people: list[simcord.MemberActor], game: str, options: str | None
) -> int:
    """Open, join, start (by their buttons' ids: no label is English), then every person to act
    opens their hand with /hand and plays the move the game's AI would, until the game ends."""
    arguments: dict[str, Any] = {"game": game}
    if options:
        arguments["options"] = options
    lobby = (await people[0].slash(channel, "game new", **arguments)).response
    table_id = lobby_id(lobby)
    for person in people[1:]:
        await person.click(lobby, custom_id=f"ref:lobby:{table_id}:join")
    await people[0].click(lobby, custom_id=f"ref:lobby:{table_id}:start")
    [thread] = channel.threads
    referee = env.bot.referee
    rng = random.Random(5)
    by_user = {str(person.id): person for person in people}
    moves = 0
    while (table := await referee.table(table_id)).status == "running":
        to_act = [table.seats[index].user_id for index in await referee.to_act(table_id)]
        acting = [by_user[user] for user in to_act if user in by_user]
        assert acting, "nobody to act"
        for person in acting:
            move = await wanted_move(env_world(env, people), table_id, person, rng)
            if moves % 5 == 4:
                played = await person.slash(thread, "play", move=move)
                assert played.ephemeral
            else:
                hand = await person.slash(thread, "hand")
                chosen, _ = await choose_in_private_message(person, hand.response, lambda offered, m=move: m)
                assert chosen == move
            moves += 1
            assert moves < 600, "the game does not end"
            break  # the others to act are read again from the table
    return table_id


def env_world(env: simcord.Env, people: list[simcord.MemberActor]) -> Any:
    class Bare:  # what whole_games.wanted_move reads of a world
        pass

    bare = Bare()
    bare.env = env  # type: ignore[attr-defined]
    return bare


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("code", ["it", "pt_BR", "ja"])
async def test_a_whole_game_shows_no_english(world, locales, code: str, game: str) -> None:
    env = world.env
    names = ["giulia", "tiago", "haruka", "marco"]
    guild, channel, people = server(env, DISCORD_LOCALE[code], names, locales)
    # Text only: the pictures are drawn from the same texts, and are slow on a busy machine.
    await env.bot.referee.server_settings.set_pictures(str(guild.id), False)
    options = GAMES[game]
    players = people[: max(get_game(game).min_players, 2)]
    table_id = await play_whole_game(env, channel, players, game, options)
    assert (await env.bot.referee.table(table_id)).status == "finished"
    # Every rules page and a refusal in the same language, besides the game's own messages.
    await players[0].slash(channel, "rules", game=game)
    await players[0].slash(channel, "hand")  # no running game left: a refusal of the front end
    await players[0].slash(channel, "turns")
    messages = stored_bot_messages(env)
    seen = "\n".join(text_of(message) for message in messages)
    assert seen
    # No English message of cogs/ reached a player untranslated.
    left = [(source, seen[seen.index(piece) - 80 : seen.index(piece) + 80]) for piece, source in front_end_fragments(code) if piece in seen]
    assert not left, f"English front-end messages shown in {code}: {left[:5]}"
    # And the front end's frame has no English word left (names, notation and game titles aside).
    table = await env.bot.referee.table(table_id)
    allowed = {*names, *(seat.name for seat in table.seats), get_game(game).title, "Discord", "JSON", "ref"}
    with use_language(code):
        allowed.add(tr(get_game(game).title))
    # The speeds' labels are the referee's texts (engine/referee), translated there.
    speeds = [speed.label for speed in SPEEDS.values()]
    with use_language(code):
        speeds += [tr(label) for label in speeds]
    for message in messages:
        for text in frame_texts(message):
            for label in speeds:
                text = text.replace(label, "")
            assert english_fragments(text, code, allowed) == [], text
    # Nor is any English word left in what the players read, boards, hands and logs included
    # (names, notation and commands aside).
    notation = notation_words(game, len(players))
    commands = {"play", "hand", "rules", "turns", "settings", "game", "new", "help"}
    for message in messages:
        text = shown_text(message)
        assert english_fragments(text, code, allowed | notation | commands) == [], text[:1500]


async def test_a_player_reads_their_hand_in_their_language_and_the_board_in_the_servers(world, locales) -> None:
    env = world.env
    guild, channel, (host,) = server(env, "it", ["kenji"], locales, user_locale="ja")
    await env.bot.referee.server_settings.set_pictures(str(guild.id), False)
    lobby = (await host.slash(channel, "game new", game="orchard")).response
    assert lobby.embeds[0].title.endswith(": sala d'attesa")  # public: the server's language
    started = await host.click(lobby, custom_id=f"ref:lobby:{lobby_id(lobby)}:start")
    assert started.response.message.embeds[0].title.endswith(": iniziata")
    [thread] = channel.threads
    # The hand dealt by DM, outside the reader's interaction: in their client's language.
    [dealt] = dm_messages(env, host)
    assert dealt.embeds[0].title.endswith(": あなたの手札")
    board = board_messages(env, thread)[-1]
    assert board.embeds[0]["footer"]["text"].endswith("mossa 0")
    assert "tocca a te" in board.content
    hand = await host.slash(thread, "hand")  # private: the reader's language
    assert hand.ephemeral and hand.response.embeds[0].title.endswith(": あなたの手札")
    assert hand.response.embeds[0].footer.text.endswith("手数 0")
    move = await wanted_move(env_world(env, [host]), lobby_id(lobby), host, random.Random(1))
    played = await host.slash(thread, "play", move=move)
    assert played.response.content.startswith(f"**{move}** を指しました。")
    after_move = board_messages(env, thread)[-1]
    assert after_move.embeds[0]["footer"]["text"].endswith("mossa 1")
    # The move's log line on the board is the server's too, though a Japanese reader made it.
    assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", text_of(after_move)), text_of(after_move)
    # The announcer posts boards outside any interaction (start-up, retries, the clock task's
    # catch-up) through the same call: in English context, the board is still the server's.
    referee = env.bot.referee
    table = await referee.table(lobby_id(lobby))
    outbox = Outbox(table=table, board_changed=True, to_act=list(await referee.to_act(table.id)))
    env.bot.desk.forget_board(table.id)
    message = await env.bot.desk.post_board(outbox)
    posted = board_messages(env, thread)[-1]
    assert posted.id == message.id and posted.embeds[0]["footer"]["text"].endswith("mossa 1")
    assert "tocca a te" in posted.content


def board_messages(env: simcord.Env, thread: simcord.ChannelHandle) -> list[Any]:
    stored = env.backend.messages.get(thread.id, {}).values()
    return sorted(
        (m for m in stored if m.author_id == env.backend.bot_user.id and m.embeds and not m.is_ephemeral),
        key=lambda m: m.id,
    )


async def test_the_clock_task_posts_a_seasons_standings_in_the_servers_language(world, locales) -> None:
    env = world.env
    _guild, channel, (manager,) = server(env, "pt-BR", ["lucia"], locales, user_locale="ja")
    started = await manager.slash(channel, "season start", carry="soft")
    assert started.ephemeral and "が始まりました。" in started.response.content  # the manager's language
    await manager.slash(channel, "season start", carry="continue")
    await env.advance_time(HEARTBEAT_SECONDS)  # the clock task posts the standings owed
    [post] = [m for m in channel.history() if m.author.bot and m.embeds]
    assert post.embeds[0].title.endswith(" terminou: classificação final")
    assert post.embeds[0].description == "Nenhuma partida com rating foi jogada nesta temporada."


async def test_private_lines_are_in_each_readers_language_whatever_the_servers(world, locales, monkeypatch) -> None:
    from engine.core import Event
    from engine.i18n import language

    from .sprint import Sprint

    plain = Sprint.play

    def play(self: Any, state: Any, seat: int, move: Any) -> list[Event]:
        # Two private lines naming the language they are written in: the mover's, and the next seat's.
        others = (seat + 1) % state.players
        return [
            *plain(self, state, seat, move),
            Event(text=f"[{language()}] only {{p{seat}}} reads this", visible_to=(seat,)),
            Event(text=f"[{language()}] only {{p{others}}} reads that", visible_to=(others,)),
        ]

    monkeypatch.setattr(Sprint, "play", play)
    env = world.env
    _, channel, (kenji, maria) = server(env, "pt-BR", ["kenji", "maria"], locales, user_locale="ja")
    locales[maria.id] = "it"
    lobby = (await kenji.slash(channel, "game new", game="sprint")).response
    await maria.click(lobby, custom_id=f"ref:lobby:{lobby_id(lobby)}:join")
    await kenji.click(lobby, custom_id=f"ref:lobby:{lobby_id(lobby)}:start")
    [thread] = channel.threads
    await maria.slash(thread, "settings language", language="it")  # her DMs: her own choice
    dms_before = len(dm_messages(env, maria))
    played = await kenji.slash(thread, "play", move="play a01")
    answer = " ".join([played.response.content or "", *(embed.description or "" for embed in played.response.embeds)])
    assert "[ja] only kenji reads this" in answer and "[pt_BR]" not in answer  # the mover's own answer
    assert "reads that" not in answer
    told = [shown_text(message) for message in dm_messages(env, maria)[dms_before:]]
    assert any("[it] only maria reads that" in text for text in told), told  # the next seat's DM
    assert not any("reads th" in shown_text(message) for message in board_messages(env, thread))
