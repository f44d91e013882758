import Foundation

/// How the process's allocator keeps the memory it frees.
enum ProcessMemory {
  /// Keeps freed memory for the next allocation rather than handing it back to the system
  /// at once. Rendering allocates and frees a bitmap of hundreds of kilobytes for every row,
  /// and a check holds a case's rows until it is compared: under glibc's defaults (a block
  /// over 128 KB mapped afresh, an arena trimmed once its free top passes about twice that)
  /// each of those bitmaps was fresh pages, a page fault every 4 KB, a sixth of a check's
  /// time. Now up to 32 MB stays free at the top of an arena, and only blocks over 16 MB are
  /// mapped alone.
  static func keepFreedMemory() {
    // `mallopt` is glibc's, declared in <malloc.h>, which Swift's Glibc module leaves out;
    // its options there: M_TRIM_THRESHOLD is -1, M_MMAP_THRESHOLD is -3. Another C library
    // has no such symbol, and keeps its defaults.
    typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else { return }
    let mallopt = unsafeBitCast(symbol, to: Mallopt.self)
    _ = mallopt(-3, 16 << 20)
    _ = mallopt(-1, 32 << 20)
  }
}
