/* tracepipe - arkts: JSON documents whose number arrays are taken out
 *
 * CPU profiles, sampling heap profiles and DevTools messages are read
 * with json-glib, whose tree takes about 40 times the text for an array
 * of small numbers (a 64 MB `samples` array took 2.7 GB). This push
 * scanner, fed any slices of a document, copies it into a *skeleton* in
 * which every array of numbers is replaced: by a marker string when its
 * key is one the converters read (`samples`, `timeDeltas`, `timestamps`,
 * `children`, `statsUpdate`), its numbers then kept as 4-byte integers;
 * by `[]` otherwise, its numbers never kept. json-glib then reads the
 * skeleton, which is the document's small part (a profile's node table,
 * scalars), and arkts_numbers_lookup() gives a converter the numbers
 * where the array was.
 *
 * The skeleton is bounded by the memory json-glib's tree of it will take,
 * not by its length: a node table of short nodes takes 15 times its text
 * (2.1 KB for a node of 150 bytes), `[{},{},…]` 100 times. The cost of
 * each container, member and element is counted as the skeleton grows
 * (TREE_COST_*: measured with json-glib 1.6 and glibc's malloc on 64 bits,
 * rounded up), with the text twice: the skeleton is held while the tree
 * holds copies of its strings.
 *
 * An array is a number array when its first element is a number; later
 * elements that are not numbers are kept as "not an integer" (what
 * arkts_json_array_get_int() says of them) and their content skipped.
 * A `samples` array of objects (a sampling heap profile's, of which only
 * the count is read) is taken out the same way.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "arkts-engine.h"

#define MAX_NUMBER_LENGTH 63
#define MAX_KEY_LENGTH 32
/* The marker that stands for kept array N in the skeleton. A file would
 * have to hold this very string (with its U+0001) to be misread. */
#define MARKER_PREFIX "\\u0001arkts-numbers:"
#define MARKER_PREFIX_DECODED "\001arkts-numbers:"
/* Arrays are kept as 4-byte values until one does not fit (old-form
 * `timestamps` are µs since the epoch): that array then moves to 8-byte
 * values. The smallest value of each width stands for "not an integer"
 * (so a file's -9223372036854775808 reads as one). */
#define NOT_INT_32 G_MININT32
#define NOT_INT_64 G_MININT64

/* What json-glib's tree takes for the skeleton (see the top), in bytes:
 * an object (JsonNode, JsonObject, its hash table and member list: 294
 * measured), an array with its first element (110 + 37 to 106), a member
 * (key copy, hash and list entries, value node: 140 to 254), an element
 * after a ',' (37 for null to 106 for a short string). */
#define TREE_COST_OBJECT 320
#define TREE_COST_ARRAY 200
#define TREE_COST_MEMBER 260
#define TREE_COST_ELEMENT 110

typedef enum
{
  FRAME_OBJECT,
  FRAME_ARRAY,
} FrameKind;

typedef enum
{
  MODE_COPY,    /* into the skeleton */
  MODE_NUMBERS, /* inside a number array */
} Mode;

typedef struct
{
  guint first; /* in values32 or values64 */
  guint len;
  gboolean wide;
} KeptArray;

struct _ArktsJsonSkel
{
  GString *skeleton;
  guint64 max_tree;  /* bound of the skeleton's cost */
  guint64 tree_cost; /* of the skeleton's containers, members, elements */
  guint64 max_numbers;
  guint64 offset; /* of the byte being scanned */

  GByteArray *frames; /* FrameKind per open container of the copy */
  gboolean in_string, escape, expect_key, key_is_next;
  GString *key; /* the key of the value being read, cut */
  gboolean array_undecided;
  gsize array_open_at; /* skeleton length before its '[' */

  Mode mode;
  gboolean keep;
  guint skip_depth; /* containers open inside an element being skipped */
  gboolean skip_string, skip_escape, skip_scalar;
  char num[MAX_NUMBER_LENGTH + 1];
  guint num_len;
  gboolean num_too_long;
  gboolean after_element; /* a ',' or ']' must come next */
  guint newlines;         /* in the array, put back after its marker */

  GArray *values32;  /* gint32 */
  GArray *values64;  /* gint64 */
  GArray *kept;      /* KeptArray */
  guint64 n_skipped; /* numbers of arrays not kept */

  /* a top-level key only a CPU or heap profile has (not a snapshot) */
  gboolean profile_key, nodes_pending;
  gboolean started; /* the first byte that is not whitespace was seen */
};

static const char *const kept_keys[] = { "samples", "timeDeltas", "timestamps", "children", "statsUpdate" };

/**
 * arkts_json_skel_new:
 * @max_tree: the most memory the skeleton and json-glib's tree of it may
 *   take, as estimated while it grows (see the top)
 * @max_numbers: the most numbers kept
 */
ArktsJsonSkel *
arkts_json_skel_new (guint64 max_tree,
                     guint64 max_numbers)
{
  ArktsJsonSkel *s = g_new0 (ArktsJsonSkel, 1);

  s->skeleton = g_string_new (NULL);
  s->max_tree = max_tree;
  s->max_numbers = max_numbers;
  s->frames = g_byte_array_new ();
  s->key = g_string_new (NULL);
  s->values32 = g_array_new (FALSE, FALSE, sizeof (gint32));
  s->values64 = g_array_new (FALSE, FALSE, sizeof (gint64));
  s->kept = g_array_new (FALSE, FALSE, sizeof (KeptArray));
  return s;
}

void
arkts_json_skel_free (ArktsJsonSkel *s)
{
  if (s == NULL)
    return;
  g_string_free (s->skeleton, TRUE);
  g_byte_array_unref (s->frames);
  g_string_free (s->key, TRUE);
  g_array_unref (s->values32);
  g_array_unref (s->values64);
  g_array_unref (s->kept);
  g_free (s);
}

/**
 * arkts_json_skel_reset:
 *
 * Forgets the document, keeping the buffers, for the next one.
 */
void
arkts_json_skel_reset (ArktsJsonSkel *s)
{
  /* what a large message took is given back */
  if (s->values32->len + s->values64->len > 1024 * 1024 || s->skeleton->len > 16 * 1024 * 1024)
    {
      g_array_unref (s->values32);
      g_array_unref (s->values64);
      g_string_free (s->skeleton, TRUE);
      s->values32 = g_array_new (FALSE, FALSE, sizeof (gint32));
      s->values64 = g_array_new (FALSE, FALSE, sizeof (gint64));
      s->skeleton = g_string_new (NULL);
    }
  g_string_truncate (s->skeleton, 0);
  g_byte_array_set_size (s->frames, 0);
  g_string_truncate (s->key, 0);
  g_array_set_size (s->values32, 0);
  g_array_set_size (s->values64, 0);
  g_array_set_size (s->kept, 0);
  s->offset = 0;
  s->tree_cost = 0;
  s->in_string = s->escape = s->expect_key = s->key_is_next = s->array_undecided = FALSE;
  s->mode = MODE_COPY;
  s->num_len = 0;
  s->profile_key = s->nodes_pending = s->started = FALSE;
}

const char *
arkts_json_skel_get_text (ArktsJsonSkel *s,
                          gsize *len)
{
  *len = s->skeleton->len;
  return s->skeleton->str;
}

/* ---- numbers ---- */

static gboolean
too_many (ArktsJsonSkel *s,
          GError **error)
{
  g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_TOO_LARGE,
               "byte offset %" G_GUINT64_FORMAT ": more than %" G_GUINT64_FORMAT " numbers in the arrays of one document",
               s->offset, s->max_numbers);
  return FALSE;
}

/* The open array moves to 8-byte values. */
static void
widen (ArktsJsonSkel *s,
       KeptArray *a)
{
  guint first64 = s->values64->len;

  for (guint i = 0; i < a->len; i++)
    {
      gint32 v = g_array_index (s->values32, gint32, a->first + i);
      gint64 wide = v == NOT_INT_32 ? NOT_INT_64 : v;

      g_array_append_val (s->values64, wide);
    }
  g_array_set_size (s->values32, a->first);
  a->first = first64;
  a->wide = TRUE;
}

/* Stores a value (@ok FALSE: not an integer) in the open kept array. */
static gboolean
store (ArktsJsonSkel *s,
       gint64 value,
       gboolean ok,
       GError **error)
{
  KeptArray *a;

  if (!s->keep)
    {
      s->n_skipped++;
      return TRUE;
    }
  if ((guint64) s->values32->len + s->values64->len >= s->max_numbers)
    return too_many (s, error);
  a = &g_array_index (s->kept, KeptArray, s->kept->len - 1);
  if (!a->wide && ok && (value > G_MAXINT32 || value <= NOT_INT_32))
    widen (s, a);
  if (a->wide)
    {
      gint64 v = ok ? value : NOT_INT_64;

      g_array_append_val (s->values64, v);
    }
  else
    {
      gint32 v = ok ? (gint32) value : NOT_INT_32;

      g_array_append_val (s->values32, v);
    }
  a->len++;
  return TRUE;
}

static gboolean
syntax_error (ArktsJsonSkel *s,
              const char *what,
              GError **error)
{
  g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT,
               "byte offset %" G_GUINT64_FORMAT ": %s in an array of numbers", s->offset, what);
  return FALSE;
}

/* The number text read (as json-glib would: an integer without '.', 'e',
 * else a double, made an integer when it fits). */
static gboolean
number_done (ArktsJsonSkel *s,
             GError **error)
{
  gboolean is_int = strpbrk (s->num, ".eE") == NULL;
  char *end;
  gint64 v = 0;
  gboolean ok;

  s->num[s->num_len] = '\0';
  errno = 0;
  if (is_int)
    {
      v = g_ascii_strtoll (s->num, &end, 10);
      ok = errno == 0;
    }
  else
    {
      double d = g_ascii_strtod (s->num, &end);

      ok = arkts_double_to_int (d, &v);
    }
  if (*end != '\0' && !s->num_too_long)
    return syntax_error (s, "a malformed number", error);
  s->num_len = 0;
  s->num_too_long = FALSE;
  s->after_element = TRUE;
  return store (s, v, ok && !s->num_too_long, error);
}

/* Inside an element that is not a number: only its end matters. */
static void
skip_byte (ArktsJsonSkel *s,
           char c)
{
  if (s->skip_string)
    {
      if (s->skip_escape)
        s->skip_escape = FALSE;
      else if (c == '\\')
        s->skip_escape = TRUE;
      else if (c == '"')
        s->skip_string = FALSE;
    }
  else if (c == '"')
    s->skip_string = TRUE;
  else if (c == '{' || c == '[')
    s->skip_depth++;
  else if (c == '}' || c == ']')
    s->skip_depth--;
}

static void
end_numbers (ArktsJsonSkel *s)
{
  s->mode = MODE_COPY;
  for (; s->newlines > 0; s->newlines--)
    g_string_append_c (s->skeleton, '\n');
}

/* The first byte of an element that is not a number. */
static gboolean
other_element (ArktsJsonSkel *s,
               char c,
               GError **error)
{
  if (c != '"' && c != '{' && c != '[' && c != 't' && c != 'f' && c != 'n')
    return syntax_error (s, "an unexpected character", error);
  s->skip_string = c == '"';
  s->skip_depth = c == '{' || c == '[';
  s->skip_scalar = g_ascii_isalpha (c);
  s->after_element = TRUE;
  return store (s, 0, FALSE, error);
}

/* One byte inside a number array. */
static gboolean
numbers_byte (ArktsJsonSkel *s,
              char c,
              GError **error)
{
  if (s->skip_depth > 0 || s->skip_string)
    {
      skip_byte (s, c);
      return TRUE;
    }
  if (s->skip_scalar && g_ascii_isalpha (c))
    return TRUE; /* the rest of true, false, null */
  s->skip_scalar = FALSE;
  if (c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' || g_ascii_isdigit (c))
    {
      if (s->num_len == 0 && s->after_element)
        return syntax_error (s, "a missing ','", error);
      if (s->num_len < MAX_NUMBER_LENGTH)
        s->num[s->num_len++] = c;
      else
        s->num_too_long = TRUE;
      return TRUE;
    }
  if (s->num_len > 0 && !number_done (s, error))
    return FALSE;
  switch (c)
    {
    case '\n':
      s->newlines++;
      return TRUE;
    case ' ':
    case '\r':
    case '\t':
      return TRUE;
    case ',':
      if (!s->after_element)
        return syntax_error (s, "a value missing before ','", error);
      s->after_element = FALSE;
      return TRUE;
    case ']':
      if (!s->after_element)
        return syntax_error (s, "a value missing before ']'", error);
      end_numbers (s);
      return TRUE;
    default:
      if (s->after_element)
        return syntax_error (s, "a missing ','", error);
      return other_element (s, c, error);
    }
}

/* ---- the copy ---- */

static gboolean
key_is_kept (ArktsJsonSkel *s)
{
  for (guint i = 0; i < G_N_ELEMENTS (kept_keys); i++)
    if (strcmp (s->key->str, kept_keys[i]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
is_samples_value (ArktsJsonSkel *s)
{
  return s->frames->len >= 2 && s->frames->data[s->frames->len - 2] == FRAME_OBJECT && strcmp (s->key->str, "samples") == 0;
}

/* The first element of an array is a number: the array's text leaves
 * the skeleton and its numbers go to the store. */
static void
begin_numbers (ArktsJsonSkel *s,
               char first)
{
  gboolean in_object_value = s->frames->len >= 2 && s->frames->data[s->frames->len - 2] == FRAME_OBJECT;

  s->newlines = 0;
  for (gsize i = s->array_open_at; i < s->skeleton->len; i++)
    s->newlines += s->skeleton->str[i] == '\n';
  g_string_truncate (s->skeleton, s->array_open_at);
  g_byte_array_set_size (s->frames, s->frames->len - 1);
  s->keep = in_object_value && key_is_kept (s);
  if (s->keep)
    {
      KeptArray a = { s->values32->len, 0, FALSE };

      g_string_append_printf (s->skeleton, "\"" MARKER_PREFIX "%u\"", s->kept->len);
      g_array_append_val (s->kept, a);
    }
  else
    g_string_append (s->skeleton, "[]");
  s->mode = MODE_NUMBERS;
  s->num_len = 0;
  s->skip_depth = 0;
  s->skip_string = s->skip_scalar = FALSE;
  s->after_element = FALSE;
  if (first == '{')
    other_element (s, first, NULL); /* kept as "not an integer": its count is what is read */
  else
    s->num[s->num_len++] = first;
}

/* Whether the document is a profile: heap snapshots have `nodes` of
 * numbers, profiles `nodes` of objects, `head`, times. */
static void
note_top_key (ArktsJsonSkel *s)
{
  static const char *const profile_keys[] = { "head", "timeDeltas", "timestamps", "startTime", "endTime" };

  for (guint i = 0; i < G_N_ELEMENTS (profile_keys); i++)
    if (strcmp (s->key->str, profile_keys[i]) == 0)
      s->profile_key = TRUE;
  s->nodes_pending = strcmp (s->key->str, "nodes") == 0;
}

static void
copy_structure (ArktsJsonSkel *s,
                char c)
{
  FrameKind top = s->frames->len ? s->frames->data[s->frames->len - 1] : FRAME_ARRAY;

  switch (c)
    {
    case '"':
      s->in_string = TRUE;
      s->key_is_next = top == FRAME_OBJECT && s->expect_key;
      if (s->key_is_next)
        g_string_truncate (s->key, 0);
      break;
    case '{':
      g_byte_array_append (s->frames, (const guint8[]){ FRAME_OBJECT }, 1);
      s->expect_key = TRUE;
      s->tree_cost += TREE_COST_OBJECT;
      break;
    case '[':
      g_byte_array_append (s->frames, (const guint8[]){ FRAME_ARRAY }, 1);
      s->tree_cost += TREE_COST_ARRAY;
      s->array_undecided = TRUE;
      s->array_open_at = s->skeleton->len - 1;
      break;
    case '}':
    case ']':
      if (s->frames->len)
        g_byte_array_set_size (s->frames, s->frames->len - 1);
      break;
    case ',':
      s->expect_key = top == FRAME_OBJECT;
      if (top == FRAME_ARRAY)
        s->tree_cost += TREE_COST_ELEMENT;
      break;
    case ':':
      s->expect_key = FALSE;
      s->tree_cost += TREE_COST_MEMBER;
      if (s->frames->len == 1)
        note_top_key (s);
      break;
    default:
      break;
    }
}

static void
copy_byte (ArktsJsonSkel *s,
           char c)
{
  if (s->in_string)
    {
      g_string_append_c (s->skeleton, c);
      if (s->escape)
        s->escape = FALSE;
      else if (c == '\\')
        s->escape = TRUE;
      else if (c == '"')
        s->in_string = FALSE;
      if (s->in_string && s->key_is_next && s->key->len < MAX_KEY_LENGTH)
        g_string_append_c (s->key, c);
      return;
    }
  if (c == ' ' || c == '\n' || c == '\r' || c == '\t')
    {
      /* newlines are kept, so that json-glib's line numbers are the
       * file's (its columns are not) */
      if (c == '\n')
        g_string_append_c (s->skeleton, c);
      return;
    }
  if (!s->started && c != '{')
    s->profile_key = TRUE; /* not an object: not a heap snapshot either */
  s->started = TRUE;
  if (s->array_undecided)
    {
      /* a sampling heap profile's `samples` are objects of which only the
       * count is read: they are counted like numbers, not kept */
      gboolean number = c == '-' || g_ascii_isdigit (c) || (c == '{' && is_samples_value (s));

      s->array_undecided = FALSE;
      if (s->nodes_pending && s->frames->len == 2 && c != ']')
        s->profile_key |= !number;
      if (number)
        {
          begin_numbers (s, c);
          return;
        }
    }
  g_string_append_c (s->skeleton, c);
  copy_structure (s, c);
}

/**
 * arkts_json_skel_feed:
 * @s: a scanner
 * @data: the next bytes of the document, cut anywhere
 *
 * Returns: FALSE when a limit is passed (the skeleton's length, the
 *   numbers kept); the document's syntax is json-glib's to judge
 */
gboolean
arkts_json_skel_feed (ArktsJsonSkel *s,
                      const char *data,
                      gsize len,
                      GError **error)
{
  g_return_val_if_fail (s != NULL, FALSE);

  for (gsize i = 0; i < len; i++, s->offset++)
    {
      if (s->mode == MODE_NUMBERS)
        {
          if (!numbers_byte (s, data[i], error))
            return FALSE;
          continue;
        }
      copy_byte (s, data[i]);
      if (2 * (guint64) s->skeleton->len + s->tree_cost > s->max_tree)
        {
          g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_TOO_LARGE,
                       "byte offset %" G_GUINT64_FORMAT ": the JSON outside the number arrays (a node table and scalars) "
                       "would take more than %" G_GUINT64_FORMAT " MiB once read",
                       s->offset, s->max_tree / (1024 * 1024));
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * arkts_json_skel_finish:
 *
 * Ends the document: a number being read is stored. A number array still
 * open (the input was cut) stays open in the skeleton, so that json-glib
 * reports the cut.
 */
void
arkts_json_skel_finish (ArktsJsonSkel *s)
{
  GError *ignored = NULL;

  if (s->mode == MODE_NUMBERS && s->num_len > 0)
    number_done (s, &ignored);
  g_clear_error (&ignored);
}

/**
 * arkts_json_skel_is_profile:
 *
 * Returns: whether a top-level key seen so far is one only CPU and heap
 *   profiles have (`head`, `startTime`, `timeDeltas`, `nodes` of objects,
 *   …), or the document is not an object: it is then not a heap snapshot
 *   in an unusual key order
 */
gboolean
arkts_json_skel_is_profile (ArktsJsonSkel *s)
{
  return s->profile_key;
}

/* ---- lookup ---- */

/**
 * arkts_numbers_lookup:
 * @s: (nullable): the scanner the document came through, or %NULL
 * @obj: (nullable): an object of the skeleton
 * @member: the member that held the array
 * @out: (out): its numbers
 *
 * Returns: whether @member is an array (a kept number array, or one left
 *   in the skeleton, e.g. empty or starting with a non-number)
 */
gboolean
arkts_numbers_lookup (ArktsJsonSkel *s,
                      JsonObject *obj,
                      const char *member,
                      ArktsNumbers *out)
{
  JsonNode *node = obj ? json_object_get_member (obj, member) : NULL;
  const char *text;
  guint64 index;

  memset (out, 0, sizeof *out);
  if (node && JSON_NODE_HOLDS_ARRAY (node))
    {
      out->array = json_node_get_array (node);
      out->len = json_array_get_length (out->array);
      return TRUE;
    }
  if (s == NULL || node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return FALSE;
  text = json_node_get_string (node);
  if (!g_str_has_prefix (text, MARKER_PREFIX_DECODED))
    return FALSE;
  index = g_ascii_strtoull (text + strlen (MARKER_PREFIX_DECODED), NULL, 10);
  if (index >= s->kept->len)
    return FALSE;
  out->skel = s;
  out->first = g_array_index (s->kept, KeptArray, index).first;
  out->len = g_array_index (s->kept, KeptArray, index).len;
  out->wide = g_array_index (s->kept, KeptArray, index).wide;
  return TRUE;
}

/**
 * arkts_numbers_get:
 * @n: numbers from arkts_numbers_lookup()
 * @i: an index below n->len
 * @ok: (out): FALSE (and 0) when element @i is not an integer
 */
gint64
arkts_numbers_get (const ArktsNumbers *n,
                   guint i,
                   gboolean *ok)
{
  gint64 v;

  if (n->array)
    return arkts_json_array_get_int (n->array, i, ok);
  if (n->wide)
    {
      v = g_array_index (n->skel->values64, gint64, n->first + i);
      *ok = v != NOT_INT_64;
    }
  else
    {
      v = g_array_index (n->skel->values32, gint32, n->first + i);
      *ok = v != NOT_INT_32;
    }
  return *ok ? v : 0;
}
