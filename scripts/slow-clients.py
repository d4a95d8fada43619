#!/usr/bin/env python3
"""Puts `gamelab serve` (release build) under idle and slow clients, as a careless or
hostile local program would, and prints what held:

1. N silent connections (default 3,000) opened at once, the server under `ulimit -n 1024`:
   a real request made meanwhile must be answered; the server's memory and open
   descriptors are printed.
2. Slowloris: 200 connections sending a request's headers a byte a second.
3. After the header timeout (10 s), the silent and slow connections must be closed.

    scripts/slow-clients.py [N]

Run from the repository root after `cargo build --release -p gamelab`."""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "gamelab")


def start_server() -> tuple[subprocess.Popen, int]:
    def limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))

    server = subprocess.Popen(
        [BIN, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True, preexec_fn=limit
    )
    line = server.stdout.readline()
    port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
    return server, port


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def descriptors(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def request(port: int) -> tuple[str, float]:
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=60) as s:
        s.sendall(f"GET /api/catalogue HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    return answer.split(b"\r\n", 1)[0].decode(), time.monotonic() - started


def closed(s: socket.socket) -> bool:
    s.setblocking(False)
    try:
        return s.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    resource.setrlimit(resource.RLIMIT_NOFILE, (count + 1024, count + 1024))
    server, port = start_server()
    try:
        idle_rss = rss_mb(server.pid)
        silent = []
        for _ in range(count):
            try:
                silent.append(socket.create_connection(("127.0.0.1", port), timeout=10))
            except OSError:
                break
        status, took = request(port)
        print(f"{len(silent)} silent connections: a request answered `{status}` in {took * 1e3:.0f} ms; "
              f"server {rss_mb(server.pid):.0f} MB (idle {idle_rss:.0f} MB), {descriptors(server.pid)} descriptors")
        slow = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(200)]
        header = f"GET /api/catalogue HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode()
        for i in range(5):
            for s in slow:
                try:
                    s.send(header[i:i + 1])
                except OSError:
                    pass
            time.sleep(1)
        status, took = request(port)
        print(f"200 slowloris connections, 5 s in: a request answered `{status}` in {took * 1e3:.0f} ms")
        time.sleep(11)
        left_silent = sum(not closed(s) for s in silent)
        left_slow = sum(not closed(s) for s in slow)
        status, took = request(port)
        print(f"after the 10 s header timeout: {left_silent} silent and {left_slow} slow connections still open; "
              f"server {rss_mb(server.pid):.0f} MB, {descriptors(server.pid)} descriptors; "
              f"a request answered `{status}` in {took * 1e3:.0f} ms")
        ok = status.startswith("HTTP/1.1 200") and left_silent == 0 and left_slow == 0
        return 0 if ok else 1
    finally:
        server.kill()


if __name__ == "__main__":
    sys.exit(main())
