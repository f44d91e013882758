/// The data of one row. A cell turns it into a ``RowLayout``.
///
/// Items are plain values: the same item always lays out the same way, which is why a row
/// can never show another row's stale text or image.
///
/// ```swift
/// struct ProductItem: TableItem {
///   var title: String
///   var subtext: String
/// }
/// ```
public protocol TableItem: Sendable, Hashable {
  /// The name documents and manifests use for this type (`subtitle`, `PersonItem`).
  static var typeName: String { get }
  /// The type name of this item; the same as the static one, except for items whose type is
  /// named at run time (``DocumentItem``).
  var typeName: String { get }
  /// What every row may carry besides its data: links, selection and background styles.
  var options: ItemOptions { get }
}

extension TableItem {
  /// The type's Swift name.
  public static var typeName: String { String(describing: Self.self) }
  /// No options: no link, not selected, the table's backgrounds.
  public var options: ItemOptions { ItemOptions() }
  /// The static ``typeName``.
  public var typeName: String { Self.typeName }
}

/// What any row may carry besides its data.
public struct ItemOptions: Hashable, Sendable {
  /// Where tapping the row leads. A URL gives the row a disclosure chevron.
  public var url: String?
  /// Where the accessory button leads. With ``url`` it gives a detail-disclosure button.
  public var accessoryURL: String?
  /// Draw the row in its selected state.
  public var isSelected: Bool
  /// A stylesheet style drawn behind the row instead of the table's cell background.
  public var background: String?
  /// A stylesheet style drawn behind the row when it is selected.
  public var selectedBackground: String?

  /// Options with no link, not selected, on the table's backgrounds unless told otherwise.
  public init(
    url: String? = nil, accessoryURL: String? = nil, isSelected: Bool = false,
    background: String? = nil, selectedBackground: String? = nil
  ) {
    self.url = url
    self.accessoryURL = accessoryURL
    self.isSelected = isSelected
    self.background = background
    self.selectedBackground = selectedBackground
  }
}
