import ArgumentParser
import Foundation
import RowKit
import RowKitGraphics

extension RowKitCommand {
  struct Fonts: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "fonts",
      abstract: "List the loaded font families in fallback order, or say which font draws each character of a text.",
      discussion: """
        Without TEXT: every family RowKit loads, in the order that lends glyphs to text its own \
        font lacks, with its files and the scripts it covers; brand fonts from --fonts come \
        first. With TEXT: each stretch of the text and the family that draws it, and the \
        characters no loaded font can draw (exit status 1 when there are any).

        Example:
          rowkit fonts
          rowkit fonts "Tokyo 東京 👍🏽 " --language ja
          rowkit fonts --fonts brand/ --json
        """)

    @Argument(help: "Text to look up, character by character.")
    var text: String?

    @Option(help: "The font the text is set in, as a Pango description.")
    var font = "Inter 17"

    @Flag(help: "Print JSON for tools.")
    var json = false

    @OptionGroup(title: "Text") var textOptions: TextOptions

    func run() throws {
      let brand = try textOptions.brandFonts()
      let configuration = try textOptions.apply(to: TableConfiguration())
      let environment = configuration.textEnvironment.adding(brandFonts: brand.map(\.file))
      let fontSet = try environment.fontSet()
      if let text {
        try lookUp(text, environment: environment, fontSet: fontSet)
      } else {
        try list(fontSet, brand: brand)
      }
    }

    struct FamilyEntry: Encodable {
      var family: String
      var files: [String]
      var scripts: [String]
      var brand: Bool
    }

    private func list(_ fontSet: FontSet, brand: [BrandFont]) throws {
      let brandFamilies = brand.flatMap(\.families)
      var entries: [FamilyEntry] = []
      for family in brandFamilies + fontSet.fallbackFamilies where !entries.contains(where: { $0.family == family }) {
        let files = fontSet.files.filter { $0.families.contains(family) }
        var scripts: [String] = []
        for script in files.flatMap(\.scripts) where !scripts.contains(script) { scripts.append(script) }
        entries.append(
          FamilyEntry(family: family, files: files.map(\.path), scripts: scripts, brand: brandFamilies.contains(family)))
      }
      if json {
        struct Listing: Encodable {
          var language: String
          var families: [FamilyEntry]
        }
        try printJSON(Listing(language: fontSet.environment.language, families: entries))
        return
      }
      StandardStreams.print("Fallback order for \(fontSet.environment.language) (\(entries.count) families, \(fontSet.files.count) files):")
      for (index, entry) in entries.enumerated() {
        let scripts = entry.scripts.isEmpty ? "" : "  " + entry.scripts.joined(separator: ", ")
        StandardStreams.print(String(format: "%3d. %@%@%@", index + 1, entry.family, entry.brand ? " (brand)" : "", scripts))
        for file in entry.files { StandardStreams.print("       \(file)") }
      }
    }

    private func lookUp(_ text: String, environment: TextEnvironment, fontSet: FontSet) throws {
      guard let parsed = Font.parse(font) else {
        throw ValidationError("--font '\(font)' is not a font description such as \"Inter Bold 17\"")
      }
      guard fontSet.hasFamily(parsed.family) else {
        throw ValidationError("--font: family '\(parsed.family)' is not loaded (`rowkit fonts` lists them)")
      }
      let shaper = try environment.makeShaper()
      let runs = shaper.fontRuns(text, font: parsed)
      let missing = shaper.shape(text, style: TextStyle(font: parsed)).missingCharacters.map(Manifest.codePoint)
      if json {
        struct Run: Encodable {
          var text: String
          var codePoints: [String]
          var family: String?
        }
        struct LookUp: Encodable {
          var text: String
          var font: String
          var language: String
          var runs: [Run]
          var missing: [String]
        }
        try printJSON(
          LookUp(
            text: text, font: parsed.description, language: environment.language,
            runs: runs.map { Run(text: $0.text, codePoints: $0.text.unicodeScalars.map(Manifest.codePoint), family: $0.family) },
            missing: missing))
      } else {
        for run in runs {
          let points = run.text.unicodeScalars.map(Manifest.codePoint).joined(separator: " ")
          StandardStreams.print("\(run.text.debugDescription)  \(run.family ?? "no font has it")  (\(points))")
        }
        if !missing.isEmpty { StandardStreams.print("no glyph for \(missing.joined(separator: ", "))") }
      }
      if !missing.isEmpty { throw ExitCode(1) }
    }

    private func printJSON<Value: Encodable>(_ value: Value) throws {
      try StandardStreams.write(Data(try DeterministicJSON.bytes(value)))
    }
  }
}
