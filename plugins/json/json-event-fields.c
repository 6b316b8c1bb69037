/* tracepipe - json plugin: the members of an event object
 *
 * The first step of reading an event (json-event.c does the second):
 * the members the reader uses are found and their values scanned into a
 * ChromeEventFields, the others skipped. This runs for every event, on
 * json-src's worker threads when it has them.
 *
 * Keys are matched against one table. In the compact form most writers
 * use (`,"ts":` with no whitespace), a member is recognised by comparing
 * its first eight bytes, quote and colon included, with the few known
 * keys that start with the same letter: no string scan, no key
 * comparison after it, no colon test (together a tenth of a plain JSON
 * conversion). Any other member (whitespace, escapes, a key too long for
 * a word, one not in the table) takes the general member scan, and the
 * same table by length and bytes.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <string.h>

#include "json-reader-private.h"
#include "json-scan-inline.h"

typedef struct
{
  const char *key;
  guint16 offset; /* of its ChromeValue in ChromeEventFields */
  gint8 number;   /* its ChromeFieldNumber, or -1 */
} EventKey;

#define KEY(name, member, n)                             \
  {                                                      \
    name, G_STRUCT_OFFSET (ChromeEventFields, member), n \
  }

/* Grouped by first letter (the index below relies on it). */
static const EventKey event_keys[] = {
  KEY ("args", args, -1),
  KEY ("bp", bp, -1),
  KEY ("bind_id", bind_id, -1),
  KEY ("cat", cat, -1),
  KEY ("cpu", cpu, -1),
  KEY ("dur", dur, CHROME_NUMBER_DUR),
  KEY ("id", id, -1),
  KEY ("name", name, -1),
  KEY ("ph", ph, -1),
  KEY ("pid", pid, CHROME_NUMBER_PID),
  KEY ("s", s, -1),
  KEY ("sf", sf, -1),
  KEY ("scope", scope, -1),
  KEY ("ts", ts, CHROME_NUMBER_TS),
  KEY ("tid", tid, CHROME_NUMBER_TID),
  KEY ("tts", tts, CHROME_NUMBER_TTS),
  KEY ("tdur", tdur, CHROME_NUMBER_TDUR),
  KEY ("weight", weight, -1),
};

#undef KEY

#define N_KEYS G_N_ELEMENTS (event_keys)

/* µs become ns; ids stay as they are */
static const int number_scale[CHROME_N_NUMBERS] = {
  [CHROME_NUMBER_TS] = 3,
  [CHROME_NUMBER_DUR] = 3,
  [CHROME_NUMBER_PID] = 0,
  [CHROME_NUMBER_TID] = 0,
  [CHROME_NUMBER_TTS] = 3,
  [CHROME_NUMBER_TDUR] = 3,
};

/* A compact member's slot in EventKeyIndex.by_two_bytes: its key's first
 * two bytes (the second may be the closing quote), which tell the
 * table's short keys apart. */
#define TWO_BYTE_SLOT(a, b) ((((guint) (guchar) (a) << 3) ^ (guchar) (b)) & 0xff)

/* What the table gives at run time, built once. */
typedef struct
{
  guint8 first[256], count[256]; /* the keys starting with a byte */
  guint8 by_two_bytes[256];      /* 1 + the one short key of a slot, or 0 */
  guint8 key_len[N_KEYS];
  guint8 member_len[N_KEYS]; /* of `"key":`, 0 when over 8 bytes */
  guint64 member_word[N_KEYS];
  guint64 member_mask[N_KEYS];
} EventKeyIndex;

static EventKeyIndex key_index;

static void
build_key_index (void)
{
  for (guint k = 0; k < N_KEYS; k++)
    {
      guchar c = (guchar) event_keys[k].key[0];
      gsize len = strlen (event_keys[k].key);
      char member[8] = { 0 }, mask[8] = { 0 };

      g_assert (key_index.count[c] == 0 || key_index.first[c] + key_index.count[c] == k);
      if (key_index.count[c]++ == 0)
        key_index.first[c] = k;
      key_index.key_len[k] = len;
      if (len + 3 > 8)
        continue;
      member[0] = '"';
      memcpy (member + 1, event_keys[k].key, len);
      member[len + 1] = '"';
      member[len + 2] = ':';
      memset (mask, 0xff, len + 3);
      memcpy (&key_index.member_word[k], member, 8);
      memcpy (&key_index.member_mask[k], mask, 8);
      key_index.member_len[k] = len + 3;
      /* a key that shares a slot takes the general member scan */
      if (key_index.by_two_bytes[TWO_BYTE_SLOT (member[1], member[2])] == 0)
        key_index.by_two_bytes[TWO_BYTE_SLOT (member[1], member[2])] = k + 1;
    }
}

static const EventKeyIndex *
get_key_index (void)
{
  static gsize built = 0;

  if (g_once_init_enter (&built))
    {
      build_key_index ();
      g_once_init_leave (&built, 1);
    }
  return &key_index;
}

/* The key of the compact member whose opening quote is at @q, when it is
 * in the table; else -1. One candidate, found by the member's first two
 * bytes, is compared: a loop over the keys of a first letter ended at a
 * different turn from member to member, and its exit was mispredicted
 * about once an event. */
static G_ALWAYS_INLINE inline int
match_member (const EventKeyIndex *ix,
              const char *q,
              const char *end)
{
  int k;
  guint64 w;

  /* the word, and a byte of the value */
  if (end - q < 9)
    return -1;
  k = (int) ix->by_two_bytes[TWO_BYTE_SLOT (q[1], q[2])] - 1;
  memcpy (&w, q, 8);
  if (k >= 0 && ((w ^ ix->member_word[k]) & ix->member_mask[k]) == 0)
    return k;
  return -1;
}

/* The key @key is, by its raw text (escapes are not decoded: the keys
 * the reader uses never need them); -1 for the members it skips. */
static int
find_key (const EventKeyIndex *ix,
          const ChromeValue *key)
{
  gsize len = key->end - key->start;
  guchar c;

  if (len == 0)
    return -1;
  c = (guchar) key->start[0];
  for (guint k = ix->first[c]; k < (guint) ix->first[c] + ix->count[c]; k++)
    if (ix->key_len[k] == len && memcmp (event_keys[k].key, key->start, len) == 0)
      return (int) k;
  return -1;
}

static ChromeScanResult
scan_id2 (ChromeScanner *s,
          int depth,
          ChromeEventFields *f)
{
  gboolean first = TRUE;
  ChromeValue key, other;
  ChromeScanResult res;

  if (depth + 1 > CHROME_SCAN_MAX_DEPTH)
    {
      s->error_at = s->p;
      return CHROME_SCAN_TOO_DEEP;
    }
  res = chrome_scan_enter (s, '{');
  if (res != CHROME_SCAN_OK)
    return res;
  while ((res = chrome_scan_member (s, &first, &key)) == CHROME_SCAN_OK)
    {
      ChromeValue *slot = &other;

      if (chrome_value_is (&key, "local"))
        slot = &f->id2_local;
      else if (chrome_value_is (&key, "global"))
        slot = &f->id2_global;
      res = chrome_scan_value (s, slot, depth + 1);
      if (res != CHROME_SCAN_OK)
        return res;
    }
  return res == CHROME_SCAN_END ? CHROME_SCAN_OK : res;
}

static ChromeScanResult
scan_other_member (ChromeScanner *s,
                   const ChromeValue *key,
                   int depth,
                   ChromeEventFields *f)
{
  ChromeValue v;
  ChromeScanResult res;

  if (*s->p == '{' && chrome_value_is (key, "id2"))
    return scan_id2 (s, depth, f);
  res = chrome_scan_value (s, &v, depth);
  if (res == CHROME_SCAN_OK && v.type == CHROME_VALUE_TRUE)
    {
      if (chrome_value_is (key, "flow_in"))
        f->flow_in = TRUE;
      else if (chrome_value_is (key, "flow_out"))
        f->flow_out = TRUE;
    }
  return res;
}

/* The value of a member the reader uses, at the scanner. */
static G_ALWAYS_INLINE inline ChromeScanResult
scan_known_value (ChromeScanner *s,
                  int depth,
                  ChromeEventFields *f,
                  int k)
{
  ChromeValue *slot = (ChromeValue *) ((char *) f + event_keys[k].offset);
  int number = event_keys[k].number;

  if (number >= 0)
    {
      /* the number reader starts at the value (`"ts": 5`, pretty-printed) */
      if (G_UNLIKELY (s->p < s->end && (guchar) *s->p <= ' '))
        s->p = chrome_skip_ws (s->p, s->end);
      /* a repeated member's last value counts, read or not */
      f->numbers_read &= ~(1u << number);
      if (scan_plain_number (s, number_scale[number], slot, &f->numbers[number]))
        {
          f->numbers_read |= 1u << number;
          return CHROME_SCAN_OK;
        }
    }
  return scan_value (s, slot, depth);
}

/**
 * chrome_event_scan_fields:
 * @s: a scanner standing at the event's '{'
 * @depth: the depth of the event object (the top-level value is 1)
 *
 * Finds the members the reader uses; other members are skipped.  Leaves
 * the scanner after the closing '}'.  Plain ts, dur, pid, tid, tts and
 * tdur numbers are converted on the way (chrome_fields_number()).
 */
ChromeScanResult
chrome_event_scan_fields (ChromeScanner *s,
                          int depth,
                          ChromeEventFields *f)
{
  const EventKeyIndex *ix = get_key_index ();
  gboolean first = TRUE;
  ChromeValue key;
  ChromeScanResult res;

  memset (f, 0, sizeof *f);
  if (depth > CHROME_SCAN_MAX_DEPTH)
    {
      s->error_at = s->p;
      return CHROME_SCAN_TOO_DEEP;
    }
  res = chrome_scan_enter (s, '{');
  if (res != CHROME_SCAN_OK)
    return res;
  for (;;)
    {
      const char *q = first ? s->p : s->p + 1;
      int k = -1;

      /* `"key":` or `,"key":`, a key of the table */
      if ((first || (s->p < s->end && *s->p == ',')) && (k = match_member (ix, q, s->end)) >= 0)
        {
          s->p = q + ix->member_len[k];
          first = FALSE;
        }
      else
        {
          /* the scanners inlined: this loop reads every member of every
           * event, and their calls' register saves were a fifth of their
           * cost */
          res = scan_member (s, &first, &key);
          if (res != CHROME_SCAN_OK)
            break;
          k = find_key (ix, &key);
        }
      f->n_members++;
      if (k >= 0)
        res = scan_known_value (s, depth, f, k);
      else
        res = scan_other_member (s, &key, depth, f);
      if (res != CHROME_SCAN_OK)
        return res;
    }
  return res == CHROME_SCAN_END ? CHROME_SCAN_OK : res;
}
