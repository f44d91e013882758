import Foundation
import PackagePlugin

/// Gives the target it is applied to a digest of every file that decides RowKit's pixels:
/// the sources and resources of the drawing targets and the C shims they call through.
///
/// The render cache (`rowkit check` passing a case without rendering it) is exact only if
/// any change to layout or painting code invalidates it. Computed by the build from the
/// files themselves, the digest cannot be forgotten the way a version number bumped by hand
/// can; a change to the command line, the snapshot tester or the tests leaves it alone, so
/// a pull request that changes no cell keeps its cache.
@main
struct RenderCodeDigest: BuildToolPlugin {
  /// The targets whose files decide pixels: RowKit lays out and resolves inputs, the
  /// graphics target draws, and the system library targets carry the C shims.
  static let renderTargets: Set<String> = [
    "RowKit", "RowKitGraphics", "CCairo", "CPango", "CPNG", "CTurboJPEG", "CWebP", "CISAL",
  ]

  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    var files: [URL] = []
    for renderTarget in context.package.targets where Self.renderTargets.contains(renderTarget.name) {
      if let module = renderTarget as? SourceModuleTarget {
        files += module.sourceFiles.filter { [.source, .header, .resource].contains($0.type) }.map(\.url)
      } else {
        let folder = renderTarget.directoryURL
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        files += names.map { folder.appendingPathComponent($0) }
      }
    }
    let output = context.pluginWorkDirectoryURL.appendingPathComponent("RenderCodeDigest.swift")
    let root = context.package.directoryURL
    return [
      .buildCommand(
        displayName: "Digest of RowKit's render code",
        executable: try context.tool(named: "render-code-digest").url,
        arguments: [root.path, output.path] + files.map(\.path),
        inputFiles: files,
        outputFiles: [output])
    ]
  }
}
