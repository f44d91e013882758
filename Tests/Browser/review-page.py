"""The review page of `rowkit review`, driven in Debian's Chromium through Playwright.

Run by ReviewBrowserTests (Tests/RowKitCLITests) with a project that test made: a report
folder `report` in WORK of 6 failed cases in 2 groups (case-1, case-2, case-3 share one change,
case-4, case-5, case-6 another) checked against the references REFS. It serves the report
with the real `rowkit review`, reviews with the page's own keys and buttons, reloads, and
checks what the page shows; the test that runs it checks the files on disk and the log.

    review-page.py ROWKIT WORK REFS

Prints one line per step and exits 0, or 1 with the failed expectation. It never waits
for a fixed time: each step waits for what the page shows, with a bound (Playwright's
timeout) far above what any machine needs, so that only a page that never gets there fails.
"""

import pathlib
import subprocess
import sys

from playwright.sync_api import expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
# Only a page that never gets there reaches this; a slow machine does not.
PATIENCE_MS = 120_000


def main() -> int:
    rowkit, work, refs = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3]
    server = subprocess.Popen(
        [rowkit, "review", "report", "--snapshots", refs],
        cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = server.stdout.readline()
        if not first.startswith("Reviewing 6 cases of report at http://127.0.0.1:"):
            raise AssertionError(f"rowkit review printed {first!r}; stderr: {server.stderr.read()}")
        address = first.split()[-1]
        review(address, work / "report" / "index.html")
    finally:
        server.terminate()
        server.wait()
    return 0


def review(address: str, page_on_disk: pathlib.Path) -> None:
    with sync_playwright() as playwright:
        # Debian's Chromium by its path: Playwright's own browser download is never used.
        # --no-sandbox: the tests run as root, where Chromium's sandbox cannot start.
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.set_default_timeout(PATIENCE_MS)
            expect.set_options(timeout=PATIENCE_MS)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
            page.on("console", lambda line: errors.append(f"console {line.type}: {line.text}") if line.type == "error" else None)
            page.on("response", lambda response: errors.append(f"{response.status} for {response.url}") if response.status >= 400 else None)

            # Opened from disk, the page is the static report: no buttons, no progress.
            page.goto(page_on_disk.as_uri())
            expect(page.locator('section.case[data-name="case-1"]')).to_be_visible()
            expect(page.locator("#review-bar")).to_have_count(0)
            expect(page.get_by_role("button", name="Accept (a)")).to_have_count(0)
            step("from disk: the static page")

            page.goto(address)
            progress = page.locator("#review-progress")
            expect(progress).to_have_text("0 of 6 reviewed")
            expect(page.locator("body")).to_have_attribute("data-current", "case-1")
            expect(page.get_by_role("button", name="Accept all 3")).to_have_count(2)
            step("opened: 0 of 6 reviewed, case-1 current, 2 groups of 3")

            # a accepts the current case and moves on.
            page.keyboard.press("a")
            expect(progress).to_have_text("1 of 6 reviewed")
            expect(case(page, "case-1")).to_have_attribute("data-review", "accepted")
            expect(page.locator("body")).to_have_attribute("data-current", "case-2")
            step("a: case-1 accepted, case-2 current")

            # u takes it back.
            page.keyboard.press("u")
            expect(progress).to_have_text("0 of 6 reviewed")
            expect(case(page, "case-1")).not_to_have_attribute("data-review", "accepted")
            step("u: case-1 undone")

            # g accepts the group of the current case (case-2): case-1, case-2, case-3.
            page.keyboard.press("g")
            expect(progress).to_have_text("3 of 6 reviewed")
            for name in ["case-1", "case-2", "case-3"]:
                expect(case(page, name)).to_have_attribute("data-review", "accepted")
            step("g: the group of case-2 accepted")

            # j to case-5, and its Reject button.
            for _ in range(3):
                page.keyboard.press("j")
            expect(page.locator("body")).to_have_attribute("data-current", "case-5")
            case(page, "case-5").get_by_role("button", name="Reject (r)").click()
            expect(progress).to_have_text("4 of 6 reviewed")
            expect(case(page, "case-5")).to_have_attribute("data-review", "rejected")
            step("Reject: case-5 rejected")

            # The state is the server's: a reload shows it as it was.
            page.reload()
            expect(progress).to_have_text("4 of 6 reviewed")
            for name, review in [("case-1", "accepted"), ("case-2", "accepted"), ("case-3", "accepted"), ("case-5", "rejected")]:
                expect(case(page, name)).to_have_attribute("data-review", review)
            for name in ["case-4", "case-6"]:
                expect(case(page, name)).not_to_have_attribute("data-review", "accepted")
                expect(case(page, name)).not_to_have_attribute("data-review", "rejected")
            expect(page.locator("#review-undo")).to_be_enabled()
            expect(page.locator("#review-undo")).to_have_attribute("title", "Undo: reject case-5")
            step("reload: 4 of 6 reviewed, each case as it was")

            if errors:
                raise AssertionError("the page reported errors:\n" + "\n".join(errors))
        finally:
            browser.close()


def case(page, name: str):
    return page.locator(f'section.case[data-name="{name}"]')


def step(text: str) -> None:
    print(text, flush=True)


if __name__ == "__main__":
    sys.exit(main())
