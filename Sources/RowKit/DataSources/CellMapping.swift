/// Decides which cell draws which item.
///
/// The lookup order is:
/// 1. a cell registered for the item's own type (for items typed at run time, such as
///    ``DocumentItem``, for its type name);
/// 2. a cell registered for a family the item belongs to (a protocol such as
///    `(any TextContentItem).self`), the most recent registration first;
/// 3. the built-in default cell of a built-in item;
/// 4. ``FallbackCell``, which draws a visible warning instead of nothing.
///
/// Because the item's own type is looked up first, the order of registrations never decides
/// between a type and its family, as the order of an `isKindOfClass` chain did in Three20.
public struct CellMapping: Sendable {
  private var exact: [ObjectIdentifier: AnyTableCell] = [:]
  private var named: [String: AnyTableCell] = [:]
  private var families: [(name: String, matches: @Sendable (any TableItem) -> Bool, cell: AnyTableCell)] = []
  /// Whether the built-in defaults apply.
  public var usesBuiltInDefaults: Bool

  /// An empty mapping; with `usesBuiltInDefaults`, the built-in items still get their built-in cells.
  public init(usesBuiltInDefaults: Bool = true) {
    self.usesBuiltInDefaults = usesBuiltInDefaults
  }

  /// Draws items of exactly `type` with `cell`, replacing any earlier registration for it.
  public mutating func register<Cell: TableCell, Item: TableItem>(_ cell: Cell, for type: Item.Type) {
    exact[ObjectIdentifier(type)] = AnyTableCell(cell)
  }

  /// Draws items whose run-time type name is `typeName` (document items) with `cell`.
  public mutating func register<Cell: TableCell>(_ cell: Cell, forTypeNamed typeName: String) {
    named[typeName] = AnyTableCell(cell)
  }

  /// Draws every item that conforms to `family` (an existential such as
  /// `(any CaptionedItem).self`) with `cell`, unless its own type has a registration.
  public mutating func register<Cell: TableCell, Family>(_ cell: Cell, forFamily family: Family.Type) {
    families.append((String(describing: family), { $0 is Family }, AnyTableCell(cell)))
  }

  /// The cell for `item`.
  public func cell(for item: any TableItem) -> AnyTableCell {
    if let item = item as? DocumentItem, let cell = named[item.typeName] { return cell }
    if let cell = exact[ObjectIdentifier(type(of: item))] { return cell }
    for family in families.reversed() where family.matches(item) && family.cell.accepts(item) {
      return family.cell
    }
    if usesBuiltInDefaults, let cell = CellMapping.builtInDefaults[ObjectIdentifier(type(of: item))] {
      return cell
    }
    return CellMapping.fallback
  }

  static let fallback = AnyTableCell(FallbackCell())

  /// Each built-in item's default cell, as Three20's `cellClassForObject:` mapped them.
  static let builtInDefaults: [ObjectIdentifier: AnyTableCell] = {
    var cells: [ObjectIdentifier: AnyTableCell] = [:]
    func add<Item: TableItem, Cell: TableCell>(_ type: Item.Type, _ cell: Cell) {
      cells[ObjectIdentifier(type)] = AnyTableCell(cell)
    }
    // Each role TextCell draws, in the role's own style.
    func addText<Role: TextCellRole>(_ role: Role.Type) { add(TextContent<Role>.self, TextCell(style: Role.style)) }
    addText(TextRoles.Plain.self)
    addText(TextRoles.Link.self)
    addText(TextRoles.Button.self)
    addText(TextRoles.LongText.self)
    addText(TextRoles.GrayText.self)
    addText(TextRoles.Summary.self)
    add(CaptionItem.self, CaptionCell())
    add(RightCaptionItem.self, RightCaptionCell())
    add(SubtextItem.self, SubtextCell())
    add(SettingsItem.self, SettingsCell())
    add(SubtitleItem.self, SubtitleCell())
    add(MoreButtonItem.self, MoreButtonCell())
    add(MessageItem.self, MessageCell())
    add(ImageItem.self, ImageCell())
    add(RightImageItem.self, RightImageCell())
    add(StyledTextItem.self, StyledTextCell())
    add(ActivityItem.self, ActivityCell())
    add(ControlItem.self, ControlCell())
    add(CheckmarkItem.self, CheckmarkCell())
    add(StyleItem.self, StyleCell())
    return cells
  }()
}
