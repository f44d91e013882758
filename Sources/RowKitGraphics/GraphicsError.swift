/// A failure in the graphics layer: a missing font file, a surface Cairo refused, a PNG that
/// does not decode. `description` is one line, fit for a command-line error.
public struct GraphicsError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Kind: Hashable, Sendable {
    /// A font file is missing or cannot be read.
    case missingFont
    /// fontconfig or Pango could not set up the fonts, or a file is not a font they can read.
    case fontConfiguration
    /// A font the text environment does not provide.
    case unknownFont
    /// Cairo could not create an image surface.
    case surface
    /// The data is not a PNG that can be decoded.
    case pngDecode
    /// A PNG could not be encoded or written.
    case pngEncode
    /// The data is not a JPEG that can be decoded.
    case jpegDecode
    /// A JPEG could not be encoded.
    case jpegEncode
    /// The data is not a WebP image that can be decoded.
    case webpDecode
    /// A WebP image could not be encoded.
    case webpEncode
    /// The data is neither a PNG, a JPEG nor a WebP image.
    case unknownImageFormat
    /// The image has more pixels than the decoder's limit allows.
    case imageTooLarge
    /// An HTTP download had no response: libcurl missing, no connection, a timeout, a body
    /// over the size limit.
    case download
  }

  /// What kind of failure this is.
  public var kind: Kind
  /// A one-line explanation that names the file or library involved.
  public var message: String

  /// An error of `kind` explained by `message`.
  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  /// The ``message``.
  public var description: String { message }
}
