#!/usr/bin/env bash
# The project's commands, each installing what it needs on Debian or Ubuntu with Python 3:
#   bash scripts/dev.sh serve [PORT]   # the site at http://127.0.0.1:PORT (8000), live reload
#   bash scripts/dev.sh test [ARGS]    # every example, the engine tests, a strict site build; ARGS go to pytest
#   bash scripts/dev.sh build          # the static site into site/
#   bash scripts/dev.sh lock [ARGS]    # requirements/*.txt again from pyproject.toml; ARGS go to uv pip compile
# Sourced, it only defines the steps below (tests/tools/test_dev.py runs them against stub commands).
set -euo pipefail

export NO_MKDOCS_2_WARNING=1
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1  # the browser tests drive the system's Chromium, never a download

# One line per step: bold on a terminal; plain text in a pipe, a log or CI, or with NO_COLOR.
say() {
  if [ -t 2 ] && [ -z "${NO_COLOR:-}" ] && [ "${TERM:-dumb}" != dumb ]; then
    printf '\033[1m==> %s\033[0m\n' "$*" >&2
  else
    printf '==> %s\n' "$*" >&2
  fi
}
die() { say "$*"; exit 1; }
usage() { echo "usage: bash scripts/dev.sh serve [PORT] | test [pytest args] | build | lock [uv pip compile args]" >&2; exit 2; }

# serve's port must be free on 127.0.0.1, checked before any install or build: mkdocs serve
# would build for half a minute and then die with a traceback. SO_REUSEADDR as mkdocs binds,
# so a port left in TIME_WAIT by the last serve counts as free.
check_port() {
  local port=$1 problem
  problem=$(python3 - "$port" <<'EOF'
import errno, socket, sys
with socket.socket() as s:
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        s.bind(("127.0.0.1", int(sys.argv[1])))
    except OSError as error:
        print("busy" if error.errno == errno.EADDRINUSE else error.strerror)
EOF
  ) || die "python3 is missing: install Python 3 (3.10 or newer), e.g. 'apt-get install python3 python3-venv'"
  case "$problem" in
    "") ;;
    busy) die "Port $port is busy: another program (another 'dev.sh serve'?) is using 127.0.0.1:$port. Stop it, or serve on another port: bash scripts/dev.sh serve $((port + 1))" ;;
    *) die "Port $port cannot be used ($problem). Serve on another port: bash scripts/dev.sh serve 8000" ;;
  esac
}

# System packages, by Debian/Ubuntu name: Graphviz's `dot` draws the figures, Node.js runs the
# npm packages at build time, npm installs them (only when node_modules/ needs it),
# python3-venv makes .venv (Debian's python3 has no ensurepip without it), Chromium's headless
# shell runs the browser tests (installed beside a full Chromium where apt-get needs no password).
system_packages() {  # $1: serve, build or test
  local need=() lighter=""
  command -v dot >/dev/null 2>&1 || need+=(graphviz)
  command -v node >/dev/null 2>&1 || need+=(nodejs)
  node_modules_current || command -v npm >/dev/null 2>&1 || need+=(npm)
  venv_usable || python3 -c 'import ensurepip' >/dev/null 2>&1 || need+=(python3-venv)
  if [ "$1" = test ] && [ -z "${CHROMIUM:-}" ] && ! command -v chromium-headless-shell >/dev/null 2>&1; then
    if ! chromium_path >/dev/null; then
      if ubuntu; then die "$(ubuntu_chromium)"; fi
      need+=(chromium-headless-shell)
    elif ! ubuntu && installs_quietly; then
      lighter=chromium-headless-shell  # beside the full Chromium: half the CPU per page
    fi
  fi
  if [ ${#need[@]} -gt 0 ]; then apt_install "${need[@]}"; fi
  if [ -n "$lighter" ] && ! apt_install "$lighter"; then  # not in every release (Debian 11)
    say "chromium-headless-shell could not be installed: the browser tests use $(chromium_path)"
  fi
  if [ "$1" = test ]; then
    find_chromium || die "Chromium was installed, but 'chromium-headless-shell --version' does not run: set CHROMIUM to a Chromium or Chrome binary"
  fi
}

apt_install() {
  if ! command -v apt-get >/dev/null 2>&1; then
    die "Missing: $*. This is not Debian or Ubuntu (no apt-get): install Graphviz (https://graphviz.org/download/), Node.js with npm, and for the tests Chromium with your package manager, then run this again."
  fi
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || die "Missing system packages. Install them as root: apt-get install $*; then run this again."
    sudo=sudo
  fi
  say "Installing $* (apt-get install)"
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

# The browser tests' Chromium, exported as CHROMIUM: $CHROMIUM if set, else the first that runs
# of `chromium-headless-shell` (Debian 12 and 13: Chromium's old headless mode, which Playwright
# itself runs headless tests in; here a page costs half the CPU the full browser takes),
# `chromium` (Debian), `chromium-browser` (Ubuntu before 19.10, Mint), /snap/bin/chromium
# (Ubuntu's snap). Ubuntu's chromium-browser deb is a stub that only asks for the snap:
# `--version` weeds it out.
chromium_path() {
  local name path
  for name in chromium-headless-shell chromium chromium-browser /snap/bin/chromium; do
    path=$(command -v "$name") || continue
    if runs_chromium "$path"; then echo "$path"; return 0; fi
  done
  return 1
}
find_chromium() {
  if [ -n "${CHROMIUM:-}" ]; then
    runs_chromium "$CHROMIUM" && return 0
    die "CHROMIUM=$CHROMIUM does not run ('$CHROMIUM --version' failed): point it at a Chromium or Chrome binary, or unset it"
  fi
  CHROMIUM=$(chromium_path) || return 1
  export CHROMIUM
}
# apt-get can run without asking anyone: as root, or through sudo without a password.
installs_quietly() {
  command -v apt-get >/dev/null 2>&1 || return 1
  [ "$(id -u)" -eq 0 ] || sudo -n true >/dev/null 2>&1
}
runs_chromium() { [[ $("$1" --version 2>/dev/null) =~ ^(Chromium|Google\ Chrome) ]]; }

# Ubuntu has no chromium deb (only the snap stub), so apt-get cannot help there.
ubuntu() { grep -qsx 'ID="\?ubuntu"\?' "${DEV_SH_OS_RELEASE:-/etc/os-release}"; }
ubuntu_chromium() {
  echo "Chromium not found. On Ubuntu it comes only as a snap: 'sudo snap install chromium', then run this again (it finds /snap/bin/chromium); or point CHROMIUM at a Chromium or Chrome binary: CHROMIUM=/path/to/chrome bash scripts/dev.sh test"
}

# Python packages, in .venv, from the lock: requirements/<extra>.txt pins every package and its
# hashes (made by `lock` below), then the project itself, editable, without its dependencies.
# Reinstalled only when the lock file changes. `python3 -m venv` without python3-venv fails
# halfway and leaves a .venv with no pip: make it again.
venv_usable() { [ -x .venv/bin/python ] && .venv/bin/python -c 'import pip' >/dev/null 2>&1; }
python_venv() {
  if { [ -e .venv ] || [ -L .venv ]; } && ! venv_usable; then
    say "Making .venv again: it has no pip (python3 -m venv ran without python3-venv)"
    rm -rf .venv
  fi
  if [ ! -e .venv ]; then
    say "Creating .venv"
    python3 -m venv .venv
  fi
}
python_packages() {  # $1: the extra, docs or test
  local extra=$1 lock=requirements/$1.txt
  python_venv
  local stamp=".venv/.installed-$extra-$(sha256sum "$lock" | cut -c1-16)"
  if [ ! -f "$stamp" ]; then
    say "Installing Python packages ($lock)"
    .venv/bin/python -m pip install -q --require-hashes -r "$lock"
    # The project: setuptools, its build backend, is in the lock (no isolated build that fetches
    # one unpinned); its notice "Editable installation", on every install, is no news here.
    PYTHONWARNINGS="ignore:Editable installation" \
      .venv/bin/python -m pip install -q --no-deps --no-build-isolation -e .
    rm -f .venv/.installed-"$extra"-*
    touch "$stamp"
  fi
}

# The lock: requirements/docs.txt and requirements/test.txt, resolved from pyproject.toml's
# extras by uv (pinned here, installed into .venv on demand) for every platform and
# Python >= 3.10, with hashes. A version already in a lock file is kept while pyproject.toml
# allows it; ARGS go to uv pip compile: --upgrade (everything), --upgrade-package NAME.
UV_VERSION=0.13.9
lock() {
  venv_usable || python3 -c 'import ensurepip' >/dev/null 2>&1 || apt_install python3-venv
  python_venv
  if [ "$(.venv/bin/uv --version 2>/dev/null | cut -d' ' -f2)" != "$UV_VERSION" ]; then
    say "Installing uv $UV_VERSION into .venv"
    .venv/bin/python -m pip install -q "uv==$UV_VERSION"
  fi
  local extra
  for extra in docs test; do
    say "Locking .[$extra] into requirements/$extra.txt"
    .venv/bin/uv --no-config pip compile pyproject.toml --extra "$extra" --universal \
      --python-version 3.10 --no-python-downloads --generate-hashes --quiet \
      --custom-compile-command "bash scripts/dev.sh lock" -o "requirements/$extra.txt" "$@"
  done
}

# npm packages (KaTeX, Pyodide, CodeMirror, esbuild, axe-core), pinned by package-lock.json.
# npm ci runs only when node_modules/ is missing or older than the lock file; npm rewrites
# node_modules/.package-lock.json on every install.
node_modules_current() {
  [ -f node_modules/.package-lock.json ] && ! [ package-lock.json -nt node_modules/.package-lock.json ]
}
npm_packages() {
  node_modules_current && return 0
  if [ -f node_modules/.package-lock.json ]; then
    say "Installing npm packages (npm ci): package-lock.json is newer than node_modules/"
  else
    say "Installing npm packages (npm ci): node_modules/ is missing"
  fi
  npm ci --no-audit --no-fund --loglevel=error
}

main() {
  cd "$(dirname "${BASH_SOURCE[0]}")/.."
  # mkdocs-jupyter imports nbconvert's command-line app, whose help text lists the exporters
  # nbconvert can use: it builds every one of them to ask, about 0.5 s before each build
  # starts. With this, nbconvert lists them by name; the site's notebook is converted the same.
  export NBCONVERT_DISABLE_CONFIG_EXPORTERS=1
  case "${1:-}" in
    serve)
      shift
      if [ "${1:-}" = --port ]; then shift; [ $# -gt 0 ] || usage; fi
      local port=${1:-8000}
      [ $# -le 1 ] && [[ $port =~ ^[1-9][0-9]{0,4}$ ]] && [ "$port" -le 65535 ] || usage
      check_port "$port"
      system_packages serve; python_packages docs; npm_packages
      # --dirty: a save re-renders only the pages that changed (scripts/build/hooks/pages.py also
      # marks every page whose code had to run again); MkDocs warns that dirty builds may have
      # stale navigation, so --no-strict; no __pycache__ under the watched folders.
      PYTHONDONTWRITEBYTECODE=1 exec .venv/bin/mkdocs serve --dirty --no-strict --dev-addr "127.0.0.1:$port"
      ;;
    build)
      system_packages build; python_packages docs; npm_packages
      exec .venv/bin/mkdocs build --strict
      ;;
    test)
      shift
      system_packages test; python_packages test; npm_packages
      exec .venv/bin/python -m pytest -n 2 "$@"  # --dist loadfile: pyproject.toml's addopts
      ;;
    lock)
      shift
      lock "$@"
      ;;
    *) usage ;;
  esac
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then main "$@"; fi
