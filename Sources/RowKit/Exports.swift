// RowKit's API speaks in RowKitGraphics' values (`EdgeInsets` in `CellDesign(padding:)`,
// `Rect`, `Color`, `Bitmap`, `PNG`): a user who imports RowKit gets them without a second
// import.
@_exported import RowKitGraphics
