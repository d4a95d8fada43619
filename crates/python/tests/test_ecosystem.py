"""The bridges to the Python game-AI ecosystem: PettingZoo's and Gymnasium's own checks
pass for every game, the environments are reproducible and symmetric, gamelab's AIs play
in them, and gamelab and OpenSpiel agree on the rules and play each other."""

from __future__ import annotations

import importlib.metadata
import pathlib
import warnings

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, render_test, seed_test

import gamelab
from gamelab import envs, openspiel

GAMES = gamelab.games()


# --- PettingZoo ------------------------------------------------------------------------


# PettingZoo's own board games (its `classic` family) draw the same advice: a dict of
# observation and mask is what they observe too, and agents are named after the sides.
@pytest.mark.filterwarnings("ignore:Observation:UserWarning", "ignore:We recommend agents:UserWarning")
@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_checks_pass(game):
    api_test(envs.env(game), num_cycles=300, verbose_progress=False)
    seed_test(lambda: envs.env(game), num_cycles=100)
    render_test(
        lambda render_mode=None: envs.env(game, render_mode=render_mode),
        custom_tests={"svg": lambda svg: svg.startswith("<svg")},
    )


def play_aec(env, choose, seed=0):
    """Plays one game; `choose(env, agent, observation)` gives each action."""
    env.reset(seed=seed)
    rewards = {a: 0.0 for a in env.possible_agents}
    actions = []
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        rewards[agent] += reward
        action = None if terminated or truncated else choose(env, agent, observation)
        if action is not None:
            actions.append(action)
        env.step(action)
    return rewards, actions


def test_a_gamelab_ai_takes_a_pettingzoo_seat():
    # ai14s never loses tic-tac-toe: against random actions from the mask it wins or draws.
    def choose(env, agent, observation):
        if agent == "o":
            return env.unwrapped.ai_action("ai14s")
        return int(rng.choice(np.flatnonzero(observation["action_mask"])))

    rng = np.random.default_rng(1)
    outcomes = [play_aec(envs.env("ttt"), choose)[0] for _ in range(30)]
    assert all(r["o"] >= 0 and r["o"] + r["x"] == 0 for r in outcomes)
    assert sum(r["o"] == 1 for r in outcomes) > 20


def test_pettingzoo_observations_are_the_movers_view_and_the_mask_its_legal_moves():
    env = envs.raw_env("othello")
    env.reset()
    observation = env.observe("black")
    assert observation["observation"].shape == (8, 8, 2)
    assert observation["observation"][3, 4, 0] == 1 and observation["observation"][3, 3, 1] == 1
    assert sorted(np.flatnonzero(observation["action_mask"])) == [19, 26, 37, 44]
    assert not env.observe("white")["action_mask"].any()
    env.step(19)  # d3
    assert env.agent_selection == "white"
    assert env.position.history == ["d3"]


def test_an_illegal_action_loses_the_game_and_says_so():
    env = envs.raw_env("ttt")
    env.reset()
    env.step(4)
    env.step(4)  # x plays the occupied centre
    assert env.terminations == {"o": True, "x": True}
    assert env.rewards == {"o": 1.0, "x": -1.0}
    assert env.infos["x"]["illegal_move"]
    fresh = envs.raw_env("ttt")
    fresh.reset()
    with pytest.raises(ValueError, match="whole number from 0 to 8; got 9"):
        fresh.step(9)


def test_bad_arguments_are_refused_with_what_is_expected():
    with pytest.raises(gamelab.PositionError, match="unknown game `chess`"):
        envs.env("chess")
    with pytest.raises(ValueError, match="render_mode 'window' is not one of"):
        envs.env("ttt", render_mode="window")
    with pytest.raises(ValueError, match="seat is first, second, random, black or white"):
        envs.gym_env("othello", seat="left")
    with pytest.raises(gamelab.SpecError):
        envs.gym_env("othello", opponent="nosuchai")


# --- Gymnasium -------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_checks_pass(game):
    name = next(g["class_name"] for g in gamelab.catalogue() if g["name"] == game)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env = gymnasium.make(f"gamelab/{name}-v0", render_mode="rgb_array", seat="random")
        check_env(env.unwrapped)
    assert not [str(w.message) for w in caught]


def episode(env, seed):
    """The learner's first legal action at each step; the whole trajectory."""
    observation, info = env.reset(seed=seed)
    trajectory = [info["legal_moves"]]
    while True:
        action = int(np.flatnonzero(observation["action_mask"])[0])
        observation, reward, terminated, truncated, info = env.step(action)
        trajectory.append((action, reward, info["legal_moves"]))
        if terminated or truncated:
            return trajectory, reward


def test_gymnasium_episodes_depend_only_on_the_seed():
    first = [episode(envs.gym_env("othello", opponent="random", seat="random"), seed) for seed in range(6)]
    again = [episode(envs.gym_env("othello", opponent="random", seat="random"), seed) for seed in range(6)]
    assert first == again
    assert len({str(t) for t in first}) == 6


def test_the_learner_meets_a_perfect_opponent():
    env = envs.gym_env("ttt", opponent="ai14s", seat="second")
    rewards = []
    for seed in range(10):
        observation, _ = env.reset(seed=seed)
        assert observation["observation"][:, :, 1].sum() == 1  # the opponent opened
        rng = np.random.default_rng(seed)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, reward, done, _, _ = env.step(action)
        rewards.append(reward)
    assert max(rewards) <= 0 and min(rewards) == -1
    env.reset(seed=0)
    taken = next(i for i, holder in enumerate(sum(env.position.cells, [])) if holder is not None)
    _, reward, terminated, _, info = env.step(taken)
    assert terminated and reward == -1.0 and info["illegal_move"]
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


# --- symmetries ------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["ttt", "connect4"])
def test_symmetries_map_observations_as_the_rules_do(game):
    # Games whose start every symmetry keeps: the image of a position is the position
    # reached by the images of its moves.
    rng = np.random.default_rng(7)
    maps = envs.symmetries(game)
    assert maps[0].name == "identity" and len(maps) == {"ttt": 8, "connect4": 2}[game]
    for _ in range(20):
        position, actions = gamelab.position(game), []
        for _ in range(int(rng.integers(1, 6))):
            if not position.is_over:
                actions.append(int(rng.choice(position.legal_actions())))
                position.play(position.move_of(actions[-1]))
        if position.is_over:
            continue
        observation = envs.raw_env(game, position=position)
        observation.reset()
        observation = observation.observe(position.to_move)
        for symmetry in maps:
            image = gamelab.position(game)
            to_image = np.argsort(symmetry.actions)  # the inverse of the gathering map
            for action in actions:
                image.play(image.move_of(int(to_image[action])))
            image_env = envs.raw_env(game, position=image)
            image_env.reset()
            expected = image_env.observe(image.to_move)
            mapped = symmetry.observation(observation)
            assert np.array_equal(mapped["observation"], expected["observation"]), symmetry.name
            assert np.array_equal(mapped["action_mask"], expected["action_mask"]), symmetry.name
            assert sorted(symmetry.source_action(a) for a in image.legal_actions()) == sorted(position.legal_actions())


def test_othello_has_all_eight_symmetries_and_the_pass_stays():
    maps = envs.symmetries("othello")
    assert [m.name for m in maps][:2] == ["identity", "mirror_columns"] and len(maps) == 8
    for symmetry in maps:
        assert symmetry.source_action(64) == 64
        assert sorted(symmetry.actions) == list(range(65))
    policy = np.arange(65.0)
    assert envs.symmetries("othello")[1].policy(policy)[0] == 7.0  # a1 shows h1's value


# --- OpenSpiel -------------------------------------------------------------------------


@pytest.mark.parametrize("game, games", [("ttt", 3000), ("othello", 1000), ("connect4", 3000)])
def test_gamelab_and_openspiel_agree_on_the_rules(game, games):
    report = openspiel.agreement(game, games=games, seed=0)
    assert report["disagreements"] == [] and report["disagreeing_games"] == 0
    assert report["games"] == games and sum(report["results"].values()) == games
    assert report["positions"] > games * {"ttt": 7, "othello": 55, "connect4": 15}[game]


def test_a_gamelab_ai_is_an_openspiel_bot():
    spiel = openspiel.spiel_game("ttt")
    for seed in range(20):
        random_bot = pyspiel.make_uniform_random_bot(1, seed)
        returns = pyspiel.evaluate_bots(spiel.new_initial_state(), [openspiel.GamelabBot("ai14s", "ttt"), random_bot], seed)
        assert returns[0] >= 0
    state = spiel.new_initial_state()
    for action in (4, 0, 8):
        state.apply_action(action)
    position = openspiel.position_of(state)
    assert position.game == "ttt" and position.legal_actions() == state.legal_actions()
    assert openspiel.state_of(position).history() == [4, 0, 8]


def test_openspiel_bots_play_gamelab_matches_reproducibly():
    mcts = openspiel.mcts_agent("ttt", simulations=300)
    one = gamelab.match(mcts, "ai2", games=20, seed=3, progress=False)
    two = gamelab.match(openspiel.mcts_agent("ttt", simulations=300), "ai2", games=20, seed=3, progress=False)
    assert one.digest == two.digest and one.played == 40
    assert one.total.win >= 30  # 34 wins, 5 draws, 1 loss: random rollouts are not perfect
    # Two perfect players: OpenSpiel's alpha-beta to the end against ai14s draws every game.
    perfect = gamelab.match(openspiel.alphabeta_agent("ttt"), "ai14s", games=3, progress=False)
    assert perfect.total.draw == 6
    othello = gamelab.match(openspiel.mcts_agent("othello", simulations=50), "random", game="othello", games=2, progress=False)
    assert othello.played == 4


def test_positions_without_moves_from_the_start_have_no_openspiel_state():
    squares = ["-"] * 64
    squares[0] = squares[28] = squares[35] = "X"  # a1 set up beside the four centre discs
    squares[27] = squares[36] = "O"
    position = gamelab.Othello("".join(squares) + " X")
    with pytest.raises(ValueError, match="set up, not reached by moves"):
        openspiel.state_of(position)
    with pytest.raises(gamelab.PositionError, match="unknown game"):
        openspiel.spiel_game("chess")
    with pytest.raises(ValueError, match="gamelab has no OpenSpiel game kuhn_poker"):
        openspiel.position_of(pyspiel.load_game("kuhn_poker").new_initial_state())


# --- the package -----------------------------------------------------------------------


def test_the_package_says_what_it_is():
    meta = importlib.metadata.metadata("gamelab")
    assert meta["Version"] == gamelab.__version__
    assert "board-game AIs" in meta["Summary"]
    classifiers = meta.get_all("Classifier")
    assert "Typing :: Typed" in classifiers
    assert any(c.startswith("License :: OSI Approved") for c in classifiers)
    assert "Programming Language :: Python :: 3.9" in classifiers
    assert {"envs", "openspiel"} <= set(meta.get_all("Provides-Extra"))
    package = pathlib.Path(gamelab.__file__).parent
    assert (package / "py.typed").exists()
    # One extension module for every Python from 3.9 on (the stable ABI).
    assert gamelab._gamelab.__file__.endswith(".abi3.so")
