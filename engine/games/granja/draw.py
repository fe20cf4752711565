"""Pictures of the La Granja board and of a seat's hand (engine.pictures), in the words of
``words`` and ``render``.

Goods are tokens: a disc in the good's colour with its code (GR, OL...) inside, the code and
the words carrying the meaning. The board: round, phase, prompt, turn order, dice (pips) and the
roofs on offer; the market's hexes with their values and owners beside the six buildings'
delivery rows; the siesta track; then each farm: VP, silver, hand, income and extra deliveries;
goods; fields (a full field's crop solid, an empty one hollow); barrows with their goods
(delivered ones ticked) and VP; helpers (used ones faded), extensions, roofs and markers.
The hand: each card with its four faces, the cards the seat may play ringed and ticked, and
the rest of the private text (secret choice, donkeys, roofs, prompt).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.core import format_event
from engine.core.picture import Picture
from engine.i18n import tr, tr_ctx
from engine.pictures.canvas import BIG, LINE, PAD, SMALL, TEXT, Canvas, columns, flow
from engine.pictures.fonts import fit, font, text_width
from engine.pictures.palette import (
    BLUE,
    BROWN,
    CARD,
    CARD_INK,
    EDGE,
    FELT,
    GREEN,
    GREY,
    HIGHLIGHT,
    INK,
    MUTED,
    ORANGE,
    PANEL,
    PINK,
    PURPLE,
    RGB,
    SEAT_COLOURS,
    VERMILLION,
    YELLOW,
    blend,
    ink_on,
    with_ink,
)

from .render import _name, game_over, render_private, roof_abilities
from .terms import building_short, extension_word, phase_name
from .views import view_prompt
from .words import good_word, goods_words, helper_words

GOOD_COLOURS: dict[str, tuple[RGB, RGB]] = with_ink(
    {"GR": YELLOW, "OL": GREEN, "GP": PURPLE, "PG": PINK, "FD": ORANGE, "WN": VERMILLION, "MT": BROWN, "TG": BLUE}
)
TOKEN = 28
HEX = 19  # the market hexes' radius
SIESTA_SPACES = 9
SIESTA_VP = (0, 1, 1, 2, 2, 3, 3, 4, 4)  # config's siesta_section_vp, shown under each space


@lru_cache(maxsize=128)
def token(code: str, hollow: bool = False, ticked: bool = False, background: RGB = PANEL, size: int = TOKEN) -> Image.Image:
    """A good: its colour and its code; ``hollow`` for an empty field (an outline only),
    ``ticked`` for a barrow's delivered good."""
    scale = 2
    final = size
    size = TOKEN * scale
    image = Image.new("RGB", (size, size), background)
    draw = ImageDraw.Draw(image)
    fill, ink = GOOD_COLOURS.get(code, (GREY, CARD_INK))
    if hollow:
        draw.ellipse((2, 2, size - 3, size - 3), fill=background, outline=fill, width=3 * scale)
        ink = INK
    else:
        draw.ellipse((2, 2, size - 3, size - 3), fill=fill, outline=CARD_INK, width=scale)
    draw.text((size / 2, size / 2), code, font=font(12 * scale, True), fill=ink, anchor="mm")
    if ticked:
        draw.ellipse((size * 0.55, 0, size, size * 0.45), fill=HIGHLIGHT, outline=CARD_INK, width=scale)
        draw.line((size * 0.64, size * 0.22, size * 0.74, size * 0.34, size * 0.92, size * 0.1), fill=CARD_INK, width=2 * scale)
    return image.resize((final, final), Image.Resampling.LANCZOS)


def draw_board(view: dict[str, Any], names: Sequence[str]) -> Picture:
    page = Canvas()
    players = view["players"]
    short = [_name(names, seat) for seat in range(players)]
    y = page.title(PAD, tr("La Granja · round {round}/{rounds}", round=view["round"], rounds=view["rounds"]))
    header = tr(
        "{phase} · deck {deck} · discard {discard}",
        phase=phase_name(view["phase"]), deck=view["deck_size"], discard=len(view["discard"]),
    )
    page.text(PAD, y, header, size=SMALL, fill=MUTED, kind="phase", label=view["phase"])
    y += LINE
    y = page.paragraph(PAD, y, format_event(view_prompt(view), short), size=SMALL, fill=INK)
    y = _order_dice_roofs(page, view, y + 4)
    y = _market_and_buildings(page, view, y + 6)
    y = _siesta(page, view, y + 6)
    for seat in range(players):
        y = farm(page, view, seat, names, y + 6)
    if view["over"]:
        page.text(PAD, y + 6, game_over(names, view["winners"]), bold=True)
    return page.finish()


def _order_dice_roofs(page: Canvas, view: dict[str, Any], y: int) -> int:
    x = page.text(PAD, y + 3, tr("Turn order"), size=SMALL, fill=MUTED) + 8
    for index, seat in enumerate(view["turn_order"]):
        if index:
            x = page.text(x + 2, y + 3, "›", size=SMALL, fill=MUTED) + 2
        x = page.seat_chip(x, y + 1, seat + 1)
        page.mark("order", str(seat), (x - 20, y, x, y + 22))
    if view["dice"]:
        x = page.text(x + 24, y + 3, tr("Dice"), size=SMALL, fill=MUTED) + 8
        for face in view["dice"]:
            _die(page, x, y - 2, face)
            x += 34
    y += 34
    if view["roofs_offer"]:
        abilities = roof_abilities(view)
        x = page.text(PAD, y, tr("Roofs ({price} $)", price=view["roof_price"]), size=SMALL, fill=MUTED) + 10
        texts = [f"{roof} {abilities.get(roof, '')}".strip() for roof in view["roofs_offer"]]
        places = flow([text_width(text, SMALL - 1, True) + 10 for text in texts], page.width - PAD - x, gap=6)
        for roof, text, (dx, row) in zip(view["roofs_offer"], texts, places, strict=True):
            page.chip(x + dx, y + row * 26, text, fill=CARD, ink=CARD_INK, size=SMALL - 1)
            page.mark("roof_offer", roof, (x + dx, y + row * 26, x + dx + 10, y + row * 26 + 20))
        y += (places[-1][1] + 1) * 26 + 4
    return y


def _die(page: Canvas, x: int, y: int, face: int) -> None:
    """A die: its pips (the count is a shape, not a colour)."""
    size = 28
    page.draw.rounded_rectangle((x, y, x + size, y + size), radius=5, fill=CARD, outline=EDGE, width=2)
    spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
             5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)], 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}  # fmt: skip
    for column, row in spots.get(face, []):
        cx, cy = x + 7 + column * 7, y + 7 + row * 7
        page.draw.ellipse((cx - 3, cy - 3, cx + 3, cy + 3), fill=CARD_INK)
    page.mark("die", str(face), (x, y, x + size, y + size))


def _market_and_buildings(page: Canvas, view: dict[str, Any], y: int) -> int:
    cells = view["market"]
    centres = [(HEX * math.sqrt(3) * (cell["q"] + cell["r"] / 2), HEX * 1.5 * cell["r"]) for cell in cells]
    left = min(cx for cx, _ in centres) - HEX
    top = min(cy for _, cy in centres) - HEX
    width = int(max(cx for cx, _ in centres) - left + HEX) + 2
    height = int(max(cy for _, cy in centres) - top + HEX) + 2
    page.text(PAD, y, tr("Market (value, owner)"), size=SMALL, fill=MUTED)
    origin_x, origin_y = PAD + 4 - left, y + LINE - top
    for cell, (cx, cy) in zip(cells, centres, strict=True):
        x, yy = origin_x + cx, origin_y + cy
        corners = [(x + HEX * math.cos(math.radians(60 * k - 30)), yy + HEX * math.sin(math.radians(60 * k - 30))) for k in range(6)]
        owner = cell["owner"]
        fill = PANEL if owner is None else SEAT_COLOURS[owner % len(SEAT_COLOURS)]
        page.draw.polygon(corners, fill=fill, outline=blend(FELT, MUTED, 0.6))
        ink = INK if owner is None else ink_on(fill)
        page.write(x, yy - (6 if owner is not None else 0), str(cell["value"]), SMALL - 1, True, ink, anchor="mm")
        if owner is not None:
            page.write(x, yy + 8, f"@{owner + 1}", 13, True, ink, anchor="mm")
        page.mark("hex", f"{cell['hex']}:{cell['value']}:{'' if owner is None else owner}", (int(x - HEX), int(yy - HEX), int(x + HEX), int(yy + HEX)))
    market_bottom = y + LINE + height
    return max(market_bottom, _buildings(page, view, PAD + width + 16, y)) + 4


def _buildings(page: Canvas, view: dict[str, Any], x: int, y: int) -> int:
    """The six buildings: each row of goods to deliver, who delivered what, blocks and finishers."""
    page.text(x, y, tr("Buildings (seat: delivered)"), size=SMALL, fill=MUTED)
    y += LINE
    small = 22
    for building in view["buildings"]:
        page.text(x, y + 2, f"b{building['number']} {building_short(building['number'])}", size=SMALL - 1, bold=True, width=84, kind="building", label=str(building["number"]))
        tx = x + 86
        for code in building["row"]:
            page.image.paste(token(code, background=FELT, size=small), (tx, y))
            tx += small + 3
        notes = []
        if building["blocked"]:
            notes.append(tr("blocked #{n}", n=building["blocked"]))
        if building["finishers"]:
            notes.append(tr("done {seats}", seats=",".join(str(seat + 1) for seat in building["finishers"])))
        progress = [
            f"{seat + 1}:" + ",".join(good.lower() for good, done in zip(building["row"], row, strict=True) if done)
            for seat, row in enumerate(building["rows"])
            if any(row)
        ]
        text = " ".join(progress + notes)
        if text:
            page.text(tx + 6, y + 3, text, size=SMALL - 2, fill=MUTED, kind="delivered", label=f"{building['number']}:{text}")
        y += small + 8
    return y


def _siesta(page: Canvas, view: dict[str, Any], y: int) -> int:
    """The siesta track, space 0 to 8, each space's seats stacked bottom to top."""
    stacks: dict[str, list[int]] = view["siesta_stacks"]
    tallest = max((len(seats) for seats in stacks.values()), default=1)
    page.text(PAD, y, tr("Siesta track (space, VP; seats bottom to top)"), size=SMALL, fill=MUTED)
    y += LINE
    height = 40 + tallest * 24
    for space, (dx, width) in enumerate(columns(SIESTA_SPACES, page.width - 2 * PAD, gap=4)):
        left = PAD + dx
        page.panel((left, y, left + width, y + height))
        page.text(left, y + 3, str(space), size=SMALL, bold=True, width=width, align="center")
        page.text(left, y + 21, tr("{n} VP", n=SIESTA_VP[space]), size=SMALL - 2, fill=MUTED, width=width, align="center")
        for level, seat in enumerate(stacks.get(str(space), [])):
            cy = y + height - 26 - level * 24
            page.seat_chip(left + width // 2 - 10, cy, seat + 1)
            page.mark("siesta", f"{space}:{seat}", (left, cy, left + width, cy + 22))
    return y + height + 4


def farm(page: Canvas, view: dict[str, Any], seat: int, names: Sequence[str], y: int) -> int:
    """One farm in a panel, measured first; returns the y below it."""
    data = view["farms"][seat]
    rows = _farm_rows(data)
    height = 42 + sum(row_height for _, row_height, _ in rows) + 6
    page.panel((PAD, y, page.width - PAD, y + height))
    if seat in view["to_act"]:
        page.pointer(PAD + 6, y + 12, str(seat))
    x = page.seat_chip(PAD + 28, y + 9, seat + 1)
    page.text(x + 8, y + 8, _name(names, seat), bold=True, width=170, kind="seat", label=str(seat))
    right = page.width - PAD
    page.text(right - 250, y + 10, f"$ {data['silver']}", size=TEXT, bold=True, width=60, kind="silver", label=f"{seat}:{data['silver']}")
    hand = tr("hand {hand}/{limit}", hand=data["hand_size"], limit=data["hand_limit"])
    page.text(right - 190, y + 12, hand, size=SMALL - 1, fill=MUTED, width=90)
    page.text(right - 96, y + 5, str(data["vp"]), size=BIG, bold=True, width=50, align="right", kind="score", label=f"{seat}:{data['vp']}")
    page.text(right - 42, y + 12, tr_ctx("granja", "VP"), size=SMALL, fill=MUTED)
    top = y + 42
    for caption, row_height, draw_row in rows:
        page.text(PAD + 10, top + 5, caption, size=SMALL - 2, fill=MUTED, width=78)
        draw_row(page, PAD + 92, top, seat)
        top += row_height
    return y + height


RowDrawer = Any


def _farm_rows(data: dict[str, Any]) -> list[tuple[str, int, RowDrawer]]:
    """The farm's parts that are not empty: (caption, height, drawer)."""
    rows: list[tuple[str, int, RowDrawer]] = []
    goods = data["goods"]

    def goods_row(page: Canvas, x: int, y: int, seat: int) -> None:
        for code in ("GR", "OL", "GP", "PG", "FD", "WN", "MT", "TG"):
            count = goods[code]
            if not count and code != "PG":
                continue
            page.sprite(token(code), x, y, "good", f"{seat}:{code}:{count}")
            text = f"{count}/{data['pig_capacity']}" if code == "PG" else str(count)
            x = page.text(x + TOKEN + 3, y + 5, text, size=SMALL, bold=True) + 12
        limits = tr(
            "income {income} $ · extra deliveries {extra}", income=data["income"], extra=data["extra_delivery_limit"]
        )
        page.text(x, y + 6, limits, size=SMALL - 2, fill=MUTED)

    rows.append((tr_ctx("granja board", "goods"), TOKEN + 6, goods_row))
    if data["fields"]:

        def fields_row(page: Canvas, x: int, y: int, seat: int) -> None:
            for field in data["fields"]:
                page.sprite(token(field["crop"], hollow=not field["full"]), x, y, "field", f"{seat}:{field['card']}")
                x += TOKEN + 4
            page.text(x + 6, y + 6, tr("solid: crop on it · hollow: empty"), size=SMALL - 2, fill=MUTED)

        rows.append((tr_ctx("granja board", "fields"), TOKEN + 6, fields_row))
    if data["barrows"]:
        widths = [len(b["goods"]) * (TOKEN + 2) + 50 for b in data["barrows"]]
        barrow_places = flow(widths, 520, gap=14)

        def barrows_row(page: Canvas, x: int, y: int, seat: int) -> None:
            for barrow, (dx, row) in zip(data["barrows"], barrow_places, strict=True):
                left, top = x + dx, y + row * (TOKEN + 6)
                for index, (code, covered) in enumerate(zip(barrow["goods"], barrow["covered"], strict=True)):
                    page.sprite(token(code, ticked=covered), left + index * (TOKEN + 2), top)
                end = left + len(barrow["goods"]) * (TOKEN + 2)
                page.text(end + 3, top + 6, tr("{n} VP", n=barrow["vp"]), size=SMALL - 2, bold=True, kind="barrow", label=f"{seat}:{barrow['card']}")

        rows.append((tr_ctx("granja board", "barrows"), (barrow_places[-1][1] + 1) * (TOKEN + 6), barrows_row))
    chips: list[tuple[str, str, bool]] = []  # (kind, text, used)
    chips += [("helper", helper_words(h["type"], h["param"]), h["used"]) for h in data["helpers"]]
    chips += [("extension", extension_word(e["type"]), False) for e in data["extensions"]]
    chips += [("roof", roof["id"], roof["used"]) for roof in data["roofs"]]
    chips += [("marker", f"b{number}", False) for number in data["buildings"]]
    if data["donkeys_used"]:
        donkeys = ",".join(marker[1] for marker in data["donkeys_used"])
        chips.append(("donkeys", tr("donkeys {rounds}", rounds=donkeys), False))
    if chips:
        chip_places = flow([text_width(text + ("*" if used else ""), SMALL - 2, True) + 10 for _, text, used in chips], 520, gap=6)

        def chips_row(page: Canvas, x: int, y: int, seat: int) -> None:
            labels = {"helper": [h["card"] for h in data["helpers"]], "extension": [e["card"] for e in data["extensions"]],
                      "roof": [r["id"] for r in data["roofs"]]}  # fmt: skip
            seen: dict[str, int] = {}
            for (kind, text, used), (dx, row) in zip(chips, chip_places, strict=True):
                left, top = x + dx, y + row * 26
                fill = blend(PANEL, CARD, 0.35) if used else CARD
                end = page.chip(left, top, text + ("*" if used else ""), fill=fill, ink=CARD_INK, size=SMALL - 2)
                index = seen.get(kind, 0)
                seen[kind] = index + 1
                label = labels[kind][index] if kind in labels else text
                page.mark(kind, f"{seat}:{label}", (left, top, end, top + 22))

        rows.append((tr_ctx("granja board", "cards"), (chip_places[-1][1] + 1) * 26 + 2, chips_row))
    return rows


# ----- the hand ---------------------------------------------------------------------------------

CARD_SIZE = (300, 118)


def _hand_card(page: Canvas, card: dict[str, Any], x: int, y: int) -> None:
    width, height = CARD_SIZE
    page.draw.rounded_rectangle((x, y, x + width, y + height), radius=8, fill=CARD, outline=EDGE, width=2)
    page.write(x + 8, y + 5, card["card"], SMALL, True, CARD_INK)
    page.write(x + 70, y + 6, tr("field: {crop}", crop=good_word(card["field"])), SMALL - 1, False, CARD_INK)
    lines = [
        tr("barrow: {goods} = {vp} VP", goods=goods_words(card["barrow"]), vp=card["barrow_vp"]),
        tr("helper: {helper}", helper=helper_words(card["helper"], card["param"])),
        tr("extension: {extension}", extension=extension_word(card["extension"])),
    ]
    for index, line in enumerate(lines):
        shown = fit(line, SMALL - 1, width - 16)
        page.write(x + 8, y + 32 + index * 27, shown, SMALL - 1, False, CARD_INK)
    page.sprite(token(card["field"], background=CARD), x + width - TOKEN - 6, y + 4, "card", card["card"])
    page.mark("card_face", card["card"], (x, y, x + width, y + height))


def draw_hand(view: dict[str, Any], names: Sequence[str]) -> Picture:
    page = Canvas()
    seat = view["seat"]
    farm_data = view["farms"][seat]
    hand = view["hand"]
    y = page.title(
        PAD, tr("{name} · your hand ({n}, limit {limit})", name=_name(names, seat), n=len(hand), limit=farm_data["hand_limit"])
    )
    playable = {option.split()[1] for option in view["options"] if option.startswith("play ") and len(option.split()) > 1}
    places = flow([CARD_SIZE[0]] * len(hand), page.width - 2 * PAD, gap=14)
    for card, (dx, row) in zip(hand, places, strict=True):
        left, top = PAD + 2 + dx, y + 8 + row * (CARD_SIZE[1] + 16)
        _hand_card(page, card, left, top)
        if card["card"] in playable:
            page.highlight((left, top, left + CARD_SIZE[0], top + CARD_SIZE[1]), card["card"])
    y += 8 + ((places[-1][1] + 1) * (CARD_SIZE[1] + 16) if hand else 0)
    if not hand:
        page.text(PAD, y, tr("(empty)"), fill=MUTED)
        y += LINE
    # The rest of the private text, line for line: the secret choice, donkeys, roofs, prompt.
    rest = render_private(view, names).splitlines()[1 + max(1, len(hand)) :]
    for line in rest:
        y = page.paragraph(PAD, y, line, size=SMALL, fill=INK if line == rest[-1] else MUTED)
    y = farm(page, view, seat, names, y + 6)
    return page.finish()
