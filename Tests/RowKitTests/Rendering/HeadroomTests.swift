import Foundation
import RowKit
import RowKitGraphics
import RowKitTestSupport
import Testing

/// Measured headroom: each text slot laid out with its text grown step by step, and the
/// largest growth that still fits.
@Suite struct HeadroomTests {
  @Test func growthAddsThatShareOfCharacters() {
    let text = "Wireless network settings"
    #expect(PseudoLocale.grown(text, by: 0) == text)
    #expect(PseudoLocale.grown(text, by: 0.2) == text + " one ")
    #expect(PseudoLocale.grown(text, by: 0.2).count == 30)
    #expect(PseudoLocale.grown(text, by: 1).count == 50)
    #expect(PseudoLocale.grown("OK", by: 0.05) == "OK")
    // ar-XB's marks around each word show nothing: "Storage" grows as 7 characters, not 11.
    let bidi = PseudoLocale.bidi.transform("Storage")
    #expect(bidi.count == 11)
    #expect(PseudoLocale.grown(bidi, by: 0.45) == bidi + " on")
  }

  /// A one-line title in a slot made a quarter point wider than its text grown by 22%: the
  /// truth, measured by shaping the grown text without a width at every whole percent, is
  /// the first growth past that (+26% for 25 characters, whose growth comes a character,
  /// 4%, at a time); measured headroom, in 5% steps, must be the step just below it.
  @Test func aSlotTruncatesWithinOneStepOfTheMeasuredTruth() throws {
    let text = "Wireless network settings"
    let item = SubtitleItem(text: text, subtitle: "Short")
    let shaper = try TextEnvironment.standard.makeShaper()
    let wide = try TestSupport.layoutRow(item, width: 375, shaper: shaper)
    let label = try #require(wide.layout.label("text"))
    let slotAt375 = try #require(label.text.style.width)
    func naturalWidth(_ percent: Int) -> Double {
      shaper.shape(PseudoLocale.grown(text, by: Double(percent) / 100), style: TextStyle(font: label.text.style.font))
        .logicalRect.width
    }
    // The cell's slot is the table's width less a fixed margin.
    let width = (375 - slotAt375) + naturalWidth(22) + 0.25
    let renderer = TableRenderer(configuration: TableConfiguration(width: width))
    let slot = try #require(try TestSupport.layoutRow(item, renderer: renderer, shaper: shaper).layout.label("text")?.text.style.width)
    let truth = try #require((0...100).first { naturalWidth($0) > slot })
    #expect((23...30).contains(truth), "the slot was built to truncate just past +22%, not at +\(truth)%")
    let dataSource = SectionedDataSource(sections: [TableSection(items: [item])])
    let slots = try renderer.headroom(dataSource, shaper: shaper)
    let title = try #require(slots.first { $0.label == "text" })
    let measured = try #require(title.percent)
    #expect(measured < truth && truth - measured <= TableRenderer.headroomStep, "measured +\(measured)%, truth +\(truth)%")
    #expect(measured == truth - 1 - (truth - 1) % TableRenderer.headroomStep)
    #expect(title.limit == .truncated)
    // The subtitle, far shorter than its slot, takes the whole growth.
    let subtitle = try #require(slots.first { $0.label == "subtitle" })
    #expect(subtitle.percent == TableRenderer.maximumGrowth && subtitle.limit == nil)
  }

  /// A text truncated as written has no headroom; the lint turns slots below the minimum
  /// into findings naming the growth, the text size and the width.
  @Test func findingsNameTheGrowthTextSizeAndWidth() async throws {
    let item = SubtitleItem(text: "Wireless network settings and more", subtitle: "Short")
    let dataSource = SectionedDataSource(sections: [TableSection(items: [item])])
    let renderer = TableRenderer(configuration: TableConfiguration(width: 160))
    let slots = try renderer.headroom(dataSource)
    let title = try #require(slots.first { $0.label == "text" })
    #expect(title.percent == nil && title.limit == .truncated)
    var report = LintReport(file: "t.yaml", manifest: try await renderer.measure(dataSource), dataSource: dataSource)
    #expect(report.rows.isEmpty)
    report.addHeadroomFindings(slots, minimum: 30, place: "AX3, 160 pt", dataSource: dataSource)
    let finding = try #require(report.rows.first?.findings.first)
    #expect(finding.rule == .headroom && finding.label == "text")
    #expect(finding.message == "truncates as written (AX3, 160 pt); needs +30%")
    #expect(report.rows.first?.title == "Wireless network settings and more")
  }

  /// How a slot's headroom reads, and which slots are the tightest: those that do not fit as
  /// written first, then by growth, table order breaking ties; a slot that fits at +100% is
  /// never among them.
  @Test func slotsReadAndSortByTheirHeadroom() {
    func slot(_ row: Int, _ percent: Int?, _ limit: LintRule?) -> TextHeadroom {
      TextHeadroom(section: 0, row: row, type: "text", cell: "TextCell", label: "text", percent: percent, limit: limit)
    }
    let roomy = slot(0, 100, nil)
    let wide = slot(1, 50, .truncated)
    let full = slot(2, nil, .truncated)
    let tight = slot(3, 20, .overlap)
    let clipped = slot(4, 20, .clipped)
    #expect(roomy.limitPhrase == "fits at +100%")
    #expect(wide.limitPhrase == "truncates at +55%")
    #expect(full.limitPhrase == "truncates as written")
    #expect(tight.limitPhrase == "overlaps at +25%")
    #expect(clipped.limitPhrase == "runs outside its row at +25%")
    #expect(tight.name == "s0-r3 text")
    let table = TableHeadroom(minimum: 30, slots: [roomy, wide, full, tight, clipped])
    #expect(table.tightest(3) == [full, tight, clipped])
    #expect(table.tightest(10) == [full, tight, clipped, wide])
    #expect(table.belowMinimum == [full, tight, clipped])
    #expect(!roomy.isBelow(100) && wide.isBelow(55) && !wide.isBelow(50))
  }

  /// A render that measures headroom carries every slot's in its manifest, the numbers of
  /// ``TableRenderer/headroom(_:shaper:)``; with the lint's headroom rule, a slot below the
  /// minimum is a finding of its row, worded as `rowkit lint --headroom` words it.
  @Test func aRenderThatMeasuresHeadroomCarriesItInItsManifest() async throws {
    let dataSource = SectionedDataSource(sections: [TableSection(items: [
      SubtitleItem(text: "Wireless network settings and more", subtitle: "Short"), TextItem(text: "OK"),
    ])])
    var renderer = TableRenderer(configuration: TableConfiguration(width: 160))
    #expect(try await renderer.render(dataSource, outputs: []).manifest.headroom == nil)
    renderer.measuresHeadroom = true
    renderer.minimumHeadroom = 40
    let measured = try await renderer.render(dataSource, outputs: []).manifest
    let headroom = try #require(measured.headroom)
    #expect(headroom.minimum == 40)
    #expect(headroom.slots == (try renderer.headroom(dataSource)))
    #expect(headroom.slots.map(\.name) == ["s0-r0 text", "s0-r0 subtitle", "s0-r1 text"])
    #expect(headroom.tightest(1).map(\.limitPhrase) == ["truncates as written"])
    // Without the lint, the headroom is measured and nothing is a finding.
    #expect(measured.rows.allSatisfy { $0.findings == nil })

    renderer.lint = LintOptions()
    let linted = try await renderer.render(dataSource, outputs: []).manifest
    #expect(linted.headroom == headroom)
    let findings = (linted.rows[0].findings ?? []).filter { $0.rule == .headroom }
    #expect(findings.map(\.label) == ["text"])
    #expect(findings.map(\.message) == ["truncates as written (large, 160 pt); needs +40%"])
    // The rule switched off: the headroom is still in the manifest, and no row has its finding.
    renderer.lint = LintOptions(disabled: [.headroom])
    let off = try await renderer.render(dataSource, outputs: []).manifest
    #expect(off.headroom == headroom)
    #expect(off.rows.allSatisfy { !($0.findings ?? []).contains { $0.rule == .headroom } })
  }
}
