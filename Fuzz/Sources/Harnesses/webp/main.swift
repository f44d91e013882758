import FuzzSupport
import RowKitGraphics

/// WebP bytes through libwebp: the header, the premultiplied decode of image slots and the
/// straight RGBA decode of diff, then as the pipeline and diff take any image.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = Fuzz.bytes(data, size)
  _ = try? WebP.header(bytes)
  _ = try? WebP.decode(bytes)
  _ = try? WebP.decodeRGBA(bytes)
  FuzzImage.decodeAsRowKitDoes(bytes)
  return 0
}
