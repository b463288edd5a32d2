#!/usr/bin/env bash
# The project's two commands, each installing what it needs on a machine with only Python 3:
#   bash scripts/dev.sh serve   # the site at http://127.0.0.1:8000, live reload
#   bash scripts/dev.sh test    # every example, the engine tests and a strict site build
#   bash scripts/dev.sh build   # the static site into site/
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }

# System packages: Graphviz's `dot` draws the figures, Node's npm fetches KaTeX,
# Chromium runs the browser tests. Debian/Ubuntu names.
apt_install() {
  local missing=("$@")
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      say "Missing system packages: ${missing[*]}. Install them with your package manager, e.g. 'apt-get install ${missing[*]}' as root, then run this again."
      exit 1
    fi
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    say "Missing system packages: ${missing[*]}. This is not a Debian/Ubuntu machine: install Graphviz (https://graphviz.org/download/), Node.js with npm, and Chromium yourself, then run this again."
    exit 1
  fi
  say "Installing ${missing[*]} (apt-get)"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

system_packages() {
  local need=()
  command -v dot >/dev/null 2>&1 || need+=(graphviz)
  command -v npm >/dev/null 2>&1 || need+=(npm)
  if [ "${1:-}" = test ] && [ ! -x /usr/bin/chromium ]; then need+=(chromium); fi
  if [ ${#need[@]} -gt 0 ]; then apt_install "${need[@]}"; fi
}

# Python packages, in .venv; reinstalled only when pyproject.toml changes.
python_packages() {
  local extra=$1
  [ -x .venv/bin/python ] || { say "Creating .venv"; python3 -m venv .venv; }
  local stamp=".venv/.installed-$extra-$(sha256sum pyproject.toml | cut -c1-16)"
  if [ ! -f "$stamp" ]; then
    say "Installing Python packages (.[$extra])"
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e ".[$extra]"
    touch "$stamp"
  fi
}

# KaTeX, from the npm registry, pinned by package-lock.json; served by the site itself.
katex() {
  if [ ! -f node_modules/katex/dist/katex.min.js ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    say "Installing KaTeX (npm ci)"
    npm ci --no-audit --no-fund --loglevel=error
  fi
}

export NO_MKDOCS_2_WARNING=1
case "${1:-}" in
  serve)
    system_packages serve; python_packages docs; katex
    exec .venv/bin/mkdocs serve --dev-addr 127.0.0.1:8000
    ;;
  build)
    system_packages build; python_packages docs; katex
    exec .venv/bin/mkdocs build --strict
    ;;
  test)
    system_packages test; python_packages test; katex
    shift
    exec .venv/bin/python -m pytest -n 2 --dist loadfile "$@"
    ;;
  *)
    echo "usage: bash scripts/dev.sh serve|test|build [pytest args]" >&2
    exit 2
    ;;
esac
