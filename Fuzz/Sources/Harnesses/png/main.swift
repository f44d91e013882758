import FuzzSupport
import RowKitGraphics

/// PNG bytes, through libpng (image slots: `PNG.decode`) and through RowKit's own reader
/// (`PNGReader`, which `rowkit diff` and the snapshot store use), then as the pipeline and
/// diff take any image. Where both decoders accept a file, they must agree on its size.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = Fuzz.bytes(data, size)
  _ = try? PNG.header(bytes)
  let libpng = try? PNG.decode(bytes)
  let own = try? PNG.decodeRGBA(bytes)
  if let libpng, let own, (libpng.width, libpng.height) != (own.width, own.height) {
    fatalError("libpng reads \(libpng.width)×\(libpng.height), PNGReader \(own.width)×\(own.height)")
  }
  FuzzImage.decodeAsRowKitDoes(bytes)
  return 0
}
