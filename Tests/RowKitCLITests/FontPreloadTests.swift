import Testing

@testable import rowkit

/// Which commands load the standard fonts beside their parsing (`FontPreload`).
@Suite struct FontPreloadTests {
  @Test func commandsThatRunAnotherProgramInTheirPlaceLoadNoFonts() {
    // `review` and `preview` run rowkit-review in the process's place (`runReviewProgram`):
    // no thread of this process should be at work when it is replaced.
    for command in [RowKitCommand.Review.configuration.commandName, RowKitCommand.Preview.configuration.commandName] {
      #expect(!FontPreload.renderingCommands.contains(command ?? ""), "\(command ?? "")")
    }
    #expect(FontPreload.renderingCommands.isSuperset(of: ["render", "check", "measure", "lint", "catalog"]))
  }
}
