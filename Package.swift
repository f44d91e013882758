// swift-tools-version: 6.1
// RowKit is Linux-only: it draws with Cairo, Pango and FreeType through fontconfig, reads
// fonts from Debian's packages and names its threads through /proc.
import PackageDescription

let package = Package(
  name: "RowKit",
  products: [
    .library(name: "RowKit", targets: ["RowKit"]),
    .library(name: "RowKitGraphics", targets: ["RowKitGraphics"]),
    .library(name: "RowKitSnapshot", targets: ["RowKitSnapshot"]),
    .library(name: "RowKitSnapshotAssertions", targets: ["RowKitSnapshotAssertions"]),
    .executable(name: "rowkit", targets: ["rowkit"]),
    .executable(name: "rowkit-review", targets: ["rowkit-review"]),
  ],
  traits: [
    // Without it (`swift build --disable-default-traits`), zlib compresses, inflates and
    // checksums PNG data in ISA-L's place: the same pixels, other compressed bytes, and no
    // libisal needed. CI builds and checks both.
    .trait(name: "ISAL", description: "PNG data compressed and inflated by Intel's ISA-L (igzip), several times faster than zlib."),
    .default(enabledTraits: ["ISAL"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    // The HTTP server of `rowkit review` alone: no library target links it.
    .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    // `swift package generate-documentation`: a command plugin, never linked into a product.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
  ],
  targets: [
    // MARK: - C system libraries (installed by scripts/setup.sh)
    .systemLibrary(
      name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"])]),
    .systemLibrary(
      name: "CPango", pkgConfig: "pangocairo pangoft2", providers: [.apt(["libpango1.0-dev"])]),
    .systemLibrary(
      name: "CPNG", pkgConfig: "libpng16", providers: [.apt(["libpng-dev"])]),
    .systemLibrary(
      name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
    .systemLibrary(
      name: "CISAL", pkgConfig: "libisal", providers: [.apt(["libisal-dev"])]),
    // libcurl's header only: the library is loaded with dlopen at the first download.
    .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
    .systemLibrary(
      name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"])]),
    // The C library's calls that Swift cannot make (variadic ones, macros): no library of its
    // own, a C file built with the package.
    .target(name: "CSystem"),
    // Pixel loops in SSSE3, which Swift does not vectorize for the baseline x86-64 processor:
    // a header only, called where the processor has it.
    .systemLibrary(name: "CPixels"),

    // MARK: - Libraries
    .target(
      name: "RowKitGraphics",
      dependencies: [
        "CCairo", "CPango", "CPNG", "CTurboJPEG", "CWebP", .target(name: "CISAL", condition: .when(traits: ["ISAL"])), "CSystem", "CPixels",
        "CCurl",
      ],
      swiftSettings: [.define("ROWKIT_ISAL", .when(traits: ["ISAL"]))]),
    .target(
      name: "RowKit",
      dependencies: ["RowKitGraphics", .product(name: "Yams", package: "Yams")]),
    .target(
      name: "RowKitSnapshot", dependencies: ["RowKit", "RowKitGraphics"], plugins: ["RenderCodeDigest"]),
    // The local review server of `rowkit review`: kept out of the libraries and out of
    // `rowkit` itself, so that nothing but that subcommand links an HTTP server.
    .target(
      name: "RowKitReview",
      dependencies: [
        "RowKitSnapshot", "RowKitGraphics", .product(name: "FlyingFox", package: "FlyingFox"),
        .product(name: "FlyingSocks", package: "FlyingFox"),
      ]),
    // assertSnapshot for XCTest and Swift Testing: test targets depend on this one.
    .target(name: "RowKitSnapshotAssertions", dependencies: ["RowKitSnapshot"]),

    // MARK: - Executables
    .executableTarget(
      name: "rowkit",
      dependencies: [
        "RowKit", "RowKitSnapshot", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),
    // The program `rowkit review` runs in its place (exec, from beside the `rowkit` binary):
    // FlyingFox links FoundationNetworking, and with it libcurl and libssl, which would cost
    // every other subcommand, `--help` included, milliseconds at each start.
    .executableTarget(name: "rowkit-review", dependencies: ["RowKitReview", "RowKitSnapshot", "RowKitGraphics"]),
    .executableTarget(
      name: "rowkit-bench", dependencies: ["RowKit"], path: "Benchmarks/rowkit-bench"),

    // MARK: - Build tools
    // The digest of the drawing code that the render cache keys on, taken by every build.
    .plugin(name: "RenderCodeDigest", capability: .buildTool()),

    // MARK: - Tests
    .target(name: "RowKitTestSupport", dependencies: ["RowKit", "RowKitSnapshot"], path: "Tests/RowKitTestSupport"),
    .testTarget(name: "RowKitGraphicsTests", dependencies: ["RowKitGraphics", "RowKitTestSupport"]),
    .testTarget(name: "RowKitTests", dependencies: ["RowKit", "RowKitSnapshot", "RowKitSnapshotAssertions", "RowKitTestSupport"]),
    .testTarget(
      name: "RowKitSnapshotTests", dependencies: ["RowKit", "RowKitSnapshot", "RowKitSnapshotAssertions", "RowKitTestSupport"]),
    .testTarget(name: "RowKitCLITests", dependencies: ["rowkit", "rowkit-review", "RowKit", "RowKitGraphics", "RowKitSnapshot", "RowKitTestSupport"]),
    .testTarget(
      name: "RowKitReviewTests", dependencies: ["RowKitReview", "RowKitSnapshot", "RowKitGraphics", "RowKitTestSupport"]),

    // MARK: - Snippets
    // No target: SwiftPM builds every file of Snippets/ as a program of its own (`swift run
    // NAME` runs it), and the DocC articles show them with `@Snippet`.
  ],
  swiftLanguageModes: [.v6]
)
