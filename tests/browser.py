"""A headless Chromium driven over its DevTools protocol (stdlib only: a minimal WebSocket client).

``with Browser(url) as b: b.eval("1 + 1"); b.key("ArrowRight"); png = b.screenshot()``.
:func:`find_chromium` returns the browser's path or None (tests skip then). Waiting is done
by blocking reads with socket timeouts, never by sleeping. Also a command line for looking at
a page: ``python tests/browser.py page.html out_prefix [KEY ...]`` writes ``out_prefix_1.png``
and one more screenshot after each key.
"""
from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import urllib.request
from typing import Any, Optional

KEYS = {"ArrowRight": 39, "ArrowLeft": 37, "ArrowDown": 40, "ArrowUp": 38, " ": 32, "Enter": 13,
        "PageDown": 34, "PageUp": 33, "Backspace": 8, "Home": 36, "r": 82}
CODES = {" ": "Space", "r": "KeyR"}


def find_chromium() -> Optional[str]:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


class _WS:
    """Just enough of RFC 6455 for DevTools: masked text frames out, text frames in."""

    def __init__(self, url: str, timeout_s: float):
        assert url.startswith("ws://")
        hostport, _, path = url[5:].partition("/")
        host, _, port = hostport.partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=timeout_s)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("DevTools closed the connection during the handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(head.decode(errors="replace"))

    def _read(self, n: int) -> bytes:
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("DevTools closed the connection")
            buf += chunk
        return buf

    def send(self, text: str) -> None:
        data = text.encode()
        head = bytes([0x81])
        n = len(data)
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 65536:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def recv(self) -> str:
        out = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(n)
            op = b0 & 0x0F
            if op == 0x8:
                raise ConnectionError("DevTools closed the socket")
            if op in (0x1, 0x0):
                out += payload
                if b0 & 0x80:
                    return out.decode()


class Browser:
    """A headless Chromium showing ``url`` at ``size`` px; methods talk to its page."""

    def __init__(self, url: str, size: tuple[int, int] = (1400, 950), timeout_s: float = 60.0):
        exe = find_chromium()
        if exe is None:
            raise RuntimeError("no chromium on PATH")
        self.profile = tempfile.mkdtemp(prefix="ml-chromium-")
        self.proc = subprocess.Popen(
            [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
             "--disable-extensions", "--disable-background-networking", "--remote-debugging-port=0",
             f"--user-data-dir={self.profile}", f"--window-size={size[0]},{size[1]}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.timeout_s = timeout_s
        self.ws: Optional[_WS] = None
        self.n = 0
        try:
            port = self._port()
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=timeout_s) as r:
                targets = json.load(r)
            page = next(t for t in targets if t.get("type") == "page")
            self.ws = _WS(page["webSocketDebuggerUrl"], timeout_s)
            self.call("Page.enable")
            self.call("Page.navigate", url=url)
            self.eval("new Promise(r => document.readyState === 'complete' ? r(1) : addEventListener('load', () => r(1)))")
        except BaseException:
            self.close()
            raise

    def _port(self) -> int:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:  # blocks until Chromium prints its address
            if "DevTools listening on ws://" in line:
                return int(line.split("ws://", 1)[1].split("/", 1)[0].rsplit(":", 1)[1])
        raise RuntimeError("chromium ended without a DevTools address")

    def call(self, method: str, **params: Any) -> dict:
        assert self.ws is not None
        self.n += 1
        self.ws.send(json.dumps({"id": self.n, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.n:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})

    def eval(self, expr: str) -> Any:
        r = self.call("Runtime.evaluate", expression=expr, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expr}: {r['exceptionDetails']}")
        return r.get("result", {}).get("value")

    def key(self, key: str) -> None:
        """Press and release ``key`` (a DOM key name: ArrowRight, " ", r...)."""
        code = KEYS.get(key, 0)
        common = dict(key=key, code=CODES.get(key, key), windowsVirtualKeyCode=code, nativeVirtualKeyCode=code)
        self.call("Input.dispatchKeyEvent", type="keyDown", text=key if len(key) == 1 else "", **common)
        self.call("Input.dispatchKeyEvent", type="keyUp", **common)

    def mouse_move(self, x: float, y: float) -> None:
        self.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)

    def screenshot(self) -> bytes:
        return base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"])

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        if self.proc.stderr is not None:
            self.proc.stderr.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def main(argv: list[str]) -> int:
    page, prefix, keys = argv[0], argv[1], argv[2:]
    url = "file://" + os.path.abspath(page)
    with Browser(url) as b:
        shots = [b.screenshot()]
        for k in keys:
            b.key(k)
            shots.append(b.screenshot())
        for i, png in enumerate(shots):
            with open(f"{prefix}_{i + 1}.png", "wb") as f:
                f.write(png)
        print("step shown:", b.eval("document.body.getAttribute('data-step')"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
