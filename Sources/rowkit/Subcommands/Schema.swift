import ArgumentParser
import Foundation
import RowKit
import RowKitSnapshot

extension RowKitCommand {
  struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "schema",
      abstract: "Print, write or check the JSON Schemas of RowKit's file formats.",
      discussion: """
        The schemas are built from the bounds and keyword lists that rowkit's loaders check \
        with, so an editor that validates against them accepts what rowkit accepts. NAME is one \
        of \(FormatSchemas.names.joined(separator: ", ")).

        --check exits 1 naming every file of the folder that differs from what rowkit writes \
        (a missing file differs too), and 2 when the folder does not exist. --reference prints \
        a table of the format reference (the bounds of every number, the stylesheet's number \
        variables) as the documents hold it between their `generated` markers.

        Example:
          rowkit schema table-document
          rowkit schema --output Schemas
          rowkit schema --check Schemas
          rowkit schema --reference bounds
        """)

    @Argument(help: "The schema to print on standard output.")
    var name: String?

    @Option(help: ArgumentHelp("Write every schema into this folder, made when missing.", valueName: "folder"))
    var output: String?

    @Option(help: ArgumentHelp("Compare every schema with its file in this folder.", valueName: "folder"))
    var check: String?

    @Option(
      help: ArgumentHelp(
        "Print a table of the format reference made from the same description: \(FormatReference.all.map(\.name).joined(separator: " or ")).",
        valueName: "table"))
    var reference: String?

    func validate() throws {
      guard [name != nil, output != nil, check != nil, reference != nil].filter({ $0 }).count == 1 else {
        throw ValidationError("give one of NAME, --output FOLDER, --check FOLDER or --reference TABLE")
      }
      // Elsewhere `-` is standard output; a folder named `-` is never what was meant.
      if output == "-" || check == "-" {
        throw ValidationError("--\(output == "-" ? "output" : "check") takes a folder, not standard output; to print one schema, name it: rowkit schema NAME")
      }
      if let reference, FormatReference.text(named: reference) == nil {
        throw ValidationError("no reference table '\(reference)' (\(FormatReference.all.map(\.name).joined(separator: ", ")))")
      }
      if let name, FormatSchemas.text(named: name) == nil {
        throw ValidationError("no schema '\(name)' (\(FormatSchemas.names.joined(separator: ", ")))")
      }
    }

    func run() throws {
      if let name, let text = FormatSchemas.text(named: name) {
        try StandardStreams.write(Array(text.utf8))
      } else if let reference, let text = FormatReference.text(named: reference) {
        try StandardStreams.write(Array(text.utf8))
      } else if let output {
        try write(into: URL(fileURLWithPath: output))
      } else if let check {
        let differing = try differences(in: URL(fileURLWithPath: check))
        guard differing.isEmpty else {
          for (path, isMissing) in differing {
            StandardStreams.writeError("rowkit: \(path) \(isMissing ? "is missing" : "differs from what rowkit schema writes")\n")
          }
          StandardStreams.writeError("rowkit: run `rowkit schema --output \(check)` and commit the result\n")
          throw ExitCode(1)
        }
      }
    }

    /// Writes every schema into `folder`, all or none.
    private func write(into folder: URL) throws {
      var isFolder: ObjCBool = false
      if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), !isFolder.boolValue {
        throw OutputError("\(folder.relativePath): not a folder; --output names the folder the schema files go in")
      }
      // Never written through a link or into a FIFO found under a schema's name. A new folder
      // is staged whole beside where it goes; in one that is there, each file is staged
      // inside it (only the folder itself need take new files).
      let files = AtomicFiles()
      do {
        if FileManager.default.fileExists(atPath: folder.path) {
          for schema in FormatSchemas.all { try OutputWriter.refuseAnythingButAFile(at: folder.appendingPathComponent(schema.fileName)) }
          for schema in FormatSchemas.all {
            try files.stage(Array(schema.make().text.utf8), as: folder.appendingPathComponent(schema.fileName))
          }
        } else {
          let staged = try files.folder(for: folder)
          for schema in FormatSchemas.all {
            try Data(schema.make().text.utf8).write(to: staged.appendingPathComponent(schema.fileName))
          }
        }
        try files.commit()
      } catch {
        files.discard()
        throw error
      }
    }

    /// The paths of the schema files in `folder` that are missing or hold other bytes.
    private func differences(in folder: URL) throws -> [(path: String, isMissing: Bool)] {
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) else {
        throw OutputError("\(folder.relativePath): no such folder to check the schemas in")
      }
      guard isFolder.boolValue else {
        throw OutputError("\(folder.relativePath): a file; --check names the folder the schema files are in")
      }
      return FormatSchemas.all.compactMap { schema in
        let file = folder.appendingPathComponent(schema.fileName)
        let written = FileManager.default.contents(atPath: file.path)
        return written == Data(schema.make().text.utf8) ? nil : (file.relativePath, written == nil)
      }
    }
  }
}
