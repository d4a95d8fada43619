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
import sys

from gtp_session import Session

spec, limit, games = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
binary = sys.argv[4] if len(sys.argv) > 4 else "target/release/gamelab"
root = pathlib.Path(__file__).resolve().parent.parent
openings = [line.strip() for line in
            (root / "crates/othello/openings/wthor-top100-6.txt").read_text().splitlines()
            if line.strip() and not line.startswith("#")]
session = Session(binary, spec)
send = session.send

times = []
for game in range(games):
    send("clear_board")
    opening = openings[game % len(openings)]
    colour = "black"
    for i in range(0, len(opening), 2):
        assert send(f"play {colour} {opening[i:i + 2]}") == "=", opening
        colour = "white" if colour == "black" else "black"
    times += [took for _, took in session.self_play(colour)]
session.quit()
times.sort()
over = sum(t > limit * 1.1 + 0.005 for t in times)
print(f"{len(times)} moves: longest {times[-1]:.3f} s, 99th percentile "
      f"{times[len(times) * 99 // 100]:.3f} s, mean {sum(times) / len(times):.3f} s, "
      f"{over} over {limit * 1.1 + 0.005:.3f} s")
