/* tracepipe - json plugin: an in-place pull scanner over a JSON buffer
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The scanner never allocates: values are slices of the caller's buffer.
 * Every function reports JSON_SCAN_INCOMPLETE when the buffer ends inside
 * what it scans, so a streaming caller can read more and scan again from
 * the same start.  It is lenient where real traces are: trailing commas
 * before '}' or ']' are accepted (perfetto accepts them too).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How deep objects and arrays may nest, counting the top-level container
 * as 1.  Deeper input is refused: it is never a real trace and recursion
 * on it would cost stack. */
#define JSON_SCAN_MAX_DEPTH 64

typedef enum
{
  JSON_SCAN_OK,
  JSON_SCAN_END,        /* the container being iterated is closed */
  JSON_SCAN_INCOMPLETE, /* the buffer ended inside the value */
  JSON_SCAN_ERROR,      /* malformed: see error_at and error_msg */
  JSON_SCAN_TOO_DEEP,   /* nesting deeper than JSON_SCAN_MAX_DEPTH */
} JsonScanResult;

typedef enum
{
  JSON_VALUE_NONE = 0,
  JSON_VALUE_STRING,
  JSON_VALUE_NUMBER,
  JSON_VALUE_TRUE,
  JSON_VALUE_FALSE,
  JSON_VALUE_NULL,
  JSON_VALUE_OBJECT,
  JSON_VALUE_ARRAY,
} JsonValueType;

/* A value found in the buffer.  Strings: [start, end) is the raw text
 * between the quotes.  Numbers and literals: their text.  Containers:
 * from the opening bracket to just after the closing one. */
typedef struct
{
  const char *start;
  const char *end;
  guint8 type;
  guint8 escaped; /* a string with backslash escapes */
} JsonValue;

typedef struct
{
  const char *p;
  const char *end;
  const char *error_at;
  const char *error_msg; /* a static string */
} JsonScanner;

static inline void
json_scanner_init (JsonScanner *s,
                   const char *start,
                   const char *end)
{
  s->p = start;
  s->end = end;
  s->error_at = NULL;
  s->error_msg = NULL;
}

static inline const char *
json_skip_ws (const char *p,
              const char *end)
{
  while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
    p++;
  return p;
}

JsonScanResult json_scan_string (JsonScanner *s, JsonValue *v);
JsonScanResult json_scan_value (JsonScanner *s, JsonValue *v, int depth);
JsonScanResult json_scan_enter (JsonScanner *s, char open);
JsonScanResult json_scan_member (JsonScanner *s, gboolean *first, JsonValue *key);
JsonScanResult json_scan_element (JsonScanner *s, gboolean *first);

/* Strings */
gboolean json_value_is (const JsonValue *v, const char *literal);
const char *json_string_decode (const JsonValue *v, GString *scratch, gsize *len);
const char *json_decode_escape (const char *p, const char *end, GString *out);
void json_utf8_repair_append (GString *out, const char *p, gsize len);

/* Numbers: exact decimal arithmetic, no locale, no doubles where an
 * integer result is wanted. */
gboolean json_decimal_to_scaled (const char *p, const char *end, int scale, gint64 *out);
gboolean json_decimal_to_int64 (const char *p, const char *end, gint64 *out);
gboolean json_decimal_to_uint64 (const char *p, const char *end, guint64 *out);
gboolean json_decimal_to_double (const char *p, const char *end, double *out);
gboolean json_decimal_is_integer (const char *p, const char *end);
gboolean json_hex_to_uint64 (const char *p, const char *end, guint64 *out);
guint64 json_hash64 (const char *p, gsize len);

G_END_DECLS
