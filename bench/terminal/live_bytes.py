#!/usr/bin/env python3
"""Bytes per second tealab writes to the terminal while it trains and draws
its live charts.

usage (from the repo root):
  python3 bench/terminal/live_bytes.py BIN [--serve] [--runs 3] [--data SOURCE]

The training: logistic regression, solver=gd (batch gradient descent never
meets tol=1e-14, the smallest tol allowed, so all max_iter=300 iterations
run), on --data (default blobs:n=200000, a generator: no file needed; about
4 s of training on 2 cores).

Local (default): BIN --data D --model logistic --param solver=gd
--param max_iter=300 --param tol=1e-14 --train on a 120x40 pty that answers
terminal queries (termkit.reply).

--serve: BIN serve on 127.0.0.1 (a free port, a fresh host key, a fresh
ed25519 user key in authorized_keys, its own state and data dirs), reached by
the system ssh client on a 120x40 pty; the bytes counted are those the
client's pty shows. The served lab takes no flags, so the script drives it
with keys as a person would: p, types the source, enter (data), enter
(model list), /logistic enter enter (parameters), → → → (solver gd),
↓ ↓ ↓ ctrl+u 300 (max_iter), ↓ ctrl+u 1e-14 (tol), enter (train).

Counted: every byte read from the pty from the moment the training screen
shows (--start-marker, default 'cancel': its footer 'c cancel (keeps what
finished)') until the results screen shows (--end-marker, default
'Confusion': its tab bar); then, one second later (the rest of the results
frame), the bytes of the next --idle seconds, with nothing happening.
Markers are matched on the output with escape sequences and whitespace
removed. Prints each run and the median over --runs.
"""
import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the repo
import termkit  # noqa: E402


def measure(term, args, pid):
    """From the training screen to the results, then idle; (bytes, s, idle bytes)."""
    termkit.wait_for(term, args.start_marker, 30, "training screen")
    t0, b0 = time.monotonic(), term.total
    if not term.seen("solver=gd max_iter=300 tol=1e-14"):  # the training screen's settings line
        print("warning: the training screen did not show 'solver=gd max_iter=300 tol=1e-14'", file=sys.stderr)
    term.text = b""  # the end marker must come after the start
    termkit.wait_for(term, args.end_marker, 120, "results screen")
    t1, b1 = time.monotonic(), term.total
    settle = t1 + 1  # the rest of the results frame arrives in this second
    while time.monotonic() < settle and term.read(settle - time.monotonic()):
        pass
    b2, end = term.total, time.monotonic() + args.idle
    while time.monotonic() < end and term.read(end - time.monotonic()):
        pass
    return b1 - b0, t1 - t0, term.total - b2


def local_run(binary, args):
    tmp = tempfile.mkdtemp(prefix="tl-lb-")
    try:
        argv = [binary, "--data", args.data, "--model", "logistic", "--param", "solver=gd",
                "--param", "max_iter=300", "--param", "tol=1e-14", "--train"]
        pid, fd = termkit.spawn(argv, termkit.clean_env(tmp), args.cols, args.rows)
        term = termkit.Term(fd, silent=args.silent, sync=args.sync)
        try:
            return measure(term, args, pid) + (term.queries,)
        finally:
            termkit.stop(pid, term)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def keys(term, seq, marker=None, what=""):
    """Type seq one key at a time (50 ms apart), then wait for marker."""
    term.text = b""
    for k in seq:
        os.write(term.fd, k.encode() if isinstance(k, str) else k)
        time.sleep(0.05)
    if marker:
        termkit.wait_for(term, marker, 30, what)


def serve_run(binary, args):
    tmp = tempfile.mkdtemp(prefix="tl-lb-serve-")
    server = None
    try:
        env = termkit.clean_env(tmp)
        key = os.path.join(tmp, "id_ed25519")
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key], check=True)
        shutil.copy(key + ".pub", os.path.join(tmp, "authorized_keys"))
        os.makedirs(os.path.join(tmp, "data"))
        port = free_port()
        log = open(os.path.join(tmp, "serve.log"), "wb")
        server = subprocess.Popen(
            [binary, "serve", "--listen", "127.0.0.1:%d" % port,
             "--authorized-keys", os.path.join(tmp, "authorized_keys"),
             "--host-key", os.path.join(tmp, "host_ed25519"),
             "--state-dir", os.path.join(tmp, "state"), "--data-dir", os.path.join(tmp, "data")],
            env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        deadline = time.monotonic() + 10
        while True:  # until it listens
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("serve did not listen: " + open(log.name).read())
                time.sleep(0.05)
        ssh = ["/usr/bin/ssh", "-tt", "-F", "/dev/null", "-p", str(port), "-i", key,
               "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
               "-o", "LogLevel=ERROR", "-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes",
               "bench@127.0.0.1"]
        pid, fd = termkit.spawn(ssh, env, args.cols, args.rows)
        term = termkit.Term(fd, silent=args.silent, sync=args.sync)
        try:
            termkit.wait_for(term, "quit", 15, "data screen")
            keys(term, ["p"], "Openafilebypath", "path prompt")
            keys(term, [args.data, "\r"], "usethisdata", "data preview")
            keys(term, ["\r"], "Modelsforclassification", "model list")
            keys(term, ["/", "logistic", "\r"], "escclears", "model filter")
            keys(term, ["\r"], "Hyperparametersoflogistic", "parameters")
            right, down = "\x1b[C", "\x1b[B"
            keys(term, [right, right, right, down, down, down, "\x15", "300", down, "\x15", "1e-14"],
                 "[1e-14", "parameters typed")
            term.text = b""
            os.write(fd, b"\r")
            return measure(term, args, pid) + (term.queries,)
        finally:
            termkit.stop(pid, term)
    finally:
        if server is not None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(5)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("bin", help="the tealab binary")
    p.add_argument("--serve", action="store_true", help="over BIN serve and the system ssh client")
    p.add_argument("--data", default="blobs:n=200000")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--idle", type=float, default=2, help="seconds counted, idle, from 1 s after training ends")
    p.add_argument("--start-marker", default="cancel")
    p.add_argument("--end-marker", default="Confusion")
    p.add_argument("--silent", action="store_true", help="a terminal that answers no query")
    p.add_argument("--sync", action="store_true", help="report mode 2026 as known to DECRQM")
    p.add_argument("--cols", type=int, default=120)
    p.add_argument("--rows", type=int, default=40)
    args = p.parse_args()
    binary = os.path.abspath(args.bin)
    run = serve_run if args.serve else local_run
    rows, queries = [], {}
    for i in range(args.runs):
        nbytes, secs, idle, qs = run(binary, args)
        rows.append((nbytes, secs, nbytes / secs, idle / args.idle if args.idle else 0))
        for k, v in qs.items():
            queries[k] = queries.get(k, 0) + v
        print("run %d: %d bytes in %.2f s = %.0f B/s while training; idle %.0f B/s"
              % ((i + 1,) + rows[-1]), flush=True)
    med = [termkit.median([r[j] for r in rows]) for j in range(4)]
    print("%s %s, %s, %dx%d: median %d bytes in %.2f s = %.0f B/s while training; "
          "idle after: %.0f B/s (n=%d)"
          % (os.path.basename(binary), "serve+ssh" if args.serve else "local", args.data,
             args.cols, args.rows, med[0], med[1], med[2], med[3], args.runs))
    print("queries seen (all runs):", ", ".join("%s x%d" % kv for kv in queries.items()) or "none")


if __name__ == "__main__":
    main()
