"""Child processes of the end-to-end tests: started in their own process group, their output read as it is
written, waited for by event (a line they write, their exit), and always ended.

Every wait here returns as soon as its event happens. `PATIENCE` is not a synchronisation delay: it only turns a
wait for an event that never comes (a server that hangs) into a failure instead of a hung test run, and is long
because a loaded machine may take its time to produce a real event.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO, Final

PATIENCE: Final = 120.0
"""Seconds any wait for an event may last before the test fails (never reached while things work)."""
GRACE: Final = 30.0
"""Seconds a process gets to end after SIGTERM before its whole process group gets SIGKILL."""


def spawn(
    command: Sequence[str],
    *,
    env: dict[str, str] | None = None,
    stdin: int | IO[bytes] | None = subprocess.DEVNULL,
    stdout: int | IO[bytes] | None = subprocess.DEVNULL,
    stderr: int | IO[bytes] | None = subprocess.PIPE,
    cwd: Path | None = None,
) -> subprocess.Popen[bytes]:
    """Start `command` as the leader of a new session and process group, so `end` reaches its children too."""
    return subprocess.Popen(
        list(command), stdin=stdin, stdout=stdout, stderr=stderr, env=env, cwd=cwd, start_new_session=True
    )


def end(process: subprocess.Popen[bytes], *outputs: Output, grace: float = GRACE) -> int:
    """End a process started by `spawn`: SIGTERM, wait up to `grace`, then SIGKILL what is left of its process
    group (uvicorn workers, multiprocessing helpers, nginx workers). It is reaped, the `outputs` read from its
    pipes are read to their end, and every pipe is closed. Its exit status."""
    try:
        if process.poll() is None:
            process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(grace)
    finally:
        try:
            # The group outlives its leader while any member lives, and its id is not reused meanwhile.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            if process.poll() is None:
                process.kill()
            process.wait(PATIENCE)
            for output in outputs:
                output.finish()
        finally:
            for pipe in (process.stdin, process.stdout, process.stderr):
                if pipe is not None and not pipe.closed:
                    pipe.close()
    return process.returncode


def run(
    command: Sequence[str], *, timeout: float, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """`subprocess.run(command, capture_output=True, text=True, timeout=timeout)`, but in a process group of its
    own that is ended as a whole afterwards: what the command started (a client's stdio server) ends with it, and
    a timeout ends them all instead of only the command."""
    process = spawn(command, env=env, cwd=cwd, stdout=subprocess.PIPE)
    try:
        out, err = process.communicate(timeout=timeout)
    finally:
        end(process)
    return subprocess.CompletedProcess(list(command), process.returncode, out.decode(), err.decode())


class Output:
    """A child's output stream, read line by line in a thread as it is written: the child never blocks on a full
    pipe, and a test can wait for a line instead of sleeping. Optionally copied to a file as it arrives."""

    def __init__(self, stream: IO[bytes], copy_to: Path | None = None) -> None:
        self._stream = stream
        self._copy = copy_to.open("wb") if copy_to is not None else None
        self._lines: list[str] = []
        self._ended = False
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, name="e2e-output", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        try:
            for raw in self._stream:
                if self._copy is not None:
                    self._copy.write(raw)
                    self._copy.flush()
                with self._changed:
                    self._lines.append(raw.decode(errors="replace"))
                    self._changed.notify_all()
        finally:
            with self._changed:
                self._ended = True
                self._changed.notify_all()

    def text(self) -> str:
        """Everything read so far."""
        with self._changed:
            return "".join(self._lines)

    def wait_for(self, text: str, timeout: float = PATIENCE, start: int = 0) -> str:
        """The first line (from line `start` on) that contains `text`, as soon as it is written. Fails when the
        stream ends without it (the process died) or `timeout` passes."""
        deadline = time.monotonic() + timeout
        seen = start
        with self._changed:
            while True:
                for line in self._lines[seen:]:
                    if text in line:
                        return line
                seen = max(seen, len(self._lines))
                left = deadline - time.monotonic()
                if self._ended or left <= 0:
                    why = "the output ended" if self._ended else f"{timeout:g} s passed"
                    raise AssertionError(f"{why} before a line with {text!r}:\n{''.join(self._lines)[-4000:]}")
                self._changed.wait(left)

    def line(self, index: int, timeout: float = PATIENCE) -> str | None:
        """Line `index` (counted from 0), as soon as it is written; None when the stream ends before it."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while len(self._lines) <= index:
                left = deadline - time.monotonic()
                if self._ended:
                    return None
                if left <= 0:
                    raise AssertionError(f"no line {index} within {timeout:g} s:\n{''.join(self._lines)[-4000:]}")
                self._changed.wait(left)
            return self._lines[index]

    def line_count(self) -> int:
        """How many lines were read so far (a `start` for `wait_for` that only looks at later lines)."""
        with self._changed:
            return len(self._lines)

    def finish(self, timeout: float = PATIENCE) -> str:
        """Wait for the end of the stream (every process that held it has exited), close it; everything read."""
        if self._stream.closed:
            return self.text()
        self._reader.join(timeout)
        if self._reader.is_alive():
            raise AssertionError(f"something still holds the output open after {timeout:g} s:\n{self.text()[-4000:]}")
        self._stream.close()
        if self._copy is not None:
            self._copy.close()
        return self.text()


def wait_for_exit(pids: Iterable[int], timeout: float = PATIENCE) -> list[int]:
    """Wait until each process has exited (a zombie has), by pidfd: processes that are not our children too.
    The ones still running when `timeout` passes (none, unless something is wrong)."""
    deadline = time.monotonic() + timeout
    handles: dict[int, int] = {}
    try:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):  # gone and reaped already
                handles[os.pidfd_open(pid)] = pid
        waiting = select.poll()
        for handle in handles:
            waiting.register(handle, select.POLLIN)
        pending = set(handles)
        while pending and (left := deadline - time.monotonic()) > 0:
            for handle, _ in waiting.poll(left * 1000):
                waiting.unregister(handle)
                pending.discard(handle)
        return sorted(handles[handle] for handle in pending)
    finally:
        for handle in handles:
            os.close(handle)
