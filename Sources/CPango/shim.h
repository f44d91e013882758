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
#endif
