"""Result objects: the numbers of `gamelab match --json` and friends, as attributes, as
the articles' text tables, as HTML in Jupyter, and as pandas DataFrames when pandas is
installed."""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from typing import Any, Optional


@dataclass(frozen=True)
class Tally:
    """A's wins, losses and draws."""

    win: int
    lose: int
    draw: int

    @property
    def games(self) -> int:
        return self.win + self.lose + self.draw

    def ratios(self) -> tuple[float, float, float]:
        """(win, lose, draw) as fractions of the games."""
        n = max(self.games, 1)
        return (self.win / n, self.lose / n, self.draw / n)


@dataclass(frozen=True)
class Probabilities:
    """A's exact chances of winning, losing and drawing."""

    win: float
    lose: float
    draw: float

    def ratios(self) -> tuple[float, float, float]:
        return (self.win, self.lose, self.draw)


@dataclass(frozen=True)
class ExactTable:
    """The exact probabilities with A first, second, and over both."""

    first: Probabilities
    second: Probabilities
    total: Probabilities


def _pandas():
    try:
        import pandas
    except ImportError:
        raise ImportError("to_pandas() needs pandas: pip install pandas") from None
    return pandas


def _text_table(title: str, rows: list[tuple[str, tuple]], cell) -> str:
    """The articles' table layout, as the command line prints it."""
    width = max([len(label) for label, _ in rows] + [5])
    out = f"{title:<{width}}{'win':>8}{'lose':>8}{'draw':>8}\n"
    for label, values in rows:
        out += f"{label:<{width}}" + "".join(f"{cell(v):>8}" for v in values) + "\n"
    return out


def _html_table(caption: str, rows: list[tuple[str, tuple]], cell) -> str:
    head = "".join(f"<th>{h}</th>" for h in ("", "win", "lose", "draw"))
    body = "".join(
        f"<tr><th>{html.escape(label)}</th>" + "".join(f"<td>{cell(v)}</td>" for v in values) + "</tr>"
        for label, values in rows
    )
    return (
        f"<table><caption>{html.escape(caption)}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{body}</tbody></table>"
    )


class MatchResult:
    """A match: `first`/`second`/`total` are A's tallies moving first, second and both;
    `exact` the exact table (with `exact=True`); `digest` the hash of every game's moves
    and result (the command line prints the same). `to_dict()` is `gamelab match
    --json`'s object; `records` the games when asked for."""

    def __init__(self, report: dict, game_info: dict, records: Optional[list] = None):
        self._report = report
        self.game: str = report["game"]
        self.a: str = report["a"]
        self.b: str = report["b"]
        self.games_per_side: int = report["games_per_side"]
        self.seed: int = report["seed"]
        self.played: int = report["played"]
        self.first = Tally(**report["first"])
        self.second = Tally(**report["second"])
        self.total = Tally(**report["total"])
        exact = report.get("exact")
        self.exact: Optional[ExactTable] = (
            ExactTable(*(Probabilities(**exact[k]) for k in ("first", "second", "total"))) if exact else None
        )
        self.exact_note: Optional[str] = report.get("exact_note")
        self.digest: Optional[str] = report.get("digest")
        self.opening_plies: int = report.get("opening_plies", 0)
        self.balanced: Optional[float] = report.get("balanced")
        self.judge: Optional[str] = report.get("judge")
        #: Each side's clock in every game (`"60+0.5"`), or None without one.
        self.clock: Optional[str] = report.get("clock")
        self.repeated_one_game: bool = report.get("repeated_one_game", False)
        #: Games forfeited by an outside engine (`nboard:cmd=…`, `gtp:cmd=…`):
        #: `{"a": n, "b": m, "first": {...}}`, or None when no game was.
        self.forfeits: Optional[dict] = report.get("forfeits")
        self.elapsed_ms: int = report.get("elapsed_ms", 0)
        self.sides: tuple[str, str] = tuple(game_info["sides"])  # type: ignore[assignment]
        self.records: Optional[list[dict]] = None if records is None else [json.loads(r) for r in records]

    def to_dict(self) -> dict:
        """The report as `gamelab match --json` prints it."""
        return json.loads(json.dumps(self._report))

    def _rows(self, exact: bool) -> list[tuple[str, tuple]]:
        source = self.exact if exact else self
        assert source is not None
        return [
            (self.sides[0], source.first.ratios() if exact else (source.first.win, source.first.lose, source.first.draw)),
            (self.sides[1], source.second.ratios() if exact else (source.second.win, source.second.lose, source.second.draw)),
            ("total", source.total.ratios() if exact else (source.total.win, source.total.lose, source.total.draw)),
        ]

    def _ratio_rows(self) -> list[tuple[str, tuple]]:
        return [(self.sides[0], self.first.ratios()), (self.sides[1], self.second.ratios()), ("total", self.total.ratios())]

    def __str__(self) -> str:
        if self.exact is not None and self.played == 0:
            return f"{self.a} VS {self.b} (exact)\n" + _text_table("ratio", self._rows(True), lambda v: f"{v * 100:.2f}%")
        out = f"{self.a} VS {self.b}\n"
        out += _text_table("count", self._rows(False), str) + "\n"
        out += _text_table("ratio", self._ratio_rows(), lambda v: f"{v * 100:.1f}%")
        out += f"\n{self.played} games, seed {self.seed}, digest {self.digest or 'none (stopped)'}\n"
        if self.exact is not None:
            out += "\nexact\n" + _text_table("ratio", self._rows(True), lambda v: f"{v * 100:.2f}%")
        if self.forfeits:
            for who, name in (("a", self.a), ("b", self.b)):
                if self.forfeits[who]:
                    out += f"note: {name} forfeited {self.forfeits[who]} game(s), counted as lost\n"
        if self.repeated_one_game:
            out += "note: every game each way round was the same game (both AIs are deterministic); openings=PLIES starts them from different positions\n"
        return out

    def __repr__(self) -> str:
        return f"<MatchResult {self.a} VS {self.b}: {self.total} over {self.played} games, digest {self.digest}>"

    def _repr_html_(self) -> str:
        title = f"{self.a} VS {self.b}"
        if self.exact is not None and self.played == 0:
            return _html_table(f"{title} (exact)", self._rows(True), lambda v: f"{v * 100:.2f}%")
        out = _html_table(f"{title}: count", self._rows(False), str)
        out += _html_table("ratio", self._ratio_rows(), lambda v: f"{v * 100:.1f}%")
        out += f"<p>{self.played} games, seed {self.seed}, digest <code>{self.digest}</code></p>"
        return f"<div>{out}</div>"

    def to_pandas(self) -> Any:
        """The tables as a DataFrame: a row per side and total, with counts and ratios
        (and the exact probabilities when there are any)."""
        pd = _pandas()
        data: dict[str, list] = {}
        labels = [self.sides[0], self.sides[1], "total"]
        if self.played:
            for i, name in enumerate(("win", "lose", "draw")):
                data[name] = [row[1][i] for row in self._rows(False)]
                data[f"{name} %"] = [100 * row[1][i] for row in self._ratio_rows()]
        if self.exact is not None:
            for i, name in enumerate(("win", "lose", "draw")):
                data[f"exact {name} %"] = [100 * row[1][i] for row in self._rows(True)]
        return pd.DataFrame(data, index=pd.Index(labels, name=f"{self.a} as"))


@dataclass(frozen=True)
class Standing:
    """One AI's place in a tournament: Elo (centred on 0) with its 95 % interval, and its
    results against each opponent."""

    ai: str
    elo: float
    interval95: float
    results: list


class TournamentResult:
    """A round robin: `players` best first, `score(x, y)` what x scored against y, and the
    crosstable as text, HTML or a DataFrame. `to_dict()` is `gamelab tournament --json`'s
    object."""

    def __init__(self, report: dict):
        self._report = report
        self.game: str = report["game"]
        self.games_per_side: int = report["games_per_side"]
        self.seed: int = report["seed"]
        self.players = [Standing(**p) for p in report["players"]]

    def to_dict(self) -> dict:
        return json.loads(json.dumps(self._report))

    def score(self, ai: str, opponent: str) -> float:
        """The share of the points `ai` scored against `opponent` (a draw is half)."""
        for p in self.players:
            if p.ai == ai:
                for r in p.results:
                    if r["opponent"] == opponent:
                        n = r["win"] + r["lose"] + r["draw"]
                        return (r["win"] + r["draw"] / 2) / max(n, 1)
        raise KeyError(f"no result of {ai} against {opponent}")

    def _crosstable(self) -> list[list[Optional[float]]]:
        names = [p.ai for p in self.players]
        return [[None if a == b else self.score(a, b) for b in names] for a in names]

    def __str__(self) -> str:
        labels = [f"#{k + 1} {p.ai}" for k, p in enumerate(self.players)]
        width = max(len(label) for label in labels)
        out = "crosstable: the row's score against the column (wins + draws/2), in %\n"
        out += " " * width + "".join(f"{f'#{k + 1}':>8}" for k in range(len(labels))) + "\n"
        for label, row in zip(labels, self._crosstable()):
            out += f"{label:<{width}}" + "".join(f"{'-' if v is None else f'{v * 100:.1f}':>8}" for v in row) + "\n"
        w = max([len(p.ai) for p in self.players] + [6])
        out += f"\nrank  {'AI':<{w}}  {'Elo':>7}  {'95%':>7}\n"
        for k, p in enumerate(self.players):
            out += f"{k + 1:>4}  {p.ai:<{w}}  {p.elo:>7.1f}  {f'±{p.interval95:.1f}':>7}\n"
        return out

    def __repr__(self) -> str:
        return f"<TournamentResult {', '.join(p.ai for p in self.players)}>"

    def _repr_html_(self) -> str:
        names = [p.ai for p in self.players]
        head = "<th></th>" + "".join(f"<th>{html.escape(n)}</th>" for n in names) + "<th>Elo</th><th>95%</th>"
        rows = ""
        for p, row in zip(self.players, self._crosstable()):
            cells = "".join(f"<td>{'–' if v is None else f'{v * 100:.1f}%'}</td>" for v in row)
            rows += f"<tr><th>{html.escape(p.ai)}</th>{cells}<td>{p.elo:.1f}</td><td>±{p.interval95:.1f}</td></tr>"
        return f"<table><caption>crosstable (row's score against column)</caption><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"

    def to_pandas(self) -> Any:
        """The crosstable (scores 0–1) with Elo and interval columns, best first."""
        pd = _pandas()
        names = [p.ai for p in self.players]
        frame = pd.DataFrame(self._crosstable(), index=names, columns=names)
        frame["elo"] = [p.elo for p in self.players]
        frame["interval95"] = [p.interval95 for p in self.players]
        return frame


class Divergence:
    """The first seed at which two versions of an AI end differently against the same
    opponent: both games' moves and ends, and the first move where they part."""

    def __init__(self, found: dict, names: list[str]):
        self.seed: int = found["seed"]
        self.side: str = found["side"]
        self.parted: int = found["parted"]
        self.games: list[dict] = found["games"]
        self.names = names

    def __str__(self) -> str:
        a, a2, b = self.names
        titles = [f"{a} VS {b}", f"{a2} VS {b}"]
        width = max(len(titles[0]), 24)
        out = f"seed {self.seed}: the games part at move {self.parted + 1}\n"
        out += f"     {titles[0]:<{width}}   {titles[1]}\n"
        def cell(game: dict, i: int) -> str:
            return f"{game['movers'][i]} {game['moves'][i]}" if i < len(game["moves"]) else ""

        left, right = self.games
        for i in range(max(len(left["moves"]), len(right["moves"]))):
            mark = "*" if i == self.parted else " "
            lm, rm = cell(left, i), cell(right, i)
            out += f"{mark}{i + 1:3}  {lm:<{width}}   {rm}\n"
        out += f"     {self.games[0]['outcome']:<{width}}   {self.games[1]['outcome']}\n"
        return out

    def __repr__(self) -> str:
        return f"<Divergence at seed {self.seed}, move {self.parted + 1}>"


class Verification(dict):
    """Per side (by the game's name for it): `never_loses`, the positions proven safe,
    and a `losing_line` when there is one."""

    def __init__(self, sides: dict, game_info: dict):
        super().__init__(sides)
        self.never_loses: bool = all(s["never_loses"] for s in sides.values())

    def __str__(self) -> str:
        lines = []
        for side, s in self.items():
            if s["never_loses"]:
                lines.append(f"as {side}: never loses ({s['positions']} positions checked)")
            else:
                lines.append(f"as {side}: can lose, e.g. {' '.join(s['losing_line'])}")
        return "\n".join(lines)


class Solution:
    """Perfect play from a position: `value` for the side to move (+1 win, 0 draw,
    −1 loss), each legal move's value for the same side, and the best moves."""

    def __init__(self, solved: dict):
        self.value: int = solved["value"]
        self.moves: dict[str, int] = dict(solved["moves"])
        self.best_moves: list[str] = [m for m, v in self.moves.items() if v == self.value]

    def __repr__(self) -> str:
        word = {1: "win", 0: "draw", -1: "loss"}[self.value]
        return f"<Solution: {word} for the side to move; best moves {', '.join(self.best_moves) or 'none'}>"
