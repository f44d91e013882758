import RowKitGraphics
import RowKitTestSupport
import Testing

@testable import RowKit

/// A cell that draws any text-bearing item and says so in its name.
private struct FamilyCell: TableCell {
  let name = "FamilyCell"
  func layout(_ item: any TextContentItem, in context: LayoutContext) throws -> RowLayout {
    RowLayout(cellName: name, size: Size(width: context.cellWidth, height: 44))
  }
}

private struct LinkOnlyCell: TableCell {
  let name = "LinkOnlyCell"
  func layout(_ item: LinkItem, in context: LayoutContext) throws -> RowLayout {
    RowLayout(cellName: name, size: Size(width: context.cellWidth, height: 50))
  }
}

private struct Unmapped: TableItem {
  var value = 1
}

@Suite struct CellMappingTests {
  @Test func builtInItemsGetThreeTwentysDefaultCells() {
    let mapping = CellMapping()
    let cases: [(any TableItem, String)] = [
      (TextItem(text: "x"), "TextCell"), (LinkItem(text: "x"), "TextCell"),
      (CaptionItem(text: "x", caption: "y"), "CaptionCell"), (SubtextItem(text: "x", caption: "y"), "SubtextCell"),
      (SettingsItem(text: "x", caption: "y"), "SettingsCell"), (SubtitleItem(text: "x"), "SubtitleCell"),
      (MoreButtonItem(text: "x"), "MoreButtonCell"), (MessageItem(text: "x"), "MessageCell"),
      (ImageItem(text: "x"), "ImageCell"), (RightImageItem(text: "x"), "RightImageCell"),
      (StyledTextItem(text: "x"), "StyledTextCell"), (ActivityItem(text: "x"), "ActivityCell"),
      (ControlItem(caption: "x", control: .toggle(isOn: true)), "ControlCell"),
      (CheckmarkItem(text: "x", isChecked: true), "CheckmarkCell"),
      (RightCaptionItem(text: "x", caption: "y"), "RightCaptionCell"),
    ]
    for (item, name) in cases {
      #expect(mapping.cell(for: item).name == name, "\(item.typeName)")
    }
  }

  @Test func theItemsOwnTypeWinsWhateverTheRegistrationOrder() {
    var familyFirst = CellMapping()
    familyFirst.register(FamilyCell(), forFamily: (any TextContentItem).self)
    familyFirst.register(LinkOnlyCell(), for: LinkItem.self)

    var typeFirst = CellMapping()
    typeFirst.register(LinkOnlyCell(), for: LinkItem.self)
    typeFirst.register(FamilyCell(), forFamily: (any TextContentItem).self)

    for mapping in [familyFirst, typeFirst] {
      #expect(mapping.cell(for: LinkItem(text: "x")).name == "LinkOnlyCell")
      #expect(mapping.cell(for: TextItem(text: "x")).name == "FamilyCell")
      #expect(mapping.cell(for: CaptionItem(text: "x", caption: "y")).name == "FamilyCell")
    }
  }

  @Test func familiesDoNotCatchItemsOutsideThem() {
    var mapping = CellMapping()
    mapping.register(FamilyCell(), forFamily: (any CaptionedItem).self)
    #expect(mapping.cell(for: CaptionItem(text: "x", caption: "y")).name == "FamilyCell")
    #expect(mapping.cell(for: TextItem(text: "x")).name == "TextCell")
  }

  @Test func anUnmappedItemGetsAVisibleFallbackCell() throws {
    let row = try TestSupport.layoutRow(Unmapped())
    #expect(row.layout.cellName == "FallbackCell")
    #expect(row.layout.label("text")?.text.text == "No cell for Unmapped")
    guard case .fill(_, let color)? = row.layout.decorations.first else {
      Issue.record("the fallback cell draws no warning background")
      return
    }
    #expect(color != .white)
  }

  @Test func aClosureCellDrawsAOneOffRow() throws {
    var mapping = CellMapping()
    mapping.register(
      ClosureCell<Unmapped>(name: "Banner") { item, context in
        let label = try context.shape("Banner \(item.value)", font: "tableFont", width: context.contentWidth - 20)!
        var row = RowLayout(cellName: "Banner", size: Size(width: context.cellWidth, height: 60))
        row.labels.append(RowLabel(name: "text", text: label, color: .black, boxOrigin: Point(x: 10, y: 20)))
        return row
      }, for: Unmapped.self)
    let row = try TestSupport.layoutRow(Unmapped(value: 7), mapping: mapping)
    #expect(row.layout.cellName == "Banner")
    #expect(row.height == 60)
    #expect(row.layout.label("text")?.text.text == "Banner 7")
  }

  @Test func theBuiltInDefaultsCanBeTurnedOff() {
    let mapping = CellMapping(usesBuiltInDefaults: false)
    #expect(mapping.cell(for: TextItem(text: "x")).name == "FallbackCell")
  }
}

@Suite struct DataSourceTests {
  @Test func aListDataSourceIsOneSectionWithoutHeader() {
    let source = ListDataSource(items: [TextItem(text: "a"), TextItem(text: "b")])
    #expect(source.sections.count == 1)
    #expect(source.sections[0].header == nil)
    #expect(source.numberOfRows == 2)
    #expect((source.item(section: 0, row: 1) as? TextItem)?.text == "b")
    #expect(source.item(section: 0, row: 2) == nil)
  }

  @Test func aSectionedDataSourceKeepsHeadersAndFooters() throws {
    let source = SectionedDataSource(sections: [
      TableSection(header: "One", footer: "End of one", items: [TextItem(text: "a")]),
      TableSection(header: "Two", items: [TextItem(text: "b"), TextItem(text: "c")]),
    ])
    let table = try TestSupport.renderer(TableConfiguration(style: .grouped)).layout(source)
    #expect(table.sections.map(\.header?.title) == ["One", "Two"])
    #expect(table.sections.map(\.footer?.title) == ["End of one", nil])
    #expect(table.sections[1].rows == 1..<3)
  }
}
