#ifndef ROWKIT_CPANGO_SHIM_H
#define ROWKIT_CPANGO_SHIM_H
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
#include <fontconfig/fcfreetype.h>
#include <cairo-ft.h>
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
/// Whether anyone but the caller, who holds one reference, holds `object`: Pango's own
/// threads hold a font map while they match and sort fonts for it.
static inline int cpango_object_is_held_elsewhere(void *object) {
  return g_atomic_int_get(&G_OBJECT(object)->ref_count) > 1;
}

/// The file a shaped run's font was loaded from (fontconfig's FC_FILE of the font's
/// pattern), or NULL; a PangoCairoFont built for CAIRO_FONT_TYPE_FT is a PangoFcFont.
static inline const char *cpango_font_file(PangoFont *font) {
  if (!font || !PANGO_IS_FC_FONT(font)) return NULL;
  FcChar8 *file = NULL;
  if (FcPatternGetString(((PangoFcFont *)font)->font_pattern, FC_FILE, 0, &file) != FcResultMatch) return NULL;
  return (const char *)file;
}

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

/// RowKit's hook into how Pango's Cairo FreeType fonts make their Cairo font face, so that a
/// font map can draw from FreeType faces of its own (see FontFaces.swift).
///
/// Pango makes a font's Cairo font face lazily, from the font's fontconfig pattern, the
/// first time the font is measured or drawn. The hook replaces that step: for a font of a
/// font map that carries a face source (as object data), the face source opens the font's
/// file itself and the pattern handed to Cairo carries that face (FC_FT_FACE), so Cairo
/// draws from it rather than opening the file in its process-wide FreeType library. The
/// owner keeps a reference to each Cairo font face so made, so that Cairo never frees one
/// (and never unlinks it from its face's list, which it does without a lock). A face that
/// cannot be opened gives a font face that draws nothing, never none. Fonts of other font
/// maps go through Pango's own step unchanged.
typedef FT_Face (*cpango_face_source)(void *owner, const char *path, int index);
/// Takes one reference to a Cairo font face the hook made of `owner`'s faces, to keep it.
typedef void (*cpango_font_face_keeper)(void *owner, cairo_font_face_t *font_face);

/// Pango 1.50's PangoCairoFontIface, from its private pangocairo-private.h: the hook checks
/// at run time that the interface it finds has this shape before it changes anything.
typedef struct {
  GTypeInterface g_iface;
  cairo_font_face_t *(*create_font_face)(PangoCairoFont *font);
  PangoFontMetrics *(*create_base_metrics_for_context)(PangoCairoFont *font, PangoContext *context);
  gssize cf_priv_offset;
} cpango_cairo_font_iface;

typedef cairo_font_face_t *(*cpango_create_font_face_function)(PangoCairoFont *font);

// The hook's state is kept as data of Pango's font interface type rather than in C statics:
// Swift compiles this header's functions into each object file that calls them, each with
// statics of its own.
static inline GQuark cpango_face_owner_quark(void) { return g_quark_from_static_string("rowkit-face-owner"); }
static inline GQuark cpango_pango_step_quark(void) { return g_quark_from_static_string("rowkit-pango-create-font-face"); }
static inline GQuark cpango_face_source_quark(void) { return g_quark_from_static_string("rowkit-face-source"); }
static inline GQuark cpango_font_face_keeper_quark(void) { return g_quark_from_static_string("rowkit-font-face-keeper"); }

/// Gives `font_map`'s fonts the faces `owner` opens through the installed face source.
static inline void cpango_set_face_owner(PangoFontMap *font_map, void *owner) {
  g_object_set_qdata(G_OBJECT(font_map), cpango_face_owner_quark(), owner);
}

static cairo_font_face_t *cpango_create_font_face(PangoCairoFont *font) {
  PangoFcFont *fc_font = (PangoFcFont *)font;
  void *owner = fc_font->fontmap ? g_object_get_qdata(G_OBJECT(fc_font->fontmap), cpango_face_owner_quark()) : NULL;
  FcChar8 *file = NULL;
  int index = 0;
  if (owner && FcPatternGetString(fc_font->font_pattern, FC_FILE, 0, &file) == FcResultMatch) {
    FcPatternGetInteger(fc_font->font_pattern, FC_INDEX, 0, &index);
    cpango_face_source source = (cpango_face_source)g_type_get_qdata(PANGO_TYPE_CAIRO_FONT, cpango_face_source_quark());
    FT_Face face = source(owner, (const char *)file, index);
    FcPattern *pattern = face ? FcPatternDuplicate(fc_font->font_pattern) : NULL;
    if (pattern && FcPatternAddFTFace(pattern, FC_FT_FACE, face)) {
      cairo_font_face_t *font_face = cairo_ft_font_face_create_for_pattern(pattern);
      FcPatternDestroy(pattern);
      if (cairo_font_face_status(font_face) == CAIRO_STATUS_SUCCESS) {
        cpango_font_face_keeper keeper =
            (cpango_font_face_keeper)g_type_get_qdata(PANGO_TYPE_CAIRO_FONT, cpango_font_face_keeper_quark());
        keeper(owner, cairo_font_face_reference(font_face));
      }
      return font_face;
    }
    if (pattern) FcPatternDestroy(pattern);
    // The face could not be opened (its file damaged or removed since fontconfig read it).
    // Not NULL: Pango measures the font through its scaled font and would crash on none. Not
    // Cairo's own face of the file either, which would be shared between threads unlocked. A
    // user font face with no callbacks is a valid face that draws nothing; the shaper counts
    // the text as missing glyphs (FontFaces.unopenedFiles).
    return cairo_user_font_face_create();
  }
  cpango_create_font_face_function pango_step =
      (cpango_create_font_face_function)g_type_get_qdata(PANGO_TYPE_CAIRO_FONT, cpango_pango_step_quark());
  return pango_step(font);
}

/// Installs the hook in the interface of `sample`'s class (a font of a Cairo FreeType font
/// map), once per process; returns whether it is installed. Called again, it only says so.
/// The caller serializes calls, and holds the lock of text work with shared fonts: the check
/// below makes a Cairo font face of the sample's file.
static inline int cpango_install_face_hook(PangoFont *sample, cpango_face_source source, cpango_font_face_keeper keeper) {
  if (g_type_get_qdata(PANGO_TYPE_CAIRO_FONT, cpango_pango_step_quark())) return 1;
  // The interface has had this shape since Pango moved to HarfBuzz (1.44); check it anyway.
  if (pango_version() < PANGO_VERSION_ENCODE(1, 44, 0) || pango_version() >= PANGO_VERSION_ENCODE(2, 0, 0)) return 0;
  if (!sample || !PANGO_IS_CAIRO_FONT(sample) || !PANGO_IS_FC_FONT(sample)) return 0;
  cpango_cairo_font_iface *iface = g_type_interface_peek(G_OBJECT_GET_CLASS(sample), PANGO_TYPE_CAIRO_FONT);
  GTypeQuery query;
  g_type_query(G_TYPE_FROM_INSTANCE(sample), &query);
  if (!iface || iface->g_iface.g_type != PANGO_TYPE_CAIRO_FONT
      || iface->g_iface.g_instance_type != G_TYPE_FROM_INSTANCE(sample)
      || !iface->create_font_face || !iface->create_base_metrics_for_context
      || iface->cf_priv_offset < (gssize)sizeof(PangoFcFont) || iface->cf_priv_offset >= (gssize)query.instance_size)
    return 0;
  // The slot must make what the hook makes in its place: a FreeType font face.
  cairo_font_face_t *made = iface->create_font_face((PangoCairoFont *)sample);
  int is_freetype = made && cairo_font_face_status(made) == CAIRO_STATUS_SUCCESS
      && cairo_font_face_get_type(made) == CAIRO_FONT_TYPE_FT;
  if (made) cairo_font_face_destroy(made);
  if (!is_freetype) return 0;
  g_type_set_qdata(PANGO_TYPE_CAIRO_FONT, cpango_face_source_quark(), (gpointer)source);
  g_type_set_qdata(PANGO_TYPE_CAIRO_FONT, cpango_font_face_keeper_quark(), (gpointer)keeper);
  g_type_set_qdata(PANGO_TYPE_CAIRO_FONT, cpango_pango_step_quark(), (gpointer)iface->create_font_face);
  // Other threads may be reading the slot: publish the hook after what it reads.
  __atomic_store_n(&iface->create_font_face, cpango_create_font_face, __ATOMIC_RELEASE);
  return 1;
}

/// How a Pango font class measures a font in a language (PangoFontClass's get_metrics).
typedef PangoFontMetrics *(*cpango_get_metrics_function)(PangoFont *font, PangoLanguage *language);

/// Puts `hook` in the place of the get_metrics of `sample`'s class (a font of a Cairo
/// FreeType font map), once per process, and returns the function it replaced; returns NULL
/// and changes nothing if the class is not one it knows, or already measures with `hook`.
/// The caller serializes calls, and makes the first before any font of the class is measured.
static inline cpango_get_metrics_function cpango_install_metrics_hook(PangoFont *sample, cpango_get_metrics_function hook) {
  if (pango_version() < PANGO_VERSION_ENCODE(1, 44, 0) || pango_version() >= PANGO_VERSION_ENCODE(2, 0, 0)) return NULL;
  if (!sample || !PANGO_IS_CAIRO_FONT(sample) || !PANGO_IS_FC_FONT(sample)) return NULL;
  // The font's class must hold at least the PangoFontClass this header describes, or the
  // get_metrics slot is not where the header says.
  GTypeQuery query;
  g_type_query(G_TYPE_FROM_INSTANCE(sample), &query);
  if (query.type == 0 || query.class_size < sizeof(PangoFontClass)) return NULL;
  PangoFontClass *font_class = PANGO_FONT_GET_CLASS(sample);
  cpango_get_metrics_function pango_step = font_class->get_metrics;
  if (!pango_step || pango_step == hook) return NULL;
  __atomic_store_n(&font_class->get_metrics, hook, __ATOMIC_RELEASE);
  return pango_step;
}
#endif
