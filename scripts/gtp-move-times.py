#!/usr/bin/env python3
"""Plays a gamelab AI against itself through one `gamelab gtp` session from the WTHOR
games' most frequent openings and times every `genmove`: how closely a time-limited AI
keeps to its time a move.

    scripts/gtp-move-times.py SPEC LIMIT GAMES [GAMELAB]

SPEC the AI (`engine:level=30,time=0.1,threads=1`), LIMIT its seconds a move (moves
over it by more than a tenth and 5 ms are counted), GAMES how many games (one an opening
of crates/othello/openings/wthor-top100-6.txt, in order), GAMELAB the binary (default
target/release/gamelab). The times are the round trips seen from here, protocol
included.
"""
import pathlib
import subprocess
import sys
import time

spec, limit, games = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
binary = sys.argv[4] if len(sys.argv) > 4 else "target/release/gamelab"
root = pathlib.Path(__file__).resolve().parent.parent
openings = [line.strip() for line in
            (root / "crates/othello/openings/wthor-top100-6.txt").read_text().splitlines()
            if line.strip() and not line.startswith("#")]
engine = subprocess.Popen([binary, "gtp", "--ai", spec],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def send(command):
    engine.stdin.write(command + "\n")
    engine.stdin.flush()
    lines = []
    while (line := engine.stdout.readline()) not in ("\n", ""):
        lines.append(line.strip())
    return " ".join(lines)


times = []
for game in range(games):
    send("clear_board")
    opening = openings[game % len(openings)]
    colour = "black"
    for i in range(0, len(opening), 2):
        assert send(f"play {colour} {opening[i:i + 2]}") == "=", opening
        colour = "white" if colour == "black" else "black"
    while True:
        started = time.monotonic()
        answer = send(f"genmove {colour}")
        took = time.monotonic() - started
        if answer.startswith("?"):  # the game is over
            break
        times.append(took)
        colour = "white" if colour == "black" else "black"
send("quit")
engine.wait()
times.sort()
over = sum(t > limit * 1.1 + 0.005 for t in times)
print(f"{len(times)} moves: longest {times[-1]:.3f} s, 99th percentile "
      f"{times[len(times) * 99 // 100]:.3f} s, mean {sum(times) / len(times):.3f} s, "
      f"{over} over {limit * 1.1 + 0.005:.3f} s")
