"""Writes N snapshot cases of 8 subtitle rows each, twice: as RowKit table documents
(cases/NNN.yaml) and as the same rows in HTML and CSS (html/NNN.html), for
Benchmarks/suite-bench.sh. The words are drawn from a fixed seed, so every run makes the
same cases."""
import html
import os
import random
import sys

count, folder = int(sys.argv[1]), sys.argv[2]
words = "table row cell label image layout render paint pixel scale section header item Cairo Pango Three20 subtitle measure".split()
random.seed(20)
os.makedirs(os.path.join(folder, "cases"), exist_ok=True)
os.makedirs(os.path.join(folder, "html"), exist_ok=True)
head = open(os.path.join(os.path.dirname(__file__), "..", "chromium", "rows.html")).read().split("<body>")[0] + "<body>\n"
chevron = ('<svg class="chevron" viewBox="0 0 8 13"><polyline points="1.25,1.25 6.75,6.5 1.25,11.75" '
           'fill="none" stroke="rgb(128,128,128)" stroke-width="2.5"/></svg>')
for case in range(count):
    rows = []
    for row in range(8):
        title = f"{case * 8 + row + 1}. " + " ".join(random.choice(words).capitalize() for _ in range(random.randint(2, 4)))
        subtitle = " ".join(random.choice(words) for _ in range(random.randint(5, 15)))
        rows.append((title, subtitle))
    with open(os.path.join(folder, "cases", f"{case:03d}.yaml"), "w") as out:
        out.write("table: { width: 375, scale: 2, style: plain }\nitems:\n")
        for title, subtitle in rows:
            out.write(f'  - {{ type: subtitle, text: "{title}", subtitle: "{subtitle}", url: "app://row" }}\n')
    with open(os.path.join(folder, "html", f"{case:03d}.html"), "w") as out:
        out.write(head)
        for title, subtitle in rows:
            out.write(f'<div class="row"><div class="title">{html.escape(title)}</div>'
                      f'<div class="subtitle">{html.escape(subtitle)}</div>{chevron}</div>\n')
        out.write("</body></html>\n")
