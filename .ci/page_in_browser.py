"""CI: a --html page in a real headless browser (Debian's chromium), driven over the DevTools protocol on a pipe.

    python3 .ci/page_in_browser.py PAGE.html SHOT.png

loads the page from its file, as a class would open it offline, and checks what a test cannot: that the browser runs
its one script without an error, that the stepper shows one step at a time and moves with the arrow keys and with a
click on the slider, that nothing from the data became markup (no image, no dialog: a header such as
<img src=x onerror=alert(1)> stays text), and that nothing was fetched.  It saves a screenshot at mistake 3 (or the
last).  The standard library only; chromium is CI's, never the project's.
"""
import base64
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile

CHROMIUM = os.environ.get("CHROMIUM", "chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--remote-debugging-pipe", "--window-size=1200,900"]


class Browser:
    """chromium with --remote-debugging-pipe: it reads commands on its fd 3 and writes replies on its fd 4, each a JSON
    text ended by a NUL byte."""

    def __init__(self, profile):
        to_child, self.commands = os.pipe()
        self.replies, from_child = os.pipe()

        def child():  # the pipe's ends as the child's fds 3 and 4, whatever numbers they have here
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_child, from_child)]
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)
        self.process = subprocess.Popen([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
                                        preexec_fn=child, pass_fds=(3, 4), stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        os.close(to_child)
        os.close(from_child)
        self.buffer, self.events, self.next_id, self.session = b"", [], 0, None

    def send(self, method, **params):
        """A command's result (in the page's session once attached); its events are kept in self.events."""
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if self.session and not method.startswith(("Target.", "Browser.")):
            message["sessionId"] = self.session
        os.write(self.commands, json.dumps(message).encode() + b"\0")
        while True:
            reply = self.receive()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def receive(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.replies, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed its pipe")
            self.buffer += chunk
        text, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(text)

    def wait_for(self, method):
        while not any(event.get("method") == method for event in self.events):
            self.events.append(self.receive())

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def key(self, name, code):
        for kind in ("keyDown", "keyUp"):
            self.send("Input.dispatchKeyEvent", type=kind, key=name, code=name, windowsVirtualKeyCode=code)


STATE = """JSON.stringify({scripts: document.scripts.length, images: document.images.length,
  steps: document.querySelectorAll("div.frame").length,
  shown: [...document.querySelectorAll("div.frame")].filter(step => !step.hidden).length,
  title: document.getElementById("shown").textContent, at: +document.getElementById("at").value})"""


def main(page, shot):
    profile = tempfile.mkdtemp()
    browser = Browser(profile)
    try:
        target = browser.send("Target.createTarget", url="about:blank")["targetId"]
        browser.session = browser.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.send(f"{domain}.enable")
        browser.send("Emulation.setDeviceMetricsOverride", width=1200, height=900, deviceScaleFactor=1, mobile=False)
        browser.send("Page.navigate", url="file://" + os.path.abspath(page))
        browser.wait_for("Page.loadEventFired")

        def state():
            return json.loads(browser.evaluate(STATE))
        first = state()
        assert first["scripts"] == 1 and first["images"] == 0, first
        assert first["steps"] >= 1 and first["shown"] == 1 and first["at"] == 0 and first["title"] == "w = 0", first
        last = first["steps"] - 1
        for _ in range(3):
            browser.key("ArrowRight", 39)
        moved = state()
        assert moved["at"] == min(3, last) and moved["shown"] == 1, moved
        assert moved["title"].startswith(f"mistake {moved['at']} of ") if last else moved["title"] == "w = 0", moved
        box = json.loads(browser.evaluate('JSON.stringify(document.getElementById("at").getBoundingClientRect())'))
        for kind in ("mousePressed", "mouseReleased"):  # a click at the slider's start: back to w = 0
            browser.send("Input.dispatchMouseEvent", type=kind, x=box["left"] + 2, y=box["top"] + box["height"] / 2,
                         button="left", clickCount=1)
        clicked = state()
        assert clicked["at"] == 0 and clicked["title"] == "w = 0" and clicked["shown"] == 1, clicked
        for _ in range(3):
            browser.key("ArrowRight", 39)
        png = base64.b64decode(browser.send("Page.captureScreenshot", format="png")["data"])
        assert png.startswith(b"\x89PNG") and len(png) > 10000, len(png)
        with open(shot, "wb") as f:
            f.write(png)
        fetched = [e["params"]["request"]["url"] for e in browser.events if e.get("method") == "Network.requestWillBeSent"]
        problems = [e for e in browser.events if e.get("method") in ("Runtime.exceptionThrown",
                                                                      "Page.javascriptDialogOpening")
                    or e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] == "error"]
        assert fetched == ["file://" + os.path.abspath(page)], fetched
        assert not problems, problems
        browser.send("Browser.close")
        print(f"{page}: {first['steps']} steps; the arrow keys and the slider move them; one script, nothing fetched; "
              f"screenshot {shot} ({len(png):,} bytes)")
    finally:
        try:
            browser.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            browser.process.kill()
            browser.process.wait()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    main(*sys.argv[1:3])
