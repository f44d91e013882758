import RowKitGraphics

/// One of Android's two pseudo-locales: a fake translation of every text of a row, so that
/// a design shows how it takes longer words and a right-to-left script before anyone
/// translates it.
///
/// The texts are transformed where they become text to shape
/// (``LayoutContext/shape(_:font:width:lines:alignment:ellipsize:maxHeight:runs:)``), for
/// every cell alike: labels, captions, badges, styled text, placeholders, section titles.
/// What is never shaped (URLs, a slider's value) is never transformed, and digits stay digits.
public enum PseudoLocale: String, Hashable, Sendable, CaseIterable {
  /// The texts as written: the source the pseudo-locales are made from, so that a variant
  /// matrix (and a contact sheet) can show a design beside its pseudo-locales.
  case source = "en"
  /// Accented and longer: every letter accented, the text in `[` `]`, padded with words.
  case accented = "en-XA"
  /// Right to left: every word forced right to left, and the row mirrored as `rtl` mirrors it.
  case bidi = "ar-XB"

  /// The direction rows take in this locale: `ar-XB` is a right-to-left locale.
  public var direction: LayoutDirection? { self == .bidi ? .rtl : nil }

  /// `text` as this locale shows it.
  public func transform(_ text: String) -> String {
    transform(text, runs: []).text
  }

  /// `text` as this locale shows it, with `runs` moved to the same characters in it (a
  /// styled text's bold word stays bold). The padding of `en-XA` takes no run.
  public func transform(_ text: String, runs: [TextRun]) -> (text: String, runs: [TextRun]) {
    var output = String.UnicodeScalarView()
    // offsets[i]: where the i-th scalar of `text` lands in the output (one past the end at i = count).
    var offsets: [Int] = []
    offsets.reserveCapacity(text.unicodeScalars.count + 1)
    switch self {
    case .source:
      return (text, runs)
    case .accented:
      output.append("[")
      for scalar in text.unicodeScalars {
        offsets.append(output.count)
        output.append(Self.accentedLetters[scalar] ?? scalar)
      }
      offsets.append(output.count)
      let padding = Self.padding(forLength: text.count, words: Self.countedWords(text))
      output.append(contentsOf: (" " + padding).unicodeScalars.map { Self.accentedLetters[$0] ?? $0 })
      output.append("]")
    case .bidi:
      var inWord = false
      for scalar in text.unicodeScalars {
        let isSpace = scalar.properties.isWhitespace
        if !inWord, !isSpace { output.append(contentsOf: Self.wordStart) }
        if inWord, isSpace { output.append(contentsOf: Self.wordEnd) }
        inWord = !isSpace
        offsets.append(output.count)
        output.append(scalar)
      }
      if inWord { output.append(contentsOf: Self.wordEnd) }
      offsets.append(output.count)
    }
    let moved = runs.map { run in
      TextRun(
        offsets[min(run.range.lowerBound, offsets.count - 1)]..<offsets[min(run.range.upperBound, offsets.count - 1)],
        run.attribute)
    }
    return (String(output), moved)
  }

  // MARK: en-XA

  /// The letters of en-XA, after Android's table (aapt2's `Pseudolocalizer.cpp`,
  /// `PseudolocalizeChar`), with these changes: `a` takes `á` (Android's `å`) as the issue
  /// that asked for this axis shows it; `F`, `q`, `v` and `Q`, which Android leaves as Latin
  /// letters (`F` unchanged, `q`↔`Q`, `v`→`V`), take accented forms, so that a plain ASCII
  /// letter anywhere in an en-XA render is always text that escaped the transformation; and
  /// `V` takes `Ṽ` (Android's Greek `ν`) to pair with `v`. Words are still counted as
  /// Android counts them (``countedWords(_:)``), so the padding is Android's.
  static let accentedLetters: [Unicode.Scalar: Unicode.Scalar] = {
    let pairs: [(Character, Unicode.Scalar)] = [
      ("a", "\u{E1}"), ("b", "\u{253}"), ("c", "\u{E7}"), ("d", "\u{F0}"), ("e", "\u{E9}"), ("f", "\u{192}"),
      ("g", "\u{11D}"), ("h", "\u{125}"), ("i", "\u{EE}"), ("j", "\u{135}"), ("k", "\u{137}"), ("l", "\u{13C}"),
      ("m", "\u{1E3F}"), ("n", "\u{F1}"), ("o", "\u{F6}"), ("p", "\u{FE}"), ("q", "\u{24B}"), ("r", "\u{155}"),
      ("s", "\u{161}"), ("t", "\u{163}"), ("u", "\u{FB}"), ("v", "\u{1E7D}"), ("w", "\u{175}"), ("x", "\u{445}"),
      ("y", "\u{FD}"), ("z", "\u{17E}"),
      ("A", "\u{C5}"), ("B", "\u{3B2}"), ("C", "\u{C7}"), ("D", "\u{D0}"), ("E", "\u{C9}"), ("F", "\u{191}"),
      ("G", "\u{11C}"), ("H", "\u{124}"), ("I", "\u{CE}"), ("J", "\u{134}"), ("K", "\u{136}"), ("L", "\u{13B}"),
      ("M", "\u{1E3E}"), ("N", "\u{D1}"), ("O", "\u{D6}"), ("P", "\u{DE}"), ("Q", "\u{24A}"), ("R", "\u{154}"),
      ("S", "\u{160}"), ("T", "\u{162}"), ("U", "\u{DB}"), ("V", "\u{1E7C}"), ("W", "\u{174}"), ("X", "\u{D7}"),
      ("Y", "\u{DD}"), ("Z", "\u{17D}"),
      ("!", "\u{A1}"), ("?", "\u{BF}"), ("$", "\u{20AC}"),
    ]
    return Dictionary(uniqueKeysWithValues: pairs.map { ($0.0.unicodeScalars.first!, $0.1) })
  }()

  /// The words en-XA pads with, in order, exactly as Android's `kExpansionString`: the
  /// numbers one to twenty as aapt2 spells them, `fiveteen` and no `eighteen`, so that a long
  /// text pads to the same length as on an Android device.
  public static let paddingWords = [
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
    "fourteen", "fiveteen", "sixteen", "seventeen", "nineteen", "twenty",
  ]

  /// The number of characters en-XA pads a text of `length` characters with, before the
  /// padding is rounded up to a whole word: Android's rule (aapt2 `Pseudolocalizer.cpp`,
  /// `PseudoMethodAccent::End`) pads with as many characters as the text has when it counts
  /// more than three words, and half as many otherwise.
  ///
  /// Android counts a word only where it starts with a character its accent table leaves
  /// alone (a digit, a sign, a letter of another script); ``countedWords(_:)`` counts the same
  /// way, so that ordinary English text takes the half, as on an Android device.
  public static func paddingTarget(forLength length: Int, words: Int) -> Int {
    words > 3 ? length : length / 2
  }

  /// The words of `text` that Android's rule counts (see ``paddingTarget(forLength:words:)``),
  /// by Android's own table: `F`, which RowKit accents and Android does not, starts a word
  /// that counts (`From Five Fine Farms` has four).
  public static func countedWords(_ text: String) -> Int {
    var count = 0
    var afterSpace = true
    for scalar in text.unicodeScalars where accentedLetters[scalar] == nil || scalar == "F" {
      let isSpace = scalar.properties.isWhitespace
      if afterSpace, !isSpace { count += 1 }
      afterSpace = isSpace
    }
    return count
  }

  /// The padding of a text of `length` characters with `words` counted words, exactly as
  /// Android's `PseudoGenerateExpansion` makes it for ``paddingTarget(forLength:words:)``
  /// characters: the padding words up to the end of the word at the target; past all of
  /// them, all of them, a space, and the padding for what is left once both are counted.
  /// Its quirks are kept, so that a text pads to the length it has on a device: a target
  /// that falls in the last word cuts its last letter (`twent`). Short texts grow most: `OK`
  /// becomes `[ÖĶ öñé]`.
  public static func padding(forLength length: Int, words: Int) -> String {
    String(expansion(paddingTarget(forLength: length, words: words)))
  }

  private static let allPaddingWords = Array(paddingWords.joined(separator: " "))

  private static func expansion(_ target: Int) -> [Character] {
    let all = allPaddingWords
    if all.count < target { return all + [" "] + expansion(target - (all.count + 1)) }
    // From the character after the target to the next space, that space left out; when no
    // space comes, aapt2 stops one character before the end.
    var extra = 0
    var index = target + 1
    while index < all.count {
      extra += 1
      if all[index] == " " { break }
      index += 1
    }
    return Array(all.prefix(target + extra))
  }

  /// `text` made longer by `fraction` of its length (0.2: 20% more characters, rounded),
  /// with a space and en-XA's padding words cut at exactly that many characters: the
  /// growth that measured headroom steps through. The length counts the characters that
  /// show: the invisible direction marks of ar-XB (four around each word) are no text to
  /// grow by.
  public static func grown(_ text: String, by fraction: Double) -> String {
    let length = text.reduce(0) { count, character in
      character.unicodeScalars.allSatisfy { $0.properties.generalCategory == .format } ? count : count + 1
    }
    let extra = Int((Double(length) * fraction).rounded())
    guard extra > 0 else { return text }
    var padding = ""
    var index = 0
    while padding.count < extra {
      padding += " " + paddingWords[index % paddingWords.count]
      index += 1
    }
    return text + padding.prefix(extra)
  }

  // MARK: ar-XB

  /// Android's marks around every word of ar-XB (aapt2 `Pseudolocalizer.cpp`,
  /// `PseudoMethodBidi::Text`): a right-to-left mark and a right-to-left override before it,
  /// a pop-directional-formatting and a right-to-left mark after it, so each word reads
  /// backwards and the words run right to left.
  static let wordStart: [Unicode.Scalar] = ["\u{200F}", "\u{202E}"]
  static let wordEnd: [Unicode.Scalar] = ["\u{202C}", "\u{200F}"]
}
