// subtitle-rows: the baseline for RowKit's row benchmark, written straight against Cairo,
// Pango and a PNG encoder, with nothing in between.
//
// It draws the same subtitle rows as `rowkit-bench` (the same words from the same generator,
// Inter Bold 17 over Inter 14 wrapped to two lines, 10-point paddings, a gray chevron, a
// separator; 375 points wide at scale 2) into one table PNG. Each row is measured once (one
// PangoLayout per label), the table's height is summed, and then each row is painted from
// its layouts and its scanlines are streamed into the encoder: libpng at its speed settings
// (level 1, no filters) or, with --isal, ISA-L's level-0 deflate, the encoder RowKit uses.
//
//   subtitle-rows [--rows N] [--repeat N] [--isal] [--cairo-png] [-o table.png]
//
// It prints rows per second for the best run. With --cairo-png it also paints the first
// 32767 pixels of the table on one surface and compares cairo's own PNG writer with libpng
// and ISA-L on that surface.
#include <cairo.h>
#include <ctype.h>
#include <fontconfig/fontconfig.h>
#include <isa-l.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

enum { WIDTH_PT = 375, SCALE = 2, WIDTH_PX = WIDTH_PT * SCALE };
static const double PADDING = 10, MIN_HEIGHT = 44, DISCLOSURE_WIDTH = 20;

// ---------------------------------------------------------------------------------------
// The rows: rowkit-bench's generator, word for word.

static const char *WORDS[] = {"table", "row", "cell", "item", "image", "layout", "Pango", "Cairo", "Three20",
                              "section", "header", "label", "subtitle", "render", "measure", "paint", "pixel", "scale"};
enum { WORD_COUNT = sizeof(WORDS) / sizeof(WORDS[0]) };
static uint64_t seed;

static long next_random(void) {
  seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  return (long)(seed >> 33);
}

static void append_phrase(char *out, long length, int capitalized) {
  for (long i = 0; i < length; i++) {
    if (i > 0) strcat(out, " ");
    size_t start = strlen(out);
    strcat(out, WORDS[next_random() % WORD_COUNT]);
    if (capitalized) out[start] = (char)toupper((unsigned char)out[start]);
  }
}

typedef struct {
  char title[256];
  char subtitle[512];
} Row;

static Row *make_rows(int count) {
  Row *rows = calloc((size_t)count, sizeof(Row));
  seed = 0x9E3779B97F4A7C15ULL;
  for (int i = 0; i < count; i++) {
    snprintf(rows[i].title, sizeof rows[i].title, "%d. ", i + 1);
    long title_words = 2 + next_random() % 3;
    append_phrase(rows[i].title, title_words, 1);
    long subtitle_words = 4 + next_random() % 12;
    append_phrase(rows[i].subtitle, subtitle_words, 0);
  }
  return rows;
}

// ---------------------------------------------------------------------------------------
// Text: a private fontconfig configuration with Inter only, RowKit's font options.

static PangoContext *make_context(PangoFontMap **map_out) {
  FcConfig *config = FcConfigCreate();
  const char *faces[] = {"Regular", "Bold"};
  for (int i = 0; i < 2; i++) {
    char path[256];
    snprintf(path, sizeof path, "/usr/share/fonts/opentype/inter/Inter-%s.otf", faces[i]);
    if (!FcConfigAppFontAddFile(config, (const FcChar8 *)path)) {
      fprintf(stderr, "subtitle-rows: cannot load %s (install fonts-inter)\n", path);
      exit(1);
    }
  }
  PangoFontMap *map = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT);
  pango_fc_font_map_set_config(PANGO_FC_FONT_MAP(map), config);
  FcConfigDestroy(config);
  PangoContext *context = pango_font_map_create_context(map);
  cairo_font_options_t *options = cairo_font_options_create();
  cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY);
  cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
  cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
  pango_cairo_context_set_font_options(context, options);
  cairo_font_options_destroy(options);
  pango_cairo_context_set_resolution(context, 72);
  pango_context_set_language(context, pango_language_from_string("en-us"));
  pango_context_set_round_glyph_positions(context, FALSE);
  *map_out = map;
  return context;
}

// ---------------------------------------------------------------------------------------
// Layout: each row measured once.

typedef struct {
  PangoLayout *title, *subtitle;
  PangoRectangle title_rect, subtitle_rect;
  double height, top;
  int height_px;
} RowLayout;

static double grid_ceil(double v) { return ceil(v * SCALE - 1e-6) / SCALE; }
static double grid_round(double v) { return round(v * SCALE) / SCALE; }

static PangoLayout *shape(PangoContext *context, const char *text, PangoFontDescription *font, int lines) {
  PangoLayout *layout = pango_layout_new(context);
  pango_layout_set_text(layout, text, -1);
  pango_layout_set_font_description(layout, font);
  pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
  pango_layout_set_width(layout, (int)((WIDTH_PT - DISCLOSURE_WIDTH - 2 * PADDING) * PANGO_SCALE));
  pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_height(layout, -lines);
  return layout;
}

static void layout_row(PangoContext *context, PangoFontDescription *bold, PangoFontDescription *regular, const Row *row,
                       RowLayout *out) {
  out->title = shape(context, row->title, bold, 1);
  out->subtitle = shape(context, row->subtitle, regular, 2);
  pango_layout_get_extents(out->title, NULL, &out->title_rect);
  pango_layout_get_extents(out->subtitle, NULL, &out->subtitle_rect);
  double content = pango_units_to_double(out->title_rect.height) + pango_units_to_double(out->subtitle_rect.height);
  out->height = grid_ceil(fmax(content + 2 * PADDING, MIN_HEIGHT));
  out->top = grid_round((out->height - content) / 2);
  out->height_px = (int)lround(out->height * SCALE);
}

// ---------------------------------------------------------------------------------------
// Paint: from the layouts, nothing measured again.

static void paint_row(cairo_t *cr, const RowLayout *row) {
  cairo_save(cr);
  cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  cairo_restore(cr);
  double title_height = pango_units_to_double(row->title_rect.height);
  cairo_set_source_rgb(cr, 0, 0, 0);
  cairo_move_to(cr, PADDING - pango_units_to_double(row->title_rect.x), row->top - pango_units_to_double(row->title_rect.y));
  pango_cairo_show_layout(cr, row->title);
  cairo_set_source_rgb(cr, 79 / 255.0, 89 / 255.0, 105 / 255.0);
  cairo_move_to(cr, PADDING - pango_units_to_double(row->subtitle_rect.x),
                row->top + title_height - pango_units_to_double(row->subtitle_rect.y));
  pango_cairo_show_layout(cr, row->subtitle);
  // The chevron: 8 × 13 points, 10 from the right edge.
  double x = WIDTH_PT - 10 - 8, y = grid_round((row->height - 13) / 2), inset = 1.25;
  cairo_new_path(cr);
  cairo_move_to(cr, x + inset, y + inset);
  cairo_line_to(cr, x + 8 - inset, y + 6.5);
  cairo_line_to(cr, x + inset, y + 13 - inset);
  cairo_set_source_rgb(cr, 128 / 255.0, 128 / 255.0, 128 / 255.0);
  cairo_set_line_width(cr, 2.5);
  cairo_stroke(cr);
  // The separator: one pixel at the bottom.
  cairo_rectangle(cr, 0, row->height - 1.0 / SCALE, WIDTH_PT, 1.0 / SCALE);
  cairo_set_source_rgb(cr, 224 / 255.0, 224 / 255.0, 224 / 255.0);
  cairo_fill(cr);
}

// ---------------------------------------------------------------------------------------
// Encoders: scanlines streamed in, top to bottom.

typedef struct {
  FILE *file;
  int use_isal;
  // libpng
  png_structp png;
  png_infop info;
  // ISA-L
  struct isal_zstream stream;
  uint8_t *line, *out;
  size_t out_capacity;
  uint32_t crc_of_idat;
} Encoder;

static void write_be32(FILE *f, uint32_t v) {
  uint8_t b[4] = {v >> 24, v >> 16, v >> 8, v};
  fwrite(b, 1, 4, f);
}

static void write_chunk(FILE *f, const char *type, const uint8_t *data, uint32_t length) {
  write_be32(f, length);
  fwrite(type, 1, 4, f);
  if (length) fwrite(data, 1, length, f);
  uint32_t crc = (uint32_t)crc32(0, (const Bytef *)type, 4);
  if (length) crc = (uint32_t)crc32(crc, data, length);
  write_be32(f, crc);
}

static void isal_drain(Encoder *e) {
  size_t produced = e->out_capacity - e->stream.avail_out;
  if (produced) write_chunk(e->file, "IDAT", e->out, (uint32_t)produced);
  e->stream.next_out = e->out;
  e->stream.avail_out = (uint32_t)e->out_capacity;
}

static void encoder_start(Encoder *e, const char *path, int height, int use_isal) {
  memset(e, 0, sizeof *e);
  e->file = fopen(path, "wb");
  if (!e->file) {
    perror(path);
    exit(1);
  }
  e->use_isal = use_isal;
  if (!use_isal) {
    e->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    e->info = png_create_info_struct(e->png);
    png_init_io(e->png, e->file);
    png_set_IHDR(e->png, e->info, WIDTH_PX, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    // libpng's speed settings: zlib level 1, no filtering.
    png_set_compression_level(e->png, 1);
    png_set_filter(e->png, 0, PNG_FILTER_NONE);
    png_write_info(e->png, e->info);
    // Cairo's ARGB32 is B, G, R, X in memory: swap to RGB and drop the fourth byte.
    png_set_bgr(e->png);
    png_set_filler(e->png, 0, PNG_FILLER_AFTER);
    return;
  }
  static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  fwrite(signature, 1, 8, e->file);
  uint8_t ihdr[13] = {0};
  uint32_t w = WIDTH_PX, h = (uint32_t)height;
  uint8_t fields[13] = {w >> 24, w >> 16, w >> 8, w, h >> 24, h >> 16, h >> 8, h, 8, 2, 0, 0, 0};
  memcpy(ihdr, fields, 13);
  write_chunk(e->file, "IHDR", ihdr, 13);
  isal_deflate_init(&e->stream);
  e->stream.level = 0;
  e->stream.gzip_flag = IGZIP_ZLIB;
  e->stream.flush = NO_FLUSH;
  e->out_capacity = 1 << 20;
  e->out = malloc(e->out_capacity);
  e->line = malloc(1 + WIDTH_PX * 3);
  e->stream.next_out = e->out;
  e->stream.avail_out = (uint32_t)e->out_capacity;
}

static void encoder_rows(Encoder *e, const uint8_t *pixels, int stride, int rows) {
  for (int y = 0; y < rows; y++) {
    const uint8_t *source = pixels + (size_t)y * stride;
    if (!e->use_isal) {
      png_write_row(e->png, source);
      continue;
    }
    e->line[0] = 0;
    for (int x = 0; x < WIDTH_PX; x++) {
      e->line[1 + 3 * x] = source[4 * x + 2];
      e->line[2 + 3 * x] = source[4 * x + 1];
      e->line[3 + 3 * x] = source[4 * x];
    }
    e->stream.next_in = e->line;
    e->stream.avail_in = 1 + WIDTH_PX * 3;
    while (e->stream.avail_in > 0) {
      if (e->stream.avail_out < 65536) isal_drain(e);
      isal_deflate(&e->stream);
    }
  }
}

static void encoder_finish(Encoder *e) {
  if (!e->use_isal) {
    png_write_end(e->png, e->info);
    png_destroy_write_struct(&e->png, &e->info);
  } else {
    e->stream.end_of_stream = 1;
    e->stream.flush = FULL_FLUSH;
    do {
      isal_drain(e);
      isal_deflate(&e->stream);
    } while (e->stream.internal_state.state != ZSTATE_END);
    isal_drain(e);
    write_chunk(e->file, "IEND", NULL, 0);
    free(e->out);
    free(e->line);
  }
  fclose(e->file);
}

// ---------------------------------------------------------------------------------------

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static long peak_rss_kb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = 0;
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "VmHWM: %ld kB", &kb) == 1) break;
  if (f) fclose(f);
  return kb;
}

// One run: measure every row, then paint and stream each. Returns the table's pixel height.
static int render_table(PangoContext *context, const Row *rows, int count, const char *path, int use_isal) {
  PangoFontDescription *bold = pango_font_description_from_string("Inter Bold 17");
  PangoFontDescription *regular = pango_font_description_from_string("Inter 14");
  RowLayout *layouts = calloc((size_t)count, sizeof(RowLayout));
  int height = 0, tallest = 0;
  for (int i = 0; i < count; i++) {
    layout_row(context, bold, regular, &rows[i], &layouts[i]);
    height += layouts[i].height_px;
    if (layouts[i].height_px > tallest) tallest = layouts[i].height_px;
  }
  Encoder encoder;
  encoder_start(&encoder, path, height, use_isal);
  int stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, WIDTH_PX);
  uint8_t *buffer = malloc((size_t)stride * tallest);
  for (int i = 0; i < count; i++) {
    cairo_surface_t *surface =
        cairo_image_surface_create_for_data(buffer, CAIRO_FORMAT_RGB24, WIDTH_PX, layouts[i].height_px, stride);
    cairo_t *cr = cairo_create(surface);
    cairo_scale(cr, SCALE, SCALE);
    paint_row(cr, &layouts[i]);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    cairo_surface_destroy(surface);
    encoder_rows(&encoder, buffer, stride, layouts[i].height_px);
    g_object_unref(layouts[i].title);
    g_object_unref(layouts[i].subtitle);
  }
  encoder_finish(&encoder);
  free(buffer);
  free(layouts);
  pango_font_description_free(bold);
  pango_font_description_free(regular);
  return height;
}

static long file_size(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fclose(f);
  return size;
}

static cairo_status_t discard_png(void *closure, const unsigned char *data, unsigned int length) {
  (void)data;
  *(long *)closure += length;
  return CAIRO_STATUS_SUCCESS;
}

// Paints the top 32767 pixels of the table on one surface and times each encoder on it.
static void compare_png_writers(PangoContext *context, const Row *rows, int count, int repeats) {
  PangoFontDescription *bold = pango_font_description_from_string("Inter Bold 17");
  PangoFontDescription *regular = pango_font_description_from_string("Inter 14");
  int height = 32767;
  cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, WIDTH_PX, height);
  cairo_t *cr = cairo_create(surface);
  cairo_scale(cr, SCALE, SCALE);
  double y = 0;
  for (int i = 0; i < count && y * SCALE < height; i++) {
    RowLayout layout;
    layout_row(context, bold, regular, &rows[i], &layout);
    cairo_save(cr);
    cairo_translate(cr, 0, y);
    cairo_rectangle(cr, 0, 0, WIDTH_PT, layout.height);
    cairo_clip(cr);
    paint_row(cr, &layout);
    cairo_restore(cr);
    y += layout.height;
    g_object_unref(layout.title);
    g_object_unref(layout.subtitle);
  }
  cairo_destroy(cr);
  cairo_surface_flush(surface);
  uint8_t *pixels = cairo_image_surface_get_data(surface);
  int stride = cairo_image_surface_get_stride(surface);
  double megapixels = (double)WIDTH_PX * height / 1e6;
  printf("PNG writers on one %d×%d surface (%.1f megapixels), best of %d:\n", WIDTH_PX, height, megapixels, repeats);
  const char *names[] = {"cairo_surface_write_to_png", "libpng, level 1, no filters", "ISA-L level 0"};
  for (int which = 0; which < 3; which++) {
    double best = 1e9;
    long bytes = 0;
    for (int r = 0; r < repeats; r++) {
      double start = now();
      if (which == 0) {
        bytes = 0;
        cairo_surface_write_to_png_stream(surface, discard_png, &bytes);
      } else {
        Encoder encoder;
        encoder_start(&encoder, "/tmp/subtitle-rows-png-writers.png", height, which == 2);
        encoder_rows(&encoder, pixels, stride, height);
        encoder_finish(&encoder);
        bytes = file_size("/tmp/subtitle-rows-png-writers.png");
      }
      double elapsed = now() - start;
      if (elapsed < best) best = elapsed;
    }
    printf("  %-30s %7.1f ms  %6.0f megapixels/s  %6.2f MB\n", names[which], best * 1000, megapixels / best,
           bytes / 1048576.0);
  }
  remove("/tmp/subtitle-rows-png-writers.png");
  cairo_surface_destroy(surface);
  pango_font_description_free(bold);
  pango_font_description_free(regular);
}

int main(int argc, char **argv) {
  int count = 2000, repeats = 5, use_isal = 0, cairo_png = 0;
  const char *output = "/tmp/subtitle-rows.png";
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--rows") && i + 1 < argc) count = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) repeats = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--isal")) use_isal = 1;
    else if (!strcmp(argv[i], "--cairo-png")) cairo_png = 1;
    else if (!strcmp(argv[i], "-o") && i + 1 < argc) output = argv[++i];
    else {
      fprintf(stderr, "usage: subtitle-rows [--rows N] [--repeat N] [--isal] [--cairo-png] [-o table.png]\n");
      return 2;
    }
  }
  if (count < 1 || repeats < 1) {
    fprintf(stderr, "subtitle-rows: --rows and --repeat must be at least 1\n");
    return 2;
  }
  PangoFontMap *map;
  PangoContext *context = make_context(&map);
  Row *rows = make_rows(count);
  double best = 1e9, total = 0;
  int height = 0;
  for (int r = 0; r < repeats; r++) {
    double start = now();
    height = render_table(context, rows, count, output, use_isal);
    double elapsed = now() - start;
    total += elapsed;
    if (elapsed < best) best = elapsed;
  }
  printf("C (Cairo + Pango + %s), %d subtitle rows, %d pixels tall: %7.0f rows/s  (best %.3f s, mean %.3f s, %d runs)\n",
         use_isal ? "ISA-L" : "libpng", count, height, count / best, best, total / repeats, repeats);
  printf("  PNG %.1f MB, peak memory %.1f MB\n", file_size(output) / 1048576.0, peak_rss_kb() / 1024.0);
  if (cairo_png) compare_png_writers(context, rows, count, repeats);
  free(rows);
  g_object_unref(context);
  g_object_unref(map);
  return 0;
}
