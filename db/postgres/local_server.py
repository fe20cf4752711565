"""A throwaway PostgreSQL server in a temporary directory, for the tests and the bench.

The binaries are the system's when PostgreSQL is installed (Debian's /usr/lib/postgresql/<n>/bin,
or ``PG_BIN``), else those of the pinned ``pgserver`` wheel (requirements.txt), so a fresh
machine needs nothing but ``pip install``: nothing is downloaded when the server starts.

PostgreSQL refuses to run as root (CI runs as root): the server then runs as the unprivileged
``nobody`` (or ``PG_SERVER_USER``), through ``subprocess``'s own ``user=``/``group=``, with its
data directory (and its socket's) given to that user. It listens on a unix socket in its temporary
directory, which ``url()`` names, and on a free loopback port too: on one machine the socket costs
less per round trip than TCP (the kernel's TCP path runs in the sender's time slice). A watchdog
process (watchdog.py) stops the server and removes its directory if the process that started it
dies without ``stop()``, as a test run stopped by SIGTERM or SIGKILL does."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from .watchdog import STOPPED

SYSTEM_ROOT = Path("/usr/lib/postgresql")
_NEEDED = ("initdb", "postgres", "pg_isready")


def _complete(bin_dir: Path) -> bool:
    return all((bin_dir / name).is_file() for name in _NEEDED)


def system_binaries() -> Path | None:
    """The newest PostgreSQL installed on this machine (or ``PG_BIN``), if any."""
    if os.environ.get("PG_BIN"):
        chosen = Path(os.environ["PG_BIN"])
        return chosen if _complete(chosen) else None
    if not SYSTEM_ROOT.is_dir():
        return None
    versions = sorted(
        (entry for entry in SYSTEM_ROOT.iterdir() if entry.name.isdigit() and _complete(entry / "bin")),
        key=lambda entry: int(entry.name),
    )
    return versions[-1] / "bin" if versions else None


def wheel_binaries() -> Path | None:
    """The binaries shipped by the pinned ``pgserver`` wheel; found without importing it (its
    import sets up lock files we do not need)."""
    spec = importlib.util.find_spec("pgserver")
    if spec is None or not spec.submodule_search_locations:
        return None
    bin_dir = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    return bin_dir if _complete(bin_dir) else None


def find_binaries(prefer: str = "system") -> Path | None:
    """``prefer``: "system" (then the wheel) or "wheel" (only the wheel)."""
    if prefer == "wheel":
        return wheel_binaries()
    return system_binaries() or wheel_binaries()


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class LocalServer:
    """One server: ``start()``, then ``url(database)``; ``stop()`` removes everything.

    ``durable=False`` (the tests) turns fsync off: the server dies with the test session anyway.
    ``durable=True`` (the bench) keeps PostgreSQL's defaults: every commit waits for the disk,
    like the SQLite store's ``synchronous=FULL``."""

    def __init__(self, bin_dir: Path, *, durable: bool = False, user: str | None = None) -> None:
        self.bin_dir = bin_dir
        self.durable = durable
        self.port = 0
        self.directory = Path(tempfile.mkdtemp(prefix="referee-pg-"))
        self.data = self.directory / "data"
        self.socket_dir = self.directory / "socket"
        self.log_path = self.directory / "server.log"
        self._process: subprocess.Popen[bytes] | None = None
        self._watchdog: subprocess.Popen[bytes] | None = None
        # How the watchdog ended at stop(): 0 when told the server stopped, negative when it had
        # to be killed (it sat waiting for its pipe); None before stop() or without a watchdog.
        self.watchdog_exit: int | None = None
        self._user: str | None = None
        if os.geteuid() == 0:
            self._user = user or os.environ.get("PG_SERVER_USER") or "nobody"

    def _run_as(self) -> dict[str, object]:
        if self._user is None:
            return {}
        entry = pwd.getpwnam(self._user)
        return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}

    def _hand_over(self, path: Path) -> None:
        """Give ``path`` to the server's user (when running as root)."""
        if self._user is not None:
            entry = pwd.getpwnam(self._user)
            os.chown(path, entry.pw_uid, entry.pw_gid)

    def start(self, timeout: float = 60.0) -> LocalServer:
        # The server's user must reach its data directory through ours.
        os.chmod(self.directory, 0o755)
        self.data.mkdir(mode=0o700)
        self._hand_over(self.data)
        self.log_path.touch()
        self._hand_over(self.log_path)
        self.socket_dir.mkdir(mode=0o755)
        self._hand_over(self.socket_dir)
        environment = {**os.environ, "LC_ALL": "C", "LANG": "C"}
        subprocess.run(
            [str(self.bin_dir / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
             "-E", "UTF8", "--no-locale", "--no-sync"],
            check=True, capture_output=True, env=environment, cwd=self.directory, **self._run_as(),  # type: ignore[arg-type]
        )  # fmt: skip
        self.port = _free_port()
        settings = {
            "listen_addresses": "127.0.0.1",
            "port": str(self.port),
            "unix_socket_directories": str(self.socket_dir),
            "max_connections": "200",
            "shared_buffers": "64MB",
        }
        if not self.durable:
            settings.update(fsync="off", synchronous_commit="off", full_page_writes="off")
        command = [str(self.bin_dir / "postgres"), "-D", str(self.data)]
        for name, value in settings.items():
            command += ["-c", f"{name}={value}"]
        with open(self.log_path, "ab") as log:
            self._process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, env=environment, cwd=self.directory,
                start_new_session=True, **self._run_as(),  # type: ignore[arg-type]
            )  # fmt: skip
        self._watch(self._process.pid)
        deadline = time.monotonic() + timeout
        while True:
            ready = subprocess.run(
                [str(self.bin_dir / "pg_isready"), "-q", "-h", str(self.socket_dir), "-p", str(self.port)],
                capture_output=True, env=environment,
            )  # fmt: skip
            if ready.returncode == 0:
                return self
            if self._process.poll() is not None or time.monotonic() > deadline:
                log_text = self.log_path.read_text(errors="replace")[-2000:]
                self.stop()
                raise RuntimeError(f"PostgreSQL did not start ({self.bin_dir}):\n{log_text}")
            time.sleep(0.05)

    def _watch(self, pid: int) -> None:
        """A watchdog (watchdog.py) stops the server if this process dies without ``stop()``: a
        test run ended by SIGTERM or SIGKILL would otherwise leave it running, and its directory."""
        # No output: nothing that reads ours (a harness waiting for EOF) should wait on it too.
        self._watchdog = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("watchdog.py")), str(pid), str(self.directory)],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip

    def url(self, database: str = "postgres", *, tcp: bool = False) -> str:
        """The database's URL: through the unix socket, or ``tcp`` through the loopback port."""
        if tcp:
            return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"
        return f"postgresql://postgres@/{database}?host={self.socket_dir}&port={self.port}"

    def stop(self) -> None:
        """Fast shutdown (SIGINT: open sessions are ended), then the directory goes."""
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(2)
            try:
                self._process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process = None
        shutil.rmtree(self.directory, ignore_errors=True)
        if self._watchdog is not None:
            assert self._watchdog.stdin is not None
            with contextlib.suppress(BrokenPipeError):
                self._watchdog.stdin.write(STOPPED)
            with contextlib.suppress(BrokenPipeError):
                self._watchdog.stdin.close()
            try:
                self._watchdog.wait(timeout=10)
            except subprocess.TimeoutExpired:  # it has nothing left to do
                self._watchdog.kill()
                self._watchdog.wait()
            self.watchdog_exit = self._watchdog.returncode
            self._watchdog = None


@contextlib.contextmanager
def running_server(prefer: str = "system", *, durable: bool = False) -> Iterator[LocalServer]:
    bin_dir = find_binaries(prefer)
    if bin_dir is None:
        raise RuntimeError("No PostgreSQL binaries: install requirements.txt (the pgserver wheel).")
    server = LocalServer(bin_dir, durable=durable).start()
    try:
        yield server
    finally:
        server.stop()
