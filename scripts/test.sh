#!/usr/bin/env bash
# Runs every check and test of gamelab; installs what they need when it is missing
# (rustfmt and clippy; cargo-fuzz; Debian's Chromium and npm's playwright-core for the
# browser tests; a Python virtual environment in target/pyenv with maturin, pytest and
# the packages the Python tests and notebook use).
set -euo pipefail
cd "$(dirname "$0")/.."

# Each stage says when it starts, so a slow run shows where its time went.
stage() { echo "== $1 (at ${SECONDS}s)"; }

if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
  rustup component add rustfmt clippy
fi

stage "cargo fmt --check"
cargo fmt --all -- --check
stage "cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings
stage "cargo doc (every documentation link resolves)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked --quiet
stage "cargo test"
cargo test --workspace --locked

stage "fuzz smoke (every parser for a few seconds; see FUZZING.md)"
scripts/fuzz.sh 5

stage "browser tests (gamelab serve in headless Chromium)"
if [ ! -x /usr/bin/chromium ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi
# Cargo's target folder, wherever CARGO_TARGET_DIR or a cargo config puts it.
target=$(cargo metadata --no-deps --format-version 1 --locked |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
# `cargo test` above built the debug gamelab for the CLI's integration tests: that
# binary serves. A `cargo build` here would rebuild every crate with the features of a
# build without dev-dependencies (3.5 min of a cold run on 2 cores).
gamelab="$target/debug/gamelab"
[ -x "$gamelab" ] || cargo build --locked -p gamelab
browser=crates/web/tests/browser
if [ ! -d "$browser/node_modules/playwright-core" ]; then
  (cd "$browser" && npm ci --no-audit --no-fund)
fi
(cd "$browser" && GAMELAB_BIN="$gamelab" node --test --test-concurrency=1 app.test.mjs)
echo "Screenshots of the browser tests: target/screenshots/"

stage "Python package (crates/python, built into target/pyenv; pytest and the notebook)"
venv=target/pyenv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check -r crates/python/requirements-test.txt
(cd crates/python && VIRTUAL_ENV="$PWD/../../$venv" PATH="$PWD/../../$venv/bin:$PATH" maturin develop --locked --quiet)
GAMELAB_BIN="$gamelab" "$venv/bin/python" -m pytest -q crates/python/tests
echo "== all checks passed in ${SECONDS}s"
