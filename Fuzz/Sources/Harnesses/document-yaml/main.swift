import FuzzSupport

/// A table document in YAML, decoded as `rowkit render` and `measure` read one (from
/// `Assets/Samples/`, so that the samples' stylesheets, designs and assets resolve), laid
/// out, and its first rows painted.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDocumentYAML(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  FuzzDocument.run(Fuzz.bytes(data, size), fileName: "fuzz.yaml")
  return 0
}
