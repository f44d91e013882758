"""What the browser tests of Tests/Browser share: a page server of `rowkit` (review, preview)
run as a user runs it, and a page in Debian's Chromium driven by Playwright."""

import contextlib
import subprocess

from playwright.sync_api import expect, sync_playwright

CHROMIUM = "/usr/bin/chromium"
# Only a page that never gets there reaches this; a slow machine does not.
PATIENCE_MS = 120_000


@contextlib.contextmanager
def served(command: list[str], first_line: str, cwd=None):
    """Runs `command` (`rowkit review …`, `rowkit preview …`) and yields the address its first
    line ends with, once that line holds `first_line`; stops it at the end."""
    server = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = server.stdout.readline()
        if first_line not in first:
            raise AssertionError(f"{' '.join(command[1:3])} printed {first!r}; stderr: {server.stderr.read()}")
        yield first.split()[-1]
    finally:
        server.terminate()
        server.wait()


@contextlib.contextmanager
def chromium_page(console_errors: bool = False):
    """A page in Debian's Chromium, launched by its path (Playwright's own browser download is
    never used; --no-sandbox: the tests run as root). Every step waits at most PATIENCE_MS.
    At the end, an error the page reported (a script error, a response of 400 or more, and
    with `console_errors` an error in the console) fails the test."""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.set_default_timeout(PATIENCE_MS)
            expect.set_options(timeout=PATIENCE_MS)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
            if console_errors:
                page.on("console", lambda line: errors.append(f"console {line.type}: {line.text}") if line.type == "error" else None)
            page.on("response", lambda response: errors.append(f"{response.status} for {response.url}") if response.status >= 400 else None)
            yield page
            if errors:
                raise AssertionError("the page reported errors:\n" + "\n".join(errors))
        finally:
            browser.close()
