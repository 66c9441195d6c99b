"""The page that solves beside the command line, on the same deals, in one run.

Writes the site (`wedlock web`), serves it on localhost, and opens it in Debian's chromium
(playwright): the first load (from opening the page to the solver being ready, in fresh
browser contexts), then Monte Carlo and PySolFC's Matrimony deals one after the other on
one page, each timed inside the page (the worker's answer, with its solution page) and by
`wedlock solve GAME N --json` run as a command. Prints a table and the medians.

    python3 benchmarks/web_speed.py                 # 20 deals of each, 3 first loads
    python3 benchmarks/web_speed.py --deals 50 --loads 5
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from wedlock.web.site import site_files, site_size

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"]


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


def settled(page: Any) -> dict:
    while page.evaluate("document.documentElement.dataset.state") not in ("done", "error"):
        page.wait_for_timeout(20)
    return page.evaluate("({times: window.wedlockTimes, answer: window.wedlockAnswer, verdict: document.documentElement.dataset.verdict})")


def command_line(game: str, number: int) -> tuple[float, dict]:
    """`wedlock solve GAME N --json` as a command: its wall time and its answer."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "wedlock", "solve", game, str(number), "--json"], capture_output=True, text=True)
    return time.perf_counter() - started, json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="deals of each game, PySolFC's games 1 to N")
    parser.add_argument("--loads", type=int, default=3, help="first loads, each in a fresh browser context")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    options = parser.parse_args()
    files = site_files()
    with tempfile.TemporaryDirectory() as folder:
        for name, data in files.items():
            (Path(folder) / name).parent.mkdir(parents=True, exist_ok=True)
            (Path(folder) / name).write_bytes(data)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=folder))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        origin = f"http://127.0.0.1:{server.server_address[1]}"
        print(f"site: {len(files)} files, {site_size(files) / 1e6:.1f} MB")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=options.chromium, args=ARGS)
            loads = []
            for _ in range(options.loads):
                context = browser.new_context()
                page = context.new_page()
                page.goto(f"{origin}/index.html#game=monte-carlo&n=1")
                loads.append(settled(page)["times"]["load"])
                context.close()
            print(f"first load (page opened to solver ready): median {statistics.median(loads):.2f} s, each " + ", ".join(f"{x:.2f}" for x in loads))
            page = browser.new_page()
            page.goto(f"{origin}/index.html")
            print(f"\n{'game':<12} {'N':>5} {'verdict':<8} {'page s':>7} {'page search s':>13} {'cli s':>6} {'cli search s':>12}  same")
            for game in ("monte-carlo", "matrimony"):
                page_times, cli_times, page_search, cli_search = [], [], [], []
                for number in range(1, options.deals + 1):
                    page.evaluate("(f) => { document.documentElement.dataset.state = 'asked'; location.hash = f; }", f"#game={game}&n={number}")
                    seen = settled(page)
                    wall, printed = command_line(game, number)
                    same = seen["verdict"] == printed["verdict"] and seen["answer"].get("moves") == printed.get("moves")
                    page_times.append(seen["times"]["solve"])
                    cli_times.append(wall)
                    page_search.append(seen["answer"]["seconds"])
                    cli_search.append(printed["seconds"])
                    print(f"{game:<12} {number:>5} {seen['verdict']:<8} {page_times[-1]:>7.3f} {page_search[-1]:>13.3f} {wall:>6.3f} {cli_search[-1]:>12.3f}  {'yes' if same else 'NO'}")
                print(
                    f"{game}: median page {statistics.median(page_times):.3f} s (search {statistics.median(page_search):.3f}), "
                    f"command line {statistics.median(cli_times):.3f} s (search {statistics.median(cli_search):.3f}); "
                    f"max page {max(page_times):.3f} s\n"
                )
            browser.close()
        server.shutdown()


if __name__ == "__main__":
    main()
