"""The group lines the review page adds to the report's own, in Debian's Chromium through
Playwright: the cases with no reference yet are a group of the review server's, which the
report's page does not list. Its line names its cases, each a link that makes it current,
as the report's own group lines do.

Run by ReviewServerTests (Tests/RowKitReviewTests) with a report folder `report` in WORK
whose case-4 and case-5 have no reference in REFS.

    review-groups.py ROWKIT WORK REFS

Prints one line per step and exits 0, or 1 with the failed expectation. Each step waits for
what the page shows, with a bound far above what any machine needs.
"""

import sys

from playwright.sync_api import expect

# Importing served_page (beside this script) leaves no __pycache__ in the repository.
sys.dont_write_bytecode = True
from served_page import chromium_page, served  # noqa: E402


def main() -> int:
    rowkit, work, refs = sys.argv[1], sys.argv[2], sys.argv[3]
    command = [rowkit, "review", "report", "--snapshots", refs]
    with served(command, "Reviewing 5 cases of report at http://127.0.0.1:", cwd=work) as address, chromium_page(console_errors=True) as page:
        page.goto(address)
        line = page.locator("#groups li", has_text="have no reference yet")
        expect(line).to_have_count(1)
        links = line.locator("p.members a")
        expect(links).to_have_text(["case-4", "case-5"])
        print("the group of the cases with no reference names them", flush=True)
        links.nth(1).click()
        expect(page.locator("body")).to_have_attribute("data-current", "case-5")
        print("its link to case-5 makes case-5 current", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
