/* tracepipe - arkts: an incremental scanner for heap snapshot documents
 *
 * A heap snapshot is one JSON object of hundreds of MB, almost all of it
 * flat arrays of integers ("nodes", "edges") and an array of strings. It
 * arrives in pieces cut anywhere (DevTools chunks, read blocks), so this
 * is a push parser: feed it any slice, it keeps its state (inside a
 * number, a string, an escape) across slices and hands each number or
 * string of the arrays to the summary as it goes, never building a tree.
 * Only the small "snapshot" object (the meta) is captured and read with
 * json-glib.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "arkts-engine.h"

/* A trace tree deeper than this is refused rather than growing the stack
 * without bound (V8 stacks are far shallower). */
#define MAX_TREE_DEPTH (1024 * 1024)
#define MAX_TREE_FIELDS 32
#define MAX_NUMBER_LENGTH 63
#define MAX_KEY_LENGTH 64
/* Strings kept (keys, wanted names) are cut to this many bytes. */
#define MAX_KEPT_STRING (64 * 1024)

typedef enum
{
  LEX_BASE,
  LEX_NUMBER,
  LEX_STRING,
  LEX_ESCAPE,
  LEX_UNICODE,
  LEX_LITERAL,
} Lex;

typedef enum
{
  EXP_VALUE,
  EXP_VALUE_OR_CLOSE,
  EXP_KEY_OR_CLOSE,
  EXP_KEY,
  EXP_COLON,
  EXP_COMMA_OR_CLOSE,
  EXP_DONE,
} Expect;

struct _ArktsHeapDoc
{
  ArktsEnv *env;
  ArktsHeapSummary *summary;
  gint64 line;
  gint64 tok_offset; /* offset of the token being handled, for skips */
  guint64 offset;    /* bytes consumed before the current feed */
  gboolean started;

  Lex lex;
  Expect expect;
  GByteArray *stack; /* '{' or '[' per open container */

  char num[MAX_NUMBER_LENGTH + 1];
  guint num_len;

  GString *str;
  gboolean str_keep;
  gboolean str_is_key;
  guint32 uni;
  guint uni_digits;
  guint32 high_surrogate;
  guint lit_len;

  ArktsSection pending; /* section named by the last top-level key */
  ArktsSection section; /* section whose value is open */
  guint64 index;        /* values seen in the section's array */

  GString *capture; /* the "snapshot" object's text */
  gboolean capturing;
  const char *capture_from;
  const char *cur; /* the byte being handled between tokens */
  TraceBatch *out; /* where sample counters go during a feed */
  gboolean have_meta;

  GArray *tree_pos; /* field position per open trace_tree array */
  guint tree_width, tree_children;
  gint64 tree_row[MAX_TREE_FIELDS];
};

static gboolean capture_append (ArktsHeapDoc *doc,
                                const char *to,
                                GError **error);

ArktsHeapDoc *
arkts_heap_doc_new (ArktsEnv *env,
                    guint index,
                    gint64 start_ts)
{
  ArktsHeapDoc *doc;

  g_return_val_if_fail (env != NULL, NULL);

  doc = g_new0 (ArktsHeapDoc, 1);
  doc->env = env;
  doc->summary = arkts_heap_summary_new (env, index, start_ts);
  arkts_heap_summary_set_position_source (doc->summary, &doc->line, &doc->tok_offset);
  doc->line = ARKTS_NO_POS;
  doc->stack = g_byte_array_new ();
  doc->str = g_string_new (NULL);
  doc->capture = g_string_new (NULL);
  doc->tree_pos = g_array_new (FALSE, FALSE, sizeof (guint));
  return doc;
}

void
arkts_heap_doc_free (ArktsHeapDoc *doc)
{
  if (doc == NULL)
    return;
  arkts_heap_summary_free (doc->summary);
  g_byte_array_unref (doc->stack);
  g_string_free (doc->str, TRUE);
  g_string_free (doc->capture, TRUE);
  g_array_unref (doc->tree_pos);
  g_free (doc);
}

/**
 * arkts_heap_doc_set_line:
 *
 * The line (of a message stream) the next bytes come from, for skip
 * reports; %ARKTS_NO_POS for a plain file.
 */
void
arkts_heap_doc_set_line (ArktsHeapDoc *doc,
                         gint64 line)
{
  doc->line = line;
}

gboolean
arkts_heap_doc_is_started (ArktsHeapDoc *doc)
{
  return doc->started;
}

gboolean
arkts_heap_doc_is_complete (ArktsHeapDoc *doc)
{
  return doc->expect == EXP_DONE;
}

gboolean
arkts_heap_doc_is_timeline (ArktsHeapDoc *doc)
{
  return arkts_heap_summary_is_timeline (doc->summary);
}

guint64
arkts_heap_doc_get_offset (ArktsHeapDoc *doc)
{
  return doc->offset;
}

/**
 * arkts_heap_doc_describe_cut:
 *
 * Returns: where an unfinished document stopped, for the skip report
 */
char *
arkts_heap_doc_describe_cut (ArktsHeapDoc *doc)
{
  if (doc->section != ARKTS_SECTION_NONE)
    return g_strdup_printf ("snapshot cut off inside \"%s\" after %" G_GUINT64_FORMAT " bytes",
                            arkts_section_name (doc->section), doc->offset);
  return g_strdup_printf ("snapshot cut off after %" G_GUINT64_FORMAT " bytes", doc->offset);
}

void
arkts_heap_doc_emit (ArktsHeapDoc *doc,
                     TraceBatch *out)
{
  arkts_heap_summary_emit (doc->summary, out);
}

/* ---- errors ---- */

static gboolean
syntax_error (ArktsHeapDoc *doc,
              GError **error,
              guint64 offset,
              char found,
              const char *expected)
{
  g_autofree char *what = g_ascii_isprint (found) ? g_strdup_printf ("'%c'", found) : g_strdup_printf ("byte 0x%02x", (guchar) found);

  g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT,
               "snapshot offset %" G_GUINT64_FORMAT ": expected %s, found %s", offset, expected, what);
  return FALSE;
}

static const char *
expected_text (Expect expect)
{
  switch (expect)
    {
    case EXP_VALUE:
      return "a value";
    case EXP_VALUE_OR_CLOSE:
      return "a value or ']'";
    case EXP_KEY_OR_CLOSE:
      return "a key or '}'";
    case EXP_KEY:
      return "a key";
    case EXP_COLON:
      return "':'";
    case EXP_COMMA_OR_CLOSE:
      return "',' or the end of the container";
    case EXP_DONE:
    default:
      return "the end of the document";
    }
}

/* ---- sections ---- */

static ArktsSection
section_for_key (const char *key)
{
  static const struct
  {
    const char *key;
    ArktsSection section;
  } keys[] = {
    { "snapshot", ARKTS_SECTION_SNAPSHOT },
    { "nodes", ARKTS_SECTION_NODES },
    { "edges", ARKTS_SECTION_EDGES },
    { "trace_function_infos", ARKTS_SECTION_TRACE_FUNCTION_INFOS },
    { "trace_tree", ARKTS_SECTION_TRACE_TREE },
    { "samples", ARKTS_SECTION_SAMPLES },
    { "locations", ARKTS_SECTION_LOCATIONS },
    { "strings", ARKTS_SECTION_STRINGS },
  };

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    if (strcmp (key, keys[i].key) == 0)
      return keys[i].section;
  return ARKTS_SECTION_OTHER;
}

static gboolean
section_is_flat (ArktsSection section)
{
  return section >= ARKTS_SECTION_NODES && section <= ARKTS_SECTION_STRINGS && section != ARKTS_SECTION_TRACE_TREE;
}

/* A value starts at depth 1: the value of a top-level key. */
static gboolean
top_value_begins (ArktsHeapDoc *doc,
                  char c,
                  GError **error)
{
  doc->section = doc->pending;
  doc->index = 0;
  if (doc->section == ARKTS_SECTION_SNAPSHOT)
    {
      if (c != '{')
        return syntax_error (doc, error, doc->tok_offset, c, "an object as \"snapshot\"");
      doc->capturing = TRUE;
      doc->capture_from = doc->cur;
      g_string_truncate (doc->capture, 0);
      return TRUE;
    }
  if (doc->section == ARKTS_SECTION_OTHER || doc->section == ARKTS_SECTION_NONE)
    return TRUE;
  if (c != '[')
    {
      /* "samples": null and the like: nothing to read */
      doc->section = ARKTS_SECTION_OTHER;
      return TRUE;
    }
  if (doc->section == ARKTS_SECTION_TRACE_TREE)
    {
      guint zero = 0;
      doc->tree_width = MIN (arkts_heap_summary_trace_node_width (doc->summary, &doc->tree_children), MAX_TREE_FIELDS);
      g_array_set_size (doc->tree_pos, 0);
      g_array_append_val (doc->tree_pos, zero);
    }
  arkts_heap_summary_section_begin (doc->summary, doc->section);
  return TRUE;
}

static gboolean
top_value_ends (ArktsHeapDoc *doc,
                GError **error)
{
  ArktsSection section = doc->section;

  doc->section = ARKTS_SECTION_NONE;
  if (section == ARKTS_SECTION_SNAPSHOT)
    {
      if (!capture_append (doc, doc->cur + 1, error))
        return FALSE;
      doc->capturing = FALSE;
      if (!arkts_heap_summary_set_meta (doc->summary, doc->capture->str, doc->capture->len, error))
        return FALSE;
      doc->have_meta = TRUE;
      g_string_truncate (doc->capture, 0);
    }
  else if (section != ARKTS_SECTION_OTHER && section != ARKTS_SECTION_NONE && section != ARKTS_SECTION_TRACE_TREE)
    arkts_heap_summary_section_end (doc->summary, section, doc->index);
  return TRUE;
}

/* ---- the trace tree: [id, function, count, size, [children…], id, …] ---- */

static guint *
tree_top (ArktsHeapDoc *doc)
{
  return &g_array_index (doc->tree_pos, guint, doc->tree_pos->len - 1);
}

static void
tree_advance (ArktsHeapDoc *doc,
              guint *pos)
{
  if (++*pos >= MAX (doc->tree_width, doc->tree_children + 1))
    *pos = 0;
}

static gboolean
tree_number (ArktsHeapDoc *doc,
             gint64 value,
             GError **error)
{
  guint *pos = tree_top (doc);

  if (*pos == doc->tree_children)
    return syntax_error (doc, error, doc->tok_offset, doc->num[0], "the children array of a trace node");
  if (*pos < MAX_TREE_FIELDS)
    doc->tree_row[*pos] = value;
  /* a layout without children ends its row on the last number */
  if (doc->tree_children >= doc->tree_width && *pos + 1 == doc->tree_width)
    arkts_heap_summary_trace_node (doc->summary, doc->tree_row);
  tree_advance (doc, pos);
  return TRUE;
}

static gboolean
tree_open (ArktsHeapDoc *doc,
           GError **error)
{
  guint *pos = tree_top (doc);
  guint zero = 0;

  if (*pos != doc->tree_children)
    return syntax_error (doc, error, doc->tok_offset, '[', "a number in a trace node");
  /* the row is complete once its children begin: count it before
   * descending, so no row waits on the stack */
  arkts_heap_summary_trace_node (doc->summary, doc->tree_row);
  tree_advance (doc, pos);
  if (doc->tree_pos->len >= MAX_TREE_DEPTH)
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_TOO_LARGE,
                   "snapshot offset %" G_GINT64_FORMAT ": trace_tree deeper than %d levels", doc->tok_offset, MAX_TREE_DEPTH);
      return FALSE;
    }
  g_array_append_val (doc->tree_pos, zero);
  return TRUE;
}

/* ---- tokens ---- */

static gboolean
value_done (ArktsHeapDoc *doc)
{
  doc->expect = doc->stack->len == 0 ? EXP_DONE : EXP_COMMA_OR_CLOSE;
  return TRUE;
}

static gboolean
begin_value (ArktsHeapDoc *doc,
             char c,
             GError **error)
{
  if (doc->expect != EXP_VALUE && doc->expect != EXP_VALUE_OR_CLOSE)
    return syntax_error (doc, error, doc->tok_offset, c, expected_text (doc->expect));
  if (doc->stack->len == 0 && c != '{')
    return syntax_error (doc, error, doc->tok_offset, c, "'{' opening the snapshot");
  if (doc->stack->len == 1)
    return top_value_begins (doc, c, error);
  if (doc->stack->len >= 2 && section_is_flat (doc->section) && (c == '[' || c == '{'))
    return syntax_error (doc, error, doc->tok_offset, c, "a flat array");
  return TRUE;
}

static gboolean
open_container (ArktsHeapDoc *doc,
                char c,
                GError **error)
{
  guint8 kind = (guint8) c;

  if (!begin_value (doc, c, error))
    return FALSE;
  if (doc->section == ARKTS_SECTION_TRACE_TREE && doc->stack->len >= 2 && c == '[' && !tree_open (doc, error))
    return FALSE;
  if (doc->section == ARKTS_SECTION_TRACE_TREE && doc->stack->len >= 2 && c == '{')
    return syntax_error (doc, error, doc->tok_offset, c, "a trace node");
  g_byte_array_append (doc->stack, &kind, 1);
  doc->expect = c == '{' ? EXP_KEY_OR_CLOSE : EXP_VALUE_OR_CLOSE;
  return TRUE;
}

static gboolean
close_container (ArktsHeapDoc *doc,
                 char c,
                 GError **error)
{
  char open = c == '}' ? '{' : '[';
  Expect allowed = c == '}' ? EXP_KEY_OR_CLOSE : EXP_VALUE_OR_CLOSE;

  if (doc->stack->len == 0 || doc->stack->data[doc->stack->len - 1] != (guint8) open || (doc->expect != allowed && doc->expect != EXP_COMMA_OR_CLOSE))
    return syntax_error (doc, error, doc->tok_offset, c, expected_text (doc->expect));
  g_byte_array_set_size (doc->stack, doc->stack->len - 1);
  if (doc->section == ARKTS_SECTION_TRACE_TREE && doc->stack->len >= 1)
    g_array_set_size (doc->tree_pos, doc->tree_pos->len - 1);
  if (doc->stack->len == 1 && !top_value_ends (doc, error))
    return FALSE;
  if (doc->stack->len == 0 && !doc->have_meta)
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT,
                   "snapshot offset %" G_GINT64_FORMAT ": the document has no \"snapshot\" meta", doc->tok_offset);
      return FALSE;
    }
  return value_done (doc);
}

static gboolean
number_done (ArktsHeapDoc *doc,
             GError **error)
{
  const char *s = doc->num;
  gboolean negative = *s == '-';
  guint64 magnitude = 0;
  gint64 value;

  doc->num[doc->num_len] = '\0';
  s += negative;
  for (; *s >= '0' && *s <= '9'; s++)
    {
      if (magnitude > (G_MAXUINT64 - 9) / 10)
        break;
      magnitude = magnitude * 10 + (guint64) (*s - '0');
    }
  if (*s != '\0' || s == doc->num + negative)
    {
      char *end;
      double d = g_ascii_strtod (doc->num, &end);
      if (*end != '\0' || end == doc->num)
        return syntax_error (doc, error, doc->tok_offset, doc->num[0], "a number");
      value = d >= 9.2e18 ? G_MAXINT64 : d <= -9.2e18 ? G_MININT64
                                                      : (gint64) d;
    }
  else
    /* ids up to 64 bits: beyond G_MAXINT64 they wrap, kept as the same bits */
    value = negative ? -(gint64) magnitude : (gint64) magnitude;
  doc->num_len = 0;
  if (doc->stack->len == 2 && section_is_flat (doc->section))
    {
      if (doc->section != ARKTS_SECTION_STRINGS)
        arkts_heap_summary_number (doc->summary, doc->section, value, doc->out);
      doc->index++;
    }
  else if (doc->section == ARKTS_SECTION_TRACE_TREE && doc->stack->len >= 2 && !tree_number (doc, value, error))
    return FALSE;
  return value_done (doc);
}

static gboolean
string_begins (ArktsHeapDoc *doc,
               GError **error)
{
  g_string_truncate (doc->str, 0);
  doc->high_surrogate = 0;
  if (doc->expect == EXP_KEY || doc->expect == EXP_KEY_OR_CLOSE)
    {
      doc->str_is_key = TRUE;
      doc->str_keep = doc->stack->len == 1;
      return TRUE;
    }
  if (!begin_value (doc, '"', error))
    return FALSE;
  doc->str_is_key = FALSE;
  doc->str_keep = doc->stack->len == 2 && doc->section == ARKTS_SECTION_STRINGS && arkts_heap_summary_wants_string (doc->summary, doc->index);
  return TRUE;
}

static gboolean
string_done (ArktsHeapDoc *doc,
             GError **error)
{
  if (doc->str_is_key)
    {
      if (doc->stack->len == 1)
        doc->pending = doc->str->len <= MAX_KEY_LENGTH ? section_for_key (doc->str->str) : ARKTS_SECTION_OTHER;
      doc->expect = EXP_COLON;
      return TRUE;
    }
  if (doc->stack->len == 2 && doc->section == ARKTS_SECTION_STRINGS)
    {
      if (doc->str_keep)
        arkts_heap_summary_string (doc->summary, doc->index, doc->str->str, doc->str->len);
      doc->index++;
    }
  else if (doc->section == ARKTS_SECTION_TRACE_TREE && doc->stack->len >= 2)
    return syntax_error (doc, error, doc->tok_offset, '"', "a number in a trace node");
  return value_done (doc);
}

static void
keep_char (ArktsHeapDoc *doc,
           gunichar ch)
{
  if (doc->str_keep && doc->str->len < MAX_KEPT_STRING)
    g_string_append_unichar (doc->str, ch);
}

static gboolean
escape_char (ArktsHeapDoc *doc,
             char c,
             GError **error)
{
  static const char from[] = "\"\\/bfnrt";
  static const char to[] = "\"\\/\b\f\n\r\t";
  const char *hit = c != '\0' ? strchr (from, c) : NULL;

  if (c == 'u')
    {
      doc->lex = LEX_UNICODE;
      doc->uni = 0;
      doc->uni_digits = 0;
      return TRUE;
    }
  if (hit == NULL)
    return syntax_error (doc, error, doc->tok_offset, c, "an escape character");
  keep_char (doc, (gunichar) to[hit - from]);
  doc->lex = LEX_STRING;
  return TRUE;
}

static gboolean
unicode_digit (ArktsHeapDoc *doc,
               char c,
               GError **error)
{
  int digit = g_ascii_xdigit_value (c);

  if (digit < 0)
    return syntax_error (doc, error, doc->tok_offset, c, "a hex digit of a \\u escape");
  doc->uni = doc->uni * 16 + (guint32) digit;
  if (++doc->uni_digits < 4)
    return TRUE;
  doc->lex = LEX_STRING;
  if (doc->uni >= 0xd800 && doc->uni < 0xdc00)
    {
      doc->high_surrogate = doc->uni;
      return TRUE;
    }
  if (doc->uni >= 0xdc00 && doc->uni < 0xe000 && doc->high_surrogate)
    keep_char (doc, 0x10000 + ((doc->high_surrogate - 0xd800) << 10) + (doc->uni - 0xdc00));
  else
    keep_char (doc, doc->uni >= 0xd800 && doc->uni < 0xe000 ? 0xfffd : doc->uni);
  doc->high_surrogate = 0;
  return TRUE;
}

static gboolean
literal_done (ArktsHeapDoc *doc,
              GError **error)
{
  if (doc->lit_len != 4 && doc->lit_len != 5)
    return syntax_error (doc, error, doc->tok_offset, 'n', "true, false or null");
  if (doc->section == ARKTS_SECTION_TRACE_TREE && doc->stack->len >= 2)
    return syntax_error (doc, error, doc->tok_offset, 'n', "a number in a trace node");
  if (doc->stack->len == 2 && section_is_flat (doc->section))
    doc->index++;
  return value_done (doc);
}

/* One byte between tokens. */
static gboolean
base_char (ArktsHeapDoc *doc,
           char c,
           GError **error)
{
  switch (c)
    {
    case ' ':
    case '\n':
    case '\r':
    case '\t':
      return TRUE;
    case '{':
    case '[':
      return open_container (doc, c, error);
    case '}':
    case ']':
      return close_container (doc, c, error);
    case ',':
      if (doc->expect != EXP_COMMA_OR_CLOSE)
        return syntax_error (doc, error, doc->tok_offset, c, expected_text (doc->expect));
      doc->expect = doc->stack->data[doc->stack->len - 1] == '{' ? EXP_KEY : EXP_VALUE;
      return TRUE;
    case ':':
      if (doc->expect != EXP_COLON)
        return syntax_error (doc, error, doc->tok_offset, c, expected_text (doc->expect));
      doc->expect = EXP_VALUE;
      return TRUE;
    case '"':
      doc->lex = LEX_STRING;
      return string_begins (doc, error);
    case 't':
    case 'f':
    case 'n':
      doc->lex = LEX_LITERAL;
      doc->lit_len = 1;
      return begin_value (doc, c, error);
    default:
      if (c == '-' || (c >= '0' && c <= '9'))
        {
          doc->lex = LEX_NUMBER;
          doc->num[0] = c;
          doc->num_len = 1;
          return begin_value (doc, c, error);
        }
      return syntax_error (doc, error, doc->tok_offset, c, expected_text (doc->expect));
    }
}

static inline gboolean
is_number_char (char c)
{
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/* Scans a string's plain run; returns where it stopped (a quote, a
 * backslash or the end). */
static const char *
string_run (ArktsHeapDoc *doc,
            const char *p,
            const char *end)
{
  const char *start = p;

  while (p < end && *p != '"' && *p != '\\')
    p++;
  if (doc->str_keep && doc->str->len < MAX_KEPT_STRING)
    g_string_append_len (doc->str, start, MIN ((gsize) (p - start), MAX_KEPT_STRING - doc->str->len));
  return p;
}

/* The flat integer arrays are nearly all of a snapshot: inside them,
 * read "digits , newline" runs in a tight loop. Anything else (a number
 * cut by the slice end, a sign, a fraction, ']') is left to the general
 * scanner. Returns where it stopped. */
static const char *
fast_numbers (ArktsHeapDoc *doc,
              const char *p,
              const char *end,
              const char *data)
{
  while (p < end)
    {
      char c = *p;
      const char *q = p;
      guint64 value = 0;
      if (c == ',' && doc->expect == EXP_COMMA_OR_CLOSE)
        {
          doc->expect = EXP_VALUE;
          p++;
          continue;
        }
      if (c == '\n' || c == ' ' || c == '\r' || c == '\t')
        {
          p++;
          continue;
        }
      if (c < '0' || c > '9' || (doc->expect != EXP_VALUE && doc->expect != EXP_VALUE_OR_CLOSE))
        return p;
      while (q < end && *q >= '0' && *q <= '9' && q - p < 18)
        value = value * 10 + (guint64) (*q++ - '0');
      if (q == end || (*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E' || *q == '-' || *q == '+')
        return p;
      doc->started = TRUE;
      doc->tok_offset = (gint64) (doc->offset + (guint64) (p - data));
      if (doc->section != ARKTS_SECTION_STRINGS)
        arkts_heap_summary_number (doc->summary, doc->section, (gint64) value, doc->out);
      doc->index++;
      doc->expect = EXP_COMMA_OR_CLOSE;
      p = q;
    }
  return p;
}

static gboolean
capture_append (ArktsHeapDoc *doc,
                const char *to,
                GError **error)
{
  gsize len = (gsize) (to - doc->capture_from);

  if (doc->capture->len + len > ARKTS_MAX_META_SIZE)
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_TOO_LARGE,
                   "snapshot offset %" G_GINT64_FORMAT ": \"snapshot\" is larger than %d MiB",
                   doc->tok_offset, ARKTS_MAX_META_SIZE / (1024 * 1024));
      return FALSE;
    }
  g_string_append_len (doc->capture, doc->capture_from, len);
  doc->capture_from = to;
  return TRUE;
}

static gboolean
number_byte (ArktsHeapDoc *doc,
             const char **p,
             GError **error)
{
  char c = **p;

  if (!is_number_char (c))
    {
      /* c ends the number and is looked at again between tokens */
      doc->lex = LEX_BASE;
      return number_done (doc, error);
    }
  if (doc->num_len >= MAX_NUMBER_LENGTH)
    return syntax_error (doc, error, doc->tok_offset, c, "a number of at most 63 characters");
  doc->num[doc->num_len++] = c;
  (*p)++;
  return TRUE;
}

static gboolean
string_bytes (ArktsHeapDoc *doc,
              const char **p,
              const char *end,
              GError **error)
{
  *p = string_run (doc, *p, end);
  if (*p == end)
    return TRUE;
  if (*(*p)++ == '\\')
    {
      doc->lex = LEX_ESCAPE;
      return TRUE;
    }
  doc->lex = LEX_BASE;
  return string_done (doc, error);
}

static gboolean
literal_byte (ArktsHeapDoc *doc,
              const char **p,
              GError **error)
{
  if (g_ascii_isalpha (**p))
    {
      doc->lit_len++;
      (*p)++;
      return TRUE;
    }
  doc->lex = LEX_BASE;
  return literal_done (doc, error);
}

static gboolean
between_tokens (ArktsHeapDoc *doc,
                const char **p,
                const char *end,
                const char *data,
                GError **error)
{
  char c = **p;

  if (doc->stack->len == 2 && section_is_flat (doc->section))
    {
      const char *q = fast_numbers (doc, *p, end, data);
      if (q != *p)
        {
          *p = q;
          return TRUE;
        }
    }
  if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
    {
      /* token starts are where skips and errors point */
      doc->started = TRUE;
      doc->tok_offset = (gint64) (doc->offset + (guint64) (*p - data));
      doc->cur = *p;
      if (!base_char (doc, c, error))
        return FALSE;
    }
  (*p)++;
  return TRUE;
}

static gboolean
scan (ArktsHeapDoc *doc,
      const char *data,
      const char *end,
      const char **stop,
      GError **error)
{
  const char *p = data;
  gboolean ok = TRUE;

  doc->capture_from = data;
  while (ok && p < end && doc->expect != EXP_DONE)
    switch (doc->lex)
      {
      case LEX_NUMBER:
        ok = number_byte (doc, &p, error);
        break;
      case LEX_STRING:
        ok = string_bytes (doc, &p, end, error);
        break;
      case LEX_ESCAPE:
        ok = escape_char (doc, *p++, error);
        break;
      case LEX_UNICODE:
        ok = unicode_digit (doc, *p++, error);
        break;
      case LEX_LITERAL:
        ok = literal_byte (doc, &p, error);
        break;
      case LEX_BASE:
        ok = between_tokens (doc, &p, end, data, error);
        break;
      }
  if (!ok)
    return FALSE;
  *stop = p;
  return !doc->capturing || capture_append (doc, p, error);
}

/**
 * arkts_heap_doc_feed:
 * @doc: a document
 * @data: the next bytes of it
 * @len: their length
 * @consumed: (out): how many were used; less than @len when the document
 *   ended before
 * @out: where the events of timeline samples go
 *
 * Returns: FALSE with @error when the bytes are not a heap snapshot
 */
gboolean
arkts_heap_doc_feed (ArktsHeapDoc *doc,
                     const char *data,
                     gsize len,
                     gsize *consumed,
                     TraceBatch *out,
                     GError **error)
{
  const char *stop = data;
  gboolean ok;

  g_return_val_if_fail (doc != NULL, FALSE);

  doc->out = out;
  ok = scan (doc, data, data + len, &stop, error);
  doc->out = NULL;
  *consumed = (gsize) (stop - data);
  doc->offset += *consumed;
  return ok;
}
