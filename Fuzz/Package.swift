// swift-tools-version: 6.0
// libFuzzer harnesses for RowKit's parsers and decoders (issue 11). Build and run one with
// `bash scripts/fuzz.sh TARGET SECONDS`; `bash scripts/fuzz.sh --list` names them. Each
// harness is an executable without a `main` of its own: it is built with
// `--sanitize=fuzzer --sanitize=address`, so libFuzzer's runtime supplies `main` and calls the
// harness's `LLVMFuzzerTestOneInput`. Built without `--sanitize=fuzzer` it does not link.
import PackageDescription

let harnesses = [
  "document-yaml", "document-json", "stylesheet", "design", "markup", "png", "jpeg", "webp", "compare",
]

let package = Package(
  name: "RowKitFuzz",
  dependencies: [.package(name: "RowKit", path: "..")],
  targets: [
    .target(
      name: "FuzzSupport",
      dependencies: [
        .product(name: "RowKit", package: "RowKit"), .product(name: "RowKitGraphics", package: "RowKit"),
        .product(name: "RowKitSnapshot", package: "RowKit"),
      ])
  ] + harnesses.map { name in
    .executableTarget(
      name: name,
      dependencies: [
        "FuzzSupport", .product(name: "RowKit", package: "RowKit"), .product(name: "RowKitGraphics", package: "RowKit"),
        .product(name: "RowKitSnapshot", package: "RowKit"),
      ],
      path: "Sources/Harnesses/\(name)",
      // No top-level code and no @main: libFuzzer's runtime provides main.
      swiftSettings: [.unsafeFlags(["-parse-as-library"])])
  },
  swiftLanguageModes: [.v6]
)
