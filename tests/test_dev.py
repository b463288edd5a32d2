"""scripts/dev.sh on machines unlike this one: no python3-venv, no root, Ubuntu's Chromium,
a busy port, output to a pipe, node_modules/ missing or stale, a lock file that changed; and
the lock itself (requirements/*.txt) against pyproject.toml.

Each test runs the real dev.sh in a temporary checkout with a PATH of stub commands
(apt-get, sudo, npm, chromium, python3, .venv/bin/*) that log how they were called.
Nothing is installed, nothing needs root, and each run takes a fraction of a second.
"""

import hashlib
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
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from scripts import ROOT

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

# What dev.sh takes from the system besides the commands it installs or checks for.
TOOLS = ["dirname", "sha256sum", "cut", "touch", "rm", "env", "grep"]
PYTHON = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
CP, TOUCH = shutil.which("cp"), shutil.which("touch")  # for the stubs; dev.sh does not get them
SNAP_STUB = """echo "Command '/usr/bin/chromium-browser' requires the chromium snap to be installed."
echo "Please install it with:"; echo; echo "snap install chromium"; exit 1"""


class Machine:
    """A checkout of the files dev.sh reads, and a bin/ that is the whole PATH.

    By default everything is there (a set-up Debian machine, run as root): dot, node, npm,
    Chromium, a .venv with pip whose packages match the lock files, a current node_modules/.
    `apt-get install P` logs its call and puts the stubs of `self.package(P, ...)` on PATH.
    """

    def __init__(self, tmp_path):
        self.tmp = tmp_path
        self.repo = tmp_path / "repo"
        self.bin = tmp_path / "bin"
        self.log = tmp_path / "calls.log"
        self.os_release = tmp_path / "os-release"
        (self.repo / "scripts").mkdir(parents=True)
        self.bin.mkdir()
        self.log.touch()
        self.os_release.write_text('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\n')
        shutil.copy(ROOT / "scripts" / "dev.sh", self.repo / "scripts")
        shutil.copy(ROOT / "pyproject.toml", self.repo)
        shutil.copytree(ROOT / "requirements", self.repo / "requirements")
        (self.repo / "package-lock.json").write_text("{}\n")
        for tool in TOOLS:  # wrappers, not symlinks: a stub written over one stays in bin/
            self.script(self.bin / tool, f'exec {shutil.which(tool)} "$@"')
        self.script(self.bin / "python3", f'exec {PYTHON} "$@"')
        self.script(self.bin / "id", "echo 0")  # root; a test that wants a user stubs it again
        for name in ["dot", "node", "npm"]:
            self.stub(name)
        self.stub("apt-get", f"""[ "$1" = install ] || exit 0
for package in "$@"; do
  {TOUCH} {self.tmp}/installed-$package
  if [ -d {self.tmp}/apt/$package ]; then {CP} --remove-destination {self.tmp}/apt/$package/* {self.bin}; fi
done""")
        self.stub("chromium", 'echo "Chromium 140.0.7339.80 built on Debian GNU/Linux 12 (bookworm)"')
        self.stub("chromium-headless-shell", 'echo "Chromium 140.0.7339.80"')
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

    def package(self, package, command, body=""):
        """What `apt-get install package` puts on PATH: a stub `command`."""
        self.stub(command, body, where=self.tmp / "apt" / package)

    def remove(self, *names):
        for name in names:
            (self.bin / name).unlink()

    def make_venv(self, venv, with_pip, installed=False):
        """A .venv of stubs; without pip, as `python3 -m venv` leaves it without python3-venv."""
        import_pip = "exit 0" if with_pip else 'echo "No module named pip" >&2; exit 1'
        self.script(venv / "bin" / "python", f"""\
if [ "$*" = "-c import pip" ]; then {import_pip}; fi
echo ".venv/bin/python $*" >> {self.log}
case "$*" in "-m pip install -q uv=="*) {CP} {self.tmp}/uv "$(dirname "$0")/uv" ;; esac
if [ "$1 $2" = "-m pytest" ]; then echo "CHROMIUM=${{CHROMIUM:-}}" >> {self.log}; fi""")
        self.script(venv / "bin" / "mkdocs", f'echo ".venv/bin/mkdocs $*" >> {self.log}')
        if installed:
            for extra in ["docs", "test"]:
                (venv / f".installed-{extra}-{self.lock_digest(extra)}").touch()

    def lock_digest(self, extra):
        """The stamp dev.sh leaves in .venv once it installed requirements/<extra>.txt."""
        return hashlib.sha256((self.repo / "requirements" / f"{extra}.txt").read_bytes()).hexdigest()[:16]

    def uv(self, version):
        """What `pip install uv==...` puts in .venv/bin: a uv that says it is `version` and
        logs every other call."""
        return self.script(self.tmp / "uv", f"""\
if [ "$1" = --version ]; then echo "uv {version} (x86_64-unknown-linux-gnu)"; exit 0; fi
echo ".venv/bin/uv $*" >> {self.log}""")

    def node_modules(self, age):
        """node_modules/ as npm left it, `age` seconds after package-lock.json (< 0: before)."""
        record = self.repo / "node_modules" / ".package-lock.json"
        record.parent.mkdir(exist_ok=True)
        record.write_text("{}\n")
        mtime = (self.repo / "package-lock.json").stat().st_mtime_ns + age * 10**9
        os.utime(record, ns=(mtime, mtime))

    def python3(self, ensurepip):
        """python3 whose `-m venv` makes a stub .venv; without ensurepip until
        `apt-get install python3-venv`, as Debian's python3 is: then the .venv has no pip."""
        self.make_venv(self.tmp / "venv-with-pip", with_pip=True)
        self.make_venv(self.tmp / "venv-without-pip", with_pip=False)
        if ensurepip:
            (self.tmp / "installed-python3-venv").touch()
        installed = self.tmp / "installed-python3-venv"
        self.stub("python3", f"""\
if [ -e {installed} ]; then venv={self.tmp}/venv-with-pip; else venv={self.tmp}/venv-without-pip; fi
case "$*" in
  "-c import ensurepip") [ -e {installed} ] || {{ echo "No module named 'ensurepip'" >&2; exit 1; }} ;;
  "-m venv .venv")
    {CP} -r $venv .venv
    [ -e {installed} ] || {{ echo "ensurepip is not available: apt install python3.11-venv" >&2; exit 1; }} ;;
  *) exec {PYTHON} "$@" ;;
esac""")

    def run(self, *args, tty=False, **env):
        environment = {"PATH": str(self.bin), "HOME": str(self.tmp),
                       "DEV_SH_OS_RELEASE": str(self.os_release), **env}
        command = ["/bin/bash", str(self.repo / "scripts" / "dev.sh"), *args]
        if tty:
            return run_on_a_terminal(command, environment)
        result = subprocess.run(command, env=environment, capture_output=True, text=True, timeout=30)
        assert "\x1b" not in result.stdout + result.stderr, "colour codes in piped output"
        return result

    def calls(self):
        return self.log.read_text().splitlines()


def run_on_a_terminal(command, env):
    """Run with stderr on a pseudo-terminal; returns (exit code, what the terminal showed)."""
    main, child = pty.openpty()
    process = subprocess.Popen(command, env={**env, "TERM": "xterm"}, stdout=subprocess.DEVNULL,
                               stderr=child)
    os.close(child)
    shown = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:  # EIO: the child side is closed and everything was read
            break
        if not chunk:
            break
        shown += chunk
    os.close(main)
    return process.wait(timeout=30), shown.decode()


@pytest.fixture
def machine(tmp_path):
    return Machine(tmp_path)


def pytest_call(machine):
    return [c for c in machine.calls() if c.startswith(".venv/bin/python -m pytest")]


# --- A machine that has everything ---------------------------------------------------------

def test_a_set_up_machine_installs_nothing_and_runs_pytest(machine):
    result = machine.run("test", "-x", "docs/index.md")
    assert result.returncode == 0, result.stderr
    assert machine.calls() == [
        "chromium-headless-shell --version",
        ".venv/bin/python -m pytest -n 2 -x docs/index.md",
        f"CHROMIUM={machine.bin / 'chromium-headless-shell'}",
    ]
    assert result.stderr == ""


def test_messages_are_bold_on_a_terminal_and_plain_in_a_pipe(machine):
    (machine.repo / "node_modules" / ".package-lock.json").unlink()
    piped = machine.run("build")
    assert "==> Installing npm packages (npm ci): node_modules/ is missing\n" in piped.stderr
    status, shown = machine.run("build", tty=True)
    assert status == 0
    assert "\x1b[1m==> Installing npm packages (npm ci)" in shown
    status, shown = machine.run("build", tty=True, NO_COLOR="1")
    assert "\x1b" not in shown


# What dev.sh runs to install an extra: its lock, then the project alone.
INSTALL = {extra: [f".venv/bin/python -m pip install -q --require-hashes -r requirements/{extra}.txt",
                   ".venv/bin/python -m pip install -q --no-deps --no-build-isolation -e ."]
           for extra in ["docs", "test"]}


# --- python3-venv --------------------------------------------------------------------------

def test_without_python3_venv_it_installs_it_and_remakes_a_venv_that_has_no_pip(machine):
    machine.python3(ensurepip=False)
    shutil.rmtree(machine.repo / ".venv")
    machine.make_venv(machine.repo / ".venv", with_pip=False)  # left by an earlier `python3 -m venv`
    result = machine.run("build")
    assert result.returncode == 0, result.stderr
    calls = machine.calls()
    assert calls[:3] == ["python3 -c import ensurepip", "apt-get update -qq", "apt-get install -y -qq python3-venv"]
    assert calls[3:] == [
        "python3 -m venv .venv",
        *INSTALL["docs"],
        ".venv/bin/mkdocs build --strict",
    ]
    assert result.stderr.splitlines() == [
        "==> Installing python3-venv (apt-get install)",
        "==> Making .venv again: it has no pip (python3 -m venv ran without python3-venv)",
        "==> Creating .venv",
        "==> Installing Python packages (requirements/docs.txt)",
    ]


def test_a_venv_without_pip_is_made_again_when_python3_venv_is_there(machine):
    machine.python3(ensurepip=True)
    shutil.rmtree(machine.repo / ".venv")
    machine.make_venv(machine.repo / ".venv", with_pip=False)
    result = machine.run("build")
    assert result.returncode == 0, result.stderr
    assert not [c for c in machine.calls() if c.startswith("apt-get")]
    assert machine.calls()[:2] == ["python3 -c import ensurepip", "python3 -m venv .venv"]
    assert machine.calls()[-1] == ".venv/bin/mkdocs build --strict"


# --- apt-get, sudo, other systems ----------------------------------------------------------

def test_without_root_it_installs_through_sudo(machine):
    machine.remove("dot")
    machine.stub("id", "echo 1000")
    machine.stub("sudo", 'exec "$@"')
    result = machine.run("build")
    assert result.returncode == 0, result.stderr
    assert "sudo apt-get update -qq" in machine.calls()
    assert "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq graphviz" in machine.calls()
    assert "==> Installing graphviz (apt-get install)" in result.stderr


def test_without_root_or_sudo_it_names_the_packages_to_install(machine):
    machine.remove("dot")
    machine.python3(ensurepip=False)
    shutil.rmtree(machine.repo / ".venv")
    machine.stub("id", "echo 1000")
    result = machine.run("build")
    assert result.returncode == 1
    assert result.stderr == (
        "==> Missing system packages. Install them as root: apt-get install graphviz python3-venv;"
        " then run this again.\n"
    )
    assert not [c for c in machine.calls() if c.startswith("apt-get")]


def test_without_apt_get_it_says_what_to_install(machine):
    machine.remove("dot", "apt-get")
    result = machine.run("serve", str(free_port()))
    assert result.returncode == 1
    assert "Missing: graphviz. This is not Debian or Ubuntu (no apt-get)" in result.stderr
    assert "https://graphviz.org/download/" in result.stderr


# --- Chromium ------------------------------------------------------------------------------

def test_chromium_under_its_ubuntu_deb_name_is_found_and_exported(machine):
    machine.remove("chromium", "chromium-headless-shell")
    machine.os_release.write_text('NAME="Ubuntu"\nVERSION_ID="18.04"\nID=ubuntu\nID_LIKE=debian\n')
    machine.stub("chromium-browser", 'echo "Chromium 120.0.6099.224 Built on Ubuntu , running on Ubuntu 18.04"')
    result = machine.run("test")
    assert result.returncode == 0, result.stderr
    assert pytest_call(machine)
    assert machine.calls()[-1] == f"CHROMIUM={machine.bin / 'chromium-browser'}"


def test_ubuntus_snap_stub_is_not_taken_for_chromium_and_it_says_what_to_do(machine):
    machine.remove("chromium", "chromium-headless-shell")
    machine.stub("chromium-browser", SNAP_STUB)
    machine.os_release.write_text('NAME="Ubuntu"\nVERSION_ID="24.04"\nID=ubuntu\nID_LIKE=debian\n')
    result = machine.run("test")
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1
    assert "==> Chromium not found. On Ubuntu it comes only as a snap: 'sudo snap install chromium'" in result.stderr
    assert "CHROMIUM=/path/to/chrome bash scripts/dev.sh test" in result.stderr
    assert not [c for c in machine.calls() if c.startswith("apt-get")]
    assert not pytest_call(machine)


@pytest.mark.parametrize("missing", [("chromium", "chromium-headless-shell"), ("chromium-headless-shell",)],
                         ids=["no-chromium", "beside-a-full-chromium"])
def test_on_debian_as_root_it_installs_chromiums_headless_shell(machine, missing):
    machine.remove(*missing)
    machine.package("chromium-headless-shell", "chromium-headless-shell", 'echo "Chromium 140.0.7339.80"')
    result = machine.run("test")
    assert result.returncode == 0, result.stderr
    assert "apt-get install -y -qq chromium-headless-shell" in machine.calls()
    assert machine.calls()[-1] == f"CHROMIUM={machine.bin / 'chromium-headless-shell'}"


def test_beside_a_full_chromium_a_release_without_the_headless_shell_goes_on_with_chromium(machine):
    machine.remove("chromium-headless-shell")
    machine.stub("apt-get", """[ "$1" = install ] || exit 0
echo "E: Unable to locate package chromium-headless-shell" >&2; exit 100""")
    result = machine.run("test")
    assert result.returncode == 0, result.stderr
    assert "E: Unable to locate package chromium-headless-shell" in result.stderr
    assert f"==> chromium-headless-shell could not be installed: the browser tests use {machine.bin / 'chromium'}" \
        in result.stderr
    assert machine.calls()[-1] == f"CHROMIUM={machine.bin / 'chromium'}"


def test_beside_a_full_chromium_without_root_or_sudo_the_tests_use_the_full_chromium(machine):
    machine.remove("chromium-headless-shell")
    machine.script(machine.bin / "id", "echo 1000")
    result = machine.run("test")
    assert result.returncode == 0, result.stderr
    assert not [c for c in machine.calls() if "apt-get" in c]
    assert machine.calls()[-1] == f"CHROMIUM={machine.bin / 'chromium'}"


def test_chromium_from_the_environment_wins_and_a_wrong_one_is_named(machine, tmp_path):
    chrome = machine.script(tmp_path / "opt" / "chrome", 'echo "Google Chrome 140.0.7339.80"')
    result = machine.run("test", CHROMIUM=str(chrome))
    assert result.returncode == 0, result.stderr
    assert machine.calls()[-1] == f"CHROMIUM={chrome}"
    result = machine.run("test", CHROMIUM="/nowhere/chromium")
    assert result.returncode == 1
    assert "CHROMIUM=/nowhere/chromium does not run" in result.stderr


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
    assert machine.calls() == []
    assert seconds < 5


@pytest.mark.parametrize("how", [[], ["--port"]], ids=["serve PORT", "serve --port PORT"])
def test_serve_takes_a_port(machine, how):
    port = free_port()
    result = machine.run("serve", *how, str(port))
    assert result.returncode == 0, result.stderr
    assert machine.calls() == [f".venv/bin/mkdocs serve --dirty --no-strict --dev-addr 127.0.0.1:{port}"]


def test_serve_without_a_port_uses_8000(machine):
    machine.stub("python3")  # the port check: whatever holds 8000 on this machine, say it is free
    result = machine.run("serve")
    assert result.returncode == 0, result.stderr
    assert machine.calls()[-1] == ".venv/bin/mkdocs serve --dirty --no-strict --dev-addr 127.0.0.1:8000"


@pytest.mark.parametrize("args", [["eighty"], ["70000"], ["0"], ["8001", "8002"], ["--port"]])
def test_serve_rejects_what_is_not_a_port(machine, args):
    result = machine.run("serve", *args)
    assert result.returncode == 2
    assert result.stderr.startswith("usage: bash scripts/dev.sh serve [PORT]")
    assert machine.calls() == []


# --- npm -----------------------------------------------------------------------------------

def test_npm_ci_runs_when_node_modules_is_older_than_the_lock_file(machine):
    machine.node_modules(age=-60)
    result = machine.run("build")
    assert result.returncode == 0, result.stderr
    assert "==> Installing npm packages (npm ci): package-lock.json is newer than node_modules/" in result.stderr
    assert "npm ci --no-audit --no-fund --loglevel=error" in machine.calls()


def test_npm_is_neither_installed_nor_run_when_node_modules_is_current(machine):
    machine.remove("npm")
    result = machine.run("build")
    assert result.returncode == 0, result.stderr
    assert machine.calls() == [".venv/bin/mkdocs build --strict"]


def test_npm_is_installed_when_node_modules_is_missing(machine):
    machine.remove("npm")
    shutil.rmtree(machine.repo / "node_modules")
    machine.package("npm", "npm")
    result = machine.run("build")
    assert result.returncode == 0, result.stderr
    calls = machine.calls()
    assert calls.index("apt-get install -y -qq npm") < calls.index("npm ci --no-audit --no-fund --loglevel=error")


# --- The lock: what dev.sh installs, and `dev.sh lock` ------------------------------------

def test_packages_are_installed_again_when_the_lock_file_changes_not_pyproject(machine):
    with open(machine.repo / "pyproject.toml", "a") as pyproject:
        pyproject.write("# an edit that leaves the lock as it is\n")
    result = machine.run("build")
    assert result.returncode == 0, result.stderr
    assert machine.calls() == [".venv/bin/mkdocs build --strict"]

    old_stamp = machine.repo / ".venv" / f".installed-docs-{machine.lock_digest('docs')}"
    with open(machine.repo / "requirements" / "docs.txt", "a") as lock:
        lock.write("# bash scripts/dev.sh lock ran again\n")
    result = machine.run("build")
    assert result.returncode == 0, result.stderr
    assert machine.calls()[1:] == [*INSTALL["docs"], ".venv/bin/mkdocs build --strict"]
    assert result.stderr == "==> Installing Python packages (requirements/docs.txt)\n"
    stamps = sorted(p.name for p in (machine.repo / ".venv").glob(".installed-*"))
    assert stamps == sorted(f".installed-{extra}-{machine.lock_digest(extra)}" for extra in ["docs", "test"])
    assert not old_stamp.exists()

    machine.log.write_text("")
    result = machine.run("build")
    assert machine.calls() == [".venv/bin/mkdocs build --strict"]


def test_the_test_command_installs_the_test_lock(machine):
    (machine.repo / ".venv" / f".installed-test-{machine.lock_digest('test')}").unlink()
    result = machine.run("test")
    assert result.returncode == 0, result.stderr
    assert machine.calls()[1:3] == INSTALL["test"]
    assert pytest_call(machine)


def uv_compile(extra, *args):
    return (f".venv/bin/uv --no-config pip compile pyproject.toml --extra {extra} --universal"
            " --python-version 3.10 --no-python-downloads --generate-hashes --quiet"
            f" --custom-compile-command bash scripts/dev.sh lock -o requirements/{extra}.txt"
            + "".join(f" {a}" for a in args))


def test_lock_installs_its_uv_and_locks_both_extras(machine):
    machine.uv(UV_VERSION)
    result = machine.run("lock")
    assert result.returncode == 0, result.stderr
    assert machine.calls() == [
        f".venv/bin/python -m pip install -q uv=={UV_VERSION}",
        uv_compile("docs"),
        uv_compile("test"),
    ]
    assert result.stderr.splitlines() == [
        f"==> Installing uv {UV_VERSION} into .venv",
        "==> Locking .[docs] into requirements/docs.txt",
        "==> Locking .[test] into requirements/test.txt",
    ]


def test_lock_keeps_the_right_uv_replaces_another_and_passes_its_arguments_on(machine):
    shutil.copy(machine.uv(UV_VERSION), machine.repo / ".venv" / "bin" / "uv")
    result = machine.run("lock", "--upgrade-package", "mkdocs-material")
    assert result.returncode == 0, result.stderr
    assert machine.calls() == [uv_compile(extra, "--upgrade-package", "mkdocs-material") for extra in ["docs", "test"]]

    machine.log.write_text("")
    shutil.copy(machine.uv("0.1.0"), machine.repo / ".venv" / "bin" / "uv")
    machine.uv(UV_VERSION)
    result = machine.run("lock")
    assert machine.calls()[0] == f".venv/bin/python -m pip install -q uv=={UV_VERSION}"


def test_lock_on_a_fresh_clone_makes_the_venv_first(machine):
    machine.python3(ensurepip=True)
    shutil.rmtree(machine.repo / ".venv")
    machine.uv(UV_VERSION)
    result = machine.run("lock")
    assert result.returncode == 0, result.stderr
    assert machine.calls()[:3] == ["python3 -c import ensurepip", "python3 -m venv .venv",
                                   f".venv/bin/python -m pip install -q uv=={UV_VERSION}"]
    assert machine.calls()[3:] == [uv_compile("docs"), uv_compile("test")]


def test_lock_without_python3_venv_installs_it(machine):
    machine.python3(ensurepip=False)
    shutil.rmtree(machine.repo / ".venv")
    machine.uv(UV_VERSION)
    result = machine.run("lock")
    assert result.returncode == 0, result.stderr
    assert machine.calls()[1:4] == [
        "apt-get update -qq", "apt-get install -y -qq python3-venv", "python3 -m venv .venv"]


UV_VERSION = re.search(r"^UV_VERSION=(\S+)$", (ROOT / "scripts" / "dev.sh").read_text(), re.MULTILINE)[1]


def locked(extra):
    """requirements/<extra>.txt as {name: [(version, marker or None, hashes)]}."""
    pins = {}
    text = (ROOT / "requirements" / f"{extra}.txt").read_text(encoding="utf-8")
    for entry in re.split(r"\n(?=\S)", text):
        if entry.startswith("#"):
            continue
        requirement = Requirement(entry.split("\\", 1)[0])
        (version,) = [s.version for s in requirement.specifier if s.operator == "=="]
        hashes = re.findall(r"--hash=sha256:([0-9a-f]{64})", entry)
        pins.setdefault(canonicalize_name(requirement.name), []).append(
            (version, requirement.marker, hashes))
    return pins


# Where the lock must hold: the README's Pythons on Linux, x86-64 and arm64.
ENVIRONMENTS = [
    {"python_version": f"3.{minor}", "python_full_version": f"3.{minor}.{patch}",
     "sys_platform": "linux", "platform_system": "Linux", "platform_machine": machine,
     "os_name": "posix", "implementation_name": "cpython", "platform_python_implementation": "CPython"}
    for minor, patch in [(10, 12), (11, 2), (11, 9), (12, 3), (13, 5), (14, 0)]
    for machine in ["x86_64", "aarch64"]
]


def pinned(pins, name, environment):
    """The version the lock installs of `name` in `environment`, or None."""
    versions = [v for v, marker, _ in pins.get(name, []) if marker is None or marker.evaluate(environment)]
    assert len(versions) <= 1, f"{name}: {versions} in {environment['python_full_version']}"
    return versions[0] if versions else None


@pytest.mark.parametrize("extra", ["docs", "test"])
def test_the_lock_pins_what_pyproject_asks_for_with_hashes(extra):
    """Every requirement of the extra (and of the extras it includes) is pinned to a version it
    allows, in every environment: pyproject.toml changed without `bash scripts/dev.sh lock` fails."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pins = locked(extra)
    assert all(hashes for entries in pins.values() for _, _, hashes in entries), "an entry without hashes"
    extras, requirements = [extra], []
    while extras:
        for line in project["optional-dependencies"][extras.pop()]:
            requirement = Requirement(line)
            if canonicalize_name(requirement.name) == canonicalize_name(project["name"]):
                extras.extend(requirement.extras)
            else:
                requirements.append(requirement)
    assert len(requirements) > 5
    for environment in ENVIRONMENTS:
        for requirement in requirements:
            if requirement.marker and not requirement.marker.evaluate(environment):
                continue
            version = pinned(pins, canonicalize_name(requirement.name), environment)
            where = f"{requirement} on Python {environment['python_full_version']}"
            assert version, f"{where}: not in requirements/{extra}.txt (run bash scripts/dev.sh lock)"
            assert requirement.specifier.contains(version, prereleases=True), f"{where}: locked {version}"


def test_the_docs_lock_and_the_test_lock_agree():
    """serve, then test, in one .venv: the test lock must not move what the docs lock installed."""
    docs, test = locked("docs"), locked("test")
    for environment in ENVIRONMENTS:
        for name in docs:
            assert pinned(docs, name, environment) == pinned(test, name, environment), name


# --- the README's commands -----------------------------------------------------------------

def readme_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## The two commands", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"^(bash scripts/dev\.sh \w+[^#\n]*?)\s*(?:#.*)?$", section, re.MULTILINE)


def test_ci_runs_the_readmes_test_command():
    commands = readme_commands()
    assert "bash scripts/dev.sh test" in commands
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert "bash scripts/dev.sh test" in ci


def test_the_readme_shows_how_to_pick_a_port():
    assert any(re.fullmatch(r"bash scripts/dev\.sh serve \d+", c) for c in readme_commands())


def test_dev_sh_sourced_only_defines_its_steps(tmp_path):
    result = subprocess.run(
        ["/bin/bash", "-c", f"source {ROOT / 'scripts' / 'dev.sh'}; type check_port find_chromium >/dev/null; pwd"],
        cwd=tmp_path, capture_output=True, text=True, timeout=10,
    )
    assert result.returncode == 0, result.stderr
    assert Path(result.stdout.strip()) == tmp_path  # no cd, no install, no pytest
