#ifndef ROWKIT_CPANGO_SHIM_H
#define ROWKIT_CPANGO_SHIM_H
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
#include <hb.h>
#include <ft2build.h>
#include FT_FREETYPE_H

/// PANGO_PIXELS and friends are function-like macros, which Swift cannot import.
static inline double cpango_units_to_double(int units) { return (double)units / PANGO_SCALE; }
static inline int cpango_units_from_double(double value) { return pango_units_from_double(value); }
static inline int cpango_scale(void) { return PANGO_SCALE; }

/// The GObject cast macros are not importable either; a PangoCairoFontMap built for
/// CAIRO_FONT_TYPE_FT is a PangoFcFontMap.
static inline PangoFcFontMap *cpango_fc_font_map(PangoFontMap *map) { return PANGO_FC_FONT_MAP(map); }
static inline void cpango_object_unref(void *object) { g_object_unref(object); }

/// Whether a character is strongly right to left (bidi type R or AL), as Pango's
/// auto-direction reads it. pango_bidi_type_for_unichar is deprecated since 1.44 in favour
/// of calling FriBidi, which it wraps; it is the same answer Pango's own layout uses.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static inline int cpango_bidi_strength(gunichar character) {
  PangoBidiType type = pango_bidi_type_for_unichar(character);
  if (type == PANGO_BIDI_TYPE_L) return 1;
  if (type == PANGO_BIDI_TYPE_R || type == PANGO_BIDI_TYPE_AL) return -1;
  return 0;
}
#pragma GCC diagnostic pop
#endif
