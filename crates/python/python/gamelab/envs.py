"""Every game of gamelab's catalogue as a PettingZoo environment (the AEC API) and as a
Gymnasium environment in which a learner plays one side against any gamelab AI::

    from gamelab import envs

    env = envs.env("connect4")                       # PettingZoo: both seats
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None
        elif agent == "red":                         # a gamelab AI in one seat
            action = env.unwrapped.ai_action("alphabeta")
        else:
            action = env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

    gym = envs.gym_env("othello", opponent="engine:level=4")   # Gymnasium: one seat
    obs, info = gym.reset(seed=0)          # or gymnasium.make("gamelab/Othello-v0", ...)

**Observations** are dicts: ``"observation"``, an int8 array (rows, columns, 2) whose
plane 0 holds the observing side's pieces and plane 1 the other side's, and
``"action_mask"``, an int8 array over the actions, 1 for each legal one (PettingZoo gives
the mask to the side to move only).

**Actions** number the moves as ``Position.legal_actions()`` does: a square's index row
by row from the top, a column in Connect Four, Othello's pass 64 (OpenSpiel numbers them
the same). An illegal action ends the game as a loss for the side that played it, with
``info["illegal_move"] = True``.

**Rewards** come at the end: +1 for a win, −1 for a loss, 0 for a draw.

**Symmetries**: ``symmetries(game)`` gives each of the board's symmetries under which the
rules are the same (all eight turns and mirrors for tic-tac-toe and Othello, left–right
for Connect Four) as permutations of observations, masks and policies: more training data
for free.

Needs ``pettingzoo`` (for ``env``) and ``gymnasium`` (for both): ``pip install
'gamelab[envs]'``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Union

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.utils import seeding
except ImportError as e:  # pragma: no cover - depends on the installation
    raise ImportError(
        "gamelab.envs needs gymnasium (and pettingzoo for envs.env): "
        "pip install 'gamelab[envs]'"
    ) from e

from . import Agent, IllegalMoveError, Position, _draw, _game_info

__all__ = ["GymEnv", "Symmetry", "env", "gym_env", "raw_env", "symmetries"]

RENDER_MODES = ["human", "ansi", "rgb_array", "svg"]


# --- what both kinds of environment share ----------------------------------------------


def _start(game: str, position: Union[None, str, Position], board: Optional[str]) -> Position:
    if isinstance(position, Position):
        if position.game != game:
            raise ValueError(f"a {position.game} position cannot start a {game} environment")
        return position.copy()
    return Position(game, position, board=board)


def _spaces(info: dict) -> tuple[spaces.Dict, spaces.Discrete]:
    observation = spaces.Dict(
        {
            "observation": spaces.Box(0, 1, (info["rows"], info["cols"], 2), np.int8),
            "action_mask": spaces.Box(0, 1, (info["actions"],), np.int8),
        }
    )
    return observation, spaces.Discrete(info["actions"])


def _observation(position: Position, side: str, info: dict, mask: bool) -> dict:
    """What `side` sees: its pieces, the other side's, and (when `mask`) the legal actions."""
    cells = np.array(position.cells, dtype=object)
    planes = np.stack([cells == side, (cells != side) & (cells != None)], axis=-1)  # noqa: E711
    action_mask = np.zeros(info["actions"], dtype=np.int8)
    if mask and not position.is_over:
        action_mask[position.legal_actions()] = 1
    return {"observation": planes.astype(np.int8), "action_mask": action_mask}


def _reward(position: Position, side: str) -> float:
    winner = position.winner
    return 0.0 if winner is None else (1.0 if winner == side else -1.0)


def _colour(css: str) -> np.ndarray:
    css = css.lstrip("#")
    return np.array([int(css[i : i + 2], 16) for i in (0, 2, 4)], dtype=np.uint8)


def _rgb(position: Position, info: dict, cell: int = 32) -> np.ndarray:
    """The board as an RGB image (height, width, 3): the game's colours, grid lines, discs
    as discs and marks as a ring (first side) and a cross (second side), a winning line
    tinted."""
    rows, cols = info["rows"], info["cols"]
    image = np.empty((rows * cell + 1, cols * cell + 1, 3), dtype=np.uint8)
    image[:] = _colour(info["board_colour"])
    for index in position.highlight():
        r, c = divmod(index, cols)
        square = image[r * cell : (r + 1) * cell, c * cell : (c + 1) * cell]
        square[:] = (square * 0.55 + _colour("#facc15") * 0.45).astype(np.uint8)
    image[::cell, :] = 40
    image[:, ::cell] = 40
    yy, xx = np.mgrid[0:cell, 0:cell] - (cell - 1) / 2
    distance = np.hypot(yy, xx)
    shapes = {
        "disc": distance <= 0.4 * cell,
        "ring": np.abs(distance - 0.3 * cell) <= 0.07 * cell,
        "cross": ((np.abs(yy - xx) <= 0.08 * cell) | (np.abs(yy + xx) <= 0.08 * cell))
        & (np.maximum(np.abs(yy), np.abs(xx)) <= 0.32 * cell),
    }
    sides = info["sides"]
    for r, row in enumerate(position.cells):
        for c, holder in enumerate(row):
            if holder is None:
                continue
            side = sides.index(holder)
            shape = "disc" if info["pieces"] == "discs" else ("ring", "cross")[side]
            square = image[r * cell + 1 : (r + 1) * cell + 1, c * cell + 1 : (c + 1) * cell + 1]
            square[shapes[shape][: square.shape[0], : square.shape[1]]] = _colour(info["piece_colours"][side])
    return image


def _render(position: Optional[Position], info: dict, mode: Optional[str]) -> Any:
    if mode is None:
        gymnasium.logger.warn("render() without a render_mode: make the environment with one of " + ", ".join(RENDER_MODES))
        return None
    if position is None:
        raise RuntimeError("nothing to render before reset()")
    if mode == "rgb_array":
        return _rgb(position, info)
    if mode == "svg":
        return _draw.svg(position)
    text = f"{position}\n{_draw.caption(position)}"
    if mode == "human":
        print(text)
        return None
    return text


def _check_render_mode(mode: Optional[str]) -> Optional[str]:
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode {mode!r} is not one of {', '.join(RENDER_MODES)} (or None)")
    return mode


def _action(action: Any, size: int) -> int:
    """An action as an int; a number out of range or not whole is an error, not a loss."""
    try:
        number = int(action)
    except (TypeError, ValueError):
        raise ValueError(f"an action is a whole number from 0 to {size - 1}; got {action!r}") from None
    if number != action or not 0 <= number < size:
        raise ValueError(f"an action is a whole number from 0 to {size - 1}; got {action!r}")
    return number


def _ai(ai: Union[str, Agent], game: str, board: Optional[str]) -> Agent:
    if isinstance(ai, Agent):
        if ai.game != game:
            raise ValueError(f"a {ai.game} AI cannot play {game}")
        return ai
    return Agent(ai, game, board=board)


# --- symmetries ------------------------------------------------------------------------


@dataclass(frozen=True)
class Symmetry:
    """One symmetry of a game's board as gathering permutations: the image of a board (its
    squares row by row) is ``board[cells]`` and of a vector over the actions ``v[actions]``,
    so action ``a`` of the image is action ``actions[a]`` of the original."""

    name: str
    cells: np.ndarray
    actions: np.ndarray

    def observation(self, observation: dict) -> dict:
        """The image of an observation dict (planes and mask)."""
        planes = np.asarray(observation["observation"])
        rows, cols = planes.shape[:2]
        image = planes.reshape(rows * cols, -1)[self.cells].reshape(planes.shape)
        return {"observation": image, "action_mask": np.asarray(observation["action_mask"])[self.actions]}

    def policy(self, values: Any) -> np.ndarray:
        """The image of a vector over the actions (a policy, a mask, values)."""
        return np.asarray(values)[self.actions]

    def source_action(self, action: int) -> int:
        """The original action that the image's `action` stands for."""
        return int(self.actions[action])


def symmetries(game: str = "ttt") -> list[Symmetry]:
    """The board's symmetries under which `game`'s rules are the same, the identity first."""
    return [
        Symmetry(m["name"], np.array(m["cells"], dtype=np.intp), np.array(m["actions"], dtype=np.intp))
        for m in _game_info(game)["symmetry_maps"]
    ]


# --- PettingZoo ------------------------------------------------------------------------


def _aec_class() -> type:
    try:
        from pettingzoo import AECEnv
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise ImportError("gamelab.envs.env needs pettingzoo: pip install 'gamelab[envs]'") from e

    class GamelabAECEnv(AECEnv):
        """A game of gamelab's catalogue for two PettingZoo agents named after its sides
        (``"o"``/``"x"``, ``"black"``/``"white"``, ``"red"``/``"yellow"``)."""

        metadata = {"render_modes": RENDER_MODES, "name": "gamelab_v0", "is_parallelizable": False, "render_fps": 1}

        def __init__(
            self,
            game: str = "ttt",
            *,
            board: Optional[str] = None,
            position: Union[None, str, Position] = None,
            render_mode: Optional[str] = None,
        ):
            super().__init__()
            self.game = game
            self._info = _game_info(game)
            self._board = board
            self._start = position
            _start(game, position, board)  # a bad position fails here, not at reset
            self.metadata = dict(self.metadata, name=f"gamelab_{game}_v0")
            self.render_mode = _check_render_mode(render_mode)
            self.possible_agents = list(self._info["sides"])
            self.observation_spaces = {}
            self.action_spaces = {}
            for agent in self.possible_agents:
                self.observation_spaces[agent], self.action_spaces[agent] = _spaces(self._info)
            self._position: Optional[Position] = None
            self.np_random, self.np_random_seed = seeding.np_random()

        def observation_space(self, agent: str) -> spaces.Dict:
            return self.observation_spaces[agent]

        def action_space(self, agent: str) -> spaces.Discrete:
            return self.action_spaces[agent]

        @property
        def position(self) -> Position:
            """A copy of the game's position (the environment's own stays as it is)."""
            if self._position is None:
                raise RuntimeError("no position before reset()")
            return self._position.copy()

        def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
            if seed is not None:
                self.np_random, self.np_random_seed = seeding.np_random(seed)
            start = (options or {}).get("position", self._start)
            self._position = _start(self.game, start, self._board)
            self.agents = self.possible_agents[:]
            self.rewards = {a: 0.0 for a in self.agents}
            self._cumulative_rewards = {a: 0.0 for a in self.agents}
            self.terminations = {a: False for a in self.agents}
            self.truncations = {a: False for a in self.agents}
            self.infos = {a: {} for a in self.agents}
            self.agent_selection = self._position.to_move
            if self._position.is_over:
                self._finish(None)

        def observe(self, agent: str) -> dict:
            mask = agent == self.agent_selection and not self.terminations[agent]
            return _observation(self._position, agent, self._info, mask)

        def step(self, action: Any) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            number = _action(action, self._info["actions"])
            self._cumulative_rewards[agent] = 0.0
            self._clear_rewards()
            try:
                move = self._position.move_of(number)
            except IllegalMoveError:
                self._finish(agent)
            else:
                self._position.play(move)
                if self._position.is_over:
                    self._finish(None)
                else:
                    self.agent_selection = self._position.to_move
            self._accumulate_rewards()
            if self.render_mode == "human":
                self.render()

        def _finish(self, illegal_by: Optional[str]) -> None:
            for agent in self.agents:
                self.terminations[agent] = True
                if illegal_by is None:
                    self.rewards[agent] = _reward(self._position, agent)
                else:
                    self.rewards[agent] = -1.0 if agent == illegal_by else 1.0
            if illegal_by is not None:
                self.infos[illegal_by]["illegal_move"] = True
            # The side that did not make the last move sees the end first.
            last = illegal_by or self.agent_selection
            self.agent_selection = next((a for a in self.agents if a != last), last)

        def ai_action(self, ai: Union[str, Agent], seed: int = 0) -> int:
            """The action gamelab's AI `ai` (a spec such as ``"engine:level=4"`` or an
            ``Agent``) plays for the side to move, drawing from the stream of `seed`."""
            agent = _ai(ai, self.game, self._board)
            return self._position.action_of(agent.choose(self._position, seed))

        def render(self) -> Any:
            return _render(self._position, self._info, self.render_mode)

        def close(self) -> None:
            pass

    GamelabAECEnv.__qualname__ = "GamelabAECEnv"
    return GamelabAECEnv


_AEC: Optional[type] = None


def raw_env(game: str = "ttt", **kwargs: Any):
    """The PettingZoo AEC environment of `game` without PettingZoo's wrappers. Keywords:
    ``render_mode`` (``"human"``, ``"ansi"``, ``"rgb_array"``, ``"svg"``), ``position`` (a
    start other than the game's: a ``Position`` or its text), ``board`` (a board
    structure)."""
    global _AEC
    if _AEC is None:
        _AEC = _aec_class()
    return _AEC(game, **kwargs)


def env(game: str = "ttt", **kwargs: Any):
    """The PettingZoo AEC environment of `game` (``raw_env`` with PettingZoo's order
    enforcing wrapper, which refuses a step before reset)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(game, **kwargs))


# --- Gymnasium -------------------------------------------------------------------------


Opponent = Union[str, Agent, Callable[[Position], Any]]


class GymEnv(gymnasium.Env):
    """A game of gamelab's catalogue for one learner against `opponent`: a gamelab AI
    spec (``"engine:level=4"``), an ``Agent``, or a function of a position that returns
    a move. `seat`: the learner's side — ``"first"``, ``"second"``, a side's name, or
    ``"random"`` (drawn at each reset). The opponent's moves and a random seat depend
    only on the seed given to ``reset``."""

    metadata = {"render_modes": RENDER_MODES, "render_fps": 1}

    def __init__(
        self,
        game: str = "ttt",
        opponent: Optional[Opponent] = None,
        *,
        seat: str = "first",
        board: Optional[str] = None,
        position: Union[None, str, Position] = None,
        render_mode: Optional[str] = None,
    ):
        self.game = game
        self._info = _game_info(game)
        self._board = board
        self._start = position
        _start(game, position, board)
        sides = list(self._info["sides"])
        if seat not in ("first", "second", "random", *sides):
            raise ValueError(f"seat is first, second, random, {' or '.join(sides)}; got {seat!r}")
        self.seat = seat
        if opponent is None:
            opponent = self._info["default_match"][1]
        self.opponent = opponent if callable(opponent) and not isinstance(opponent, Agent) else _ai(opponent, game, board)
        self.render_mode = _check_render_mode(render_mode)
        self.observation_space, self.action_space = _spaces(self._info)
        self._position: Optional[Position] = None
        self.learner: Optional[str] = None
        self._opponent_seed = 0
        self._done = False

    @property
    def position(self) -> Position:
        """A copy of the game's position."""
        if self._position is None:
            raise RuntimeError("no position before reset()")
        return self._position.copy()

    def _observe(self) -> dict:
        return _observation(self._position, self.learner, self._info, True)

    def _info_now(self) -> dict:
        return {"to_move": self._position.to_move, "legal_moves": self._position.legal_moves()}

    def _opponent_moves(self) -> None:
        while not self._position.is_over and self._position.to_move != self.learner:
            if isinstance(self.opponent, Agent):
                move = self.opponent.choose(self._position, self._opponent_seed)
            else:
                move = self.opponent(self._position.copy())
            self._position.play(move)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        start = (options or {}).get("position", self._start)
        self._position = _start(self.game, start, self._board)
        sides = self._info["sides"]
        seat = self.seat
        if seat == "random":
            seat = sides[int(self.np_random.integers(2))]
        self.learner = {"first": sides[0], "second": sides[1]}.get(seat, seat)
        self._opponent_seed = int(self.np_random.integers(0, 2**63 - 1))
        self._opponent_moves()
        self._done = self._position.is_over
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info_now()

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        if self._position is None:
            raise RuntimeError("call reset() before step()")
        if self._done:
            raise RuntimeError("the game is over: call reset() to play another")
        number = _action(action, self._info["actions"])
        try:
            move = self._position.move_of(number)
        except IllegalMoveError:
            self._done = True
            return self._observe(), -1.0, True, False, dict(self._info_now(), illegal_move=True)
        self._position.play(move)
        self._opponent_moves()
        if self.render_mode == "human":
            self.render()
        terminated = self._done = self._position.is_over
        reward = _reward(self._position, self.learner) if terminated else 0.0
        return self._observe(), reward, terminated, False, self._info_now()

    def render(self) -> Any:
        return _render(self._position, self._info, self.render_mode)

    def ai_action(self, ai: Union[str, Agent], seed: int = 0) -> int:
        """The action gamelab's AI `ai` would play for the learner here."""
        agent = _ai(ai, self.game, self._board)
        return self._position.action_of(agent.choose(self._position, seed))


def gym_env(game: str = "ttt", opponent: Optional[Opponent] = None, **kwargs: Any) -> GymEnv:
    """The Gymnasium environment of `game` in which the learner plays against `opponent`
    (default: the catalogue's default opponent, a random player); keywords as ``GymEnv``.
    ``gymnasium.make("gamelab/Othello-v0", opponent=...)`` makes the same environment
    inside Gymnasium's checking wrappers."""
    return GymEnv(game, opponent, **kwargs)


def _register() -> None:
    from . import catalogue

    for info in catalogue():
        env_id = f"gamelab/{info['class_name']}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="gamelab.envs:GymEnv", kwargs={"game": info["name"]})


_register()
