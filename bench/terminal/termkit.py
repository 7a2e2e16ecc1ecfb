"""termkit: the pieces first_frame.py and live_bytes.py share (stdlib only).

- spawn(argv, env, cols, rows): start a program on a fresh pseudo-terminal
  of the given size (set in the child before exec, so the program's first
  TIOCGWINSZ already sees it).
- Term: reads the program's output, strips ANSI escape sequences into a
  "visible text" tail for marker searches, and answers the queries a real
  terminal answers (or none, silent=True). Every query seen is counted in
  Term.queries, so a script can report what the program asked.
- clean_env(tmp, term): a minimal environment with XDG dirs of its own.
- stop(pid, fd, term): ask the program to quit (q, then ctrl+c, then SIGKILL).
"""
import errno
import fcntl
import os
import pty
import re
import select
import signal
import struct
import termios
import time

# One complete escape sequence: CSI, OSC (BEL or ST), DCS/SOS/PM/APC (ST),
# or a short ESC sequence (ESC 7, ESC ( B, ESC =, ...).
SEQ = re.compile(rb"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)"
                 rb"|[PX^_][^\x1b]*\x1b\\|[ -/]*[0-OQ-WYZ\\\\`-~])")
# What may still become one when more bytes arrive.
PARTIAL = re.compile(rb"\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*\x1b?|[PX^_][^\x1b]*\x1b?|[ -/]*)")

ST = b"\x1b\\"
BG = b"\x1b]11;rgb:1e1e/2222/2a2a" + ST  # a dark background, as the brief says
FG = b"\x1b]10;rgb:d0d0/d0d0/d0d0" + ST


def reply(seq, sync=False):
    """(name, answer) for a query sequence; name None when seq is no query,
    answer None when a real xterm-like terminal would not answer either."""
    if seq.startswith(b"\x1b]"):
        body = seq[2:].rstrip(b"\x07").removesuffix(ST)
        if body == b"11;?":
            return "OSC 11 background colour", BG
        if body == b"10;?":
            return "OSC 10 foreground colour", FG
        if body == b"12;?":
            return "OSC 12 cursor colour", b"\x1b]12;rgb:d0d0/d0d0/d0d0" + ST
        m = re.fullmatch(rb"4;(\d+);\?", body)
        if m:
            return "OSC 4 palette colour", b"\x1b]4;" + m.group(1) + b";rgb:8080/8080/8080" + ST
        if body.endswith(b";?"):
            return "OSC %s query (unanswered)" % body.split(b";")[0].decode(), None
        return None, None
    if seq.startswith(b"\x1bP"):
        if seq.startswith(b"\x1bP$q"):
            return "DECRQSS", b"\x1bP0$r" + ST
        if seq.startswith(b"\x1bP+q"):
            return "XTGETTCAP", b"\x1bP0+r" + ST
        return None, None
    if not seq.startswith(b"\x1b["):
        return None, None
    params, final = seq[2:-1], seq[-1:]
    if final == b"c" and params in (b"", b"0"):
        return "DA1 primary device attributes", b"\x1b[?62;22c"
    if final == b"c" and params in (b">", b">0"):
        return "DA2 secondary device attributes", b"\x1b[>1;10;0c"
    if final == b"n":
        answers = {b"6": b"\x1b[1;1R", b"?6": b"\x1b[?1;1R", b"5": b"\x1b[0n",
                   b"?996": b"\x1b[?997;1n"}  # ?996: colour scheme, 1 = dark
        if params in answers:
            return "DSR " + params.decode() + "n", answers[params]
        return None, None
    if final == b"p" and params.endswith(b"$"):  # DECRQM: report modes as unknown (0)
        mode = params[:-1]
        value = b"2" if sync and mode == b"?2026" else b"0"  # 2 = known, reset
        return "DECRQM " + mode.decode() + "$p", b"\x1b[" + mode + b";" + value + b"$y"
    if final == b"u" and params.startswith(b"?"):
        return "kitty keyboard query ?u (unanswered, as xterm)", None
    if final == b"q" and params in (b">", b">0"):
        return "XTVERSION", b"\x1bP>|benchterm(1)" + ST
    if final == b"t" and params in (b"14", b"16", b"18"):
        size = {b"14": b"4;800;1200", b"16": b"6;20;10", b"18": b"8;40;120"}[params]
        return "XTWINOPS " + params.decode() + "t", b"\x1b[" + size + b"t"
    if final == b"m" and params.startswith(b"?"):
        return "XTQMODKEYS ?m (unanswered)", None
    return None, None


class Term:
    """The terminal side of a pty: feed() it what the program wrote."""

    def __init__(self, fd, silent=False, sync=False, keep=1 << 16):
        self.fd, self.silent, self.sync, self.keep = fd, silent, sync, keep
        self.pending = b""  # an escape sequence cut by the read
        self.text = b""  # visible text, whitespace removed, last `keep` bytes
        self.total = 0  # bytes read from the pty
        self.queries = {}  # name -> times seen

    def feed(self, data):
        self.total += len(data)
        buf, pos, out = self.pending + data, 0, []
        while True:
            esc = buf.find(b"\x1b", pos)
            if esc < 0:
                out.append(buf[pos:])
                pos = len(buf)
                break
            out.append(buf[pos:esc])
            m = SEQ.match(buf, esc)
            if m is None:
                if PARTIAL.fullmatch(buf, esc):  # wait for the rest
                    pos = esc
                    break
                pos = esc + 1  # a lone ESC: drop it
                continue
            self.answer(m.group())
            pos = m.end()
        self.pending = buf[pos:]
        vis = re.sub(rb"[\x00-\x20\x7f]", b"", b"".join(out))
        self.text = (self.text + vis)[-self.keep:]

    def answer(self, seq):
        name, ans = reply(seq, self.sync)
        if name is None:
            return
        self.queries[name] = self.queries.get(name, 0) + 1
        if ans is not None and not self.silent:
            try:
                os.write(self.fd, ans)
            except OSError:
                pass

    def seen(self, marker):
        """Whether the visible text (whitespace ignored) holds marker."""
        return re.sub(rb"\s", b"", marker.encode()) in self.text

    def tail(self, n=300):
        """The last n characters of the visible text (whitespace removed)."""
        return self.text.decode("utf-8", "replace")[-n:]

    def read(self, timeout):
        """Read what is there within timeout; False at end of output."""
        r, _, _ = select.select([self.fd], [], [], max(timeout, 0))
        if not r:
            return True
        try:
            data = os.read(self.fd, 1 << 16)
        except OSError as e:
            if e.errno == errno.EIO:
                return False
            raise
        if not data:
            return False
        self.feed(data)
        return True


def wait_for(term, marker, seconds, what=""):
    """Read until the visible text holds marker; exits with the screen's tail
    when it does not within seconds, or the output ends."""
    end = time.monotonic() + seconds
    while not term.seen(marker):
        left = end - time.monotonic()
        if left <= 0 or not term.read(left):
            raise SystemExit("%s: %r not seen within %gs; visible text tail: %r"
                             % (what or "wait", marker, seconds, term.tail()))


def clean_env(tmp, term="xterm-256color"):
    """A minimal environment whose XDG dirs and HOME lie in tmp."""
    env = {"PATH": "/usr/local/go/bin:/usr/bin:/bin", "TERM": term, "LANG": "C.UTF-8"}
    for name in ("HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        env[name] = os.path.join(tmp, name.lower())
        os.makedirs(env[name], exist_ok=True)
    return env


def spawn(argv, env, cols=120, rows=40):
    """Fork argv on a new pty of cols x rows; (pid, master fd)."""
    pid, fd = pty.fork()
    if pid == 0:
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    return pid, fd


def wait_exit(pid, term, seconds):
    """Keep reading (and answering) until pid exits or seconds pass; its
    wait status, or None."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return status
        if not term.read(0.02):
            time.sleep(0.005)
    done, status = os.waitpid(pid, os.WNOHANG)
    return status if done else None


def stop(pid, term, keys=(b"q", b"\x03", b"\x03")):
    """Quit the program with keys (each given 3 s), else SIGKILL. Returns how
    it ended: 'q', 'ctrl+c', 'killed'."""
    for key in keys:
        try:
            os.write(term.fd, key)
        except OSError:
            pass
        if wait_exit(pid, term, 3) is not None:
            os.close(term.fd)
            return {b"q": "q", b"\x03": "ctrl+c"}.get(key, repr(key))
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    os.close(term.fd)
    return "killed"


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
