"""Granja's /rules texts: the summary with its board legend, and the notation help.

Each is one whole message (``N_``), translated where it is shown (``tr(game.summary)``), so a
translator sees the text as a player reads it. The dice faces and the trade good's options at the
end of the summary are written out from the configuration; a test checks they still agree
(``notation.dice_lines``).
"""

from __future__ import annotations

from engine.i18n import N_

# Translators: shown in an embed's description (at most 4,096 characters). Keep the codes
# (VP, $, GR..., b1-b6, D1-D4, F2, T5) and the symbols (> * ✓ @ #) as they are.
SUMMARY = N_(
    """\
Six rounds on a Spanish farm; most VP wins (ties: most silver left, then shared).
Farm phase: play a card in secret (two in round 1) to one of four sides: field (grows a crop),
barrow (goods to deliver for VP, a trade good and a market stall), helper (an ability), or
extension (+1 hand limit and two of: extra delivery, income, pigsty; costs n different farm
goods for the n-th). Refill to your hand limit, collect income, harvest, breed pigs, maybe buy
a roof (price = round; VP and a one-shot ability).
Revenue phase: 2N+1 dice; take two in turn order and use their space; the last die is shared.
Transportation: pick a donkey marker in secret (donkeys = deliveries, hats = siesta steps; each
marker once per three rounds). The siesta track sets the new turn order. Deliver goods to your
barrows and to the six craft buildings (three start blocked); finishing a building gives VP and
a lasting bonus. Pay 1 $ per extra delivery. Score market stalls and your siesta section.
At the end, goods turn into silver and every 5 $ into 1 VP.

Reading the board. Seats are numbered 1-4; > marks who must act. Each farm: VP, $ silver, hand
cards/hand limit, income ($ in F2), extra deliveries (allowed in T5); its goods; fields per
crop as full/all; barrows (C012 grape+grain✓ 3 VP: ✓ = already delivered); helpers (* = used
this round; a roof: used for good); extensions; roofs; building markers; donkey markers by round.
Buildings: the goods each seat's row needs, then seat:delivered; BLOCKED #n = building-order
marker n (no deliveries); done = seats that finished it, first finisher first.
Market: hex:value@seat. Siesta: space[discs bottom..top]; the higher space, then the higher
disc in a stack, goes first.
Donkey markers D1-D4: 1-4 deliveries, and 4 minus that in straw hats (siesta steps).
Finishing a building row gives r VP in round r (the first finisher also gains 1 VP and opens
the next blocked building for 1 VP more), then: b1 Wagon Maker: a delivery and your siesta
section's VP now, later +1 siesta step and +1 delivery each round; b2 Village Shop: 2 VP, +2 VP
per later building marker; b3 Trading House: 3 $ now and each harvest; b4 Greengrocer: a crop
or pig now and each harvest; b5 Delicatessen: a trade good now and each harvest; b6 Butcher: 1 VP per
barrow on your farm now, +1 VP per later barrow.
Dice faces: 1 = 1 pig; 2 = play a card, draw a card or 1 crop of your choice; 3 = 2 different crops; 4 = 4 $; 5 = up to 2 free upgrades, 1 free upgrade and siesta +1 or siesta +2; 6 = 1 delivery or 2 $.
A trade good buys 4 $, 2 different crops, play a card, draw a card, 1 pig or up to 2 free upgrades."""
)

# Translators: shown in an embed field: AT MOST 1,024 characters. Every move is notation and
# stays as it is (play C012 field, pay $, donkey D3 +1...); translate only the words around it.
HELP = N_(
    """\
Cards C001-C060, roofs R1-A..R6-D, hexes M01-M29, buildings b1-b6.
Goods GR OL GP PG FD WN MT TG, $ silver, VP; a crop on a field: GR@field.
play C012 field|barrow|helper|ext, then if asked: discard C003 (card replaced),
  pay GR / pay OL@field / pay $ / pay VP (one at a time); back = undo an unfinished secret play
take 3, then die OPTION or pass; nudge up|down (H09)
OPTION: pig | crop GR | crops GR OL | silver | vp | draw | play | upgrade | upgrade 2 |
  upgrade siesta | siesta 1 | siesta 2 | deliver
tg OPTION (spend a trade good)   use R1-B OPTION (roof; use R1-A alone: one option)
use C012 (helper: Free upgrade, Quick planting, Extra donkey; Exchange: use C006 GR@field)
buy GR|OL|GP|PG   sell GR..MT   upgrade GR|GR@field|PG (paid)
answers: upgrade GR (free), gain OL, hex M05
roof R1-A   donkey D3 (donkey D3 +1: Siesta push)
deliver GR b4 | deliver GR@field C012 | deliver TG b4 as GR (Crate substitute)
extra GR b4 (T5, 1 $)   flex GR OL | flex none (harvest)
done ends your turn; pass declines a choice."""
)

__all__ = ["HELP", "SUMMARY"]
