import FuzzSupport

/// A table document in JSON, decoded as `rowkit render` and `measure` read one (from
/// `Assets/Samples/`), laid out, and its first rows painted.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDocumentJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  FuzzDocument.run(Fuzz.bytes(data, size), fileName: "fuzz.json")
  return 0
}
