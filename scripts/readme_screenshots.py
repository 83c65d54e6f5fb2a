"""Take the README's play-screen pictures again (docs/images/play-desktop.png and
play-phone.png): a server on a scratch database, a quick game against the AI played by
clicks to its first turns, then the same game on a desktop and on a phone screen.

    python scripts/readme_screenshots.py            # needs the web extra and Chromium
    python scripts/readme_screenshots.py --turns 6  # a game further on
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
CHROMIUM = "/usr/bin/chromium"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def start_server(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    process = subprocess.Popen(
        [sys.executable, "-m", "reliquary.web", "--host", "127.0.0.1", "--port", str(port),
         "--db", f"sqlite:///{db}"], stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
        start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/meta", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.2)
    os.killpg(process.pid, signal.SIGKILL)
    raise SystemExit("the server did not answer within 60 s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=4, help="own turns to play first")
    parser.add_argument("--out", type=Path, default=IMAGES, help="folder of the pictures")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        process, url = start_server(Path(tmp) / "games.db")
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM,
                                             args=["--headless", "--no-sandbox"])
                page = browser.new_page(viewport=DESKTOP, reduced_motion="reduce")
                page.goto(url)
                page.click("#quick-ai")
                page.wait_for_selector("#board")
                for _ in range(2000):  # setup, then own turns
                    page.wait_for_selector(".opt, #result", timeout=60_000)
                    if page.query_selector("#result") is not None:
                        break
                    if int(page.evaluate("Number(document.body.dataset.turns || 0)")) \
                            >= 2 * args.turns:
                        break
                    page.locator(".opt").first.click()
                    page.wait_for_function(
                        "() => !document.body.classList.contains('busy')")
                game_url = page.url
                page.wait_for_timeout(500)
                args.out.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(args.out / "play-desktop.png"))
                phone = browser.new_page(viewport=PHONE, device_scale_factor=2,
                                         is_mobile=True, has_touch=True,
                                         reduced_motion="reduce")
                phone.goto(game_url)
                phone.wait_for_selector(".opt, #result", timeout=60_000)
                phone.wait_for_timeout(500)
                phone.screenshot(path=str(args.out / "play-phone.png"))
                browser.close()
        finally:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
    print(f"wrote {args.out / 'play-desktop.png'} and {args.out / 'play-phone.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
