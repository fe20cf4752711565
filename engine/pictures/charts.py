"""Charts drawn with matplotlib (Agg, no display): a player's rating over time, and the plotting
shared with the result picture (engine/pictures/result.py).

Only matplotlib's object API is used (``Figure`` with an Agg canvas, never ``pyplot``): no global
state, so a worker thread may draw while another front end runs. The text uses DejaVu Sans,
which matplotlib ships, so nothing is fetched. Every series has its own colour *and* its own
marker and line style, and is named at its end, so no one needs to tell colours apart (the
colours are Okabe and Ito's, chosen to stay distinct under the common colour deficiencies). The
picture has its own light background: it reads the same on Discord's dark and light themes.

    picture = rating_chart("Alice", {"Figures": [25.0, 27.1, 26.4]})
    picture.labels("line")     # ["Figures"]
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.core.picture import Mark, Picture
from engine.i18n import N_, number, tr

from .fonts import chart_families, drawable

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

# Okabe-Ito, without its yellow (too pale on the light background), black last.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
MARKERS = ("o", "s", "^", "D", "v", "P", "X")
LINE_STYLES = ("-", "--", "-.", ":", "-", "--", "-.")
BACKGROUND = "#f7f5ef"
INK = "#1f1f1f"
FONT = "DejaVu Sans"  # shipped with matplotlib; charts use ``fonts.chart_families()`` (Japanese too)
DPI = 100
# 640 pixels, the boards' width: a phone showing it 400 wide shrinks it by under 40 %, and no text
# is under 11 points (15 pixels at this DPI, 9 on such a phone).
WIDTH_INCHES = 6.4
SMALLEST_POINTS = 11
NAME_IN_CHART = 12  # characters of the names at a line's end (the legend has more of each)
NAME_IN_LEGEND = 20
RATING_TITLE = N_("{name}: rating over time")  # shown as tr(RATING_TITLE, name=...)
NO_RATED_GAMES = N_("No rated games yet.")


def new_figure(height_inches: float) -> Figure:
    """A blank figure of the pictures' width on their background (Agg canvas attached)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH_INCHES, height_inches), dpi=DPI, facecolor=BACKGROUND)
    FigureCanvasAgg(figure)
    return figure


def style(index: int) -> dict[str, Any]:
    """The look of series ``index``: colour, marker and line style all differ from its neighbours'."""
    return {
        "color": COLOURS[index % len(COLOURS)],
        "marker": MARKERS[index % len(MARKERS)],
        "linestyle": LINE_STYLES[index % len(LINE_STYLES)],
        "linewidth": 2.2,
    }


def plot_series(
    axes: Axes, series: Sequence[tuple[str, Sequence[float]]], *, xlabel: str, ylabel: str
) -> tuple[list[tuple[str, Any]], list[Any]]:
    """One line per named series (x: 0, 1, 2...); returns [(name, line)] and the labels written
    at the lines' ends (series ending close together share one: "Alice / Carol 31")."""
    from matplotlib.ticker import MaxNLocator

    axes.set_facecolor(BACKGROUND)
    lines = []
    longest = max((len(values) for _, values in series), default=1)
    # A marker on every point of a long game would be a smear: about a dozen per line.
    every = max(1, longest // 12)
    for index, (name, values) in enumerate(series):
        (line,) = axes.plot(
            range(len(values)),
            list(values),
            markevery=every,
            markersize=6,
            label=short(name, NAME_IN_LEGEND),
            **style(index),
        )
        lines.append((name, line))
    ends = sorted(
        ((values[-1], len(values) - 1, index, name) for index, (name, values) in enumerate(series) if values)
    )
    low = min((value for value, *_ in ends), default=0.0)
    high = max((value for value, *_ in ends), default=0.0)
    close = max(high - low, 1.0) * 0.05
    groups: list[list[tuple[float, int, int, str]]] = []
    for end in ends:
        if groups and end[0] - groups[-1][-1][0] <= close:
            groups[-1].append(end)
        else:
            groups.append([end])
    labels = []
    figure = axes.get_figure()
    assert figure is not None
    axes.autoscale_view()  # the axes' limits now, so that the labels' places can be measured
    for group in groups:
        value, x, index, _ = group[-1]
        joined = " / ".join(name for *_, name in group)
        label = axes.annotate(
            "",
            xy=(max(item[1] for item in group), value),
            xytext=(6, 0),
            textcoords="offset points",
            va="center",
            fontsize=SMALLEST_POINTS,
            fontfamily=chart_families(),
            color=style(index)["color"] if len(group) == 1 else INK,
            annotation_clip=False,
        )
        # The names as long as they fit before the picture's edge (wide letters take more room).
        fit(label, short(joined, NAME_IN_CHART), figure.bbox.width - 2, suffix=f" {format_number(value)}")
        labels.append(label)
    axes.set_xlabel(xlabel, fontsize=12, fontfamily=chart_families(), color=INK)
    axes.set_ylabel(ylabel, fontsize=12, fontfamily=chart_families(), color=INK)
    axes.tick_params(labelsize=SMALLEST_POINTS, colors=INK)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))  # moves and games are counted whole
    axes.grid(True, color="#d6d2c4", linewidth=0.8)
    for spine in axes.spines.values():
        spine.set_color("#8a8577")
    if series:
        axes.legend(
            loc="best", frameon=True, facecolor="white", prop={"family": chart_families(), "size": SMALLEST_POINTS}
        )
    return lines, labels


def short(name: str, limit: int) -> str:
    """A name cut to ``limit`` characters (with "…") so that it stays inside the picture, without
    what no face draws (fonts.drawable: emoji)."""
    name = drawable(name)
    return name if len(name) <= limit else name[: limit - 1] + "…"


def fit(artist: Any, words: str, right: float, *, suffix: str = "") -> None:
    """Set ``artist``'s text to as much of ``words`` (then ``suffix``) as ends left of ``right``
    pixels: text is measured, since a W takes three times the room of an i."""
    figure = artist.get_figure()
    renderer = figure.canvas.get_renderer()
    for length in range(len(words), 0, -1):
        artist.set_text(short(words, length) + suffix)
        if artist.get_window_extent(renderer).x1 <= right:
            return


def format_number(value: float) -> str:
    """A score or rating as the reader's language writes it: 31, not 31.0; one decimal otherwise
    ("2.5", "2,5")."""
    return number(int(value)) if float(value).is_integer() else number(round(value, 1))


def box_of(artist: Any, figure: Figure) -> tuple[int, int, int, int]:
    """An artist's box in the picture's pixels (left, top, right, bottom; y grows downwards)."""
    extent = artist.get_window_extent(figure.canvas.get_renderer())  # type: ignore[attr-defined]
    height = figure.bbox.height
    return (
        round(extent.x0),
        round(height - extent.y1),
        round(extent.x1),
        round(height - extent.y0),
    )


def finish(figure: Figure, marks: list[tuple[str, str, Any]]) -> Picture:
    """Render the figure to PNG and record the marks ((kind, label, artist), boxes measured on
    the drawn figure)."""
    from PIL import Image

    canvas = figure.canvas
    canvas.draw()
    found = tuple(Mark(kind, label, box_of(artist, figure)) for kind, label, artist in marks)
    # The drawn pixels straight to PNG: savefig would draw the whole figure a second time.
    width, height = canvas.get_width_height()
    image = Image.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw", "RGBA", 0, 1)  # type: ignore[attr-defined]
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="PNG")
    return Picture(buffer.getvalue(), width, height, found)


def rating_chart(name: str, series: Mapping[str, Sequence[float]]) -> Picture:
    """A player's rating over their rated games, one line per game (``series``: the game's title
    to the ratings, the first one before their first rated game, then one after each)."""
    figure = new_figure(4.5)
    axes = figure.add_axes((0.12, 0.14, 0.62, 0.72))
    title = figure.text(
        0.02,
        0.95,
        tr(RATING_TITLE, name=drawable(name)),
        fontsize=16,
        fontweight="bold",
        fontfamily=chart_families(),
        color=INK,
        va="top",
    )
    marks: list[tuple[str, str, Any]] = [("title", name, title)]
    items = [(game, list(values)) for game, values in series.items() if values]
    if not items:
        words = tr(NO_RATED_GAMES)
        empty = figure.text(0.5, 0.5, words, ha="center", fontsize=14, fontfamily=chart_families(), color=INK)
        axes.set_axis_off()
        marks.append(("empty", words, empty))
        return finish(figure, marks)
    lines, labels = plot_series(axes, items, xlabel=tr("Rated games"), ylabel=tr("Rating"))
    marks.extend(("line", game, line) for game, line in lines)
    marks.extend(("value", label.get_text(), label) for label in labels)
    return finish(figure, marks)
