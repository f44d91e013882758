// Compares two bitmaps that differ in one pixel, as `rowkit diff`, `rowkit check` and the
// assertions do.
import RowKitGraphics
import RowKitSnapshot

let reference = Bitmap(width: 10, height: 10, color: .white)
var actual = reference
actual.pixels[0..<4] = [0, 0, 0, 255]
let outcome = ImageComparison.compare(reference, actual, options: .exact)
print(outcome.result.summary)  // 1 of 100 pixels differ (1%), 0 allowed; …
