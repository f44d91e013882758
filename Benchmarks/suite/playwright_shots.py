"""Takes one screenshot of each HTML case through one warm headless Chromium page, as a
Playwright snapshot suite does, and prints the milliseconds per case.

    python playwright_shots.py HTML_FOLDER OUT_FOLDER CHROMIUM
"""
import os
import sys
import time

from playwright.sync_api import sync_playwright

source, target, chromium = sys.argv[1], sys.argv[2], sys.argv[3]
cases = sorted(name for name in os.listdir(source) if name.endswith(".html"))
with sync_playwright() as playwright:
    # NB: --no-sandbox because CI runs as root, where Chromium's sandbox refuses to start.
    browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
    page = browser.new_page(viewport={"width": 375, "height": 400}, device_scale_factor=2)
    # Warm the page (fonts, the renderer process) before the clock starts.
    page.goto("file://" + os.path.abspath(os.path.join(source, cases[0])))
    page.screenshot(path=os.path.join(target, "warm.png"), full_page=True)
    start = time.perf_counter()
    for name in cases:
        page.goto("file://" + os.path.abspath(os.path.join(source, name)))
        page.screenshot(path=os.path.join(target, name[:-5] + ".png"), full_page=True)
    elapsed = time.perf_counter() - start
    browser.close()
print(f"{elapsed * 1000 / len(cases):.1f}")
