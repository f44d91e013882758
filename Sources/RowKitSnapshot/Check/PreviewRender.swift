import Foundation
import RowKit
import RowKitGraphics

/// One case of a check rendered for a live preview (`rowkit preview`): its image, where its
/// lint findings are, and every file the render read, which the preview watches.
package struct PreviewRender: Sendable {
  /// A lint finding and the box it is about, in points from the table's top left: the
  /// finding's label or image slot, or its whole row.
  package struct Mark: Sendable, Encodable, Equatable {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double
    /// `s0-r2 title: truncated (…)`.
    package var text: String
  }

  /// The table's first tile, as PNG.
  package var png: [UInt8]
  /// The table's size in points.
  package var width: Double
  package var height: Double
  /// The lint findings of the rows, each with its box.
  package var marks: [Mark]
  /// The files the render read: the document or design, its stylesheets, designs, brand
  /// fonts and the local images its rows showed.
  package var files: [URL]
  /// The stamps of the files the document's load looked for, each from before it was read.
  package var stampsBeforeReading: [String: FileStamp]
}

extension SnapshotCheck {
  /// Renders `testCase` as this check would (its variant, design preview, image folders and
  /// brand fonts), with every lint rule the document leaves on, for a preview page. Errors
  /// are the check's: a document's names its file, line, column and key.
  /// A failure comes with the files the load looked for, up to the one that failed.
  package func renderForPreview(_ testCase: Case, fontFamilies: [String]) async throws(PreviewRenderFailure) -> PreviewRender {
    let (folders, fonts) = (imageFolders, brandFonts)
    var lookedFor: [String: FileStamp] = [:]
    do {
      let (loaded, _, stamps) = try await pool.run {
        FilesRead.collecting { try Self.load(testCase, fontFamilies: fontFamilies, imageFolders: folders, brandFonts: fonts) }
      }
      lookedFor = stamps
      return try await renderLoaded(testCase, document: try loaded.get(), stampsBeforeReading: stamps)
    } catch {
      throw PreviewRenderFailure(error: error, stampsBeforeReading: lookedFor)
    }
  }

  private func renderLoaded(
    _ testCase: Case, document: TableDocument, stampsBeforeReading: [String: FileStamp]
  ) async throws -> PreviewRender {
    var renderer = document.makeRenderer(pipeline: pipeline, pool: pool)
    renderer.imageDeadline = imageDeadline
    renderer.lint = document.lintOptions.adding(LintOptions())
    renderer.recordsLayout = true
    if let variant = testCase.variant { renderer = renderer.rendering(variant) }
    let rendered = try await document.render(with: renderer)
    let png = try await pool.run { try rendered.pngData() }
    let record = rendered.layoutRecord
    var marks: [PreviewRender.Mark] = []
    for row in rendered.manifest.rows {
      guard let findings = row.findings, !findings.isEmpty else { continue }
      let recorded = record?.rows.first { $0.section == row.section && $0.row == row.row }
      for finding in findings {
        var box = [0, row.y, rendered.manifest.width, row.height]
        if let label = finding.label, let recorded, let element = recorded.element(label), element.frame.count == 4 {
          box = [recorded.x + element.frame[0], recorded.y + element.frame[1], element.frame[2], element.frame[3]]
        }
        let subject = finding.label.map { "\(row.name) \($0)" } ?? row.name
        marks.append(PreviewRender.Mark(
          x: box[0], y: box[1], width: box[2], height: box[3], text: "\(subject): \(finding.rule.rawValue): \(finding.message)"))
      }
    }
    for section in rendered.manifest.sections {
      let bands: [(String, [LintFinding]?, Double, Double)] = [
        ("header", section.headerFindings, section.y, section.height),
        ("footer", section.footerFindings, section.footerY ?? 0, section.footerHeight ?? 0),
      ]
      for (band, findings, y, height) in bands {
        for finding in findings ?? [] {
          marks.append(PreviewRender.Mark(
            x: 0, y: y, width: rendered.manifest.width, height: height,
            text: "s\(section.section)-\(band): \(finding.rule.rawValue): \(finding.message)"))
        }
      }
    }
    var files = document.filesRead(showing: rendered.manifest.rows)
    if !files.contains(where: { $0.standardizedFileURL.path == testCase.document.standardizedFileURL.path }) {
      files.insert(testCase.document, at: 0)
    }
    return PreviewRender(
      png: png, width: rendered.manifest.width, height: rendered.manifest.height, marks: marks, files: files,
      stampsBeforeReading: stampsBeforeReading)
  }
}

/// Why a preview render failed, with the files its load looked for up to the failure (the
/// document and the stylesheets and designs it reached, the one that failed among them), each
/// stamped before it was read.
package struct PreviewRenderFailure: Error, CustomStringConvertible {
  package let error: any Error
  package let stampsBeforeReading: [String: FileStamp]

  package var description: String { "\(error)" }
}
