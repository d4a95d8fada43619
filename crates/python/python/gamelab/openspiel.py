"""gamelab and OpenSpiel (PyPI ``open-spiel``) on the same games: gamelab's AIs as
OpenSpiel bots, OpenSpiel's bots as gamelab agents, and a check that the two agree on
the rules::

    import pyspiel
    from gamelab import openspiel

    bot = openspiel.GamelabBot("ai14s", "ttt")              # a gamelab AI as an OpenSpiel bot
    pyspiel.evaluate_bots(openspiel.spiel_game("ttt").new_initial_state(),
                          [bot, pyspiel.make_uniform_random_bot(1, 0)], 0)

    mcts = openspiel.mcts_agent("ttt", simulations=200)     # OpenSpiel's MCTSBot for gamelab
    gamelab.match(mcts, "ai14s", games=20, game="ttt")

    openspiel.agreement("othello", games=100)               # same legal moves, same results

The games are OpenSpiel's ``tic_tac_toe``, ``othello`` and ``connect_four``. Both number
the moves alike (``Position.legal_actions()``: a square row by row from the top, Connect
Four's column, Othello's pass 64), and the first side to move is OpenSpiel's player 0.
States and positions are translated by replaying their moves from the start, so a
position set up square by square has no OpenSpiel state.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Union

import numpy as np

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - depends on the installation
    raise ImportError("gamelab.openspiel needs OpenSpiel: pip install 'gamelab[openspiel]'") from e

from . import Agent, Position, Stream, _game_info

__all__ = [
    "GAMES",
    "GamelabBot",
    "agreement",
    "alphabeta_agent",
    "bot_agent",
    "mcts_agent",
    "position_of",
    "spiel_game",
    "state_of",
]

#: gamelab's name of each game OpenSpiel also has, and OpenSpiel's name of it.
GAMES: dict[str, str] = {"ttt": "tic_tac_toe", "othello": "othello", "connect4": "connect_four"}


def spiel_game(game: str) -> "pyspiel.Game":
    """OpenSpiel's game of gamelab's `game`."""
    try:
        return pyspiel.load_game(GAMES[game])
    except KeyError:
        _game_info(game)  # an unknown game says so
        raise ValueError(f"OpenSpiel has no {game}; the bridge covers {', '.join(GAMES)}") from None


def state_of(position: Position) -> "pyspiel.State":
    """The OpenSpiel state that `position`'s moves from the start reach."""
    replay = Position(position.game)
    state = spiel_game(position.game).new_initial_state()
    for move in position.history:
        state.apply_action(replay.action_of(move))
        replay.play(move)
    if replay.key != position.key:
        raise ValueError(
            "this position was set up, not reached by moves from the start; "
            "an OpenSpiel state is its game's moves from the start"
        )
    return state


def position_of(state: "pyspiel.State", game: Optional[str] = None, *, board: Optional[str] = None) -> Position:
    """gamelab's position after the moves of OpenSpiel's `state` (its game's, or `game`)."""
    if game is None:
        name = state.get_game().get_type().short_name
        game = next((g for g, s in GAMES.items() if s == name), None)
        if game is None:
            raise ValueError(f"gamelab has no OpenSpiel game {name}; the bridge covers {', '.join(GAMES.values())}")
    position = Position(game, board=board)
    for action in state.history():
        position.play(position.move_of(action))
    return position


class GamelabBot(pyspiel.Bot):
    """A gamelab AI (a spec such as ``"engine:level=4"``, or an ``Agent``) as an OpenSpiel
    bot. Its random choices come from the stream of `seed`, so a game depends only on the
    seed and the moves."""

    def __init__(self, ai: Union[str, Agent], game: str, *, seed: int = 0, board: Optional[str] = None):
        pyspiel.Bot.__init__(self)
        self.game = game
        self.agent = ai if isinstance(ai, Agent) else Agent(ai, game, board=board)
        if self.agent.game != game:
            raise ValueError(f"a {self.agent.game} AI cannot play {game}")
        self.seed = seed
        self._board = board
        spiel_game(game)  # a game OpenSpiel lacks fails here

    def step(self, state: "pyspiel.State") -> int:
        position = position_of(state, self.game, board=self._board)
        return position.action_of(self.agent.choose(position, self.seed))

    def restart_at(self, state: "pyspiel.State") -> None:
        pass

    def inform_action(self, state: "pyspiel.State", player_id: int, action: int) -> None:
        pass


MakeBot = Callable[["pyspiel.Game", int, int], "pyspiel.Bot"]


class _BotAgent:
    """An OpenSpiel bot as a gamelab Python agent: each move builds the bot afresh from a
    seed drawn from the game's stream, so that matches are reproducible."""

    def __init__(self, make_bot: MakeBot, game: str, name: str):
        self.make_bot = make_bot
        self.game = game
        self.name = name
        self._spiel = spiel_game(game)

    def choose(self, position: Position, stream: Stream) -> str:
        state = state_of(position)
        bot = self.make_bot(self._spiel, state.current_player(), stream.getrandbits(31))
        return position.move_of(bot.step(state))


def bot_agent(make_bot: MakeBot, game: str, *, name: str = "openspiel") -> Any:
    """A gamelab agent (for ``gamelab.match``, ``tournament``, …) that asks the OpenSpiel
    bot ``make_bot(spiel_game, player_id, seed)`` for each move."""
    return _BotAgent(make_bot, game, name)


def mcts_agent(
    game: str,
    *,
    simulations: int = 1000,
    uct_c: float = 2.0,
    rollouts: int = 1,
    solve: bool = True,
    name: Optional[str] = None,
) -> Any:
    """OpenSpiel's MCTSBot (C++, random rollouts as its evaluator) as a gamelab agent."""

    def make(spiel: "pyspiel.Game", player: int, seed: int) -> "pyspiel.Bot":
        evaluator = pyspiel.RandomRolloutEvaluator(rollouts, seed)
        return pyspiel.MCTSBot(spiel, evaluator, uct_c, simulations, 1000, solve, seed, False)

    return bot_agent(make, game, name=name or f"openspiel-mcts:{simulations}")


class _AlphaBetaBot(pyspiel.Bot):
    def __init__(self, spiel: "pyspiel.Game", player: int, depth: int, value: Optional[Callable]):
        pyspiel.Bot.__init__(self)
        self._spiel, self._player, self._depth, self._value = spiel, player, depth, value

    def step(self, state: "pyspiel.State") -> int:
        from open_spiel.python.algorithms import minimax

        _, action = minimax.alpha_beta_search(
            self._spiel, state, self._value, self._depth, maximizing_player_id=self._player
        )
        return action

    def restart_at(self, state: "pyspiel.State") -> None:
        pass


def alphabeta_agent(
    game: str,
    *,
    depth: int = 30,
    value_function: Optional[Callable[["pyspiel.State"], float]] = None,
    name: Optional[str] = None,
) -> Any:
    """OpenSpiel's alpha-beta search (``open_spiel.python.algorithms.minimax``) as a
    gamelab agent: to the end for tic-tac-toe; deeper games need a `depth` and a
    `value_function(state)` for the first player."""
    return bot_agent(
        lambda spiel, player, _seed: _AlphaBetaBot(spiel, player, depth, value_function),
        game,
        name=name or f"openspiel-alphabeta:{depth}",
    )


def agreement(game: str, games: int = 100, *, seed: int = 0) -> dict:
    """Plays `games` random games in gamelab and OpenSpiel side by side (the same random
    actions in both) and compares every position: the side to move, the legal actions,
    whether the game is over and, at the end, the result. Returns the counts and the
    first few disagreements (none where the two implement the same rules)."""
    spiel = spiel_game(game)
    sides = _game_info(game)["sides"]
    rng = np.random.default_rng(seed)
    positions = 0
    disagreements: list[str] = []
    results = {"first": 0, "second": 0, "draw": 0}
    for number in range(games):
        position = Position(game)
        state = spiel.new_initial_state()
        while True:
            positions += 1
            where = f"game {number}, moves {position.moves_text()!r}"
            if position.is_over != state.is_terminal():
                disagreements.append(f"{where}: over {position.is_over} against {state.is_terminal()}")
                break
            if position.is_over:
                returns = state.returns()
                winner = position.winner
                expected = [0.0, 0.0] if winner is None else ([1.0, -1.0] if winner == sides[0] else [-1.0, 1.0])
                if list(returns) != expected:
                    disagreements.append(f"{where}: result {position.outcome} against returns {returns}")
                results["draw" if winner is None else ("first" if winner == sides[0] else "second")] += 1
                break
            if sides.index(position.to_move) != state.current_player():
                disagreements.append(f"{where}: {position.to_move} to move against player {state.current_player()}")
                break
            ours, theirs = sorted(position.legal_actions()), sorted(state.legal_actions())
            if ours != theirs:
                disagreements.append(f"{where}: legal actions {ours} against {theirs}")
                break
            action = int(rng.choice(ours))
            position.play(position.move_of(action))
            state.apply_action(action)
    return {
        "game": game,
        "games": games,
        "positions": positions,
        "results": results,
        "disagreements": disagreements[:10],
        "disagreeing_games": len(disagreements),
    }
