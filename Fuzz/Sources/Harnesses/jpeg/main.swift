import FuzzSupport
import RowKitGraphics

/// JPEG bytes through libjpeg-turbo: the header, a decode scaled down toward an image
/// slot's size, a whole decode to RGBA, then as the pipeline and diff take any image.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = Fuzz.bytes(data, size)
  _ = try? JPEG.header(bytes)
  _ = try? JPEG.decode(bytes, atLeast: (width: 8, height: 8))
  _ = try? JPEG.decodeRGBA(bytes)
  FuzzImage.decodeAsRowKitDoes(bytes)
  return 0
}
