/* tracepipe - json plugin: what its reader and writer share (the JSON
 * scanner, exact numbers, formatting, the spill)
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every private name of the plugin has the `Chrome`/`chrome_` prefix:
 * `Json…`/`json_…` belong to json-glib, which this plugin uses.
 */
#pragma once

#include <string.h>

#include <gio/gio.h>

G_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* The scanner: an in-place pull scanner over a JSON buffer           */

/*
 * The scanner never allocates: values are slices of the caller's buffer.
 * Every function reports CHROME_SCAN_INCOMPLETE when the buffer ends inside
 * what it scans, so a streaming caller can read more and scan again from
 * the same start.  It is lenient where real traces are: trailing commas
 * before '}' or ']' are accepted (perfetto accepts them too).
 */

/* How deep objects and arrays may nest, counting the top-level container
 * as 1.  Deeper input is refused: it is never a real trace and recursion
 * on it would cost stack. */
#define CHROME_SCAN_MAX_DEPTH 64

typedef enum
{
  CHROME_SCAN_OK,
  CHROME_SCAN_END,        /* the container being iterated is closed */
  CHROME_SCAN_INCOMPLETE, /* the buffer ended inside the value */
  CHROME_SCAN_ERROR,      /* malformed: see error_at and error_msg */
  CHROME_SCAN_TOO_DEEP,   /* nesting deeper than CHROME_SCAN_MAX_DEPTH */
} ChromeScanResult;

typedef enum
{
  CHROME_VALUE_NONE = 0,
  CHROME_VALUE_STRING,
  CHROME_VALUE_NUMBER,
  CHROME_VALUE_TRUE,
  CHROME_VALUE_FALSE,
  CHROME_VALUE_NULL,
  CHROME_VALUE_OBJECT,
  CHROME_VALUE_ARRAY,
} ChromeValueType;

/* A value found in the buffer.  Strings: [start, end) is the raw text
 * between the quotes.  Numbers and literals: their text.  Containers:
 * from the opening bracket to just after the closing one. */
typedef struct
{
  const char *start;
  const char *end;
  guint8 type;
  guint8 escaped; /* a string with backslash escapes */
  guint8 clean;   /* a string of ASCII without NUL or escapes: its raw
                   * text is its value (0 when not known) */
} ChromeValue;

typedef struct
{
  const char *p;
  const char *end;
  const char *error_at;
  const char *error_msg; /* a static string */
} ChromeScanner;

static inline void
chrome_scanner_init (ChromeScanner *s,
                     const char *start,
                     const char *end)
{
  s->p = start;
  s->end = end;
  s->error_at = NULL;
  s->error_msg = NULL;
}

static inline const char *
chrome_skip_ws (const char *p,
                const char *end)
{
  while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
    p++;
  return p;
}

static inline guint64
chrome_load64 (const char *p)
{
  guint64 w;

  memcpy (&w, p, 8);
  return w;
}

/* Whether @len bytes at @a and @b are equal, inline: short names are
 * compared on every intern-cache hit, where a memcmp call costs more
 * than the comparison. Up to 32 bytes, four words that cover them all
 * (overlapping where the text is shorter) are compared at once: a loop
 * whose number of turns follows the length was mispredicted about once
 * a comparison. */
static inline gboolean
chrome_text_equal (const char *a,
                   const char *b,
                   gsize len)
{
  guint32 u, v;

  if (len >= 8)
    {
      gsize last = len - 8;

      if (len <= 32)
        return ((chrome_load64 (a) ^ chrome_load64 (b)) | (chrome_load64 (a + MIN (8, last)) ^ chrome_load64 (b + MIN (8, last))) |
                (chrome_load64 (a + MIN (16, last)) ^ chrome_load64 (b + MIN (16, last))) |
                (chrome_load64 (a + last) ^ chrome_load64 (b + last))) == 0;
      for (gsize i = 0; i < last; i += 8)
        if (chrome_load64 (a + i) != chrome_load64 (b + i))
          return FALSE;
      return chrome_load64 (a + last) == chrome_load64 (b + last);
    }
  if (len >= 4)
    {
      memcpy (&u, a, 4);
      memcpy (&v, b, 4);
      if (u != v)
        return FALSE;
      memcpy (&u, a + len - 4, 4);
      memcpy (&v, b + len - 4, 4);
      return u == v;
    }
  for (gsize i = 0; i < len; i++)
    if (a[i] != b[i])
      return FALSE;
  return TRUE;
}

ChromeScanResult chrome_scan_string (ChromeScanner *s, ChromeValue *v);
ChromeScanResult chrome_scan_value (ChromeScanner *s, ChromeValue *v, int depth);
ChromeScanResult chrome_scan_enter (ChromeScanner *s, char open);
/* json-skip.c: a container skipped whole, from its opening bracket @p */
ChromeScanResult chrome_scan_skip_container (ChromeScanner *s, const char *p, int depth);
ChromeScanResult chrome_scan_skip_container_bytes (ChromeScanner *s, const char *p, int depth);
ChromeScanResult chrome_scan_member (ChromeScanner *s, gboolean *first, ChromeValue *key);
ChromeScanResult chrome_scan_element (ChromeScanner *s, gboolean *first);

/* Strings */
gboolean chrome_value_is (const ChromeValue *v, const char *literal);
const char *chrome_string_decode_copy (const ChromeValue *v, GString *scratch, gsize *len);

/**
 * chrome_string_decode:
 * @v: a string value
 * @scratch: where a decoded copy goes when one is needed
 * @len: (out): the length of the result
 *
 * Returns: the string's text, unescaped and valid UTF-8: either a pointer
 *   into the buffer (no copy when nothing needs changing) or @scratch->str
 */
static inline const char *
chrome_string_decode (const ChromeValue *v,
                      GString *scratch,
                      gsize *len)
{
  /* inline for the usual plain ASCII (every key of every arg): the call
   * cost more than the test */
  if (G_LIKELY (v->clean))
    {
      *len = v->end - v->start;
      return v->start;
    }
  return chrome_string_decode_copy (v, scratch, len);
}
const char *chrome_decode_escape (const char *p, const char *end, GString *out);
void chrome_utf8_repair_append (GString *out, const char *p, gsize len);

/* Numbers: exact decimal arithmetic, no locale, no doubles where an
 * integer result is wanted. */
gboolean chrome_decimal_to_scaled (const char *p, const char *end, int scale, gint64 *out);
gboolean chrome_time_to_ns (const char *p, const char *end, gint64 *out); /* json-time.c */
gboolean chrome_decimal_to_int64 (const char *p, const char *end, gint64 *out);
gboolean chrome_decimal_to_uint64 (const char *p, const char *end, guint64 *out);
double chrome_strtod_len (const char *p,
                          gsize len,
                          gsize *used);
gboolean chrome_decimal_to_double (const char *p, const char *end, double *out);
gboolean chrome_decimal_is_integer (const char *p, const char *end);
gboolean chrome_hex_to_uint64 (const char *p, const char *end, guint64 *out);
guint64 chrome_hash64 (const char *p, gsize len);

/* ------------------------------------------------------------------ */
/* The spill: bytes that move to a temporary file past a limit       */

/*
 * Used for text that must be written (or handed on) only at the end of a
 * stream: the systemTraceEvents text, in both directions.  Memory stays
 * bounded by the limit; the rest lives in an unlinked temporary file that
 * disappears with the process.
 */

typedef struct _ChromeSpill ChromeSpill;

ChromeSpill *chrome_spill_new (gsize memory_limit);
void chrome_spill_free (ChromeSpill *spill);
gboolean chrome_spill_write (ChromeSpill *spill, const void *data, gsize len, GError **error);
guint64 chrome_spill_get_size (ChromeSpill *spill);
gboolean chrome_spill_is_on_disk (ChromeSpill *spill);
GInputStream *chrome_spill_read (ChromeSpill *spill, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ChromeSpill, chrome_spill_free)

/* ------------------------------------------------------------------ */
/* Formatting: exact numbers and string escaping                      */

void chrome_fmt_string (GString *out, const char *s, gsize len);
void chrome_fmt_string_body (GString *out, const char *s, gsize len);
void chrome_fmt_int (GString *out, gint64 v);
void chrome_fmt_uint (GString *out, guint64 v);
void chrome_fmt_us (GString *out, gint64 ns);
void chrome_fmt_double (GString *out, double v);
void chrome_fmt_hex_id (GString *out, guint64 id);

G_END_DECLS
