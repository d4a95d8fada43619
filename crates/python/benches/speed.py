"""The Python package's speed targets (issue 19), measured: a match of Rust AIs from Python
against the same match from the command line, and a trivial Python agent against ai2 with
the cost of each call into Python. Run with a release build of the package:

    pip install ./crates/python          # or: maturin develop --release
    python crates/python/benches/speed.py [path/to/gamelab]

Prints medians of 5 runs (games/s); the machine's load matters, so run it on a quiet one.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

import gamelab

RUNS = 5


def median_rate(games: int, run) -> float:
    rates = []
    for _ in range(RUNS):
        started = time.perf_counter()
        run()
        rates.append(games / (time.perf_counter() - started))
    return statistics.median(rates)


def main() -> None:
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/gamelab"
    n = 5_000_000
    for threads in (1, None):
        flag = [] if threads is None else ["--threads", str(threads)]
        py_rates, cli_rates = [], []
        # Interleaved, so that a change in the machine's load hits both alike.
        for _ in range(RUNS):
            started = time.perf_counter()
            gamelab.match("ai2", "ai2", games=n, threads=threads, progress=False)
            py_rates.append(2 * n / (time.perf_counter() - started))
            started = time.perf_counter()
            subprocess.run([binary, "match", "ai2", "ai2", "-n", str(n), *flag, "--json"], capture_output=True, check=True)
            cli_rates.append(2 * n / (time.perf_counter() - started))
        py, cli = statistics.median(py_rates), statistics.median(cli_rates)
        print(
            f"ai2 VS ai2, {2 * n:,} games, threads={threads or 'all'}: Python {py / 1e6:.2f} M games/s, "
            f"CLI {cli / 1e6:.2f} M games/s (Python/CLI {py / cli:.3f})"
        )

    calls = 0

    def first_move(position):
        nonlocal calls
        calls += 1
        return position.legal_moves()[0]

    m = 100_000
    result = gamelab.match(first_move, "ai2", games=m, progress=False)
    per_game = calls / (2 * m)
    rate = median_rate(2 * m, lambda: gamelab.match(lambda p: p.legal_moves()[0], "ai2", games=m, progress=False))
    print(
        f"first legal move (Python) VS ai2, {2 * m:,} games: {rate:,.0f} games/s; "
        f"{per_game:.2f} Python calls a game, {1e6 / (rate * per_game):.2f} µs a call all told"
    )

    # The same games from gamelab's ai1 (the first legal move, in Rust): what the Python
    # calls add is the difference.
    rust = median_rate(2 * m, lambda: gamelab.match("ai1", "ai2", games=m, threads=1, progress=False))
    assert gamelab.match("ai1", "ai2", games=m).digest == result.digest
    # The function alone, called from Python on a position it is handed.
    pos = gamelab.TicTacToe()
    f = lambda p: p.legal_moves()[0]  # noqa: E731
    k = 200_000
    started = time.perf_counter()
    for _ in range(k):
        f(pos)
    pure = (time.perf_counter() - started) / k
    added = 1 / (rate * per_game) - 1 / (rust * per_game)
    print(
        f"  the same games by ai1 (Rust): {rust / 1e6:.2f} M games/s; the Python calls add {added * 1e6:.2f} µs each, "
        f"of which the function's own work (legal_moves() and [0], timed from Python) is {pure * 1e6:.2f} µs "
        f"and the arena's cost of a call (the position object, the call, reading the move) {(added - pure) * 1e6:.2f} µs"
    )
    print(f"  digest {result.digest}")


if __name__ == "__main__":
    main()
