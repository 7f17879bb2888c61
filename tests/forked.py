"""`python -m compute ARGS` for the tests, in a process forked from one that has imported torch already.

A test of the command line runs the command in a process of its own: its arguments, environment and folder, its
exit status, what it wrote to stdout and stderr. Starting Python and importing torch took about 3 s of a 2-core
machine's CPU for each, paid by some twenty tests of the unit tier. Here each command runs in a child forked from
a server process (one per test process, started on first use) that has imported torch and numpy and nothing of
the project; the child imports compute afresh, as `python -m compute` does, takes the test's environment,
folder and arguments, and exits with the command's status.

What a fork does not give a command: the environment variables Python and torch read as they start (PYTHON*,
OMP_*) are the server's, which are the test process's own. A test that needs those, a process group or signals
(Ctrl-C) starts a real `python` (tests/unit/test_progress.py, test_story_data.py); tests/unit/test_store.py's
damaged-checkpoint check runs the real `python -m compute`, as a reader types it.
"""
from __future__ import annotations

import atexit
import json
import os
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The server: reads one request a line ({"argv", "env", "cwd", "out", "err"}), forks, answers {"pid"} at once and
# {"returncode"} when the child ends, on the pipe FORKED_ANSWERS names. The child redirects its stdout and stderr to the files named, then runs
# compute's __main__ as `python -m compute` would.
SERVER = r"""
import json, os, runpy, sys, traceback
import numpy, torch  # what every command imports first, and what takes the time

def child(request):
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    path = [p for p in request["env"].get("PYTHONPATH", "").split(os.pathsep) if p]
    sys.path[:] = [request["cwd"], *path, *[p for p in sys.path[1:] if p not in path]]
    for fd, name in ((1, "out"), (2, "err")):
        os.dup2(os.open(request[name], os.O_WRONLY | os.O_CREAT | os.O_TRUNC), fd)
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    sys.argv = ["-m", *request["argv"]]         # runpy puts compute/__main__.py first, as python -m does
    code = 0
    try:
        runpy.run_module("compute", run_name="__main__", alter_sys=True)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        if stop.code is not None and not isinstance(stop.code, int):
            print(stop.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        os._exit(code)

channel = os.fdopen(int(os.environ.pop("FORKED_ANSWERS")), "w", buffering=1)
for line in sys.stdin:
    request = json.loads(line)
    pid = os.fork()
    if pid == 0:
        channel.close()
        child(request)
    channel.write(json.dumps({"pid": pid}) + "\n")
    _, status = os.waitpid(pid, 0)
    channel.write(json.dumps({"returncode": os.waitstatus_to_exitcode(status)}) + "\n")
"""


class _Server:
    def __init__(self):
        read, write = os.pipe()
        self.proc = subprocess.Popen([sys.executable, "-c", SERVER], stdin=subprocess.PIPE, text=True, cwd=ROOT,
                                     pass_fds=(write,), env={**os.environ, "FORKED_ANSWERS": str(write)})
        os.close(write)
        self.answers = os.fdopen(read, "r", buffering=1)
        atexit.register(self.close)

    def answer(self, deadline: float | None) -> dict:
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        if not select.select([self.answers], [], [], wait)[0]:
            raise TimeoutError
        line = self.answers.readline()
        if not line:
            raise RuntimeError("the command server stopped")
        return json.loads(line)

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(timeout=10)


_server: _Server | None = None


def compute(*argv: str, cwd: Path | str = ROOT, env: dict | None = None,
            timeout: float | None = None) -> subprocess.CompletedProcess:
    """`python -m compute *argv` run as subprocess.run(..., capture_output=True, text=True) runs it: the same
    arguments, folder and environment (default: this process's), exit status, stdout and stderr."""
    global _server
    if _server is None or _server.proc.poll() is not None:
        _server = _Server()
    env = dict(os.environ if env is None else env)
    with tempfile.TemporaryDirectory() as folder:
        out, err = Path(folder) / "out", Path(folder) / "err"
        request = {"argv": list(argv), "env": env, "cwd": str(Path(cwd).resolve()), "out": str(out), "err": str(err)}
        _server.proc.stdin.write(json.dumps(request) + "\n")
        _server.proc.stdin.flush()
        deadline = None if timeout is None else time.monotonic() + timeout
        pid = _server.answer(deadline)["pid"]
        try:
            code = _server.answer(deadline)["returncode"]
        except TimeoutError:
            os.kill(pid, 9)
            _server.answer(None)
            raise subprocess.TimeoutExpired([sys.executable, "-m", "compute", *argv], timeout) from None
        return subprocess.CompletedProcess([sys.executable, "-m", "compute", *argv], code,
                                           out.read_text(errors="replace"), err.read_text(errors="replace"))
