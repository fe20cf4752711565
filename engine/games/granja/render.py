"""Plain-text board and private view, compact enough for a Discord code block at four players.

Conventions on the board: seats are numbered 1-4 (names in the order line); fields are counted
per crop as full/total (``GR1/2``: two grain fields, one holding grain); a used helper or roof is
marked with *; delivered barrow symbols are written in lower case (``GR+ol`` = olive delivered,
grain still needed); a building row lists what each seat has delivered (``2:gr,pg``) and who
has finished it (``done 3,1``, first finisher first); ``bld 41`` on a farm = building markers
of b4 and b1; ``dk 2413`` = donkey markers revealed so far, by round.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from engine.core import format_event

NAME_WIDTH = 10
EXT_SHORT = {"E-DI": "DI", "E-DP": "DP", "E-IP": "IP"}


def _name(names: Sequence[str], seat: int) -> str:
    name = names[seat] if seat < len(names) else f"Seat {seat + 1}"
    return name if len(name) <= NAME_WIDTH else name[: NAME_WIDTH - 1] + "…"


def _symbols(goods: Sequence[str], covered: Sequence[bool]) -> str:
    return "+".join(good.lower() if done else good for good, done in zip(goods, covered, strict=True))


def _helper(helper: dict[str, Any]) -> str:
    param = {"silver": "$", "crop": "crop", "vp": "VP"}.get(helper["param"], helper["param"])
    shown = f"[{param}]" if param else ""
    return f"{helper['card']}:{helper['type']}{shown}{'*' if helper['used'] else ''}"


def render_board(view: dict[str, Any], names: Sequence[str]) -> str:
    players = view["players"]
    lines = [
        f"Granja R{view['round']}/{view['rounds']} · {view['phase_name']} · "
        f"deck {view['deck_size']} · discard {len(view['discard'])}"
    ]
    order = "Turn order: " + " > ".join(str(seat + 1) for seat in view["order"])
    if view["turn_order"] != view["order"]:  # F4 of round 1 goes in reverse
        order += " (roofs now: " + " > ".join(str(seat + 1) for seat in view["turn_order"]) + ")"
    lines.append(order)
    lines.append(format_event(view["prompt"], [_name(names, seat) for seat in range(players)]))
    extras = []
    if view["dice"]:
        extras.append("Dice: " + " ".join(map(str, view["dice"])))
    if view["roofs_offer"]:
        # Abilities in F4, when roofs are bought; the ids alone otherwise, to keep the board short.
        abilities = view.get("roof_abilities", {}) if view["phase"] == "F4" else {}
        extras.append(f"Roofs ({view['roof_price']} $): "
                      + "; ".join(f"{roof} {abilities.get(roof, '')}".strip() for roof in view["roofs_offer"]))
    if extras:
        lines.append("   ".join(extras))
    lines.append("Buildings (seat:delivered)")
    for building in view["buildings"]:
        text = f" b{building['number']} {building['short']:<5} {'+'.join(building['row']):<11}"
        if building["blocked"]:
            text += f" BLOCKED #{building['blocked']}"
        if building["finishers"]:
            text += " done " + ",".join(str(seat + 1) for seat in building["finishers"])
        progress = [
            f"{seat + 1}:" + ",".join(good.lower() for good, done in zip(building["row"], row, strict=True) if done)
            for seat, row in enumerate(building["rows"])
            if any(row)
        ]
        if progress:
            text += " | " + " ".join(progress)
        lines.append(text)
    lines.extend(_market_map(view["market"]))
    stacks = view["siesta_stacks"]
    siesta = " ".join(
        f"{space}[{','.join(str(seat + 1) for seat in stacks[space])}]"
        for space in sorted(stacks, key=int, reverse=True)
    )
    lines.append(f"Siesta space[bottom..top]: {siesta}")
    for seat in range(players):
        lines.extend(_farm_lines(view["farms"][seat], seat, names, seat in view["to_act"]))
    if view["over"]:
        winners = " and ".join(_name(names, seat) for seat in view["winners"])
        lines.append(f"Game over: {winners} win{'s' if len(view['winners']) == 1 else ''}.")
    return "\n".join(lines)


def _market_map(cells: list[dict[str, Any]]) -> list[str]:
    """The hex grid, one text row per axial row r, so that neighbours touch on the page as on the
    board. A hex reads id:value, plus @seat when a marker is on it (05:6@2)."""
    columns = [2 * cell["q"] + cell["r"] for cell in cells]
    left = min(columns)
    rows: dict[int, str] = {}
    for column, cell in sorted(zip(columns, cells, strict=True), key=itemgetter(0)):  # stable: ties keep map order
        owner = cell["owner"]
        text = f"{cell['hex'][1:]}:{cell['value']}" if owner is None else f"{cell['hex'][1:]}:{cell['value']}@{owner + 1}"
        r = cell["r"]
        rows[r] = rows.get(r, "").ljust(4 * (column - left)) + text
    return ["Market (hex:value@owner)"] + [" " + rows[r] for r in sorted(rows)]


def _farm_lines(farm: dict[str, Any], seat: int, names: Sequence[str], acting: bool) -> list[str]:
    goods = farm["goods"]
    stores = " ".join(f"{good}{goods[good]}" for good in ("GR", "OL", "GP", "FD", "WN", "MT") if goods[good])
    marker = ">" if acting else " "
    head = (
        f"{marker}{seat + 1} {_name(names, seat)} {farm['vp']}VP {farm['silver']}$ TG{goods['TG']} "
        f"PG{goods['PG']}/{farm['pig_capacity']}{' ' + stores if stores else ''} | hand {farm['hand_size']}/{farm['hand_limit']}"
        f" xd{farm['extra_delivery_limit']} inc{farm['income']}"
    )
    if farm["buildings"]:
        head += " | bld " + "".join(map(str, farm["buildings"]))
    if farm["donkeys_used"]:
        head += " | dk " + "".join(marker[1] for marker in farm["donkeys_used"])
    totals = dict.fromkeys(("GR", "OL", "GP"), 0)  # fields per crop, in this order
    full = dict.fromkeys(totals, 0)  # of which hold their crop
    for field in farm["fields"]:
        crop = field["crop"]
        if crop in totals:
            totals[crop] += 1
            full[crop] += field["full"]
    fields = " ".join(f"{crop}{full[crop]}/{total}" for crop, total in totals.items() if total) or "-"
    barrows = " ".join(f"{b['card']}[{_symbols(b['goods'], b['covered'])}]{b['vp']}" for b in farm["barrows"]) or "-"
    line2 = f"   fld {fields} | brw {barrows}"
    helpers = " ".join(_helper(helper) for helper in farm["helpers"]) or "-"
    types = [EXT_SHORT[ext["type"]] for ext in farm["extensions"]]
    extensions = " ".join(f"{kind}{types.count(kind)}" for kind in ("DI", "DP", "IP") if kind in types) or "-"
    roofs = " ".join(f"{roof['id'][1]}{roof['id'][3]}{'*' if roof['used'] else ''}" for roof in farm["roofs"]) or "-"
    line3 = f"   hlp {helpers} | ext {extensions} | roof {roofs}"
    return [head, line2, line3]


def _card_line(card: dict[str, Any]) -> str:
    param = f" ({card['param']})" if card["param"] else ""
    return (
        f" {card['card']}  field {card['field']} | barrow {'+'.join(card['barrow'])} = {card['barrow_vp']} VP"
        f" | helper {card['helper']} {card['helper_label']}{param} | ext {card['extension']}"
    )


def render_private(view: dict[str, Any], names: Sequence[str]) -> str:
    seat = view["seat"]
    farm = view["farms"][seat]
    lines = [f"Your hand ({len(view['hand'])}, limit {farm['hand_limit']}):"]
    lines.extend(_card_line(card) for card in view["hand"]) if view["hand"] else lines.append(" (empty)")
    choice = view["choice"]
    secret = []
    for play in choice["plays"]:
        text = f"play {play['card']} {play['position']}"
        if play["discard"]:
            text += f" replacing {play['discard']}"
        if play["payment"]:
            text += " paying " + " ".join(play["payment"])
        secret.append(text)
    if choice["donkey"]:
        secret.append(f"donkey {choice['donkey']}" + (f" +{choice['push']}" if choice["push"] else ""))
    if choice["resource"]:
        secret.append(f"Greengrocer {choice['resource']}")
    secret.extend(f"flex {entry}" for entry in choice["flex"])
    if secret:
        lines.append("Your secret choice (hidden until the reveal): " + "; ".join(secret))
    if view["phase"] == "T1" or choice["donkey"]:
        markers = [f"{marker} ({marker[1]} donkey{'s' if marker != 'D1' else ''}, {4 - int(marker[1])} hat"
                   f"{'' if marker == 'D3' else 's'})" for marker in view["available_donkeys"]]
        lines.append("Donkey markers you may choose: " + ", ".join(markers))
    abilities = view.get("roof_abilities", {})
    if view["phase"] == "F4" and view["roofs_offer"]:
        lines.append(f"Roofs on offer ({view['roof_price']} $): "
                     + "; ".join(f"{roof} {abilities.get(roof, '')}" for roof in view["roofs_offer"]))
    unused = [roof["id"] for roof in farm["roofs"] if not roof["used"]]
    if unused:
        lines.append("Your unused roofs (once each): " + "; ".join(f"{roof} {abilities.get(roof, '')}" for roof in unused))
    lines.append(view["private_prompt"])
    if view["options"]:
        lines.append("Options: " + ", ".join(view["options"]))
    return "\n".join(lines)
