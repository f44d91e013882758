import Foundation
import RowKitGraphics
import RowKitTestSupport
import Testing

/// Issue 25: RowKit's hooks into Pango have a fallback (every worker shares the fonts), and
/// `ROWKIT_PANGO_HOOKS=off` takes it on purpose. Both paths draw the same bytes: the world's
/// scripts, emoji and a long wrapped row, on two workers.
@Suite struct PangoHooksTests {
  @Test func refusingTheHooksDrawsTheSameBytes() async throws {
    let folder = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    var outputs: [String: Data] = [:]
    for (name, hooks) in [("hooked", ""), ("refused", "off")] {
      let png = folder.appendingPathComponent("\(name).png")
      let result = try await CommandRunner.run(
        ["render", TestSupport.assets.appendingPathComponent("Samples/world.yaml").path, "-o", png.path, "--jobs", "2"],
        environment: [PangoHooks.environmentVariable: hooks])
      #expect(result.status == 0, "\(result.stderr)")
      outputs[name] = try Data(contentsOf: png)
    }
    #expect(outputs["hooked"] != nil && outputs["hooked"] == outputs["refused"])
  }

  @Test func onlyOffRefusesTheHooks() {
    #expect(PangoHooks.refused(in: ["ROWKIT_PANGO_HOOKS": "off"]))
    #expect(PangoHooks.refused(in: ["ROWKIT_PANGO_HOOKS": "OFF"]))
    #expect(!PangoHooks.refused(in: ["ROWKIT_PANGO_HOOKS": ""]))
    #expect(!PangoHooks.refused(in: [:]))
  }
}
