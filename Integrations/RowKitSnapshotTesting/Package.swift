// swift-tools-version: 6.0
import PackageDescription

// A package of its own, so that RowKit's users who do not use swift-snapshot-testing never
// resolve or build it.
let package = Package(
  name: "RowKitSnapshotTesting",
  products: [
    .library(name: "RowKitSnapshotTesting", targets: ["RowKitSnapshotTesting"])
  ],
  dependencies: [
    // Named, because a path dependency is otherwise known by its folder's name, which is the
    // clone's name here.
    .package(name: "RowKit", path: "../.."),
    .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.0"),
  ],
  targets: [
    .target(
      name: "RowKitSnapshotTesting",
      dependencies: [
        .product(name: "RowKit", package: "RowKit"),
        .product(name: "RowKitGraphics", package: "RowKit"),
        .product(name: "RowKitSnapshot", package: "RowKit"),
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
      ]),
    .testTarget(
      name: "RowKitSnapshotTestingTests",
      dependencies: [
        "RowKitSnapshotTesting",
        .product(name: "RowKit", package: "RowKit"),
        .product(name: "RowKitSnapshot", package: "RowKit"),
        .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
