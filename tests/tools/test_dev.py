"""What scripts/dev.sh achieves, on machines unlike this one: a fresh machine gets Graphviz,
Node.js, npm, python3-venv, Chromium, a .venv with pip, the locked packages and node_modules/,
then the command asked for runs; what is there is not done again; a busy port, a missing
Chromium or missing rights are said in one line; messages are plain text in a pipe; `lock`
writes both lock files with the pinned uv. (tests/tools/test_lock.py checks the lock itself.)

The real dev.sh runs in a temporary checkout whose PATH holds only stubs that act as the real
commands do: apt-get installs a package's commands (as root, after `apt-get update`, asking
nothing), `python3 -m venv` makes a .venv (with pip once python3-venv is installed), its pip
installs a lock (with --require-hashes) and the project, npm ci fills node_modules/. The
command dev.sh ends in (mkdocs, pytest) records the machine as it finds it (SNAPSHOT): the
tests assert that state and what was installed, not the order of the steps.
"""

import hashlib
import json
import os
import pty
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scripts import ROOT

DEV_SH = ROOT / "scripts" / "dev.sh"
UV_VERSION = re.search(r"^UV_VERSION=(\S+)$", DEV_SH.read_text(), re.MULTILINE)[1]
# What dev.sh takes from the system besides the commands it installs or checks for.
TOOLS = ["dirname", "sha256sum", "cut", "touch", "rm", "env", "grep"]
PYTHON = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
CP, TOUCH, MKDIR, GREP = (shutil.which(t) for t in ["cp", "touch", "mkdir", "grep"])  # for the stubs, not for dev.sh
SNAP_STUB = """echo "Command '/usr/bin/chromium-browser' requires the chromium snap to be installed."
echo "Please install it with:"; echo; echo "snap install chromium"; exit 1"""
HEADLESS = 'echo "Chromium 140.0.7339.80"'

# Run by the command dev.sh ends in (mkdocs, pytest): the machine as that command finds it.
SNAPSHOT = r"""
import json, os, shutil, subprocess, sys
from pathlib import Path
venv, record = Path(".venv"), Path("node_modules/.package-lock.json")
installed = lambda e: (venv / f"packages-{e}").exists() and \
    (venv / f"packages-{e}").read_bytes() == Path(f"requirements/{e}.txt").read_bytes()
print(json.dumps({
    "command": " ".join([os.path.relpath(sys.argv[2]), *sys.argv[3:]]),
    "CHROMIUM": os.environ.get("CHROMIUM"),
    "commands": sorted(c for c in ["dot", "node", "npm"] if shutil.which(c)),
    "pip": subprocess.run([".venv/bin/python", "-c", "import pip"]).returncode == 0,
    "packages": [e for e in ["docs", "test"] if installed(e)],
    "project": (venv / "project").exists(),
    "node_modules": record.exists() and record.stat().st_mtime_ns >= os.stat("package-lock.json").st_mtime_ns,
    "environment": {k: os.environ.get(k) for k in ["PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "PYTHONDONTWRITEBYTECODE"]},
}), file=open(sys.argv[1], "a"))
"""


class Machine:
    """A checkout of the files dev.sh reads, and a bin/ that is the whole PATH.

    By default everything is there (a set-up Debian machine, run as root): dot, node, npm,
    Chromium, a .venv with pip whose packages match the lock files, a current node_modules/.
    A package apt-get knows is a folder tmp/apt/<package> of the commands it installs.
    """

    def __init__(self, tmp_path):
        self.tmp, self.repo, self.bin = tmp_path, tmp_path / "repo", tmp_path / "bin"
        self.log, self.goals = tmp_path / "calls.log", tmp_path / "goals.jsonl"
        self.os_release = tmp_path / "os-release"
        (self.repo / "scripts").mkdir(parents=True)
        self.bin.mkdir()
        self.log.touch()
        (tmp_path / "snapshot.py").write_text(SNAPSHOT)
        self.os_release.write_text('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n')
        shutil.copy(DEV_SH, self.repo / "scripts" / "dev.sh")
        shutil.copy(ROOT / "pyproject.toml", self.repo)
        shutil.copytree(ROOT / "requirements", self.repo / "requirements")
        (self.repo / "package-lock.json").write_text("{}\n")
        for tool in TOOLS:  # wrappers, not symlinks: a stub written over one stays in bin/
            self.script(self.bin / tool, f'exec {shutil.which(tool)} "$@"')
        self.script(self.bin / "python3", f'exec {PYTHON} "$@"')
        self.script(self.bin / "id", "echo 0")  # root; a test that wants a user stubs it again
        npm = f'[ "$1" = ci ] || exit 0\n{MKDIR} -p node_modules && echo "{{}}" > node_modules/.package-lock.json'
        for package, command, body in [("graphviz", "dot", ""), ("nodejs", "node", ""), ("npm", "npm", npm),
                                        ("chromium-headless-shell", "chromium-headless-shell", HEADLESS)]:
            self.stub(command, body, where=self.tmp / "apt" / package)
            self.stub(command, body)
        (self.tmp / "apt" / "python3-venv").mkdir()
        self.stub("apt-get", f"""\
case "$1" in update) {TOUCH} {self.tmp}/apt-updated; exit 0 ;; install) shift ;; *) exit 0 ;; esac
if [ "$(id -u)" -ne 0 ] && [ -z "${{SUDO_USER:-}}" ]; then
  echo "E: Could not open lock file /var/lib/dpkg/lock-frontend - open (13: Permission denied)" >&2; exit 100
fi
[ "${{DEBIAN_FRONTEND:-}}" = noninteractive ] && [ "$1" = -y ] || {{ echo "a question no one answers" >&2; exit 1; }}
packages=$(printf '%s\\n' "$@" | {GREP} -v '^-')
for package in $packages; do [ -e {self.tmp}/apt-updated ] && [ -d {self.tmp}/apt/$package ] ||
  {{ echo "E: Unable to locate package $package" >&2; exit 100; }}; done
for package in $packages; do {TOUCH} {self.tmp}/installed-$package
  for c in {self.tmp}/apt/$package/*; do [ ! -e "$c" ] || {CP} --remove-destination "$c" {self.bin}; done
done""")
        self.stub("chromium", 'echo "Chromium 140.0.7339.80 built on Debian GNU/Linux 12 (bookworm)"')
        self.make_venv(self.repo / ".venv", with_pip=True, installed=True)
        self.node_modules(age=0)

    def script(self, path, body):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.unlink(missing_ok=True)  # never write through a symlink into the real system
        path.write_text(f"#!/bin/bash\n{body}\n")
        path.chmod(0o755)
        return path

    def stub(self, name, body="", where=None):
        """A command on PATH (or in `where`) that logs `name args`, then runs body."""
        return self.script((where or self.bin) / name, f'echo "{name} $*" >> {self.log}\n{body}')

    def remove(self, *names):
        for name in names:
            (self.bin / name).unlink()

    def make_venv(self, venv, with_pip, installed=False):
        """A .venv of stubs; without pip, as `python3 -m venv` leaves it without python3-venv.
        Its pip installs a lock file (with hashes) and the project (without dependencies);
        `installed`: as dev.sh leaves it, both locks and the project installed."""
        import_pip = "exit 0" if with_pip else 'echo "No module named pip" >&2; exit 1'
        self.script(venv / "bin" / "python", f"""\
if [ "$*" = "-c import pip" ]; then {import_pip}; fi
echo ".venv/bin/python $*" >> {self.log}
venv="$(dirname "$0")/.."
case "$*" in
  "-m pip install -q --require-hashes -r requirements/"*) lock=${{7##*/}}; {CP} "$7" "$venv/packages-${{lock%.txt}}" ;;
  "-m pip install -q --no-deps --no-build-isolation -e .") {TOUCH} "$venv/project" ;;
  "-m pip install -q uv=="*) {CP} {self.tmp}/uv "$venv/bin/uv" ;;
  "-m pytest "*) exec {PYTHON} {self.tmp}/snapshot.py {self.goals} "$0" "$@" ;;
  *) echo "pip: not how dev.sh installs: $*" >&2; exit 3 ;;
esac""")
        self.script(venv / "bin" / "mkdocs", f'exec {PYTHON} {self.tmp}/snapshot.py {self.goals} "$0" "$@"')
        (venv / "made-here").touch()  # gone if dev.sh makes the .venv again
        for extra in ["docs", "test"] if installed else []:
            shutil.copy(self.repo / "requirements" / f"{extra}.txt", venv / f"packages-{extra}")
            (venv / f".installed-{extra}-{self.lock_digest(extra)}").touch()
            (venv / "project").touch()

    def lock_digest(self, extra):
        """The stamp dev.sh leaves in .venv once it installed requirements/<extra>.txt."""
        return hashlib.sha256((self.repo / "requirements" / f"{extra}.txt").read_bytes()).hexdigest()[:16]

    def uv(self, version):
        """What `pip install uv==...` puts in .venv/bin: a uv that says it is `version`, and
        whose `pip compile ... -o FILE` writes FILE with the arguments it was given."""
        return self.script(self.tmp / "uv", f"""\
if [ "$1" = --version ]; then echo "uv {version} (x86_64-unknown-linux-gnu)"; exit 0; fi
args=("$@"); for i in "${{!args[@]}}"; do [ "${{args[$i]}}" = -o ] && out=${{args[$((i + 1))]}}; done
echo "# uv $*" > "$out\"""")

    def node_modules(self, age):
        """node_modules/ as npm left it, `age` seconds after package-lock.json (< 0: before)."""
        record = self.repo / "node_modules" / ".package-lock.json"
        record.parent.mkdir(exist_ok=True)
        record.write_text("{}\n")
        mtime = (self.repo / "package-lock.json").stat().st_mtime_ns + age * 10**9
        os.utime(record, ns=(mtime, mtime))

    def python3(self, ensurepip, venv=None):
        """python3 whose `-m venv` makes a stub .venv; without ensurepip until
        `apt-get install python3-venv`, as Debian's python3 is: then the .venv has no pip.
        venv: "none" removes .venv, "no pip" leaves one an earlier `python3 -m venv` made."""
        for pip in [True, False]:
            self.make_venv(self.tmp / f"venv-{pip}", with_pip=pip)
            (self.tmp / f"venv-{pip}" / "made-here").unlink()
        installed = self.tmp / "installed-python3-venv"
        if ensurepip:
            installed.touch()
        self.stub("python3", f"""\
if [ -e {installed} ]; then venv={self.tmp}/venv-True; else venv={self.tmp}/venv-False; fi
case "$*" in
  "-c import ensurepip") [ -e {installed} ] || {{ echo "No module named 'ensurepip'" >&2; exit 1; }} ;;
  "-m venv .venv")
    {CP} -r $venv .venv
    [ -e {installed} ] || {{ echo "ensurepip is not available: apt install python3.11-venv" >&2; exit 1; }} ;;
  *) exec {PYTHON} "$@" ;;
esac""")
        if venv:
            shutil.rmtree(self.repo / ".venv")
        if venv == "no pip":
            self.make_venv(self.repo / ".venv", with_pip=False)

    def run(self, *args, tty=False, **env):
        environment = {"PATH": str(self.bin), "HOME": str(self.tmp),
                       "DEV_SH_OS_RELEASE": str(self.os_release), **env}
        command = ["/bin/bash", str(self.repo / "scripts" / "dev.sh"), *args]
        if tty:
            return run_on_a_terminal(command, environment)
        result = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=30)
        assert "\x1b" not in result.stdout + result.stderr, "colour codes in piped output"
        return result

    def ran(self, start=""):
        """The logged calls that start with `start`, in any order."""
        return [call for call in self.log.read_text().splitlines() if call.startswith(start)]

    def goal(self):
        """The machine as the command dev.sh ended in found it; None if it never ran."""
        goals = [json.loads(line) for line in self.goals.read_text().splitlines()] if self.goals.exists() else []
        assert len(goals) <= 1, goals
        return goals[0] if goals else None

    def installed(self):
        """The system packages apt-get installed."""
        return {p.name.removeprefix("installed-") for p in self.tmp.glob("installed-*")}

    def nothing_installed(self):
        """No system, Python or npm package installed, and the .venv is the one that was there."""
        return not self.installed() and not self.ran(".venv/bin/python -m pip") and not self.ran("npm ci") \
            and (self.repo / ".venv" / "made-here").exists()


def run_on_a_terminal(command, env):
    """Run with stderr on a pseudo-terminal; returns (exit code, what the terminal showed)."""
    main, child = pty.openpty()
    process = subprocess.Popen(command, env={**env, "TERM": "xterm"}, stdout=subprocess.DEVNULL, stderr=child)
    os.close(child)
    shown = b""
    try:
        while chunk := os.read(main, 4096):
            shown += chunk
    except OSError:  # EIO: the child side is closed and everything was read
        pass
    os.close(main)
    return process.wait(timeout=30), shown.decode()


@pytest.fixture
def machine(tmp_path):
    return Machine(tmp_path)


READY = {"commands": ["dot", "node", "npm"], "pip": True, "project": True, "node_modules": True}


def ready(goal, *extras):
    """The goal command ran and found all it needs: Graphviz, Node.js and npm, a .venv with pip,
    the locks of `extras` and the project installed, node_modules/ current."""
    assert goal is not None, "the command never ran"
    assert {k: goal[k] for k in READY} == READY and set(extras) <= set(goal["packages"]), goal
    return goal


def lines(result):
    """What dev.sh said, in any order."""
    return sorted(result.stderr.splitlines())


# --- A fresh machine, and one that has everything --------------------------------------------

@pytest.mark.parametrize("command", ["build", "test"])
def test_a_fresh_machine_gets_everything_it_needs_and_the_command_runs(machine, command):
    machine.python3(ensurepip=False, venv="none")
    machine.remove("dot", "node", "npm", "chromium", "chromium-headless-shell")
    shutil.rmtree(machine.repo / "node_modules")
    result = machine.run(command)
    assert result.returncode == 0, result.stderr
    extra = "docs" if command == "build" else "test"
    goal = ready(machine.goal(), extra)
    packages = ["graphviz", "nodejs", "npm", "python3-venv"] + ["chromium-headless-shell"] * (command == "test")
    assert machine.installed() == set(packages)
    if command == "test":
        assert goal["command"] == ".venv/bin/python -m pytest -n 2"
        assert goal["CHROMIUM"] == str(machine.bin / "chromium-headless-shell")
        assert goal["environment"]["PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD"] == "1"  # the system's Chromium only
    else:
        assert goal["command"] == ".venv/bin/mkdocs build --strict"
    assert lines(result) == sorted([f"==> Installing {' '.join(packages)} (apt-get install)", "==> Creating .venv",
                                    f"==> Installing Python packages (requirements/{extra}.txt)",
                                    "==> Installing npm packages (npm ci): node_modules/ is missing"])


def test_a_set_up_machine_installs_nothing_and_runs_pytest(machine):
    result = machine.run("test", "-x", "docs/index.md")
    assert result.returncode == 0, result.stderr
    goal = ready(machine.goal(), "test")
    assert goal["command"] == ".venv/bin/python -m pytest -n 2 -x docs/index.md"
    assert goal["CHROMIUM"] == str(machine.bin / "chromium-headless-shell")
    assert machine.nothing_installed()
    assert result.stderr == ""


def test_messages_are_bold_on_a_terminal_and_plain_in_a_pipe(machine):
    said = "==> Installing npm packages (npm ci): node_modules/ is missing"
    (machine.repo / "node_modules" / ".package-lock.json").unlink()
    assert said + "\n" in machine.run("build").stderr
    (machine.repo / "node_modules" / ".package-lock.json").unlink()
    status, shown = machine.run("build", tty=True)
    assert status == 0
    assert f"\x1b[1m{said}" in shown
    (machine.repo / "node_modules" / ".package-lock.json").unlink()
    status, shown = machine.run("build", tty=True, NO_COLOR="1")
    assert said in shown and "\x1b" not in shown


# --- python3-venv --------------------------------------------------------------------------

@pytest.mark.parametrize("ensurepip", [False, True], ids=["without-python3-venv", "with-python3-venv"])
def test_a_venv_without_pip_is_made_again_with_python3_venv_installed_if_missing(machine, ensurepip):
    machine.python3(ensurepip=ensurepip, venv="no pip")  # left by an earlier `python3 -m venv`
    result = machine.run("build")
    assert result.returncode == 0, result.stderr
    assert not machine.ran("apt-get") if ensurepip else machine.installed() == {"python3-venv"}
    assert not (machine.repo / ".venv" / "made-here").exists()
    assert ready(machine.goal(), "docs")["command"] == ".venv/bin/mkdocs build --strict"
    assert lines(result) == sorted(["==> Installing python3-venv (apt-get install)"] * (not ensurepip) + [
        "==> Making .venv again: it has no pip (python3 -m venv ran without python3-venv)",
        "==> Creating .venv", "==> Installing Python packages (requirements/docs.txt)"])


# --- apt-get, sudo, other systems ----------------------------------------------------------

def test_without_root_it_installs_through_sudo(machine):
    machine.remove("dot")
    machine.stub("id", "echo 1000")
    machine.stub("sudo", '[ "$1" = -n ] && shift; SUDO_USER=reader exec "$@"')
    result = machine.run("build")
    assert result.returncode == 0, result.stderr
    assert machine.installed() == {"graphviz"}  # the stub apt-get refuses a user without sudo
    assert "==> Installing graphviz (apt-get install)" in result.stderr
    ready(machine.goal(), "docs")


def test_without_root_or_sudo_it_names_the_packages_to_install(machine):
    machine.remove("dot")
    machine.python3(ensurepip=False, venv="none")
    machine.stub("id", "echo 1000")
    result = machine.run("build")
    assert result.returncode == 1
    assert result.stderr == (
        "==> Missing system packages. Install them as root: apt-get install graphviz python3-venv;"
        " then run this again.\n"
    )
    assert not machine.ran("apt-get") and machine.goal() is None


def test_without_apt_get_it_says_what_to_install(machine):
    machine.remove("dot", "apt-get")
    result = machine.run("serve", str(free_port()))
    assert result.returncode == 1
    assert "Missing: graphviz. This is not Debian or Ubuntu (no apt-get)" in result.stderr
    assert "https://graphviz.org/download/" in result.stderr
    assert machine.goal() is None


# --- Chromium ------------------------------------------------------------------------------

CHROMIUMS = {  # case: (the Chromiums missing, as root, apt-get has the headless shell) -> tests' Chromium, installed
    "no-chromium": (("chromium", "chromium-headless-shell"), True, True, "chromium-headless-shell", True),
    "beside-a-full-chromium": (("chromium-headless-shell",), True, True, "chromium-headless-shell", True),
    "beside-a-full-chromium-as-a-user": (("chromium-headless-shell",), False, True, "chromium", False),
    "a-release-without-the-headless-shell": (("chromium-headless-shell",), True, False, "chromium", False),
}


@pytest.mark.parametrize("case", CHROMIUMS)
def test_on_debian_it_installs_chromiums_headless_shell_where_it_can_and_exports_chromium(machine, case):
    missing, root, available, chromium, installs = CHROMIUMS[case]
    machine.remove(*missing)
    if not root:  # and no sudo: apt-get would ask for a password
        machine.stub("id", "echo 1000")
    if not available:  # Debian 11 has no such package
        shutil.rmtree(machine.tmp / "apt" / "chromium-headless-shell")
    result = machine.run("test")
    assert result.returncode == 0, result.stderr
    assert machine.installed() == ({"chromium-headless-shell"} if installs else set())
    assert ready(machine.goal(), "test")["CHROMIUM"] == str(machine.bin / chromium)
    assert bool(machine.ran("apt-get")) is root
    if root and not available:
        assert "E: Unable to locate package chromium-headless-shell" in result.stderr
        assert f"==> chromium-headless-shell could not be installed: the browser tests use {machine.bin / 'chromium'}" \
            in result.stderr


def test_chromium_under_its_ubuntu_deb_name_is_found_and_exported(machine):
    machine.remove("chromium", "chromium-headless-shell")
    machine.os_release.write_text('NAME="Ubuntu"\nVERSION_ID="18.04"\nID=ubuntu\nID_LIKE=debian\n')
    machine.stub("chromium-browser", 'echo "Chromium 120.0.6099.224 Built on Ubuntu , running on Ubuntu 18.04"')
    result = machine.run("test")
    assert result.returncode == 0, result.stderr
    assert ready(machine.goal(), "test")["CHROMIUM"] == str(machine.bin / "chromium-browser")


def test_ubuntus_snap_stub_is_not_taken_for_chromium_and_it_says_what_to_do(machine):
    machine.remove("chromium", "chromium-headless-shell")
    machine.stub("chromium-browser", SNAP_STUB)
    machine.os_release.write_text('NAME="Ubuntu"\nVERSION_ID="24.04"\nID=ubuntu\nID_LIKE=debian\n')
    result = machine.run("test")
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1
    assert "==> Chromium not found. On Ubuntu it comes only as a snap: 'sudo snap install chromium'" in result.stderr
    assert "CHROMIUM=/path/to/chrome bash scripts/dev.sh test" in result.stderr
    assert not machine.ran("apt-get") and machine.goal() is None


def test_chromium_from_the_environment_wins_and_a_wrong_one_is_named(machine, tmp_path):
    chrome = machine.script(tmp_path / "opt" / "chrome", 'echo "Google Chrome 140.0.7339.80"')
    result = machine.run("test", CHROMIUM=str(chrome))
    assert result.returncode == 0, result.stderr
    assert machine.goal()["CHROMIUM"] == str(chrome)
    machine.goals.unlink()
    result = machine.run("test", CHROMIUM="/nowhere/chromium")
    assert result.returncode == 1
    assert "CHROMIUM=/nowhere/chromium does not run" in result.stderr
    assert machine.goal() is None


# --- serve's port --------------------------------------------------------------------------

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_on_a_busy_port_says_so_in_one_line_before_any_work(machine):
    (machine.repo / "node_modules" / ".package-lock.json").unlink()  # would otherwise run npm ci
    machine.remove("dot")  # would otherwise run apt-get
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        start = time.monotonic()
        result = machine.run("serve", str(port))
        seconds = time.monotonic() - start
    assert result.returncode == 1
    assert result.stderr == (
        f"==> Port {port} is busy: another program (another 'dev.sh serve'?) is using "
        f"127.0.0.1:{port}. Stop it, or serve on another port: bash scripts/dev.sh serve {port + 1}\n"
    )
    assert machine.ran() == [] and machine.goal() is None  # nothing ran, nothing installed
    assert seconds < 5


@pytest.mark.parametrize("how", [["PORT"], ["--port", "PORT"], []], ids=["serve PORT", "serve --port PORT", "serve"])
def test_serve_takes_a_port_and_serves_on_8000_without_one(machine, how):
    port = free_port() if how else 8000
    if not how:  # the port check: whatever holds 8000 on this machine, say it is free
        machine.stub("python3")
    result = machine.run("serve", *[str(port) if a == "PORT" else a for a in how])
    assert result.returncode == 0, result.stderr
    goal = ready(machine.goal(), "docs")
    assert goal["command"] == f".venv/bin/mkdocs serve --dirty --no-strict --dev-addr 127.0.0.1:{port}"
    assert goal["environment"]["PYTHONDONTWRITEBYTECODE"] == "1"  # no __pycache__ in the watched folders
    assert machine.nothing_installed()


@pytest.mark.parametrize("args", [["eighty"], ["70000"], ["0"], ["8001", "8002"], ["--port"]])
def test_serve_rejects_what_is_not_a_port(machine, args):
    result = machine.run("serve", *args)
    assert result.returncode == 2
    assert result.stderr.startswith("usage: bash scripts/dev.sh serve [PORT]")
    assert machine.ran() == [] and machine.goal() is None


# --- npm -----------------------------------------------------------------------------------

def test_npm_ci_runs_when_node_modules_is_older_than_the_lock_file(machine):
    machine.node_modules(age=-60)
    result = machine.run("build")
    assert result.returncode == 0, result.stderr
    assert result.stderr == "==> Installing npm packages (npm ci): package-lock.json is newer than node_modules/\n"
    assert machine.ran("npm ci") == ["npm ci --no-audit --no-fund --loglevel=error"]
    ready(machine.goal(), "docs")


def test_npm_is_neither_installed_nor_run_when_node_modules_is_current(machine):
    machine.remove("npm")
    result = machine.run("build")
    assert result.returncode == 0, result.stderr
    assert machine.nothing_installed() and machine.goal()["node_modules"]


def test_npm_is_installed_when_node_modules_is_missing(machine):
    machine.remove("npm")
    shutil.rmtree(machine.repo / "node_modules")
    result = machine.run("build")
    assert result.returncode == 0, result.stderr
    assert machine.installed() == {"npm"}
    ready(machine.goal(), "docs")


# --- The Python packages: installed from the lock, again only when it changes ---------------

def test_packages_are_installed_again_when_the_lock_file_changes_not_pyproject(machine):
    with open(machine.repo / "pyproject.toml", "a") as pyproject:
        pyproject.write("# an edit that leaves the lock as it is\n")
    result = machine.run("build")
    assert result.returncode == 0, result.stderr
    assert machine.nothing_installed()

    old_stamp = machine.repo / ".venv" / f".installed-docs-{machine.lock_digest('docs')}"
    with open(machine.repo / "requirements" / "docs.txt", "a") as lock:
        lock.write("# bash scripts/dev.sh lock ran again\n")
    machine.goals.unlink()
    result = machine.run("build")
    assert result.returncode == 0, result.stderr
    assert ready(machine.goal(), "docs")  # the new lock, in the same .venv
    assert (machine.repo / ".venv" / "made-here").exists()
    assert result.stderr == "==> Installing Python packages (requirements/docs.txt)\n"
    stamps = sorted(p.name for p in (machine.repo / ".venv").glob(".installed-*"))
    assert stamps == sorted(f".installed-{extra}-{machine.lock_digest(extra)}" for extra in ["docs", "test"])
    assert not old_stamp.exists()

    machine.log.write_text("")
    result = machine.run("build")
    assert machine.nothing_installed()


def test_the_test_command_installs_the_test_lock(machine):
    (machine.repo / ".venv" / f".installed-test-{machine.lock_digest('test')}").unlink()
    (machine.repo / ".venv" / "packages-test").unlink()
    result = machine.run("test")
    assert result.returncode == 0, result.stderr
    ready(machine.goal(), "docs", "test")
    assert result.stderr == "==> Installing Python packages (requirements/test.txt)\n"


# --- `dev.sh lock` ---------------------------------------------------------------------------

# What uv must be told: pyproject.toml's extra, for every platform and Python from 3.10, with
# hashes, without the machine's uv.toml or a downloaded Python; the command in the header.
UV_OPTIONS = ["--no-config", "pip", "compile", "pyproject.toml", "--universal", "--python-version", "3.10",
              "--no-python-downloads", "--generate-hashes", "--quiet",
              "--custom-compile-command", "bash", "scripts/dev.sh", "lock"]


def locked_by_uv(machine, *args):
    """Both lock files were written by the pinned uv with UV_OPTIONS, their extra and `args`."""
    uv = machine.repo / ".venv" / "bin" / "uv"
    assert subprocess.run([uv, "--version"], capture_output=True, text=True).stdout.split()[1] == UV_VERSION
    for extra in ["docs", "test"]:
        words = (machine.repo / "requirements" / f"{extra}.txt").read_text().split()
        assert words[:2] == ["#", "uv"], f"requirements/{extra}.txt was not written by uv"
        assert words[words.index("--extra") + 1] == extra, words
        assert words[words.index("-o") + 1] == f"requirements/{extra}.txt", words
        assert all(o in words for o in UV_OPTIONS + list(args)), words
    return True


def test_lock_installs_its_uv_and_locks_both_extras(machine):
    machine.uv(UV_VERSION)
    result = machine.run("lock")
    assert result.returncode == 0, result.stderr
    assert locked_by_uv(machine)
    assert lines(result) == sorted([f"==> Installing uv {UV_VERSION} into .venv",
                                    "==> Locking .[docs] into requirements/docs.txt",
                                    "==> Locking .[test] into requirements/test.txt"])


def test_lock_keeps_the_right_uv_replaces_another_and_passes_its_arguments_on(machine):
    shutil.copy(machine.uv(UV_VERSION), machine.repo / ".venv" / "bin" / "uv")
    result = machine.run("lock", "--upgrade-package", "mkdocs-material")
    assert result.returncode == 0, result.stderr
    assert not machine.ran(".venv/bin/python -m pip") and locked_by_uv(machine, "--upgrade-package", "mkdocs-material")

    shutil.copy(machine.uv("0.1.0"), machine.repo / ".venv" / "bin" / "uv")
    machine.uv(UV_VERSION)
    result = machine.run("lock")
    assert result.returncode == 0, result.stderr
    assert locked_by_uv(machine)


@pytest.mark.parametrize("ensurepip", [True, False], ids=["with-python3-venv", "without-python3-venv"])
def test_lock_on_a_fresh_clone_makes_the_venv_and_installs_python3_venv_if_missing(machine, ensurepip):
    machine.python3(ensurepip=ensurepip, venv="none")
    machine.uv(UV_VERSION)
    result = machine.run("lock")
    assert result.returncode == 0, result.stderr
    assert locked_by_uv(machine)
    assert not machine.ran("apt-get") if ensurepip else machine.installed() == {"python3-venv"}


# --- the README's commands -----------------------------------------------------------------

def test_the_readme_gives_both_commands_and_a_port_and_ci_runs_its_test_command():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The two commands", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"^(bash scripts/dev\.sh \w+[^#\n]*?)\s*(?:#.*)?$", section, re.MULTILINE)
    assert "bash scripts/dev.sh serve" in commands and "bash scripts/dev.sh test" in commands
    assert any(re.fullmatch(r"bash scripts/dev\.sh serve \d+", c) for c in commands)
    assert "bash scripts/dev.sh test" in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()


def test_dev_sh_sourced_only_defines_its_steps(tmp_path):
    result = subprocess.run(
        ["/bin/bash", "-c", f"source {DEV_SH}; type check_port find_chromium >/dev/null; pwd"],
        cwd=tmp_path, capture_output=True, text=True, timeout=10,
    )
    assert result.returncode == 0, result.stderr
    assert Path(result.stdout.strip()) == tmp_path  # no cd, no install, no pytest
