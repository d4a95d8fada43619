#!/usr/bin/env python3
"""Plays one game of a gamelab AI against itself through one `gamelab gtp` session under
a clock, and prints what each side spent: how the engine shares its time.

    scripts/gtp-clock.py MAIN PERIOD STONES [SPEC] [GAMELAB]

MAIN, PERIOD, STONES: GTP's `time_settings` (seconds, seconds, moves); SPEC the AI
(default `engine`); GAMELAB the binary (default target/release/gamelab). The times are
the round trips seen from here, protocol included.
"""
import sys

from gtp_session import Session

main, period, stones = sys.argv[1:4]
spec = sys.argv[4] if len(sys.argv) > 4 else "engine"
binary = sys.argv[5] if len(sys.argv) > 5 else "target/release/gamelab"
session = Session(binary, spec)
send = session.send

assert send(f"time_settings {main} {period} {stones}") == "="
spent = {"black": 0.0, "white": 0.0}
longest = {"black": 0.0, "white": 0.0}
moves = 0
for colour, took in session.self_play("black"):
    spent[colour] += took
    longest[colour] = max(longest[colour], took)
    moves += 1
print(f"{send('final_score')[2:]} after {moves} moves")
for side in spent:
    print(f"{side}: {spent[side]:.2f} s in all, longest move {longest[side]:.3f} s")
session.quit()
