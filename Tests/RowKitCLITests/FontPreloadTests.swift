import ArgumentParser
import Testing

@testable import rowkit

/// Which commands load the standard fonts beside their parsing (`FontPreload`).
@Suite struct FontPreloadTests {
  @Test func commandsThatRunAnotherProgramInTheirPlaceStartNoThread() {
    // `review` and `preview` run rowkit-review in the process's place (`runReviewProgram`);
    // they are known by name before any command type is looked at.
    let replaced = ([RowKitCommand.Review.self, RowKitCommand.Preview.self] as [any ParsableCommand.Type]).compactMap { $0.configuration.commandName }
    #expect(commandsRunningReviewProgram == Set(replaced))
    #expect(FontPreload.renderingCommands.isDisjoint(with: replaced))
    #expect(FontPreload.renderingCommands == ["render", "check", "measure", "lint", "catalog"])
  }
}
