import Foundation
import Testing

@testable import RowKit

/// Issue 24, item 10: a variant's name goes before the extension of the last path component
/// only, so a dot in a folder's name stays where it is.
@Suite struct VariantPathTests {
  let dark = Variant(textSize: .AX3, appearance: .dark)

  @Test func theNameGoesBeforeTheFileNamesExtension() {
    #expect(dark.name == "dark,AX3")
    #expect(dark.fileName("table.png") == "table@dark,AX3.png")
    #expect(dark.fileName("../build.v2/table") == "../build.v2/table@dark,AX3")
    #expect(dark.fileName("../build.v2/table.png") == "../build.v2/table@dark,AX3.png")
    #expect(dark.fileName("out/t.tar.json") == "out/t.tar@dark,AX3.json")
    #expect(dark.fileName("a.b/.hidden") == "a.b/.hidden@dark,AX3")
    #expect(dark.fileName("/abs.d/table") == "/abs.d/table@dark,AX3")
    // A case name has no extension: `.png` is added to it later.
    #expect(dark.fileName("suite.v2/settings.v2", hasExtension: false) == "suite.v2/settings.v2@dark,AX3")
    #expect(Variant().fileName("x.v2/table.png") == "x.v2/table.png")
  }
}
