#!/usr/bin/env python3
"""Time from spawn to tealab's first frame on a fresh pseudo-terminal.

usage (from the repo root):
  python3 bench/terminal/first_frame.py BIN [--silent] [--runs N] [--marker TEXT] [-- ARGS...]
  python3 bench/terminal/first_frame.py BIN --until-exit -- compare --data iris ...

Each run starts BIN ARGS on a new 120x40 pty (TERM=xterm-256color, a clean
environment with XDG dirs of its own) and reads its output. The first frame
is the first moment the output read so far, with ANSI escape sequences and
whitespace removed, holds the marker (default 'quit': the lab's first screen,
the data picker, ends with the footer '... ? help · q quit', so the marker
means the whole frame was written). Then it sends q (later ctrl+c, then
SIGKILL) and waits for the process to exit.

By default the pty answers queries as a real terminal does (OSC 11 background
colour, DA1, cursor position, DECRQM, ... see termkit.reply); --silent answers
nothing, as a terminal that never answers. --until-exit times spawn to exit
instead (for commands such as compare, which must not wait on the terminal).
Prints each run in ms, then the median and the least, the bytes read by
then, and the queries seen.
"""
import argparse
import os
import shutil
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the repo
import termkit  # noqa: E402


def one_run(argv, args):
    tmp = tempfile.mkdtemp(prefix="tl-ff-")
    try:
        env = termkit.clean_env(tmp)
        t0 = time.monotonic()
        pid, fd = termkit.spawn(argv, env, args.cols, args.rows)
        term = termkit.Term(fd, silent=args.silent, sync=args.sync)
        if args.until_exit:
            status = termkit.wait_exit(pid, term, args.timeout)
            took = time.monotonic() - t0
            if status is None:
                termkit.stop(pid, term)
                sys.exit("no exit within %gs" % args.timeout)
            drain = time.monotonic() + 1  # what is left in the pty, for the query count
            while time.monotonic() < drain and term.read(0.05):
                pass
            os.close(fd)
            if os.waitstatus_to_exitcode(status) != 0:
                sys.exit("exit status %d: %s" % (os.waitstatus_to_exitcode(status), term.tail()))
            return took, "exit", term.queries, term.total
        end = t0 + args.timeout
        while not term.seen(args.marker):
            if time.monotonic() > end or not term.read(end - time.monotonic()):
                how = termkit.stop(pid, term)
                sys.exit("marker %r not seen within %gs (ended: %s); visible text tail: %r"
                         % (args.marker, args.timeout, how, term.tail()))
        took, nbytes = time.monotonic() - t0, term.total
        return took, termkit.stop(pid, term), term.queries, nbytes
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("bin", help="the tealab binary")
    p.add_argument("--silent", action="store_true", help="a terminal that answers no query")
    p.add_argument("--sync", action="store_true", help="report mode 2026 (synchronized output) as known to DECRQM")
    p.add_argument("--until-exit", action="store_true", help="time until the process exits, not to the marker")
    p.add_argument("--marker", default="quit", help="text the first screen always shows (default %(default)r)")
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--timeout", type=float, default=15, help="seconds per run before giving up")
    p.add_argument("--cols", type=int, default=120)
    p.add_argument("--rows", type=int, default=40)
    args = p.parse_args(argv)
    binary = os.path.abspath(args.bin)
    times, ends, queries, sizes = [], {}, {}, []
    for _ in range(args.runs):
        took, how, qs, nbytes = one_run([binary] + extra, args)
        times.append(took * 1000)
        sizes.append(nbytes)
        ends[how] = ends.get(how, 0) + 1
        for k, v in qs.items():
            queries[k] = queries.get(k, 0) + v
    mode = "silent" if args.silent else "answering"
    what = "exit" if args.until_exit else "first frame (marker %r)" % args.marker
    print("runs (ms):", " ".join("%.1f" % t for t in times))
    print("%s, %s terminal, %dx%d, %s: median %.1f ms, min %.1f ms, n=%d"
          % (" ".join([os.path.basename(binary)] + extra), mode, args.cols, args.rows, what,
             termkit.median(times), min(times), len(times)))
    print("bytes read by then: median %d" % termkit.median(sizes))
    print("ended by:", ", ".join("%s x%d" % kv for kv in ends.items()))
    print("queries seen (all runs):", ", ".join("%s x%d" % kv for kv in queries.items()) or "none")


if __name__ == "__main__":
    main()
