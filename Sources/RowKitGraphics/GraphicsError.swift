/// A failure in the graphics layer: a missing font file, a surface Cairo refused, a PNG that
/// does not decode. `description` is one line, fit for a command-line error.
public struct GraphicsError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Hashable, Sendable {
    case missingFont
    case fontConfiguration
    case unknownFont
    case surface
    case pngDecode
    case pngEncode
    case jpegDecode
    case jpegEncode
    case webpDecode
    case webpEncode
    case unknownImageFormat
    case imageTooLarge
  }

  public var kind: Kind
  public var message: String

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { message }
}
