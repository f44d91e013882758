import Foundation
import RowKit

/// The review page of a `rowkit check --report` run: one static HTML file beside
/// `report.json` and the case images, with its style and script inline, so it works from a
/// downloaded CI artifact opened straight from disk.
///
/// Failed, new and missing cases come first, then errors, then passed ones. Each failed case
/// shows its reference, actual and diff images in three views: side by side, a slider over
/// reference and actual, and blinking between them (by itself, every 0.6 s). Keys: `j`/`k` or
/// the arrows move between cases, `1` `2` `3` pick the view, `b` stops the blinking and steps
/// once. The address can open a case and a view: `index.html#case=settings/wifi&view=slider`.
///
/// Each failed, new or missing case shows the `rowkit accept` command that makes its actual
/// image the reference, with a button that copies it. With `onlyFailures` (for large suites)
/// passed cases are only counted. References with no case are listed last.
///
/// A failure whose layout records differ tells each change in a sentence, and outlines the
/// changed elements on the reference and the actual image; one whose layout is the same says
/// where the pixels differ. Above the cases, changes shared by several cases (the same
/// sentence in any row) and the rasterization-only cases are grouped, each group with one
/// command that accepts all of its cases.
package enum ReviewReport {
  /// How the page's title starts, among its first bytes: what tells RowKit's page from
  /// another `index.html` (`ReportFolder/isReport(_:)`).
  static let pageTitlePrefix = "<title>RowKit snapshots:"

  /// The page for `report`, which lives in the folder the user calls `reportPath`.
  public static func html(for report: SnapshotCheck.Report, reportPath: String = "report", onlyFailures: Bool = false) -> String {
    html(for: report, reportPath: reportPath, onlyFailures: onlyFailures, servedScript: nil)
  }

  /// The most cases the served page holds as HTML; the others follow as text that its script
  /// adds to the page a few at a time as the reader comes near them.
  package static let casesShownAtOnce = 24

  /// The page with `servedScript` run after the page's own script: `rowkit review` adds its
  /// buttons so, and the page written to disk stays the same without a server. With
  /// `onlyNearView`, a case is laid out and its images fetched only when it comes near the
  /// view (the served page: a report of 2,000 cases took 3.5 s to lay out and asked for
  /// 6,000 images before its first case showed), and only the first `shownAtOnce` cases are
  /// HTML: the others are JSON text, which the browser reads without building anything (the
  /// same page with 2,000 cases of HTML took Chromium 1.4–2.2 s to parse before any script
  /// ran), and which the page's script turns into cases as the reader comes near them. The
  /// page on disk is all HTML and loads every image.
  package static func html(
    for report: SnapshotCheck.Report, reportPath: String, onlyFailures: Bool, servedScript: String?, onlyNearView: Bool = false,
    shownAtOnce: Int = casesShownAtOnce
  ) -> String {
    let order: [SnapshotCheck.Status] = [.failed, .new, .missing, .error, .passed]
    let titles: [SnapshotCheck.Status: String] = [
      .failed: "Failed", .new: "New", .missing: "Missing", .error: "Errors", .passed: "Passed",
    ]
    let s = report.summary
    var body = """
      <header>
        <h1>RowKit snapshot report</h1>
        <p class="summary" id="summary" data-total="\(s.total)" data-failed="\(s.failed)" data-new="\(s.new)" \
      data-missing="\(s.missing)" data-errors="\(s.errors)" data-passed="\(s.passed)" data-orphans="\(s.orphans)">
          <span class="count failed">\(s.failed) failed</span>
          <span class="count new">\(s.new) new</span>
          <span class="count missing">\(s.missing) missing</span>
          <span class="count error">\(s.errors) errors</span>
          <span class="count passed">\(s.passed) passed</span>
          <span class="count orphan">\(s.orphans) orphaned</span>
          <span class="total">of \(s.total) cases\(report.shard.map { ", shard \(escape($0))" } ?? "")</span>
        </p>
        <p class="meta">References: \(escape(report.snapshots)) · record mode \(report.recordMode.rawValue) · \
      cairo \(escape(report.environment.libraries.cairo)), pango \(escape(report.environment.libraries.pango)) · \
      keys: <kbd>j</kbd>/<kbd>k</kbd> next/previous, <kbd>1</kbd> side by side, <kbd>2</kbd> slider, <kbd>3</kbd> blink, <kbd>b</kbd> step</p>
      """
    if let mismatch = report.environmentMismatch {
      body += "\n  <p class=\"mismatch\" id=\"mismatch\">\(escape(mismatch))</p>"
    }
    if let line = report.missingLayoutRecordsLine {
      body += "\n  <p class=\"hint\" id=\"missing-layout-records\">\(escape(line))</p>"
    }
    body += "\n</header>\n<main>"
    body += groupsHTML(report.cases, reportPath: reportPath)
    var later: [LaterCases] = []
    var shown = 0
    for status in order {
      let cases = report.cases.filter { $0.status == status }
      guard !cases.isEmpty else { continue }
      body += "\n<h2 class=\"\(status.rawValue)\">\(titles[status]!) <span>\(cases.count)</span></h2>"
      if status == .passed && onlyFailures {
        body += "\n<p class=\"omitted\" id=\"omitted\">\(cases.count) passed cases are not shown (--report-only-failures).</p>"
        continue
      }
      let now = onlyNearView ? max(0, min(cases.count, shownAtOnce - shown)) : cases.count
      for item in cases[..<now] { body += caseHTML(item, reportPath: reportPath, lazyImages: onlyNearView) }
      shown += now
      if now < cases.count {
        let slot = "later-\(later.count)"
        later.append(
          LaterCases(
            slot: slot, names: cases[now...].map(\.name),
            cases: cases[now...].map { caseHTML($0, reportPath: reportPath, lazyImages: true) }))
        body += "\n<div class=\"later\" id=\"\(slot)\"></div>"
      }
    }
    if !report.orphans.isEmpty {
      body += "\n<h2 class=\"orphan\">Orphaned references <span>\(report.orphans.count)</span></h2>"
      body += "\n<p class=\"hint\">No case checks these files in \(escape(report.snapshots)); "
        + (report.failsOnOrphans ? "they fail the check" : "they do not fail the check") + ". <code>rowkit check --prune</code> deletes them.</p>"
      body += "\n<ul class=\"orphans\" id=\"orphans\">"
        + report.orphans.map { "<li data-orphan=\"\(escape($0))\"><code>\(escape($0))</code></li>" }.joined() + "</ul>"
    }
    body += "\n</main>"
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      \(pageTitlePrefix) \(s.failed + s.missing + s.errors) to review</title>
      <style>\(style)\(onlyNearView ? Self.onlyNearViewStyle : "")</style>
      </head>
      <body>
      \(body)
      \(later.isEmpty ? "" : "<script type=\"application/json\" id=\"later-cases\">\(laterJSON(later))</script>\n")<script>\(script)</script>\(servedScript.map { "\n<script>\($0)</script>" } ?? "")
      </body>
      </html>

      """
  }

  /// The cases of one status that a served page adds after its first ones, before the
  /// element `slot`.
  struct LaterCases: Encodable {
    var slot: String
    var names: [String]
    var cases: [String]
  }

  /// `later` as JSON that cannot end the script element that holds it: every `<` (only ever
  /// inside a string) is written `\u003c`.
  static func laterJSON(_ later: [LaterCases]) -> String {
    var escaped: [UInt8] = []
    for byte in (try? DeterministicJSON.bytes(later)) ?? Array("[]".utf8) {
      if byte == UInt8(ascii: "<") { escaped += #"\u003c"#.utf8 } else { escaped.append(byte) }
    }
    return String(decoding: escaped, as: UTF8.self)
  }

  static func caseHTML(_ item: SnapshotCheck.CaseResult, reportPath: String, lazyImages: Bool = false) -> String {
    let id = escape(item.name)
    var html = "\n<section class=\"case\" tabindex=\"-1\" id=\"case-\(id)\" data-name=\"\(id)\" data-status=\"\(item.status.rawValue)\" data-view=\"side\">"
    html += "\n  <h3><span class=\"badge \(item.status.rawValue)\">\(item.status.rawValue)</span> \(id)</h3>"
    if let message = item.message { html += "\n  <p class=\"message\">\(escape(message))</p>" }
    if ReportFolder.isAcceptable(item) {
      let command = escape(ReportFolder.acceptCommand(reportPath: reportPath, name: item.name))
      html += "\n  <p class=\"accept\"><code class=\"command\">\(command)</code> "
        + "<button class=\"copy\" type=\"button\" data-command=\"\(command)\">Copy</button></p>"
    }
    if let result = item.result, item.status != .passed {
      var rows = ""
      if result.sizeMismatch {
        // Sizes first: every other number is of the canvas both images share.
        rows += """

              <dt>sizes differ</dt><dd class="different size-mismatch">reference \(result.referenceSize), actual \(result.actualSize)</dd>
              <dt>compared on</dt><dd>a \(result.canvasSize) canvas, top-left aligned</dd>
              <dt>only one image covers</dt><dd class="different">\(result.onlyOneImagePixels) px</dd>
          """
      }
      rows += """

            <dt>differing pixels</dt><dd class="different">\(result.differentPixels)</dd>
            <dt>of</dt><dd>\(result.totalPixels)</dd>
            <dt>antialiasing</dt><dd>\(result.antialiasedPixels)</dd>
            <dt>largest cluster</dt><dd>\(result.largestCluster.map { "\($0.pixels) px at \($0.box)" } ?? "none")</dd>
        """
      html += "\n  <dl class=\"numbers\" data-size-mismatch=\"\(result.sizeMismatch)\">" + rows + "\n  </dl>"
    }
    html += explanationHTML(item)
    html += headroomHTML(item)
    // Only files inside the report folder are shown: a merged shard's report.json could
    // name any address, which the page would then fetch.
    func contained(_ path: String?) -> String? { path.flatMap { ReportFolder.isContainedPath($0) ? $0 : nil } }
    let (referencePath, actualPath, diffPath) = (contained(item.reference), contained(item.actual), contained(item.diff))
    func image(_ path: String?, _ role: String) -> String {
      guard let path else { return "" }
      let img = "<img src=\"\(escape(path))\" alt=\"\(role)\" data-role=\"\(role)\" loading=\"\(lazyImages ? "lazy" : "eager")\">"
      return "<figure class=\"\(role)\">\(outlined(img, item, role: role))<figcaption>\(role)</figcaption></figure>"
    }
    switch item.status {
    case .failed where referencePath != nil && actualPath != nil:
      let reference = escape(referencePath!)
      let actual = escape(actualPath!)
      // The slider's and blink's images, hidden until their view is chosen.
      let hidden = lazyImages ? " loading=\"lazy\"" : ""
      html += """

          <nav class="views">
            <button data-view="side">1 side by side</button><button data-view="slider">2 slider</button><button data-view="blink">3 blink</button>
          </nav>
          <div class="view side">\(image(referencePath, "reference"))\(image(diffPath, "diff"))\(image(actualPath, "actual"))</div>
          <div class="view slider" hidden>
            <div class="stage"><img src="\(reference)" alt="reference" data-role="slider-reference"\(hidden)><div class="over"><img src="\(actual)" alt="actual" data-role="slider-actual"\(hidden)></div></div>
            <input type="range" min="0" max="100" value="50" aria-label="reference | actual">
          </div>
          <div class="view blink" hidden>
            <div class="stage"><img src="\(reference)" alt="reference" data-role="blink-reference"\(hidden)><img src="\(actual)" alt="actual" data-role="blink-actual" class="top"\(hidden)></div>
            <p class="hint">Showing <span class="showing">actual</span>; press <kbd>b</kbd> or click to switch.</p>
          </div>
        """
    default:
      html += "\n  <div class=\"view side\">\(image(referencePath, "reference"))\(image(actualPath, "actual"))</div>"
    }
    return html + "\n</section>"
  }

  /// The layout changes of a failed case, one sentence each, or where its pixels differ
  /// when its layout did not change.
  static func explanationHTML(_ item: SnapshotCheck.CaseResult) -> String {
    var html = ""
    if item.rasterizationOnly == true {
      html += "\n  <p class=\"rasterization\"><span class=\"tag\">rasterization only</span> "
        + "the layout is unchanged and every differing pixel is inside glyphs: a new font rasterizer, not a new design</p>"
    }
    if let changes = item.layoutChanges, !changes.isEmpty {
      html += "\n  <ul class=\"changes\">"
        + changes.enumerated().map { index, change in
          "<li data-change=\"\(index)\" data-property=\"\(escape(change.property))\">\(escape(change.sentence))</li>"
        }.joined() + "</ul>"
    }
    if let summary = item.pixelOnlySummary {
      html += "\n  <p class=\"pixel-only\">\(escape(summary))</p>"
    }
    // Why the sentences are missing (a layout record that cannot be read), among others.
    for warning in item.warnings ?? [] { html += "\n  <p class=\"hint warning\">\(escape(warning))</p>" }
    return html
  }

  /// The most slots a case's headroom shows.
  static let shownHeadroomSlots = 3

  /// A case's tightest text slots (`s0-r3 title: truncates at +20%`), when its headroom was
  /// measured (`check --headroom`), each slot below the minimum marked `below`.
  static func headroomHTML(_ item: SnapshotCheck.CaseResult) -> String {
    guard let headroom = item.headroom else { return "" }
    let below = headroom.belowMinimum.count
    var html = "\n  <div class=\"headroom\" data-minimum=\"\(headroom.minimum)\" data-below=\"\(below)\">"
      + "<p>Headroom (each slot needs +\(headroom.minimum)%): "
      + (below == 0 ? "no slot below it" : "\(below) slot\(below == 1 ? "" : "s") below it") + "</p>"
    let tightest = headroom.tightest(shownHeadroomSlots)
    if tightest.isEmpty {
      html += "<p class=\"roomy\">every text slot fits at +\(TableRenderer.maximumGrowth)%</p>"
    } else {
      html += "<ul>" + tightest.map { slot in
        let isBelow = slot.isBelow(headroom.minimum)
        return "<li\(isBelow ? " class=\"below\"" : "") data-slot=\"\(escape(slot.name))\">"
          + "\(escape(slot.name)): \(escape(slot.limitPhrase))\(isBelow ? " <span class=\"tag\">below +\(headroom.minimum)%</span>" : "")</li>"
      }.joined() + "</ul>"
    }
    return html + "</div>"
  }

  /// `img` with the boxes of the case's changed elements drawn over it, placed in percent of
  /// the image's size so that they stay on their elements however the page scales it.
  static func outlined(_ img: String, _ item: SnapshotCheck.CaseResult, role: String) -> String {
    guard let changes = item.layoutChanges, let result = item.result, role == "reference" || role == "actual" else { return img }
    let size = role == "reference" ? result.referenceSize : result.actualSize
    guard size.width > 0, size.height > 0 else { return img }
    var seen = Set<[Int]>()
    var boxes = ""
    for (index, change) in changes.enumerated() {
      guard let box = role == "reference" ? change.referenceBox : change.actualBox, box.count == 4, seen.insert(box).inserted
      else { continue }
      func percent(_ value: Int, of whole: Int) -> String { String(format: "%.3f%%", Double(value) * 100 / Double(whole)) }
      boxes += "<i class=\"box\" data-change=\"\(index)\" title=\"\(escape(change.sentence))\" style=\"left:\(percent(box[0], of: size.width));"
        + "top:\(percent(box[1], of: size.height));width:\(percent(box[2], of: size.width));height:\(percent(box[3], of: size.height))\"></i>"
    }
    return boxes.isEmpty ? img : "<div class=\"outlined\">\(img)\(boxes)</div>"
  }

  /// Changes that several failed cases share, and the cases that differ in rasterization
  /// only: one line each, with its count, links to its cases and one accept command.
  static func groupsHTML(_ cases: [SnapshotCheck.CaseResult], reportPath: String) -> String {
    let groups = sharedGroups(of: cases).map { group in
      (
        title: group.title, names: group.names, changedMore: group.changedMore,
        command: group.kind == .rasterizationOnly
          ? ReportFolder.acceptRasterizationOnlyCommand(reportPath: reportPath)
          : ReportFolder.acceptCommand(reportPath: reportPath, names: group.names)
      )
    }
    guard !groups.isEmpty else { return "" }
    var html = "\n<h2 class=\"groups\">Shared changes <span>\(groups.count)</span></h2>\n<ul class=\"groups\" id=\"groups\">"
    for group in groups {
      let command = escape(group.command)
      let links = group.names.map { "<a href=\"#case=\(escape(percentEncoded($0)))\">\(escape($0))</a>" }.joined(separator: ", ")
      html += "\n  <li data-count=\"\(group.names.count)\"><p><strong>\(group.names.count) cases</strong> \(escape(group.title))</p>"
        + "<p class=\"members\">\(links)</p>"
        + (group.changedMore.isEmpty
          ? ""
          : "<p class=\"members changed-more\">\(group.changedMore.map(escape).joined(separator: ", ")) "
            + "\(group.changedMore.count == 1 ? "changes" : "change") in other ways too; accepting the group accepts those changes as well</p>")
        + "<p class=\"accept\"><code class=\"command\">\(command)</code> "
        + "<button class=\"copy\" type=\"button\" data-command=\"\(command)\">Copy</button></p></li>"
    }
    return html + "\n</ul>"
  }

  /// Cases reviewed together: the page's "Shared changes" and the review server's groups.
  package struct Group: Hashable, Sendable {
    /// What puts cases in one group.
    package enum Kind: String, Hashable, Sendable {
      /// The same layout-change sentence (without its row) in several failed cases.
      case sharedChange
      /// Failed cases that differ in rasterization only.
      case rasterizationOnly
      /// Failed cases whose differing pixels and their colors are the same.
      case identicalPixels
      /// Cases with no reference yet.
      case new
    }
    package var kind: Kind
    /// The line the page shows: the shared sentence, or what the cases have in common.
    package var title: String
    /// The cases, in the report's order.
    package var names: [String]
    /// Of a shared change's cases, those that changed in more ways than it: accepting the
    /// group accepts those other changes too, so the page names them.
    package var changedMore: [String] = []

    package init(kind: Kind, title: String, names: [String], changedMore: [String] = []) {
      self.kind = kind
      self.title = title
      self.names = names
      self.changedMore = changedMore
    }
  }

  /// The groups of the page's "Shared changes", in its order: the rasterization-only cases
  /// first, then each sentence that several failed cases share, the largest first.
  package static func sharedGroups(of cases: [SnapshotCheck.CaseResult]) -> [Group] {
    let failed = cases.filter { $0.status == .failed }
    var groups: [Group] = []
    var bySentence: [String: [String]] = [:]
    var order: [String] = []
    var changesOf: [String: Int] = [:]
    for item in failed {
      let sentences = Set((item.layoutChanges ?? []).map(\.sentenceWithoutRow))
      changesOf[item.name] = sentences.count + (item.pixelOnlySummary == nil ? 0 : 1)
      for sentence in sentences.sorted() {
        if bySentence[sentence] == nil { order.append(sentence) }
        bySentence[sentence, default: []].append(item.name)
      }
    }
    for sentence in order where bySentence[sentence]!.count > 1 {
      let names = bySentence[sentence]!
      groups.append(
        Group(kind: .sharedChange, title: sentence, names: names, changedMore: names.filter { changesOf[$0, default: 0] > 1 }))
    }
    // Stable, so that equal counts keep the report's order on every reload.
    groups = groups.enumerated().sorted { ($0.element.names.count, $1.offset) > ($1.element.names.count, $0.offset) }.map(\.element)
    let rasterization = failed.filter { $0.rasterizationOnly == true }.map(\.name)
    if !rasterization.isEmpty {
      groups.insert(Group(kind: .rasterizationOnly, title: "differ in rasterization only", names: rasterization), at: 0)
    }
    return groups
  }

  /// `name` as it goes into the page's address after `#case=`.
  static func percentEncoded(_ name: String) -> String {
    name.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed.subtracting(CharacterSet(charactersIn: "&=#%"))) ?? name
  }

  package static func escape(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.append(character)
      }
    }
    return result
  }

  static let style = """
    :root { color-scheme: light; --failed: #c5221f; --new: #1a73e8; --missing: #b06000; --error: #8e24aa; --passed: #1e8e3e; }
    * { box-sizing: border-box; }
    body { margin: 0; font: 14px/1.45 -apple-system, "Inter", "DejaVu Sans", sans-serif; background: #f3f4f6; color: #1c2430; }
    header { position: sticky; top: 0; z-index: 2; background: #fff; border-bottom: 1px solid #dde1e6; padding: 12px 20px; }
    h1 { margin: 0 0 4px; font-size: 18px; }
    .summary { margin: 0; display: flex; gap: 12px; flex-wrap: wrap; align-items: baseline; }
    .count { font-weight: 600; } .count.failed { color: var(--failed); } .count.new { color: var(--new); }
    .count.missing { color: var(--missing); } .count.error { color: var(--error); } .count.passed { color: var(--passed); }
    .total, .meta { color: #5f6b7a; } .meta { margin: 4px 0 0; font-size: 12px; }
    .mismatch { margin: 8px 0 0; padding: 8px 10px; background: #fff4e5; border: 1px solid #f0c36d; border-radius: 6px; }
    main { padding: 8px 20px 40px; }
    h2 { font-size: 15px; margin: 24px 0 8px; } h2 span { color: #5f6b7a; font-weight: 400; }
    h2.failed { color: var(--failed); } h2.new { color: var(--new); } h2.missing { color: var(--missing); }
    h2.error { color: var(--error); } h2.passed { color: var(--passed); }
    .case { background: #fff; border: 1px solid #dde1e6; border-radius: 8px; padding: 12px 14px; margin: 0 0 12px; outline: none; }
    .case.current { box-shadow: 0 0 0 3px #1a73e880; }
    .case h3 { margin: 0 0 6px; font-size: 14px; font-family: "DejaVu Sans Mono", monospace; }
    .badge { font: 600 11px/1 sans-serif; text-transform: uppercase; padding: 3px 6px; border-radius: 4px; color: #fff; }
    .badge.failed { background: var(--failed); } .badge.new { background: var(--new); } .badge.missing { background: var(--missing); }
    .badge.error { background: var(--error); } .badge.passed { background: var(--passed); }
    .message { margin: 0 0 8px; color: #3c4656; word-break: break-word; }
    .numbers { display: grid; grid-template-columns: max-content max-content; gap: 2px 10px; margin: 0 0 8px; font-size: 12px; }
    .numbers dt { color: #5f6b7a; } .numbers dd { margin: 0; } .numbers .different { color: var(--failed); font-weight: 600; }
    .views { display: flex; gap: 6px; margin: 0 0 8px; }
    .views button { font: inherit; font-size: 12px; padding: 3px 10px; border: 1px solid #c3c9d1; border-radius: 14px; background: #fff; cursor: pointer; }
    .case[data-view="side"] .views [data-view="side"], .case[data-view="slider"] .views [data-view="slider"],
    .case[data-view="blink"] .views [data-view="blink"] { background: #1a73e8; border-color: #1a73e8; color: #fff; }
    .view.side { display: flex; gap: 12px; align-items: flex-start; }
    .view.side figure { flex: 1 1 0; min-width: 0; max-width: 420px; }
    .view.side img { width: 100%; height: auto; }
    .view[hidden] { display: none; }
    figure { margin: 0; } figcaption { font-size: 12px; color: #5f6b7a; }
    img { display: block; border: 1px solid #dde1e6;
      background: repeating-conic-gradient(#eee 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
    .stage { position: relative; display: inline-block; }
    .slider .over { position: absolute; top: 0; left: 0; bottom: 0; width: 50%; overflow: hidden; border-right: 2px solid #1a73e8; }
    .stage img { max-width: none; }
    .slider input { display: block; width: 100%; max-width: 760px; }
    .blink .stage img.top { position: absolute; top: 0; left: 0; }
    .blink .stage.reference img.top { visibility: hidden; }
    .hint { font-size: 12px; color: #5f6b7a; }
    .accept { margin: 0 0 8px; display: flex; gap: 8px; align-items: center; }
    .accept code { font: 12px "DejaVu Sans Mono", monospace; background: #f3f4f6; padding: 3px 6px; border-radius: 4px; }
    .accept button { font: inherit; font-size: 12px; padding: 2px 10px; border: 1px solid #c3c9d1; border-radius: 4px; background: #fff; cursor: pointer; }
    .accept button[data-copied="true"] { border-color: var(--passed); color: var(--passed); }
    .count.orphan, h2.orphan { color: #5f6b7a; }
    .changes { margin: 0 0 8px; padding-left: 20px; font-size: 13px; }
    .changes li { margin: 1px 0; } .changes li:hover, .changes li.lit { background: #fff4c2; }
    .pixel-only { margin: 0 0 8px; font-size: 13px; color: #3c4656; }
    .rasterization { margin: 0 0 8px; font-size: 13px; color: #3c4656; }
    .tag { font: 600 11px/1 sans-serif; padding: 3px 6px; border-radius: 4px; background: #e8eaed; color: #3c4656; }
    .headroom { margin: 0 0 8px; font-size: 13px; color: #3c4656; } .headroom p, .headroom ul { margin: 0; }
    .headroom ul { padding-left: 20px; } .headroom li.below { color: var(--failed); font-weight: 600; }
    .outlined { position: relative; }
    .outlined .box { position: absolute; border: 2px solid #e37400; border-radius: 2px; box-shadow: 0 0 0 1px #fff8; pointer-events: auto; }
    .outlined .box.lit { border-color: #1a73e8; background: #1a73e822; }
    h2.groups { color: #3c4656; }
    ul.groups { list-style: none; margin: 0 0 12px; padding: 0; }
    ul.groups li { background: #fff; border: 1px solid #dde1e6; border-radius: 8px; padding: 8px 12px; margin: 0 0 8px; }
    ul.groups p { margin: 0 0 4px; } ul.groups .members { font-size: 12px; color: #5f6b7a; word-break: break-word; }
    .orphans { margin: 0; padding-left: 20px; font-size: 12px; }
    kbd { font: 11px monospace; border: 1px solid #c3c9d1; border-bottom-width: 2px; border-radius: 3px; padding: 0 4px; background: #f8f9fa; }
    """

  /// A case out of view is skipped by layout and paint, and holds the height it had when
  /// last shown (a guess until then); the slots of the cases the page adds later have a
  /// height, so that they can be seen coming near the view.
  static let onlyNearViewStyle = "\nsection.case { content-visibility: auto; contain-intrinsic-size: auto 480px; }\n.later { height: 1px; }"

  static let script = """
    (function () {
      // Live: the cases a served page adds later are in it as they come.
      const cases = document.getElementsByClassName('case');
      const caseAt = element => element && element.closest ? element.closest('section.case') : null;
      // A served page of many cases holds all but its first ones as text (see
      // ReviewReport.html); they are added in document order, before their status's slot.
      const laterText = document.getElementById('later-cases');
      const later = laterText ? JSON.parse(laterText.textContent) : [];
      let laterGroup = 0, laterCase = 0;
      function addLater(count) {
        let added = 0;
        while (added < count && laterGroup < later.length) {
          const group = later[laterGroup];
          const slot = document.getElementById(group.slot);
          const part = group.cases.slice(laterCase, laterCase + count - added);
          slot.insertAdjacentHTML('beforebegin', part.join(''));
          added += part.length;
          laterCase += part.length;
          if (laterCase >= group.cases.length) { slot.remove(); laterGroup += 1; laterCase = 0; }
        }
        if (added > 0) {
          markLoadedImages(added);
          document.dispatchEvent(new CustomEvent('rowkit-cases-added', { detail: { count: added } }));
        }
        return added;
      }
      function indexOfCase(name) {
        for (;;) {
          const index = Array.prototype.findIndex.call(cases, c => c.dataset.name === name);
          if (index >= 0 || addLater(200) === 0) return index;
        }
      }
      let current = -1;
      function focusCase(index, scroll, keepFocus) {
        while (index >= cases.length && addLater(40) > 0) {}
        if (cases.length === 0) return;
        if (cases[current]) cases[current].classList.remove('current');
        current = Math.max(0, Math.min(cases.length - 1, index));
        cases[current].classList.add('current');
        if (!keepFocus) cases[current].focus({ preventScroll: true });
        if (scroll) {
          const top = cases[current].getBoundingClientRect().top + window.scrollY - document.querySelector('header').offsetHeight - 8;
          window.scrollTo(0, Math.max(0, top));
        }
        document.body.dataset.current = cases[current].dataset.name;
      }
      // The blink view alternates by itself; b or a click stops it and steps by hand.
      const blinking = new Map();
      function stopBlinking(section) {
        clearInterval(blinking.get(section));
        blinking.delete(section);
      }
      function setView(section, view) {
        if (!section || !section.querySelector('.view.' + view)) return;
        section.dataset.view = view;
        section.querySelectorAll('.view').forEach(v => { v.hidden = !v.classList.contains(view); });
        stopBlinking(section);
        if (view === 'blink') blinking.set(section, setInterval(() => blink(section), 600));
      }
      function blink(section) {
        const stage = section && section.querySelector('.blink .stage');
        if (!stage) return;
        stage.classList.toggle('reference');
        stage.dataset.blinks = String(Number(stage.dataset.blinks || 0) + 1);
        section.querySelector('.blink .showing').textContent = stage.classList.contains('reference') ? 'reference' : 'actual';
      }
      function step(section) {
        stopBlinking(section);
        blink(section);
      }
      // The accept command is copied with the clipboard API, or (pages opened from disk may
      // not have it) by selecting it and the copy command.
      function copyCommand(button) {
        const done = ok => { button.dataset.copied = ok ? 'true' : 'false'; button.textContent = ok ? 'Copied' : 'Select and copy'; };
        const fallback = () => {
          const code = button.parentElement.querySelector('code');
          const range = document.createRange(); range.selectNodeContents(code);
          const selection = window.getSelection(); selection.removeAllRanges(); selection.addRange(range);
          let ok = false; try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
          done(ok);
        };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(button.dataset.command).then(() => done(true), fallback);
        } else fallback();
      }
      // One listener of each kind for the whole page, so that a case added later needs no
      // set-up of its own.
      document.addEventListener('click', event => {
        const target = event.target;
        if (!target || !target.closest) return;
        // The case clicked is the current one: the keys act on what the reviewer points at.
        const clicked = target.closest('section.case');
        const clickedIndex = clicked ? Array.prototype.indexOf.call(cases, clicked) : -1;
        if (clickedIndex >= 0 && clickedIndex !== current) focusCase(clickedIndex, false);
        const copy = target.closest('button.copy');
        if (copy) { copyCommand(copy); return; }
        const view = target.closest('.views button');
        if (view) { setView(caseAt(view), view.dataset.view); return; }
        const stage = target.closest('.blink .stage');
        if (stage) step(caseAt(stage));
      });
      document.addEventListener('input', event => {
        const range = event.target;
        if (!range || !range.matches || !range.matches('.slider input')) return;
        caseAt(range).querySelector('.slider .over').style.width = range.value + '%';
      });
      // Pointing at a change lights its boxes on both images, and pointing at a box its change.
      function light(event, on) {
        const element = event.target && event.target.closest ? event.target.closest('[data-change]') : null;
        if (!element || element.contains(event.relatedTarget)) return;
        const section = caseAt(element);
        if (!section) return;
        section.querySelectorAll('[data-change="' + element.dataset.change + '"]').forEach(m => m.classList.toggle('lit', on));
      }
      document.addEventListener('mouseover', event => light(event, true));
      document.addEventListener('mouseout', event => light(event, false));
      // Each image says whether it loaded: load and error do not bubble, but reach the
      // document's capturing listener.
      const mark = (img, ok) => { img.dataset.loaded = ok ? 'true' : 'false'; };
      document.addEventListener('load', event => { if (event.target.tagName === 'IMG') mark(event.target, true); }, true);
      document.addEventListener('error', event => { if (event.target.tagName === 'IMG') mark(event.target, false); }, true);
      function markLoadedImages(lastCases) {
        for (let index = Math.max(0, cases.length - lastCases); index < cases.length; index++) {
          cases[index].querySelectorAll('img').forEach(img => { if (img.complete && !img.dataset.loaded) mark(img, img.naturalWidth > 0); });
        }
      }
      markLoadedImages(cases.length);
      document.addEventListener('keydown', event => {
        if (event.target && event.target.tagName === 'INPUT') return;
        const section = cases[current];
        switch (event.key) {
          case 'j': case 'ArrowDown': focusCase(current + 1, true); event.preventDefault(); break;
          case 'k': case 'ArrowUp': focusCase(current - 1, true); event.preventDefault(); break;
          case '1': setView(section, 'side'); break;
          case '2': setView(section, 'slider'); break;
          case '3': setView(section, 'blink'); break;
          case 'b': step(section); break;
        }
      });
      const params = new URLSearchParams(location.hash.slice(1));
      const wanted = params.get('case');
      const start = wanted ? indexOfCase(wanted) : 0;
      focusCase(start < 0 ? 0 : start, !!wanted);
      if (params.get('view')) setView(cases[current], params.get('view'));
      // A group's links name their cases in the address: go to the case without a reload.
      window.addEventListener('hashchange', () => {
        const index = indexOfCase(new URLSearchParams(location.hash.slice(1)).get('case'));
        if (index >= 0) focusCase(index, true);
      });
      // The keys act on the case the reviewer is at: focus moved into a case (Tab to its
      // buttons) makes it current, and so does scrolling the current case out of sight
      // (then the first case in view is), never a case the reviewer cannot see.
      document.addEventListener('focusin', event => {
        const section = event.target && event.target.closest ? event.target.closest('section.case') : null;
        const index = section ? Array.prototype.indexOf.call(cases, section) : -1;
        if (index >= 0 && index !== current) focusCase(index, false, true);
      });
      let scrollSeen = false;
      function followView() {
        if (scrollSeen) return;
        scrollSeen = true;
        requestAnimationFrame(() => {
          scrollSeen = false;
          const top = document.querySelector('header').offsetHeight;
          const below = index => cases[index].getBoundingClientRect().bottom > top;
          const inView = index => below(index) && cases[index].getBoundingClientRect().top < window.innerHeight;
          if (!cases[current] || inView(current)) return;
          // Cases stand in page order, top to bottom: the first below the header, halving.
          let low = 0, high = cases.length;
          while (low < high) { const middle = (low + high) >> 1; if (below(middle)) high = middle; else low = middle + 1; }
          // Focus outside every case stays where it is (typing in a box while the wheel
          // turns must not send the rest of the word to the case in view as keys); focus on
          // a case scrolled away goes with the current case (Space or Enter on a button out
          // of sight would press it).
          const active = document.activeElement;
          const inCase = active && active.closest ? active.closest('section.case') : null;
          if (low < cases.length && inView(low)) focusCase(low, false, !inCase);
        });
      }
      window.addEventListener('scroll', followView, { passive: true });
      window.addEventListener('resize', followView);
      // Cases are added as the reader nears them (scrolling, j, an address), never all at
      // once: 2,000 of them kept the page busy for seconds.
      if (later.length > 0) {
        const slots = () => later.map(group => document.getElementById(group.slot)).filter(slot => slot);
        const nearView = new IntersectionObserver(entries => {
          if (!entries.some(entry => entry.isIntersecting)) return;
          addLater(40);
          // Observed anew, a slot still near the view says so again.
          slots().forEach(slot => { nearView.unobserve(slot); nearView.observe(slot); });
        }, { rootMargin: '1500px 0px' });
        slots().forEach(slot => nearView.observe(slot));
      }
      // A self-test clicks the first Copy button, for checking it in a headless browser.
      if (params.has('copytest')) {
        const button = document.querySelector('button.copy');
        if (button) button.click();
        setTimeout(() => {
          const out = document.createElement('pre'); out.id = 'copytest';
          out.textContent = button ? [button.dataset.copied, button.dataset.command, String(window.getSelection())].join('|') : 'no button';
          document.body.appendChild(out);
        }, 500);
      }
      // A self-test drives the page with real key events, for checking it in a headless browser.
      if (params.has('selftest')) {
        const log = [];
        const press = key => document.dispatchEvent(new KeyboardEvent('keydown', { key: key, bubbles: true }));
        log.push('start ' + document.body.dataset.current);
        press('j'); log.push('j ' + document.body.dataset.current);
        press('k'); log.push('k ' + document.body.dataset.current);
        press('2'); log.push('2 ' + cases[current].dataset.view);
        press('3'); log.push('3 ' + cases[current].dataset.view);
        press('b'); const shown = cases[current].querySelector('.blink .showing'); log.push('b ' + (shown ? shown.textContent : 'none'));
        press('1'); log.push('1 ' + cases[current].dataset.view);
        // Left in the blink view for two seconds, the images alternate by themselves.
        press('3');
        const stage = cases[current].querySelector('.blink .stage');
        const before = stage ? Number(stage.dataset.blinks || 0) : 0;
        setTimeout(() => {
          log.push('auto ' + (stage && Number(stage.dataset.blinks || 0) - before >= 2 ? 'blinks' : 'still'));
          const out = document.createElement('pre'); out.id = 'selftest'; out.textContent = log.join('\\n'); document.body.appendChild(out);
        }, 2000);
      }
    })();
    """
}
