import Foundation
import RowKit
import RowKitReview

/// `rowkit-review preview PATH… [--stylesheet FILE] [--assets DIR] [--variant-… LIST]
/// [--timeout S] [--deadline S] [--port N] [--open]`: `rowkit preview`'s server (the
/// subcommand checked the arguments). Renders every case once, serves the page, and looks at
/// the files twenty times a second, rendering again only what a change reaches.
func servePreview(_ arguments: [String]) async -> Never {
  var paths: [URL] = []
  var stylesheet: URL?
  var assets: URL?
  var variants = VariantAxes()
  var port: UInt16 = 0
  var timeout = ImagePipeline.Configuration().requestTimeout
  var deadline = TableRenderer.defaultImageDeadline
  var open = false
  var rest = arguments[...]
  func value(_ option: String) -> String {
    guard let value = rest.popFirst() else { fail("\(option) needs a value") }
    return value
  }
  func list<T: RawRepresentable>(_ option: String) -> [T] where T.RawValue == String {
    value(option).split(separator: ",").map { word in
      guard let item = T(rawValue: String(word)) else { fail("\(option): '\(word)' is not a value it takes") }
      return item
    }
  }
  while let argument = rest.popFirst() {
    switch argument {
    case "--stylesheet": stylesheet = URL(fileURLWithPath: value(argument))
    case "--assets": assets = URL(fileURLWithPath: value(argument))
    case "--timeout":
      guard let seconds = Double(value(argument)) else { fail("--timeout needs a number of seconds") }
      timeout = seconds
    case "--deadline":
      guard let seconds = Double(value(argument)) else { fail("--deadline needs a number of seconds") }
      deadline = seconds
    case "--port":
      guard let number = UInt16(value(argument)) else { fail("--port needs a number from 0 to 65535") }
      port = number
    case "--open": open = true
    case "--variant-width":
      variants.widths = value(argument).split(separator: ",").map { word in
        guard let width = Double(word) else { fail("--variant-width: '\(word)' is not a number of points") }
        return width
      }
    case "--variant-text-size": variants.textSizes = list(argument)
    case "--variant-appearance": variants.appearances = list(argument)
    case "--variant-direction": variants.directions = list(argument)
    case "--variant-locale": variants.locales = list(argument)
    case "--": paths += rest.map { URL(fileURLWithPath: $0) }; rest = []
    default:
      guard !argument.hasPrefix("-") else { fail("unexpected argument '\(argument)'") }
      paths.append(URL(fileURLWithPath: argument))
    }
  }
  if let problem = variants.problem { fail("variant flags: \(problem)") }
  guard !paths.isEmpty else { fail("give the documents or design files to preview") }
  do {
    var images = ImagePipeline.Configuration()
    images.requestTimeout = timeout
    let catalog = try PreviewCatalog(
      paths: paths, stylesheet: stylesheet, assets: assets, variants: variants,
      pipeline: ImagePipeline(configuration: images), imageDeadline: deadline)
    let first = await catalog.refresh()
    let title = paths.map(\.lastPathComponent).joined(separator: ", ")
    let server = try PreviewServer(catalog: catalog, port: port, title: title)
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { try await server.run() }
      let address = try await server.waitUntilListening()
      let errors = catalog.entries.filter { $0.error != nil }.count
      say("Previewing \(first.count) cases of \(title)\(errors > 0 ? " (\(errors) with errors)" : "") at \(address.absoluteString)")
      say("Press Ctrl-C to stop; saving a file the page shows renders what it reaches again.")
      if open { openBrowser(address) }
      group.addTask {
        try await catalog.watch(every: .milliseconds(50)) { changed in say("rendered again: \(changed.joined(separator: ", "))") }
      }
      try await group.next()
    }
    exit(0)
  } catch {
    fail("\(error)")
  }
}
