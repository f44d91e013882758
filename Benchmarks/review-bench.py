"""`rowkit review` of a large report, timed in Debian's Chromium through Playwright.

Makes a project of CASES one-row cases, records their references, changes every one of them
(GROUP share one change, "Same" → "Other", so they form one group; each of the others
changes in its own way), and checks it into a report folder. Then, R times, each with a new
server and a new browser context (nothing cached):

  1. start:  `rowkit review` from its start to the printed address (it reads the report and
             groups the cases by their pixel differences);
  2. open:   the page, from asking for it until the first case is shown (the progress line
             says "0 of CASES reviewed" and the first case's actual image has loaded);
  3. accept: the key g on the first case (one of the group), until the progress line
             counts the group;
  4. undo:   the key u, until the progress line is back at 0.

    review-bench.py ROWKIT CASES GROUP RUNS
"""

import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from playwright.sync_api import expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
# Waits end on what the page shows; this bound only stops a page that never gets there.
PATIENCE_MS = 600_000


def main() -> None:
    rowkit, cases, group, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    folder = pathlib.Path(tempfile.mkdtemp(prefix="rowkit-review-bench-"))
    try:
        make_report(rowkit, folder, cases, group)
        times = {"start": [], "open": [], "accept": [], "undo": []}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            try:
                for _ in range(runs):
                    run(rowkit, folder, browser, cases, group, times)
            finally:
                browser.close()
        print(f"rowkit review: {cases} failed cases, a group of {group}, best of {runs} runs ({os.cpu_count()} cores), Chromium {browser.version}")
        labels = {
            "start": "server start (to the printed address)",
            "open": "page open, first case shown",
            "accept": f"accept the group of {group}",
            "undo": f"undo that accept ({group} cases)",
        }
        for key, label in labels.items():
            values = sorted(times[key])
            print(f"{label:44} best {values[0]:6.0f} ms   median {statistics.median(values):6.0f} ms")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def make_report(rowkit: str, folder: pathlib.Path, cases: int, group: int) -> None:
    tables = folder / "work" / "tables"
    tables.mkdir(parents=True)

    def write(index: int, subtitle: str) -> None:
        (tables / f"case-{index:04d}.yaml").write_text(
            f'items:\n  - {{ type: subtitle, text: "Case {index}", subtitle: "{subtitle}" }}\n')

    for index in range(cases):
        write(index, "Same")
    refs = str(folder / "refs")
    check = [rowkit, "check", "tables", "--snapshots", refs]
    # Recording exits 1 (new references are for review); anything else is a failure.
    recorded = subprocess.run(check, cwd=folder / "work", env=dict(os.environ, CI=""), capture_output=True, text=True)
    if recorded.returncode not in (0, 1):
        sys.exit(f"review-bench: recording failed: {recorded.stderr}")
    for index in range(cases):
        write(index, "Other" if index < group else f"Else {index}")
    checked = subprocess.run(
        check + ["--report", "report"], cwd=folder / "work", env=dict(os.environ, CI="true"), capture_output=True, text=True)
    if checked.returncode != 1 or f"{cases} failed" not in checked.stdout:
        sys.exit(f"review-bench: the check did not fail {cases} cases: {checked.stdout}{checked.stderr}")


def run(rowkit: str, folder: pathlib.Path, browser, cases: int, group: int, times: dict) -> None:
    environment = {name: value for name, value in os.environ.items() if name != "CI"}
    # The key that seals the review log is made in the benchmark's folder, not the user's.
    environment["XDG_STATE_HOME"] = str(folder / "state")
    start = time.perf_counter()
    server = subprocess.Popen(
        [rowkit, "review", "report", "--snapshots", str(folder / "refs")],
        cwd=folder / "work", stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
    try:
        first = server.stdout.readline()
        times["start"].append((time.perf_counter() - start) * 1000)
        if "http://127.0.0.1:" not in first:
            sys.exit(f"review-bench: rowkit review printed {first!r}: {server.stderr.read()}")
        address = first.split()[-1]
        context = browser.new_context()
        try:
            page = context.new_page()
            page.set_default_timeout(PATIENCE_MS)
            expect.set_options(timeout=PATIENCE_MS)
            progress = page.locator("#review-progress")

            # One check in the page, each animation frame: Playwright's own polling of the
            # progress line while the page was still being parsed made this 45 s, not 2.
            start = time.perf_counter()
            page.goto(address, wait_until="commit")
            page.wait_for_function(
                "text => { const progress = document.getElementById('review-progress');"
                " const image = document.querySelector('section.case img[data-role=\"actual\"]');"
                " return progress && progress.textContent === text && image && image.complete && image.naturalWidth > 0; }",
                arg=f"0 of {cases} reviewed")
            times["open"].append((time.perf_counter() - start) * 1000)

            # The reviewer's keys: g accepts the group of the current case (the first, one of
            # the group), u undoes it. Not a click through Playwright: finding the button by
            # its role or text took Playwright tens of seconds on a page of 2,000 cases.
            expect(page.locator("body")).to_have_attribute("data-current", "case-0000")
            start = time.perf_counter()
            page.keyboard.press("g")
            expect(progress).to_have_text(f"{group} of {cases} reviewed")
            times["accept"].append((time.perf_counter() - start) * 1000)

            start = time.perf_counter()
            page.keyboard.press("u")
            expect(progress).to_have_text(f"0 of {cases} reviewed")
            times["undo"].append((time.perf_counter() - start) * 1000)
        finally:
            context.close()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
