"""Open a local HTML file in real headless Chromium and report what a person would see.

Used by the report tests (and any other test of a page the grader writes): the page is
loaded from disk, and the helper returns its visible text, a PNG screenshot, every console
error or uncaught exception, and every network request the page tried to make. No
dependency beyond the standard library: Chromium is driven over the DevTools protocol on a
pair of pipes (``--remote-debugging-pipe``: JSON messages separated by NUL bytes on file
descriptors 3 and 4), so no port is opened either.

Usage::

    import browser  # tests/browser.py; pytest puts tests/ on sys.path
    page = browser.open_page(path)          # skips the test when Chromium is absent
    assert page.console_errors == [] and page.requests == []
    assert not browser.looks_blank(page.screenshot)
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import struct
import subprocess
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
         "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio", "--remote-debugging-pipe",
         # A page that tries the network is caught by its request events; nothing actually leaves.
         "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost"]


def find_chromium() -> str | None:
    override = os.environ.get("MINIMAX_GRADER_CHROMIUM")
    if override:
        return shutil.which(override) or (override if Path(override).is_file() else None)
    return next((found for name in CANDIDATES if (found := shutil.which(name))), None)


def require_chromium() -> str:
    """The browser's path, or skip the calling test with a reason (CI installs chromium)."""
    import pytest

    found = find_chromium()
    if found is None:
        pytest.skip("headless Chromium is not installed (apt-get install chromium); the browser checks need it")
    return found


@dataclass
class Page:
    url: str
    text: str
    title: str
    screenshot: bytes
    console_errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    evaluated: object = None  # what ``script`` returned, if one was given


class BrowserError(RuntimeError):
    pass


class _DevTools:
    """A minimal DevTools client over the two pipes; events are kept for later inspection."""

    def __init__(self, proc: subprocess.Popen, to_browser: int, from_browser: int, timeout: float):
        self.proc, self.out, self.inp, self.timeout = proc, to_browser, from_browser, timeout
        self.buffer = b""
        self.next_id = 0
        self.events: list[dict] = []

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.out, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_for(self, method: str, seconds: float | None = None) -> dict:
        deadline = time.monotonic() + (seconds or self.timeout)
        for event in self.events:
            if event.get("method") == method:
                return event
        while True:
            event = self._read(deadline)
            if "method" in event:
                self.events.append(event)
                if event["method"] == method:
                    return event

    def _read(self, deadline: float | None = None) -> dict:
        deadline = deadline or time.monotonic() + self.timeout
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("Chromium did not answer in time")
            ready, _, _ = select.select([self.inp], [], [], left)
            if ready:
                chunk = os.read(self.inp, 1 << 20)
                if not chunk:
                    raise BrowserError(f"Chromium closed the DevTools pipe (exit code {self.proc.poll()})")
                self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)


def open_page(path: str | Path, *, width: int = 1000, height: int = 800, timeout: float = 90.0,
              settle: float = 0.3, script: str | None = None) -> Page:
    """Load ``path`` (a local file) in headless Chromium; skips the test if there is no Chromium.

    ``script``, if given, is a JavaScript expression run in the page once it has loaded (to
    click, choose, read back); its value (JSON-like) is ``Page.evaluated``.
    """
    binary = require_chromium()
    url = Path(path).resolve().as_uri()
    profile = tempfile.mkdtemp(prefix="minimax-grader-chromium-")
    to_browser_r, to_browser_w = os.pipe()
    from_browser_r, from_browser_w = os.pipe()
    # The protocol wants our pipes on the child's fds 3 (it reads) and 4 (it writes); moved
    # above 9 first so that placing one cannot clobber the other (bash, not sh: sh only
    # redirects single-digit descriptors).
    for name in ("to_browser_r", "from_browser_w"):
        low = locals()[name]
        high = fcntl.fcntl(low, fcntl.F_DUPFD_CLOEXEC, 10)
        os.close(low)
        if name == "to_browser_r":
            to_browser_r = high
        else:
            from_browser_w = high
    shell = f'exec "$0" "$@" 3<&{to_browser_r} 4>&{from_browser_w} {to_browser_r}<&- {from_browser_w}>&-'
    proc = subprocess.Popen([shutil.which("bash") or "/bin/bash", "-c", shell, binary, *FLAGS, f"--user-data-dir={profile}",
                             f"--window-size={width},{height}", "about:blank"],
                            pass_fds=(to_browser_r, from_browser_w), stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=None if os.environ.get("BROWSER_DEBUG") else subprocess.DEVNULL, start_new_session=True)
    os.close(to_browser_r)
    os.close(from_browser_w)
    tools = _DevTools(proc, to_browser_w, from_browser_r, timeout)
    try:
        return _visit(tools, url, width, height, settle, script)
    finally:
        try:
            tools.send("Browser.close")
        except (BrowserError, OSError):
            pass
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        os.close(to_browser_w)
        os.close(from_browser_r)
        shutil.rmtree(profile, ignore_errors=True)


def _visit(tools: _DevTools, url: str, width: int, height: int, settle: float, script: str | None = None) -> Page:
    target = tools.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = tools.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        tools.send(f"{domain}.enable", session=session)
    tools.send("Emulation.setDeviceMetricsOverride",
               {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False}, session=session)
    tools.send("Page.navigate", {"url": url}, session=session)
    tools.wait_for("Page.loadEventFired")
    time.sleep(settle)  # let late scripts, fonts or timers show their errors and requests
    value = None
    if script is not None:
        value = tools.send("Runtime.evaluate", {"expression": script, "returnByValue": True},
                           session=session)["result"].get("value")
    evaluated = tools.send("Runtime.evaluate", {"expression": "[document.title, document.body ? document.body.innerText : '']",
                                                "returnByValue": True}, session=session)
    title, text = evaluated["result"]["value"]
    shot = tools.send("Page.captureScreenshot", {"format": "png"}, session=session)
    return Page(url=url, text=text, title=title, screenshot=base64.b64decode(shot["data"]),
                console_errors=_console_errors(tools.events), requests=_requests(tools.events, url), evaluated=value)


def _console_errors(events: list[dict]) -> list[str]:
    errors = []
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            errors.append("console: " + " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", [])))
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            errors.append("exception: " + str(details.get("exception", {}).get("description") or details.get("text")))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            errors.append(f"log ({entry.get('source')}): {entry.get('text')} {entry.get('url', '')}".rstrip())
    return errors


def _requests(events: list[dict], page_url: str) -> list[str]:
    """Every request except loading the page itself (a self-contained page makes none)."""
    seen = []
    for event in events:
        if event.get("method") == "Network.requestWillBeSent":
            request_url = event["params"]["request"]["url"]
            if request_url != page_url:
                seen.append(request_url)
    return seen


# --- a screenshot is not blank ---------------------------------------------------------------


def decode_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the unfiltered rows (RGB or RGBA, 8 bits) of a PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, [], None
    while pos < len(data):
        (length,), kind = struct.unpack(">I", data[pos:pos + 4]), data[pos + 4:pos + 8]
        chunk = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat.append(chunk)
        elif kind == b"IEND":
            break
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG (depth {depth}, colour type {colour}, interlace {interlace})")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 1:
            for i in range(channels, stride):
                line[i] = (line[i] + line[i - channels]) & 0xFF
        elif kind == 2:
            line = bytearray((a + b) & 0xFF for a, b in zip(line, previous))
        elif kind == 3:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                a = line[i - channels] if i >= channels else 0
                b, c = previous[i], previous[i - channels] if i >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, [_rgb(row, channels) for row in rows]


def _rgb(row: bytes, channels: int) -> bytes:
    if channels == 3:
        return row
    return b"".join(row[i:i + 3] for i in range(0, len(row), 4))


def colours(png: bytes) -> dict[tuple[int, int, int], int]:
    """How many pixels of each colour the image has."""
    _, _, rows = decode_png(png)
    counts: dict[tuple[int, int, int], int] = {}
    for row in rows:
        for i in range(0, len(row), 3):
            key = (row[i], row[i + 1], row[i + 2])
            counts[key] = counts.get(key, 0) + 1
    return counts


def looks_blank(png: bytes) -> bool:
    """True for a one-colour image, or one where nearly every pixel is white."""
    counts = colours(png)
    total = sum(counts.values())
    return len(counts) < 2 or counts.get((255, 255, 255), 0) > 0.995 * total
