"""The page of `rowkit preview`, driven in Debian's Chromium through Playwright.

Run by PreviewServerTests (Tests/RowKitReviewTests) on a folder that test made: the design
`card.yaml` (one preview item, a title label) beside the document `plain.yaml`. It starts the
real `rowkit preview FOLDER`, opens the page, then saves files as an editor does and waits
for the page to show the change by itself (the page never polls: the server's event stream
tells it):

    preview-page.py ROWKIT FOLDER
    preview-page.py ROWKIT FOLDER --bench SAVES CASE FILE OLD NEW

Prints one line per step and exits 0, or 1 with the failed expectation. It never waits for a
fixed time: each step waits for what the page shows, with a bound far above what any machine
needs. With --bench, it saves FILE SAVES times, switching OLD and NEW in it, and prints the
time from each save to the new image of CASE loaded in the page: min, median and max.
"""

import pathlib
import statistics
import sys
import time

from playwright.sync_api import expect

# Importing served_page (beside this script) leaves no __pycache__ in the repository.
sys.dont_write_bytecode = True
from served_page import chromium_page, served  # noqa: E402


def main() -> int:
    rowkit, folder = sys.argv[1], pathlib.Path(sys.argv[2])
    with served([rowkit, "preview", str(folder)], " at http://127.0.0.1:") as address, chromium_page(console_errors=True) as page:
        page.goto(address)
        if "--bench" in sys.argv:
            bench(page, folder, sys.argv[sys.argv.index("--bench") + 1:])
        else:
            preview(page, folder)
    return 0


def image(page, name: str):
    return page.locator(f'figure.case[data-name="{name}"] img')


def loaded_image_source(page, name: str) -> str:
    """The case's image address, once the image it names has loaded."""
    locator = image(page, name)
    expect(locator).to_have_count(1)
    page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=locator.element_handle())
    return locator.get_attribute("src")


def save(path: pathlib.Path, old: str, new: str) -> None:
    text = path.read_text()
    if old not in text:
        raise AssertionError(f"{path.name} does not hold {old!r}")
    path.write_text(text.replace(old, new))


def preview(page, folder: pathlib.Path) -> None:
    cases = ["card/preview-1", "card/preview-1-selected", "plain"]
    expect(page.locator("figure.case")).to_have_count(len(cases))
    names = [page.locator("figure.case").nth(index).get_attribute("data-name") for index in range(len(cases))]
    if names != cases:
        raise AssertionError(f"the page shows {names}")
    sources = {name: loaded_image_source(page, name) for name in cases}
    boxes = page.locator('figure.case[data-name="card/preview-1"] .mark').count()
    print(f"opened: {len(cases)} cases, each image shown; card/preview-1 with {boxes} finding boxed")

    # The design's label color: its row changes; selected, the label is drawn in the
    # selection's text color, so that image stays as it was, as does the document's.
    save(folder / "card.yaml", "#BBBBBB", "#000000")
    expect(image(page, "card/preview-1")).not_to_have_attribute("src", sources["card/preview-1"])
    sources["card/preview-1"] = loaded_image_source(page, "card/preview-1")
    expect(page.locator('figure.case[data-name="card/preview-1"] .mark')).to_have_count(0)
    for name in ["card/preview-1-selected", "plain"]:
        if image(page, name).get_attribute("src") != sources[name]:
            raise AssertionError(f"{name} shows another image for a change it does not show")
    print("saved card.yaml: its row's image changed by itself, the contrast box gone; the selected row and plain kept theirs")

    # A mistake: the error, with its place, over the last good image.
    save(folder / "card.yaml", "padding: [10, 12, 10, 12]", "padding: [10, 12")
    error = page.locator('figure.case[data-name="card/preview-1"] pre.error')
    expect(error).to_contain_text("card.yaml:")
    if image(page, "card/preview-1").get_attribute("src") != sources["card/preview-1"]:
        raise AssertionError("the last good image was not kept under the error")
    print("broke card.yaml: the error names its file and line, over the last good image")

    save(folder / "card.yaml", "padding: [10, 12", "padding: [10, 12, 10, 12]")
    expect(error).to_have_count(0)
    print("fixed card.yaml: the error is gone")

    # A new document appears without a reload.
    (folder / "added.yaml").write_text("items: [{ type: text, text: Added }]\n")
    expect(page.locator('figure.case[data-name="added"] img')).to_have_count(1)
    loaded_image_source(page, "added")
    print("added added.yaml: it appeared")


def bench(page, folder: pathlib.Path, arguments: list[str]) -> None:
    saves, name, file, old, new = int(arguments[0]), arguments[1], folder / arguments[2], arguments[3], arguments[4]
    source = loaded_image_source(page, name)
    times = []
    for index in range(saves):
        time.sleep(0.3)  # a pause between saves, as between a person's keystrokes and save
        before, after = (old, new) if index % 2 == 0 else (new, old)
        start = time.perf_counter()
        save(file, before, after)
        # Checked on every frame in the page: Playwright's own retries wait longer and longer
        # between looks, which would be measured instead of the page.
        page.wait_for_function(
            """([name, old]) => {
                const img = document.querySelector(`figure.case[data-name="${name}"] img`);
                return img && img.getAttribute('src') !== old && img.complete && img.naturalWidth > 0;
            }""", arg=[name, source], polling="raf")
        times.append((time.perf_counter() - start) * 1000)
        source = image(page, name).get_attribute("src")
    print(f"{saves} saves of {file.name}, save to new image of {name} shown: "
          f"min {min(times):.0f} ms, median {statistics.median(times):.0f} ms, max {max(times):.0f} ms")


if __name__ == "__main__":
    try:
        sys.exit(main())
    except AssertionError as failure:
        print(f"failed: {failure}", file=sys.stderr)
        sys.exit(1)
