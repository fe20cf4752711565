"""Plain-text board and private view, in words a first game can read, for a Discord code block.

Goods are spelt out on the farms (``grain 3``, ``barrows: C012 grape+grain✓ 3 VP``: ✓ = already
delivered); the building rows keep the short codes deliveries are written with, and the line
above them says what they mean. Seats are numbered 1-4 (names in the order line); a farm's
fields are counted per crop as full/all; a building row lists what each seat has delivered
(``2:gr,pg``) and who has finished it (``done 3,1``, first finisher first). The private view
does not repeat the legal moves: front ends list them, each with what it does.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from engine.core import format_event
from engine.i18n import SOURCE, join_and, language, tr, tr_ctx, tr_n

from .notation import roof_text
from .terms import building_name, building_short, extension_word, extension_words, good_words, phase_name
from .views import prompt_of, view_prompt
from .words import good_word, goods_words, helper_words

NAME_WIDTH = 10


def goods_legend() -> str:
    """The building rows keep the short codes (they are what a delivery is written with); this
    line on the board says them in words."""
    words = good_words()
    return ", ".join(f"{code} {words[code]}" for code in ("GR", "OL", "GP", "PG", "FD", "WN", "MT", "TG"))


def _name(names: Sequence[str], seat: int) -> str:
    name = names[seat] if seat < len(names) else tr("Seat {n}", n=seat + 1)
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "…"


def roof_abilities(view: dict[str, Any]) -> dict[str, str]:
    """What each roof of the view does, in the current language (the view's own texts may be in
    its reader's)."""
    return {roof: roof_text(roof) for roof in view.get("roof_abilities", {})}


def game_over(names: Sequence[str], winners: Sequence[int]) -> str:
    """"Game over: Ann and Bo win." (the board and its picture)."""
    shown = [_name(names, seat) for seat in winners]
    together = " and ".join(shown) if language() == SOURCE else join_and(shown)
    return tr_n("Game over: {winners} wins.", "Game over: {winners} win.", len(shown), winners=together)


def render_board(view: dict[str, Any], names: Sequence[str]) -> str:
    players = view["players"]
    lines = [
        tr(
            "Granja R{round}/{rounds} · {phase} · deck {deck} · discard {discard}",
            round=view["round"], rounds=view["rounds"], phase=phase_name(view["phase"]),
            deck=view["deck_size"], discard=len(view["discard"]),
        )
    ]
    order = " > ".join(str(seat + 1) for seat in view["order"])
    if view["turn_order"] != view["order"]:  # F4 of round 1 goes in reverse
        roofs = " > ".join(str(seat + 1) for seat in view["turn_order"])
        lines.append(tr("Turn order: {order} (roofs now: {roofs})", order=order, roofs=roofs))
    else:
        lines.append(tr("Turn order: {order}", order=order))
    # The prompt is written again from the view's data: the board may be read in another language
    # than the view was (the public board of a table, the view in its viewer's language).
    lines.append(format_event(view_prompt(view), [_name(names, seat) for seat in range(players)]))
    extras = []
    if view["dice"]:
        extras.append(tr("Dice: {dice}", dice=" ".join(map(str, view["dice"]))))
    if view["roofs_offer"]:
        # Abilities in F4, when roofs are bought; the ids alone otherwise, to keep the board short.
        abilities = roof_abilities(view) if view["phase"] == "F4" else {}
        offer = "; ".join(f"{roof} {abilities.get(roof, '')}".strip() for roof in view["roofs_offer"])
        extras.append(tr("Roofs ({price} $): {roofs}", price=view["roof_price"], roofs=offer))
    if extras:
        lines.append("   ".join(extras))
    lines.append(tr("Buildings (seat:delivered)"))
    for building in view["buildings"]:
        text = f" b{building['number']} {building_short(building['number']):<5} {'+'.join(building['row']):<11}"
        if building["blocked"]:
            text += " " + tr("BLOCKED #{n}", n=building["blocked"])
        if building["finishers"]:
            text += " " + tr("done {seats}", seats=",".join(str(seat + 1) for seat in building["finishers"]))
        progress = [
            f"{seat + 1}:"
            + ",".join(good.lower() for good, done in zip(building["row"], row, strict=True) if done)
            for seat, row in enumerate(building["rows"])
            if any(row)
        ]
        if progress:
            text += " | " + " ".join(progress)
        lines.append(text)
    lines.append(f" ({goods_legend()})")
    lines.extend(_market_map(view["market"]))
    stacks = view["siesta_stacks"]
    siesta = " ".join(
        f"{space}[{','.join(str(seat + 1) for seat in stacks[space])}]"
        for space in sorted(stacks, key=int, reverse=True)
    )
    lines.append(tr("Siesta space[bottom..top]: {stacks}", stacks=siesta))
    for seat in range(players):
        lines.extend(_farm_lines(view["farms"][seat], seat, names, seat in view["to_act"]))
    lines.append(tr("> must act · * used · ✓ delivered · $ silver"))
    if view["over"]:
        lines.append(game_over(names, view["winners"]))
    return "\n".join(lines)


def _market_map(cells: list[dict[str, Any]]) -> list[str]:
    """The hex grid, one text row per axial row r, so that neighbours touch on the page as on the
    board. A hex reads id:value, plus @seat when a marker is on it (05:6@2)."""
    columns = [2 * cell["q"] + cell["r"] for cell in cells]
    left = min(columns)
    rows: dict[int, str] = {}
    for column, cell in sorted(
        zip(columns, cells, strict=True), key=itemgetter(0)
    ):  # stable: ties keep map order
        owner = cell["owner"]
        text = (
            f"{cell['hex'][1:]}:{cell['value']}"
            if owner is None
            else f"{cell['hex'][1:]}:{cell['value']}@{owner + 1}"
        )
        r = cell["r"]
        rows[r] = rows.get(r, "").ljust(4 * (column - left)) + text
    return [tr("Market (hex:value@owner)")] + [" " + rows[r] for r in sorted(rows)]


def _farm_lines(farm: dict[str, Any], seat: int, names: Sequence[str], acting: bool) -> list[str]:
    """A farm in words: points and limits, goods, then fields, barrows, helpers, extensions and
    the rest, each on its own line when there is any."""
    goods = farm["goods"]
    marker = ">" if acting else " "
    head = f"{marker}{seat + 1} {_name(names, seat)}: " + tr(
        "{vp} VP, {silver} $ · hand {hand}/{limit} · income {income} $ · extra deliveries {extra}",
        vp=farm["vp"], silver=farm["silver"], hand=farm["hand_size"], limit=farm["hand_limit"],
        income=farm["income"], extra=farm["extra_delivery_limit"],
    )
    stores = [
        f"{good_word(good)} {goods[good]}"
        for good in ("GR", "OL", "GP", "FD", "WN", "MT", "TG")
        if goods[good]
    ]
    stores.append(tr("pigs {n}/{capacity} spaces", n=goods["PG"], capacity=farm["pig_capacity"]))
    totals = dict.fromkeys(("GR", "OL", "GP"), 0)  # fields per crop, in this order
    full = dict.fromkeys(totals, 0)  # of which hold their crop
    for field in farm["fields"]:
        crop = field["crop"]
        if crop in totals:
            totals[crop] += 1
            full[crop] += field["full"]
    fields = ", ".join(f"{good_word(crop)} {full[crop]}/{total}" for crop, total in totals.items() if total)
    barrows = ", ".join(
        f"{b['card']} {goods_words(b['goods'], b['covered'])} {tr('{n} VP', n=b['vp'])}" for b in farm["barrows"]
    )
    helpers = ", ".join(
        f"{h['card']} {helper_words(h['type'], h['param'])}{'*' if h['used'] else ''}"
        for h in farm["helpers"]
    )
    types = [ext["type"] for ext in farm["extensions"]]
    kinds = extension_words()
    extensions = ", ".join(
        word + (f" x{types.count(kind)}" if types.count(kind) > 1 else "")
        for kind, word in kinds.items()
        if kind in types
    )
    others = []
    if farm["roofs"]:
        roofs = " ".join(f"{roof['id']}{'*' if roof['used'] else ''}" for roof in farm["roofs"])
        others.append(tr("roofs: {roofs}", roofs=roofs))
    if farm["buildings"]:
        others.append(tr("building markers: {markers}", markers=" ".join(f"b{number}" for number in farm["buildings"])))
    if farm["donkeys_used"]:
        donkeys = ",".join(marker[1] for marker in farm["donkeys_used"])
        others.append(tr("donkeys by round: {donkeys}", donkeys=donkeys))
    # Empty parts are left out: an early farm takes two lines, a busy one six.
    lines = [head, "   " + tr("goods: {goods}", goods=", ".join(stores))]
    lines += [
        f"   {label}: {text}"
        for label, text in (
            (tr_ctx("granja board", "fields (full/all)"), fields),
            (tr_ctx("granja board", "barrows"), barrows),
            (tr_ctx("granja board", "helpers"), helpers),
            (tr_ctx("granja board", "extensions"), extensions),
        )
        if text
    ]
    if others:
        lines.append("   " + " · ".join(others))
    return lines


def _card_line(card: dict[str, Any]) -> str:
    return f" {card['card']}  " + tr(
        "field: {field} | barrow: {barrow} = {vp} VP | helper: {helper} | extension: {extension}",
        field=good_word(card["field"]), barrow=goods_words(card["barrow"]), vp=card["barrow_vp"],
        helper=helper_words(card["helper"], card["param"]), extension=extension_word(card["extension"]),
    )


def donkey_marker(marker: str) -> str:
    """"D3 (3 donkeys, 1 hat)"."""
    donkeys = int(marker[1])
    return tr(
        "{marker} ({donkeys}, {hats})",
        marker=marker,
        donkeys=tr_n("{n} donkey", "{n} donkeys", donkeys),
        hats=tr_n("{n} hat", "{n} hats", 4 - donkeys),
    )


def render_private(view: dict[str, Any], names: Sequence[str]) -> str:
    seat = view["seat"]
    farm = view["farms"][seat]
    lines = [tr("Your hand ({n}, limit {limit}):", n=len(view["hand"]), limit=farm["hand_limit"])]
    lines.extend(_card_line(card) for card in view["hand"]) if view["hand"] else lines.append(" " + tr("(empty)"))
    choice = view["choice"]
    secret = []
    for play in choice["plays"]:
        text = f"play {play['card']} {play['position']}"  # notation, the same in every language
        if play["discard"]:
            text = tr("{play} replacing {card}", play=text, card=play["discard"])
        if play["payment"]:
            text = tr("{play} paying {goods}", play=text, goods=" ".join(play["payment"]))
        secret.append(text)
    if choice["donkey"]:
        secret.append(f"donkey {choice['donkey']}" + (f" +{choice['push']}" if choice["push"] else ""))
    if choice["resource"]:
        secret.append(f"{building_name(4)} {choice['resource']}")
    secret.extend(f"flex {entry}" for entry in choice["flex"])
    if secret:
        lines.append(tr("Your secret choice (hidden until the reveal): {choice}", choice="; ".join(secret)))
    if view["phase"] == "T1" or choice["donkey"]:
        markers = ", ".join(donkey_marker(marker) for marker in view["available_donkeys"])
        lines.append(tr("Donkey markers you may choose: {markers}", markers=markers))
    abilities = roof_abilities(view)
    if view["phase"] == "F4" and view["roofs_offer"]:
        offer = "; ".join(f"{roof} {abilities.get(roof, '')}" for roof in view["roofs_offer"])
        lines.append(tr("Roofs on offer ({price} $): {roofs}", price=view["roof_price"], roofs=offer))
    unused = [roof["id"] for roof in farm["roofs"] if not roof["used"]]
    if unused:
        roofs = "; ".join(f"{roof} {abilities.get(roof, '')}" for roof in unused)
        lines.append(tr("Your unused roofs (once each): {roofs}", roofs=roofs))
    # The legal moves are not listed here: every front end lists them already, numbered or as
    # buttons, each with what it does (Game.describe_move).
    lines.append(prompt_of(view["prompt_parts"]))  # in the reader's language, whoever's the view was
    return "\n".join(lines)
