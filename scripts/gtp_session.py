"""One `gamelab gtp` session driven from a script (scripts/gtp-clock.py,
scripts/gtp-move-times.py)."""
import subprocess
import time


class Session:
    """`gamelab gtp --ai SPEC` run by BINARY, a command at a time."""

    def __init__(self, binary, spec):
        self.engine = subprocess.Popen([binary, "gtp", "--ai", spec],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       text=True)

    def send(self, command):
        """The answer to `command`, its lines joined by spaces (`=`, `= F5`, `? …`)."""
        self.engine.stdin.write(command + "\n")
        self.engine.stdin.flush()
        lines = []
        while (line := self.engine.stdout.readline()) not in ("\n", ""):
            lines.append(line.strip())
        return " ".join(lines)

    def self_play(self, colour):
        """Asks for every move of the game from here, `colour` first, each colour in
        turn (the session passes for a side that must); yields each move's colour and
        seconds, round trip included."""
        while True:
            started = time.monotonic()
            answer = self.send(f"genmove {colour}")
            took = time.monotonic() - started
            if answer.startswith("?"):  # the game is over
                return
            yield colour, took
            colour = "white" if colour == "black" else "black"

    def quit(self):
        self.send("quit")
        self.engine.wait()
