// The style catalog document. `Assets/Styles/catalog.yaml` is the same text, so users can
// render and edit it; scripts/embed-style-catalog.py copies it here, and a test keeps the
// two identical.

extension StyleCatalog {
  static let document = #"""
# RowKit's style catalog: every style element and every shape, each row labelled with what it
# shows. `rowkit catalog --styles` draws this same document; render it yourself with
#   rowkit render Assets/Styles/catalog.yaml -o styles.png
table:
  width: 375
  scale: 2
  style: plain
assets: ..
stylesheet:
  extends: default
  vars:
    sampleBlue: "#2F6FD0"
    sampleRed: "#C8323C"
    sampleInk: "#1C2430"
    samplePaper: "#F4F6F9"
    sampleRadius: 8
    sampleFont: "Inter Semi-Bold 13"
  styles:
    # Shapes, each filled and outlined.
    rectangleShape:
      - shape: rectangle
      - fill: samplePaper
      - border: { color: sampleBlue, width: 1 }
      - text: { font: sampleFont, color: sampleInk }
    roundedShape:
      - shape: { roundedRect: sampleRadius }
      - fill: samplePaper
      - border: { color: sampleBlue, width: 1 }
      - text: { font: sampleFont, color: sampleInk }
    pillShape:
      - shape: { roundedRect: -1 }
      - fill: samplePaper
      - border: { color: sampleBlue, width: 1 }
      - text: { font: sampleFont, color: sampleInk }
    cornersShape:
      - shape: { roundedRect: [16, 2, 16, 2] }
      - fill: samplePaper
      - border: { color: sampleBlue, width: 1 }
      - text: { font: sampleFont, color: sampleInk }
    leftArrowShape:
      - shape: { roundedLeftArrow: 5 }
      - fill: samplePaper
      - border: { color: sampleBlue, width: 1 }
      - text: { font: sampleFont, color: sampleInk }
    rightArrowShape:
      - shape: { roundedRightArrow: 5 }
      - fill: samplePaper
      - border: { color: sampleBlue, width: 1 }
      - text: { font: sampleFont, color: sampleInk }
    bubbleTop:
      - shape: { speechBubble: { radius: 6, pointLocation: 60, pointAngle: 90, pointSize: [12, 7] } }
      - fill: samplePaper
      - border: { color: sampleBlue, width: 1 }
      - text: { font: sampleFont, color: sampleInk }
    bubbleRight:
      - shape: { speechBubble: { radius: 6, pointLocation: 180, pointAngle: 180, pointSize: [7, 12] } }
      - fill: samplePaper
      - border: { color: sampleBlue, width: 1 }
      - text: { font: sampleFont, color: sampleInk }
    bubbleBottom:
      - shape: { speechBubble: { radius: 6, pointLocation: 290, pointAngle: 270, pointSize: [12, 7] } }
      - fill: samplePaper
      - border: { color: sampleBlue, width: 1 }
      - text: { font: sampleFont, color: sampleInk }
    bubbleLeft:
      - shape: { speechBubble: { radius: 6, pointLocation: 0, pointAngle: 0, pointSize: [7, 12] } }
      - fill: samplePaper
      - border: { color: sampleBlue, width: 1 }
      - text: { font: sampleFont, color: sampleInk }
    # Fills.
    solidFill:
      - shape: { roundedRect: 6 }
      - fill: sampleBlue
      - text: { font: sampleFont, color: "#FFFFFF" }
    gradientFill:
      - shape: { roundedRect: 6 }
      - linearGradient: ["#7FB2F0", sampleBlue]
      - text: { font: sampleFont, color: "#FFFFFF" }
    glossFill:
      - shape: { roundedRect: 6 }
      - reflectiveFill: sampleRed
      - text: { font: sampleFont, color: "#FFFFFF" }
    glossBottomFill:
      - shape: { roundedRect: 6 }
      - reflectiveFill: { color: sampleRed, bottomHighlight: true }
      - text: { font: sampleFont, color: "#FFFFFF" }
    # Frame changers.
    insetBox:
      - fill: "#D9E3F2"
      - inset: [4, 12, 4, 12]
      - fill: sampleBlue
      - text: { font: sampleFont, color: "#FFFFFF" }
    outsetBox:
      - inset: 6
      - fill: "#D9E3F2"
      - inset: -4
      - border: { color: sampleBlue, width: 1 }
      - text: { font: sampleFont, color: sampleInk }
    paddedBox:
      - shape: { roundedRect: 4 }
      - fill: samplePaper
      - border: { color: "#9AA5B4", width: 1 }
      - box: { padding: [4, 4, 4, 20] }
      - text: { font: sampleFont, color: sampleInk, align: left }
    marginBox:
      - fill: "#D9E3F2"
      - box: { margin: [5, 24, 5, 24] }
      - shape: { roundedRect: 4 }
      - fill: samplePaper
      - border: { color: "#9AA5B4", width: 1 }
      - text: { font: sampleFont, color: sampleInk }
    # Shadows.
    dropShadow:
      - shape: { roundedRect: 6 }
      - shadow: { color: "#00000080", blur: 6, offset: [0, 3] }
      - fill: "#FFFFFF"
      - text: { font: sampleFont, color: sampleInk }
    sideShadow:
      - shape: { roundedRect: 6 }
      - shadow: { color: "#2F6FD0A0", blur: 4, offset: [4, 0] }
      - fill: samplePaper
      - text: { font: sampleFont, color: sampleInk }
    innerShadowBox:
      - shape: { roundedRect: 8 }
      - fill: "#FFFFFF"
      - innerShadow: { color: "#00000099", blur: 6, offset: [0, 2] }
      - text: { font: sampleFont, color: sampleInk }
    # Borders.
    solidBorder:
      - shape: { roundedRect: 6 }
      - border: { color: sampleRed, width: 2 }
      - text: { font: sampleFont, color: sampleRed }
    highlightBorderBox:
      - shape: { roundedRect: 6 }
      - fill: "#E9EDF2"
      - highlightBorder: { color: "#7A8596", highlight: "#FFFFFF", width: 1 }
      - text: { font: sampleFont, color: sampleInk }
    fourBorderBox:
      - fill: samplePaper
      - fourBorder: { top: sampleRed, right: sampleBlue, bottom: "#2E9E4F", left: "#E0A020", width: 3 }
      - text: { font: sampleFont, color: sampleInk }
    bevelFromAbove:
      - shape: { roundedRect: 4 }
      - fill: "#C9D1DC"
      - bevelBorder: { highlight: "#FFFFFF", shadow: "#5A6675", width: 2, lightSource: 90 }
      - text: { font: sampleFont, color: sampleInk }
    bevelFromBelow:
      - shape: { roundedRect: 4 }
      - fill: "#C9D1DC"
      - bevelBorder: { highlight: "#FFFFFF", shadow: "#5A6675", width: 2, lightSource: 270 }
      - text: { font: sampleFont, color: sampleInk }
    gradientBorderBox:
      - shape: { roundedRect: -1 }
      - fill: "#FFFFFF"
      - gradientBorder: { colors: [sampleBlue, sampleRed], locations: [0, 1], width: 3 }
      - text: { font: sampleFont, color: sampleInk }
    # Blending, text and content.
    multiplyBlend:
      - linearGradient: ["#FFE08A", "#F29E4C"]
      - inset: [0, 40, 0, 0]
      - blend: multiply
      - fill: "#5B8DEF"
      - text: { font: sampleFont, color: "#FFFFFF" }
    shadowedText:
      - shape: { roundedRect: 6 }
      - linearGradient: ["#4A5566", "#2B323C"]
      - text: { font: "Inter Bold 15", color: "#FFFFFF", shadowColor: "#000000", shadowOffset: [0, -1] }
    contentInside:
      - shape: { roundedRect: 6 }
      - fill: sampleBlue
      - inset: 3
      - shape: { roundedRect: 4 }
      - fill: "#FFFFFF"
      - content
      - inset: 3
      - border: { color: "#2F6FD040", width: 3 }
      - text: { font: sampleFont, color: sampleBlue }
    # Row backgrounds and styled-text classes.
    card:
      - inset: [2, 3, 2, 3]
      - shape: { roundedRect: 8 }
      - shadow: { color: "#00000040", blur: 2, offset: [0, 1] }
      - fill: "#FFFFFF"
      - border: { color: "#C8C7CC", width: 1 }
      - content
    cardSelected:
      - inset: [2, 3, 3, 3]
      - shape: { roundedRect: 8 }
      - linearGradient: ["#058CF5", "#015DE6"]
      - content
    highlight:
      - fill: "#FFF3B0"
      - text: { color: "#7A4B00" }
    code:
      - text: { font: "DejaVu Sans Mono 13", color: "#C8323C" }
sections:
  - header: Shapes
    items:
      - { type: style, text: "shape: rectangle", style: rectangleShape, caption: Rectangle, width: 140, height: 34 }
      - { type: style, text: "shape: roundedRect 8", style: roundedShape, caption: Rounded, width: 140, height: 34 }
      - { type: style, text: "shape: roundedRect -1, a pill", style: pillShape, caption: Pill, width: 140, height: 34 }
      - { type: style, text: "shape: roundedRect, four radii", style: cornersShape, caption: Corners, width: 140, height: 34 }
      - { type: style, text: "shape: roundedLeftArrow", style: leftArrowShape, caption: Back, width: 140, height: 34 }
      - { type: style, text: "shape: roundedRightArrow", style: rightArrowShape, caption: Forward, width: 140, height: 34 }
      - { type: style, text: "shape: speechBubble, pointing up", style: bubbleTop, caption: Hello, width: 140, height: 44 }
      - { type: style, text: "shape: speechBubble, pointing right", style: bubbleRight, caption: Hello, width: 140, height: 36 }
      - { type: style, text: "shape: speechBubble, pointing down", style: bubbleBottom, caption: Hello, width: 140, height: 44 }
      - { type: style, text: "shape: speechBubble, pointing left", style: bubbleLeft, caption: Hello, width: 140, height: 36 }
  - header: Fills
    items:
      - { type: style, text: "fill", style: solidFill, caption: Fill, width: 140, height: 34 }
      - { type: style, text: "linearGradient", style: gradientFill, caption: Gradient, width: 140, height: 34 }
      - { type: style, text: "reflectiveFill", style: glossFill, caption: Gloss, width: 140, height: 34 }
      - { type: style, text: "reflectiveFill with bottomHighlight", style: glossBottomFill, caption: Gloss, width: 140, height: 34 }
  - header: Frames
    items:
      - { type: style, text: "inset: shrinks the frame for what follows", style: insetBox, caption: Inset, width: 140, height: 34 }
      - { type: style, text: "inset: negative grows it again", style: outsetBox, caption: Outset, width: 140, height: 34 }
      - { type: style, text: "box: padding moves the content", style: paddedBox, caption: Padded, width: 140, height: 34 }
      - { type: style, text: "box: margin keeps the box off its frame", style: marginBox, caption: Margin, width: 140, height: 40 }
  - header: Shadows
    items:
      - { type: style, text: "shadow, blurred and offset down", style: dropShadow, caption: Shadow, width: 140, height: 40 }
      - { type: style, text: "shadow, offset to the side", style: sideShadow, caption: Shadow, width: 140, height: 40 }
      - { type: style, text: "innerShadow", style: innerShadowBox, caption: Inner, width: 140, height: 36 }
  - header: Borders
    items:
      - { type: style, text: "border", style: solidBorder, caption: Border, width: 140, height: 34 }
      - { type: style, text: "highlightBorder", style: highlightBorderBox, caption: Highlight, width: 140, height: 34 }
      - { type: style, text: "fourBorder, a color per side", style: fourBorderBox, caption: Four, width: 140, height: 34 }
      - { type: style, text: "bevelBorder, light from above", style: bevelFromAbove, caption: Raised, width: 140, height: 34 }
      - { type: style, text: "bevelBorder, light from below", style: bevelFromBelow, caption: Sunken, width: 140, height: 34 }
      - { type: style, text: "gradientBorder", style: gradientBorderBox, caption: Gradient, width: 140, height: 34 }
  - header: Blend, text and content
    items:
      - { type: style, text: "blend: multiply over a gradient", style: multiplyBlend, caption: Multiply, width: 140, height: 34 }
      - { type: style, text: "text: font, color and shadow", style: shadowedText, caption: Text, width: 140, height: 34 }
      - { type: style, text: "content: drawn inside the inner shape", style: contentInside, caption: Content, width: 140, height: 40 }
  - header: Default stylesheet
    items:
      - { type: style, text: "badge", style: badge, caption: "12" }
      - { type: style, text: "toolbarButton", style: toolbarButton, caption: Edit }
      - { type: style, text: "toolbarBackButton", style: toolbarBackButton, caption: Back }
      - { type: style, text: "toolbarForwardButton", style: toolbarForwardButton, caption: Next }
      - { type: style, text: "blackBezel", style: blackBezel, caption: Loading, width: 140, height: 34 }
      - { type: style, text: "whiteBezel", style: whiteBezel, caption: Loading, width: 140, height: 34 }
      - { type: style, text: "speechBubble", style: speechBubble, caption: Hi there }
  - header: Rows and styled text
    footer: A card row, the same row selected, and styled text with classes
    items:
      - type: subtitle
        text: A card row
        subtitle: "background: card"
        url: app://card
        background: card
        selectedBackground: cardSelected
      - type: subtitle
        text: The same row, selected
        subtitle: "selectedBackground: cardSelected"
        url: app://card
        background: card
        selectedBackground: cardSelected
        selected: true
      - type: styledText
        text: "Styled text: <b>bold</b>, <i>italic</i>, <a href=\"app://docs\">a link</a>, <span class=\"highlight\">a class</span> and <span class=\"code\">code</span>."
      - type: styledText
        text: "<div>An inline image <img src=\"bundle://images/person.png\" width=\"18\" height=\"18\"/> sits on the baseline,</div><div>and links <a href=\"app://x\">wrap over the end of a line</a> like text.</div>"

"""#
}
