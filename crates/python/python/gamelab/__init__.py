"""gamelab: build, play and compare board-game AIs — tic-tac-toe, Othello, Connect Four.

The games, the AIs and the arena are gamelab's Rust engine; this package lets you use
them where the articles' readers work, in Python and Jupyter::

    import gamelab
    pos = gamelab.TicTacToe()            # a position; it draws itself in a notebook
    pos.play("1,1")
    gamelab.agent("ai14s").choose(pos)   # one of gamelab's AIs
    gamelab.match("ai14s", "ai2", games=10_000, seed=0)   # the articles' tables

    def first_move(position):            # your own AI: a function of a position
        return position.legal_moves()[0]
    gamelab.match(first_move, "ai2", games=10_000)

Every game's results depend only on the seed, the game's index and the agents, never on
threads or timing; `gamelab match --json` on the command line gives the same numbers.
"""

from __future__ import annotations

import inspect
import json
import os
from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional, Sequence, Union

from . import _gamelab
from ._gamelab import (
    Agent,
    AgentError,
    Dataset,
    IllegalMoveError,
    Model,
    Position,
    PositionError,
    SpecError,
    Stream,
    __version__,
)
from ._results import (
    Divergence,
    ExactTable,
    MatchResult,
    Probabilities,
    Solution,
    Standing,
    Tally,
    TournamentResult,
    Verification,
)

__all__ = [
    "Agent",
    "AgentError",
    "Dataset",
    "Divergence",
    "ExactTable",
    "IllegalMoveError",
    "MatchResult",
    "Model",
    "Position",
    "PositionError",
    "Probabilities",
    "Solution",
    "SpecError",
    "Standing",
    "Stream",
    "Tally",
    "TournamentResult",
    "Verification",
    "agent",
    "ais",
    "catalogue",
    "diverge",
    "games",
    "load_records",
    "match",
    "position",
    "save_records",
    "solve",
    "tournament",
    "verify",
]

#: The catalogue: one dict per game, in the order front ends show them (the web app's
#: description of each game, with its board structures and Python class name).
_CATALOGUE: list[dict] = json.loads(_gamelab._catalogue_json())
_BY_NAME = {g["name"]: g for g in _CATALOGUE}
DEFAULT_GAME: str = _CATALOGUE[0]["name"]


def games() -> list[str]:
    """The names of the games, as `game=` arguments take them, the default first.

    >>> gamelab.games()
    ['ttt', 'othello', 'connect4']
    """
    return [g["name"] for g in _CATALOGUE]


def catalogue() -> list[dict]:
    """Every game in detail: name, title, sides, board, notation, board structures, AIs,
    Python class name (`gamelab games` in the terminal)."""
    return [dict(g) for g in _CATALOGUE]


def _game_info(game: str) -> dict:
    try:
        return _BY_NAME[game]
    except KeyError:
        known = ", ".join(_BY_NAME)
        raise PositionError(f"unknown game `{game}`; gamelab plays {known}") from None


class _GameClass(type):
    """The class of a game: calling it makes a `Position` of that game, and
    `isinstance(p, gamelab.Othello)` tells a position's game."""

    game: str

    def __call__(cls, position: Optional[str] = None, *, board: Optional[str] = None) -> Position:
        return Position(cls.game, position, board=board)

    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, Position) and obj.game == cls.game

    def ais(cls) -> list[dict]:
        """The game's AIs with their parameters."""
        return ais(cls.game)


def _make_game_class(info: dict) -> type:
    doc = (
        f"{info['title']}: `{info['class_name']}(position=None, *, board=None)` is the start "
        f"position, or `position` read in the game's notation: {info.get('position_syntax', '')}\n\n"
        f"Sides: {info['sides'][0]} (moves first) and {info['sides'][1]}. "
        f"Moves: {info['move_syntax']}. Board structures: {', '.join(info['boards'])}."
    )
    namespace = {
        "game": info["name"],
        "title": info["title"],
        "sides": tuple(info["sides"]),
        "__doc__": doc,
        "__module__": __name__,
    }
    return _GameClass(info["class_name"], (), namespace)


for _info in _CATALOGUE:
    globals()[_info["class_name"]] = _make_game_class(_info)
    __all__.append(_info["class_name"])
del _info

if TYPE_CHECKING:
    # What type checkers see of the game classes made above from the catalogue (a test
    # checks that these are the catalogue's games).

    class _Game(Position):
        game: str
        title: str
        sides: tuple[str, str]

        def __new__(cls, position: Optional[str] = None, *, board: Optional[str] = None) -> Position: ...

    class TicTacToe(_Game): ...

    class Othello(_Game): ...

    class ConnectFour(_Game): ...


def position(game: str = DEFAULT_GAME, text: Optional[str] = None, *, board: Optional[str] = None) -> Position:
    """A position of `game`: the start, or `text` in the game's notation."""
    return Position(game, text, board=board)


def ais(game: str = DEFAULT_GAME) -> list[dict]:
    """The AIs of `game`: name, aliases, summary and parameters (name, kind, default,
    help, range or choices) — what `gamelab ais` lists."""
    return [dict(a) for a in _game_info(game)["ais"]]


def agent(spec: str, game: str = DEFAULT_GAME, *, board: Optional[str] = None) -> Agent:
    """One of gamelab's AIs from its spec, e.g. `agent("ai12s:ver=1")` or
    `agent("engine:level=8", "othello")`. Raises `SpecError` for an unknown AI or a bad
    parameter, with the command line's message."""
    return Agent(spec, game, board=board)


# --- players ---------------------------------------------------------------------------

PlayerLike = Union[str, Agent, Callable[..., Any], Any]


def _takes_stream(choose: Callable[..., Any]) -> bool:
    """Whether `choose` takes a second positional argument (the random stream)."""
    try:
        params = list(inspect.signature(choose).parameters.values())
    except (TypeError, ValueError):
        return False
    positional = [
        p
        for p in params
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return True
    return len(positional) >= 2


def _player(obj: PlayerLike) -> Any:
    """A spec or Agent as it is; a Python agent — a function `f(position)` or
    `f(position, stream)`, or an object with such a `choose` (and optionally
    `policy(position) -> {move: probability}`) — wrapped for the arena."""
    if isinstance(obj, (str, Agent)):
        return obj
    choose = getattr(obj, "choose", None)
    if choose is None:
        if not callable(obj):
            raise TypeError(
                "an agent is an AI spec (\"ai2\"), a gamelab.Agent, a function of a position, "
                f"or an object with a choose(position) method; got {type(obj).__name__}"
            )
        choose = obj
    policy = getattr(obj, "policy", None)
    name = getattr(obj, "name", None) or getattr(obj, "__name__", None) or type(obj).__name__
    return _gamelab.PythonAgent(str(name), choose, _takes_stream(choose), policy if callable(policy) else None)


def _infer_game(game: Optional[str], players: Iterable[Any]) -> str:
    if game is not None:
        _game_info(game)
        return game
    for p in players:
        if isinstance(p, Agent):
            return p.game
    return DEFAULT_GAME


# --- progress --------------------------------------------------------------------------


def _progress(progress: Any, total: Optional[int], unit: str):
    """(callback, close) for a long call: tqdm's bar when installed (shown after a second,
    so quick calls stay quiet), a given callable, or nothing for `progress=False`."""
    if progress is False:
        return None, lambda: None
    if callable(progress) and progress is not True:
        return progress, lambda: None
    try:
        try:
            import ipywidgets  # noqa: F401  (tqdm's notebook bar needs it)
            from tqdm.auto import tqdm
        except ImportError:
            from tqdm import tqdm
    except ImportError:
        return None, lambda: None
    bar = tqdm(total=total, unit=unit, delay=0 if progress is True else 1.0, leave=False)

    def update(done: int) -> None:
        if done > bar.n:
            bar.update(done - bar.n)

    return update, bar.close


def _openings_args(openings: Union[int, Sequence[Sequence[str]], None]) -> tuple[int, Optional[list]]:
    if openings is None:
        return 0, None
    if isinstance(openings, bool):
        raise TypeError("openings is a number of random plies or a list of move lists")
    if isinstance(openings, int):
        if openings < 0:
            raise ValueError(f"openings are 0 to 30 random plies; got {openings}")
        return openings, None
    return 0, [[str(m) for m in line] for line in openings]


# --- experiments -----------------------------------------------------------------------


def match(
    a: PlayerLike,
    b: PlayerLike,
    *,
    games: Optional[int] = None,
    seed: int = 0,
    threads: Optional[int] = None,
    exact: bool = False,
    game: Optional[str] = None,
    board: Optional[str] = None,
    openings: Union[int, Sequence[Sequence[str]], None] = 0,
    balanced: Optional[float] = None,
    judge: Optional[str] = None,
    clock: Optional[str] = None,
    records: bool = False,
    progress: Any = None,
) -> MatchResult:
    """A against B: `games` games with A moving first and as many with A second
    (default 10,000), seeded: the same seed gives the same games on any number of
    threads. The result holds the articles' tables, the digest and — with
    `exact=True`, for games as small as tic-tac-toe — the exact probabilities from the
    AIs' move distributions instead of sampled games. The numbers are those of
    `gamelab match --json`.

    `a` and `b` are AI specs (`"ai14s"`), `gamelab.Agent`s, or Python agents: a function
    `f(position) -> move`, or `f(position, stream)` to draw from the game's random
    stream (a `gamelab.Stream`), or an object with such a `choose` method and optionally
    `policy(position) -> {move: probability}` (needed for `exact=True`). Python agents
    play one game at a time. An exception inside one stops the match and is raised as
    an `AgentError` saying in which game and position, with it as the cause.

    `openings`: a number of random plies (N distinct openings, each played once with
    each AI first) or a list of move lists; `balanced` and `judge` keep only random
    openings the judge values within ±balanced. `clock`: each side's time for every
    game, as `gamelab match --clock` takes it (`"60"` seconds, `"60+0.5"` with an
    increment a move, `"300/30/5"` with byo-yomi): each move gets a share of it, a side
    whose time runs out loses the game (`result.forfeits`), and the games then depend
    on the machine. `records=True` keeps every game
    (`result.records`). `threads`: None for every core. `progress`: None shows a tqdm
    bar for calls longer than a second when tqdm is installed; False none; or a
    callable given the games played. Ctrl-C stops the match and raises
    KeyboardInterrupt.
    """
    pa, pb = _player(a), _player(b)
    game = _infer_game(game, [a, b])
    plies, given = _openings_args(openings)
    per_side = games if games is not None else (len(given) if given else 10_000)
    update, close = _progress(progress, None if exact else 2 * per_side, "games")
    try:
        report, recs = _gamelab._match(
            pa,
            pb,
            game=game,
            board=board,
            games=games,
            seed=seed,
            threads=threads,
            exact=exact,
            openings=plies,
            openings_list=given,
            balanced=balanced,
            judge=judge,
            clock=clock,
            records=records,
            progress=update,
        )
    finally:
        close()
    return MatchResult(json.loads(report), _game_info(game), recs)


def tournament(
    ais: Sequence[PlayerLike],
    *,
    games: Optional[int] = None,
    seed: int = 0,
    threads: Optional[int] = None,
    game: Optional[str] = None,
    board: Optional[str] = None,
    openings: Union[int, Sequence[Sequence[str]], None] = 0,
    balanced: Optional[float] = None,
    judge: Optional[str] = None,
    clock: Optional[str] = None,
    progress: Any = None,
) -> TournamentResult:
    """Every pair of `ais` plays a match both ways round (`games` each way, default
    10,000); the result has the crosstable and Elo ratings fitted to it with 95 %
    intervals — `gamelab tournament --json`'s numbers. Every pair's games are set up as
    `match` sets up its own: `seed`, `threads`, `openings`, `balanced`, `judge`, `clock`
    and `progress` mean what they mean there."""
    players = [_player(a) for a in ais]
    game = _infer_game(game, ais)
    plies, given = _openings_args(openings)
    per_side = games if games is not None else (len(given) if given else 10_000)
    pairs = len(players) * (len(players) - 1) // 2
    update, close = _progress(progress, 2 * per_side * pairs, "games")
    try:
        report = _gamelab._tournament(
            players,
            game=game,
            board=board,
            games=games,
            seed=seed,
            threads=threads,
            openings=plies,
            openings_list=given,
            balanced=balanced,
            judge=judge,
            clock=clock,
            progress=update,
        )
    finally:
        close()
    return TournamentResult(json.loads(report))


def diverge(
    a: PlayerLike,
    a2: PlayerLike,
    b: PlayerLike,
    *,
    start: int = 0,
    limit: int = 1_000_000,
    side: Optional[str] = None,
    game: Optional[str] = None,
    board: Optional[str] = None,
    progress: Any = None,
) -> Optional[Divergence]:
    """Article 000's experiment: the first seed from `start` at which `a` and `a2` end their
    game against `b` differently (`b`'s random choices the same in both), or None when
    the `limit` seeds tried all end alike. `side`: the side `a` and `a2` play (the
    first to move by default)."""
    players = [_player(x) for x in (a, a2, b)]
    game = _infer_game(game, [a, a2, b])
    update, close = _progress(progress, limit, "seeds")
    try:
        found = _gamelab._diverge(
            *players, game=game, board=board, start=start, limit=limit, side=side, progress=update
        )
    finally:
        close()
    if found is None:
        return None
    names = [p if isinstance(p, str) else getattr(p, "spec", None) or p.name for p in players]
    return Divergence(json.loads(found), names)


def verify(ai: PlayerLike, *, game: Optional[str] = None, board: Optional[str] = None) -> Verification:
    """Proves by exhaustion whether `ai` never loses, on either side: every opponent reply
    and every move its distribution allows is followed to the end (games whose tree fits
    in memory; a Python agent needs a `policy`)."""
    player = _player(ai)
    game = _infer_game(game, [ai])
    return Verification(json.loads(_gamelab._verify(player, game=game, board=board)), _game_info(game))


def solve(position: Position) -> Solution:
    """The perfect-play value of `position` for the side to move (+1 win, 0 draw, −1 loss)
    and each legal move's, for games whose tree fits in memory (tic-tac-toe). A game
    with its own exact solver has it in its module (`gamelab.othello.solve`)."""
    try:
        return Solution(json.loads(_gamelab._solve(position)))
    except ValueError as e:
        own = globals().get(position.game)
        if own is not None and hasattr(own, "solve"):
            raise ValueError(f"{e}; {position.game}'s own solver is gamelab.{position.game}.solve") from None
        raise


def save_records(records: Any, path: Union[str, os.PathLike], *, game: Optional[str] = None) -> int:
    """Writes game records — a `MatchResult` played with `records=True`, or a list of
    its record dicts — to `path` in the format its extension picks, as the command line
    does: JSON Lines (anything else), the article's CSV (`.csv`), or the game's own format
    (`.ggf`: GGF for Othello, which NBoard and GGS read). Every record is checked by
    replaying it first; the file is replaced whole or not at all. Returns how many."""
    if isinstance(records, MatchResult):
        if records.records is None:
            raise ValueError("this match kept no records; play it with records=True")
        game = game or records.game
        records = records.records
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    if game is None:
        game = json.loads(lines[0])["game"] if lines else DEFAULT_GAME
    return _gamelab._save_records(game, lines, os.fspath(path))


def load_records(path: Union[str, os.PathLike], *, game: Optional[str] = None) -> list[dict]:
    """The game records of a file, each checked by replaying it: gamelab's JSON Lines,
    the article's CSV (of `game`, tic-tac-toe by default: the CSV does not say), or a game's
    own format (`.ggf`: Othello's GGF, gamelab's or a GGS archive's)."""
    return [json.loads(r) for r in _gamelab._load_records(os.fspath(path), game)]


def _records_text(records: Any) -> tuple[str, str]:
    """Records as the text of a records file: a path, a MatchResult with records, or a
    list of record dicts / JSON lines."""
    if isinstance(records, (str, os.PathLike)):
        path = os.fspath(records)
        with open(path, encoding="utf-8") as f:
            return f.read(), path
    if isinstance(records, MatchResult):
        if records.records is None:
            raise ValueError("this match kept no records; play it with records=True")
        records = records.records
    lines = [r if isinstance(r, str) else json.dumps(r) for r in records]
    return "\n".join(lines) + "\n", "records"


from . import _draw, othello, ttt  # noqa: E402  (they use the names above)

__all__ += ["othello", "ttt"]
