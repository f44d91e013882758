"""The review page of `rowkit review`, driven in Debian's Chromium through Playwright.

Run by ReviewServerTests (Tests/RowKitReviewTests) with a project that test made: a report
folder `report` in WORK of 6 failed cases in 2 groups (case-1, case-2, case-3 share one change,
case-4, case-5, case-6 another) checked against the references REFS. It serves the report
with the real `rowkit review`, reviews with the page's own keys and buttons, reloads, and
checks what the page shows; the test that runs it checks the files on disk and the log.
Then it serves the report again with the page holding only 2 cases as HTML, as a page of
thousands holds its first 24, and checks that the page adds the others with their state.

    review-page.py ROWKIT WORK REFS

Prints one line per step and exits 0, or 1 with the failed expectation. It never waits
for a fixed time: each step waits for what the page shows, with a bound (Playwright's
timeout) far above what any machine needs, so that only a page that never gets there fails.
"""

import pathlib
import sys
import urllib.request

from playwright.sync_api import expect

# Importing served_page (beside this script) leaves no __pycache__ in the repository.
sys.dont_write_bytecode = True
from served_page import chromium_page, served  # noqa: E402


def main() -> int:
    rowkit, work, refs = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3]
    review_command = [rowkit, "review", "report", "--snapshots", refs]
    with served(review_command, "Reviewing 6 cases of report at http://127.0.0.1:", cwd=work) as address, chromium_page(console_errors=True) as page:
        review(page, address, work / "report" / "index.html")
    # rowkit-review, which `rowkit review` runs in its place, beside rowkit.
    server = str(pathlib.Path(rowkit).parent / "rowkit-review")
    later_command = [server, "report", "--snapshots", refs, "--cases-at-once", "2"]
    with served(later_command, "Reviewing 6 cases of report at http://127.0.0.1:", cwd=work) as address, chromium_page(console_errors=True) as page:
        review_added_cases(page, address)
    return 0


def review(page, address: str, page_on_disk: pathlib.Path) -> None:
    # Opened from disk, the page is the static report: no buttons, no progress.
    page.goto(page_on_disk.as_uri())
    expect(page.locator('section.case[data-name="case-1"]')).to_be_visible()
    expect(page.locator("#review-bar")).to_have_count(0)
    expect(page.get_by_role("button", name="Accept")).to_have_count(0)
    step("from disk: the static page")

    page.goto(address)
    progress = page.locator("#review-progress")
    message = page.locator("#review-message")
    expect(progress).to_have_text("0 of 6 reviewed")
    expect(page.locator("body")).to_have_attribute("data-current", "case-1")
    # Each button is named by its group or case for a screen reader.
    group_title = 'subtitle text "Same" → "Other"'
    expect(page.get_by_role("button", name=f"Accept all 3 cases of “{group_title}”")).to_have_count(1)
    expect(page.get_by_role("button", name="Accept all 3")).to_have_count(2)
    expect(case(page, "case-1").get_by_role("button", name="Accept case-1 (a)")).to_have_count(1)
    # With nothing to undo, u sends nothing.
    page.keyboard.press("u")
    expect(message).to_have_text("nothing to undo")
    step("opened: 0 of 6 reviewed, case-1 current, 2 groups of 3, u: nothing to undo")

    # a held down accepts the current case once, not one case for each repeat, and moves on.
    # The repeats come after the accept has ended, when nothing else would hold them back:
    # one taken would accept case-2, and the undo below would take that back instead.
    page.keyboard.down("a")
    expect(progress).to_have_text("1 of 6 reviewed")
    expect(message).to_have_text("accepted: case-1")
    expect(case(page, "case-1")).to_have_attribute("data-review", "accepted")
    expect(page.locator("body")).to_have_attribute("data-current", "case-2")
    for _ in range(5):
        page.keyboard.down("a")
    page.keyboard.up("a")
    step("a held down: case-1 accepted once, case-2 current")

    # u takes it back, and goes back to the case it opened again.
    page.keyboard.press("u")
    expect(progress).to_have_text("0 of 6 reviewed")
    expect(message).to_have_text("undone: case-1")
    expect(case(page, "case-1")).not_to_have_attribute("data-review", "accepted")
    expect(page.locator("body")).to_have_attribute("data-current", "case-1")
    # The same again: the address names case-1 already, and u still goes there.
    page.keyboard.press("a")
    expect(page.locator("body")).to_have_attribute("data-current", "case-2")
    page.keyboard.press("u")
    expect(progress).to_have_text("0 of 6 reviewed")
    expect(page.locator("body")).to_have_attribute("data-current", "case-1")
    step("u: case-1 undone, case-1 current, twice")

    # g names the group of the current case (case-1); g again accepts case-1, case-2, case-3.
    page.keyboard.press("g")
    expect(message).to_contain_text(f"g again accepts all 3 cases of “{group_title}”")
    expect(progress).to_have_text("0 of 6 reviewed")
    page.keyboard.press("g")
    expect(progress).to_have_text("3 of 6 reviewed")
    expect(message).to_have_text(f"accepted: 3 cases of “{group_title}”")
    for name in ["case-1", "case-2", "case-3"]:
        expect(case(page, name)).to_have_attribute("data-review", "accepted")
    step("g g: the group of case-1 accepted")

    # j to case-5 (from case-1, where the undo went), and its Reject button, which is then
    # disabled: a case is rejected once.
    for _ in range(4):
        page.keyboard.press("j")
    expect(page.locator("body")).to_have_attribute("data-current", "case-5")
    case(page, "case-5").get_by_role("button", name="Reject case-5 (r)").click()
    expect(progress).to_have_text("4 of 6 reviewed")
    expect(case(page, "case-5")).to_have_attribute("data-review", "rejected")
    expect(case(page, "case-5").get_by_role("button", name="Reject case-5 (r)")).to_be_disabled()
    step("Reject: case-5 rejected, its Reject button disabled")

    # A click makes a case current: the keys act on the case the reviewer points at, not
    # on the one j and k last reached.
    case(page, "case-4").locator("h3").click()
    expect(page.locator("body")).to_have_attribute("data-current", "case-4")
    page.keyboard.press("a")
    expect(progress).to_have_text("5 of 6 reviewed")
    expect(case(page, "case-4")).to_have_attribute("data-review", "accepted")
    page.keyboard.press("u")
    expect(progress).to_have_text("4 of 6 reviewed")
    expect(case(page, "case-4")).not_to_have_attribute("data-review", "accepted")
    step("click on case-4, a: case-4 accepted, u: undone")

    # So does the focus (Tab to a case's buttons). Scrolled to the groups above every case,
    # the keys act on no case, since none is in sight; scrolled to case-1, it is current.
    page.set_viewport_size({"width": 1280, "height": 300})
    case(page, "case-6").get_by_role("button", name="Accept case-6 (a)").focus()
    expect(page.locator("body")).to_have_attribute("data-current", "case-6")
    page.evaluate("window.scrollTo(0, 0)")
    page.keyboard.press("a")
    expect(message).to_contain_text("case-6 is out of sight")
    expect(progress).to_have_text("4 of 6 reviewed")
    case(page, "case-1").locator("figure").first.scroll_into_view_if_needed()
    expect(page.locator("body")).to_have_attribute("data-current", "case-1")
    # The focus went with it: Space or Enter would press no button of case-6 out of sight.
    focused = page.evaluate("(document.activeElement.closest('section.case') || {dataset: {}}).dataset.name")
    assert focused == "case-1", f"the focus is in {focused}"
    page.set_viewport_size({"width": 1280, "height": 720})
    step("focus in case-6 makes it current; out of sight, no key acts on it; scrolled to case-1, it is current")

    # A second tab shows what the first did only when it asks again: its undo names the
    # entry it showed, is refused, and the tab reads the state again.
    other = page.context.browser.new_page()
    other.goto(address)
    expect(other.locator("#review-progress")).to_have_text("4 of 6 reviewed")
    case(page, "case-6").get_by_role("button", name="Accept case-6 (a)").click()
    expect(progress).to_have_text("5 of 6 reviewed")
    other.keyboard.press("u")
    expect(other.locator("#review-message")).to_contain_text("another review of this report acted since")
    expect(other.locator("#review-progress")).to_have_text("5 of 6 reviewed")
    expect(other.locator("#review-undo")).to_have_attribute("title", "Undo: accept case-6")
    other.close()
    page.keyboard.press("u")
    expect(progress).to_have_text("4 of 6 reviewed")
    step("a second tab's undo of what it showed is refused, and it shows the state again")

    # The state is the server's: a reload shows it as it was.
    page.reload()
    expect(progress).to_have_text("4 of 6 reviewed")
    for name, state in [("case-1", "accepted"), ("case-2", "accepted"), ("case-3", "accepted"), ("case-5", "rejected")]:
        expect(case(page, name)).to_have_attribute("data-review", state)
    for name in ["case-4", "case-6"]:
        expect(case(page, name)).not_to_have_attribute("data-review", "accepted")
        expect(case(page, name)).not_to_have_attribute("data-review", "rejected")
    expect(page.locator("#review-undo")).to_be_enabled()
    expect(page.locator("#review-undo")).to_have_attribute("title", "Undo: reject case-5")
    step("reload: 4 of 6 reviewed, each case as it was")


def review_added_cases(page, address: str) -> None:
    with urllib.request.urlopen(address) as response:
        served_page = response.read().decode()
    sections = served_page.count('<section class="case"')
    assert sections == 2 and 'id="later-cases"' in served_page, f"the page holds {sections} cases as HTML"
    step("served with 2 cases as HTML, the others as text")

    # The address names a case the page adds later: it is added, and current.
    page.goto(address + "#case=case-6")
    expect(page.locator("body")).to_have_attribute("data-current", "case-6")
    expect(page.locator("#review-progress")).to_have_text("4 of 6 reviewed")
    names = page.locator("section.case").evaluate_all("sections => sections.map(s => s.dataset.name)")
    assert names == ["case-1", "case-2", "case-3", "case-4", "case-5", "case-6", "case-0"], f"cases in the order {names}"
    step("#case=case-6: every case added in the report's order, case-6 current")

    # Added cases carry their review and their buttons like the first ones.
    for name, state in [("case-1", "accepted"), ("case-3", "accepted"), ("case-5", "rejected")]:
        expect(case(page, name)).to_have_attribute("data-review", state)
    expect(case(page, "case-6").get_by_role("button", name="Accept case-6 (a)")).to_have_count(1)
    expect(case(page, "case-0").get_by_role("button", name="Accept")).to_have_count(0)
    page.keyboard.press("k")
    expect(page.locator("body")).to_have_attribute("data-current", "case-5")
    step("added cases: their reviews shown, their buttons there, k to case-5")

    # The box goes to a case by its name, or to the first whose name holds what was typed;
    # typing in it is not a key of the page (the a of "case" accepts nothing).
    find = page.locator("#review-find")
    find.fill("case-2")
    find.press("Enter")
    expect(page.locator("body")).to_have_attribute("data-current", "case-2")
    find.fill("")
    find.press_sequentially("ase-6")
    find.press("Enter")
    expect(page.locator("body")).to_have_attribute("data-current", "case-6")
    expect(page.locator("#review-progress")).to_have_text("4 of 6 reviewed")
    step("go to case: case-2 by its name, then case-6 by a part of it")


def case(page, name: str):
    return page.locator(f'section.case[data-name="{name}"]')


def step(text: str) -> None:
    print(text, flush=True)


if __name__ == "__main__":
    sys.exit(main())
