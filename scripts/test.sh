#!/usr/bin/env bash
# Runs every check and test of gamelab; installs what they need when it is missing
# (rustfmt and clippy; Debian's Chromium and npm's playwright-core for the browser tests;
# a Python virtual environment in target/pyenv with maturin, pytest and the packages the
# Python tests and notebook use).
#
# Every stage runs, whatever failed before it; the failures are listed at the end and the
# exit status is then 1. Each stage's start is printed with the seconds since the start,
# so a slow run shows where its time went.
#
# The fuzz targets' checks run inside `cargo test` (crates/fuzz-checks replays the seeds
# and fixed mutations of them); long fuzzing runs are `scripts/fuzz.sh`'s (FUZZING.md).
set -uo pipefail
cd "$(dirname "$0")/.."

failed=()
stage() { echo "== $1 (at ${SECONDS}s)"; }
# Runs a stage's command; a failure is noted and the next stage runs.
check() {
  local name=$1
  shift
  if ! "$@"; then
    failed+=("$name")
    echo "!! $name failed (at ${SECONDS}s)"
  fi
}

if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
  rustup component add rustfmt clippy
fi

stage "cargo fmt --check"
check "cargo fmt" cargo fmt --all -- --check
stage "cargo clippy"
check "cargo clippy" cargo clippy --workspace --all-targets --locked -- -D warnings
stage "cargo doc (every documentation link resolves)"
check "cargo doc" env RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked --quiet
stage "cargo test (the fuzz targets' seeds and mutations among them)"
# --no-fail-fast: every test binary runs and reports. To rerun one binary without
# rebuilding the world, keep --workspace (cargo's own hint, `-p CRATE`, builds the
# dependencies again with other features): cargo test --workspace --test NAME.
check "cargo test" cargo test --workspace --locked --no-fail-fast

# Cargo's target folder, wherever CARGO_TARGET_DIR or a cargo config puts it.
target=$(cargo metadata --no-deps --format-version 1 --locked |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
# `cargo test` above built the debug gamelab for the CLI's integration tests: that
# binary serves the browser and Python tests. A `cargo build` here would rebuild every
# crate with the features of a build without dev-dependencies.
gamelab="$target/debug/gamelab"

browser_tests() {
  if [ ! -x /usr/bin/chromium ]; then
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq &&
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null || return 1
  fi
  [ -x "$gamelab" ] || cargo build --locked -p gamelab || return 1
  local browser=crates/web/tests/browser
  if [ ! -d "$browser/node_modules/playwright-core" ] || [ ! -d "$browser/node_modules/axe-core" ]; then
    (cd "$browser" && npm ci --no-audit --no-fund) || return 1
  fi
  (cd "$browser" && GAMELAB_BIN="$gamelab" node --test --test-concurrency=1 app.test.mjs)
  local status=$?
  echo "Screenshots of the browser tests: target/screenshots/"
  return $status
}
# The Python package's environment and build (pip, then maturin compiling pyo3 and the
# extension; every other crate comes from `cargo test`'s build, crates/python/Cargo.toml
# says how) run at low priority beside the browser tests, which mostly wait on Chromium
# and the server. Its output goes to a log that the Python stage prints; nothing in either
# stage depends on how fast the other runs.
python_env() {
  local venv=target/pyenv
  if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv" || return 1
  fi
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r crates/python/requirements-test.txt || return 1
  (cd crates/python &&
    VIRTUAL_ENV="$PWD/../../$venv" PATH="$PWD/../../$venv/bin:$PATH" maturin develop --locked --quiet)
}
mkdir -p target
python_env_log=target/python-env.log
(nice -n 10 bash -c "$(declare -f python_env); python_env" >"$python_env_log" 2>&1) &
python_env_job=$!

stage "browser tests (gamelab serve in headless Chromium)"
check "browser tests" browser_tests

python_tests() {
  local built=0
  wait "$python_env_job" || built=$?
  cat "$python_env_log"
  [ "$built" -eq 0 ] || return 1
  [ -x "$gamelab" ] || cargo build --locked -p gamelab || return 1
  GAMELAB_BIN="$gamelab" target/pyenv/bin/python -m pytest -q crates/python/tests
}
stage "Python package (crates/python, built into target/pyenv beside the browser tests; pytest and the notebooks)"
check "Python tests" python_tests

if ((${#failed[@]} > 0)); then
  echo "== FAILED after ${SECONDS}s: ${failed[*]}"
  exit 1
fi
echo "== all checks passed in ${SECONDS}s"
