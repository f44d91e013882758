import Foundation
import RowKitGraphics

/// Decodes one item map of a document into a built-in item or a ``DocumentItem``.
struct ItemDecoder {
  let stylesheet: Stylesheet
  let resolver: ImageURLResolver
  let designs: [String: DesignTemplate]

  /// Keys every item may have besides its fields.
  static let commonKeys: Set<String> = ["type", "url", "accessoryURL", "selected", "background", "selectedBackground"]

  /// The built-in types and their fields, in the order the format reference and the table
  /// document schema list them.
  static let builtInItemFields: [(type: String, fields: Set<String>)] = {
    var fields: [(type: String, fields: Set<String>)] = []
    for type in ["text", "link", "button", "longText", "grayText", "summary", "activity", "styledText"] {
      fields.append((type, ["text"]))
    }
    for type in ["caption", "rightCaption", "subtext", "settings"] { fields.append((type, ["text", "caption"])) }
    fields.append(("subtitle", ["text", "subtitle", "imageURL", "defaultImage"]))
    fields.append(("moreButton", ["text", "subtitle", "loading"]))
    fields.append(("message", ["title", "caption", "text", "timestamp", "imageURL", "defaultImage"]))
    fields.append(("image", ["text", "imageURL", "defaultImage", "imageStyle"]))
    fields.append(("rightImage", ["text", "imageURL", "defaultImage", "imageStyle"]))
    fields.append(("control", ["caption", "control"]))
    fields.append(("checkmark", ["text", "checked"]))
    fields.append(("style", ["text", "style", "caption", "width", "height"]))
    return fields
  }()

  /// Each built-in type's fields.
  static let builtInFields: [String: Set<String>] = Dictionary(uniqueKeysWithValues: builtInItemFields.map { ($0.type, $0.fields) })

  static var builtInTypes: Set<String> { Set(builtInFields.keys) }

  func decode(_ value: YAMLValue) throws -> any TableItem {
    let typeValue = try value.mapping().required("type", "the item's type, such as text or subtitle")
    let type = try typeValue.string()
    if let fields = Self.builtInFields[type] {
      let map = try value.mapping(allowed: Self.commonKeys.union(fields))
      return try decodeBuiltIn(type, map, options: try options(map))
    }
    if let design = designs[type] {
      return try decodeDocumentItem(type, design: design, value)
    }
    var message = "unknown item type '\(type)' (built-in types: \(Self.builtInTypes.sorted().joined(separator: ", ")); "
      + "a custom type must be listed under cells:)"
    if let suggestion = YAMLValue.closest(to: type, in: Self.builtInTypes.union(designs.keys)) {
      message = "unknown item type '\(type)' (did you mean '\(suggestion)'? custom types must be listed under cells:)"
    }
    throw typeValue.error(message)
  }

  private func options(_ map: KeyedValues) throws -> ItemOptions {
    ItemOptions(
      url: try map["url"]?.text(), accessoryURL: try map["accessoryURL"]?.text(),
      isSelected: try map["selected"]?.bool() ?? false, background: try map["background"].map(styleName),
      selectedBackground: try map["selectedBackground"].map(styleName))
  }

  private func decodeBuiltIn(_ type: String, _ map: KeyedValues, options: ItemOptions) throws -> any TableItem {
    func text(_ key: String = "text") throws -> String { try map.required(key).text() }
    func optional(_ key: String) throws -> String? { try map[key]?.text() }
    switch type {
    case "text": return TextItem(text: try text(), options: options)
    case "link": return LinkItem(text: try text(), options: options)
    case "button": return ButtonItem(text: try text(), options: options)
    case "longText": return LongTextItem(text: try text(), options: options)
    case "grayText": return GrayTextItem(text: try text(), options: options)
    case "summary": return SummaryItem(text: try text(), options: options)
    case "activity": return ActivityItem(text: try text(), options: options)
    case "styledText":
      let value = try map.required("text")
      let source = try value.text()
      let markup: StyledTextMarkup
      do {
        markup = try StyledTextMarkup(parsing: source)
      } catch {
        throw value.error("malformed markup: \(error.message)")
      }
      for name in markup.styleClasses where stylesheet.styles[name] == nil {
        throw value.error("markup names class '\(name)', which the stylesheet has no style for")
      }
      for src in markup.imageSources {
        do {
          _ = try resolver.resolve(src)
        } catch {
          throw value.error("markup image: \(error.message)")
        }
      }
      return StyledTextItem(text: source, options: options)
    case "caption": return CaptionItem(text: try text(), caption: try optional("caption") ?? "", options: options)
    case "rightCaption":
      return RightCaptionItem(text: try text(), caption: try optional("caption") ?? "", options: options)
    case "subtext": return SubtextItem(text: try text(), caption: try optional("caption") ?? "", options: options)
    case "settings": return SettingsItem(text: try text(), caption: try optional("caption") ?? "", options: options)
    case "subtitle":
      return SubtitleItem(
        text: try text(), subtitle: try optional("subtitle"), imageURL: try imageURL(map["imageURL"]),
        defaultImage: try imageURL(map["defaultImage"]), options: options)
    case "moreButton":
      return MoreButtonItem(
        text: try text(), subtitle: try optional("subtitle"), isLoading: try map["loading"]?.bool() ?? false,
        options: options)
    case "message":
      let title = try optional("title")
      let body = try optional("text")
      if title == nil && body == nil { throw map.owner.error("a message needs a title or a text") }
      return MessageItem(
        title: title, caption: try optional("caption"), text: body ?? "", timestamp: try map["timestamp"]?.date(),
        imageURL: try imageURL(map["imageURL"]), defaultImage: try imageURL(map["defaultImage"]), options: options)
    case "image", "rightImage":
      let url = try imageURL(map["imageURL"])
      let fallback = try imageURL(map["defaultImage"])
      let style = try map["imageStyle"].map(styleName)
      let body = try text()
      return type == "image"
        ? ImageItem(text: body, imageURL: url, defaultImage: fallback, imageStyle: style, options: options)
        : RightImageItem(text: body, imageURL: url, defaultImage: fallback, imageStyle: style, options: options)
    case "control":
      return ControlItem(caption: try optional("caption"), control: try control(map.required("control")), options: options)
    case "checkmark":
      return CheckmarkItem(text: try text(), isChecked: try map["checked"]?.bool() ?? false, options: options)
    case "style":
      func size(_ key: String) throws -> Double? {
        guard let value = map[key] else { return nil }
        let number = try value.number(in: Bounds.length)
        guard number > 0 else { throw value.error("\(key) must be more than 0") }
        return number
      }
      return StyleItem(
        text: try text(), style: try styleName(map.required("style")), caption: try optional("caption"),
        width: try size("width"), height: try size("height"), options: options)
    default:
      throw map.owner.error("unknown item type '\(type)'")
    }
  }

  private func control(_ value: YAMLValue) throws -> ControlItem.Control {
    let map = try value.mapping(allowed: ["switch", "textField", "slider", "text"])
    let kinds = map.keys.filter { $0 != "text" }
    guard kinds.count == 1 else { throw value.error("a control is one of switch: true/false, textField: placeholder, slider: 0…1") }
    switch kinds[0] {
    case "switch": return .toggle(isOn: try map.required("switch").bool())
    case "textField":
      return .textField(placeholder: try map.required("textField").text(), text: try map["text"]?.text())
    default:
      let slider = try map.required("slider")
      let number = try slider.double()
      guard Bounds.fraction.contains(number) else { throw slider.error("a slider's value is from 0 to 1, not \(number)") }
      return .slider(value: number)
    }
  }

  private func styleName(_ value: YAMLValue) throws -> String {
    try value.styleName(in: stylesheet)
  }

  private func imageURL(_ value: YAMLValue?) throws -> String? {
    try value?.imageURL(resolver)
  }

  private func decodeDocumentItem(_ type: String, design: DesignTemplate, _ value: YAMLValue) throws -> DocumentItem {
    let loader = DesignFileLoader(stylesheet: stylesheet, fontFamilies: [], resolver: resolver)
    let fields = try loader.fields(value, for: design, extraKeys: Self.commonKeys)
    return DocumentItem(typeName: type, fields: fields, options: try options(value.mapping()), shownFields: design.shownFields)
  }
}
