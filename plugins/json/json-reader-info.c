/* tracepipe - json plugin: what the reader found besides events, and
 * what it skipped
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "json-reader-private.h"

static const char *const skip_reason_names[CHROME_SKIP_N_REASONS] = {
  [CHROME_SKIP_MALFORMED] = "malformed",
  [CHROME_SKIP_TRUNCATED] = "truncated",
  [CHROME_SKIP_NOT_AN_OBJECT] = "not an object",
  [CHROME_SKIP_NO_PHASE] = "no phase",
  [CHROME_SKIP_UNKNOWN_PHASE] = "unknown phase",
  [CHROME_SKIP_BAD_TIMESTAMP] = "bad timestamp",
  [CHROME_SKIP_BAD_DURATION] = "bad duration",
  [CHROME_SKIP_BAD_ID] = "bad id",
  [CHROME_SKIP_BAD_VALUE] = "bad value",
  [CHROME_SKIP_BAD_SCOPE] = "bad scope",
  [CHROME_SKIP_TRAILING_DATA] = "trailing data",
  [CHROME_SKIP_ARGS_DROPPED] = "args dropped",
  [CHROME_SKIP_UNSUPPORTED_PHASE] = "unsupported phase",
  [CHROME_SKIP_OTHER_METADATA] = "other metadata",
  [CHROME_SKIP_ORPHAN_SAMPLES] = "samples without profile",
  [CHROME_SKIP_EMPTY_OBJECT] = "empty object",
  [CHROME_SKIP_NAME_OVERRIDDEN] = "name overridden",
};

/* The `--stats` keys of json-src: the counters, then one key per skip
 * reason (said only when some were skipped), written out rather than
 * made from the names above so that a key can be searched for. */
#define SKIPPED(reason, key)                                                          \
  {                                                                                   \
    "skipped-" key, G_STRUCT_OFFSET (ChromeReaderStats, skipped[reason].count), FALSE \
  }

const TraceFileSrcStat chrome_reader_stats[CHROME_READER_N_STATS] = {
  { "bytes-read", G_STRUCT_OFFSET (ChromeReaderStats, bytes), TRUE },
  { "json-events", G_STRUCT_OFFSET (ChromeReaderStats, events), TRUE },
  SKIPPED (CHROME_SKIP_MALFORMED, "malformed"),
  SKIPPED (CHROME_SKIP_TRUNCATED, "truncated"),
  SKIPPED (CHROME_SKIP_NOT_AN_OBJECT, "not-an-object"),
  SKIPPED (CHROME_SKIP_NO_PHASE, "no-phase"),
  SKIPPED (CHROME_SKIP_UNKNOWN_PHASE, "unknown-phase"),
  SKIPPED (CHROME_SKIP_BAD_TIMESTAMP, "bad-timestamp"),
  SKIPPED (CHROME_SKIP_BAD_DURATION, "bad-duration"),
  SKIPPED (CHROME_SKIP_BAD_ID, "bad-id"),
  SKIPPED (CHROME_SKIP_BAD_VALUE, "bad-value"),
  SKIPPED (CHROME_SKIP_BAD_SCOPE, "bad-scope"),
  SKIPPED (CHROME_SKIP_TRAILING_DATA, "trailing-data"),
  SKIPPED (CHROME_SKIP_ARGS_DROPPED, "args-dropped"),
  SKIPPED (CHROME_SKIP_UNSUPPORTED_PHASE, "unsupported-phase"),
  SKIPPED (CHROME_SKIP_OTHER_METADATA, "other-metadata"),
  SKIPPED (CHROME_SKIP_ORPHAN_SAMPLES, "samples-without-profile"),
  SKIPPED (CHROME_SKIP_EMPTY_OBJECT, "empty-object"),
  SKIPPED (CHROME_SKIP_NAME_OVERRIDDEN, "name-overridden"),
};

#undef SKIPPED

const char *
chrome_skip_reason_to_string (ChromeSkipReason reason)
{
  if (reason >= CHROME_SKIP_N_REASONS)
    return "invalid";
  return skip_reason_names[reason];
}

void
chrome_reader_skip_n (ChromeReader *r,
                      ChromeSkipReason reason,
                      guint64 offset,
                      guint64 n)
{
  ChromeSkipCount *count = &r->stats.skipped[reason];

  /* the first of each reason only: skips can come per event */
  if (count->count == 0 && n > 0)
    g_debug ("%s: byte %" G_GUINT64_FORMAT ": first skipped: %s", r->location, offset,
             chrome_skip_reason_to_string (reason));
  for (guint64 i = count->count; i < count->count + n && i < CHROME_MAX_OFFSETS; i++)
    count->offsets[i] = offset;
  count->count += n;
}

void
chrome_reader_skip (ChromeReader *r,
                    ChromeSkipReason reason,
                    guint64 offset)
{
  chrome_reader_skip_n (r, reason, offset, 1);
}

/* ------------------------------------------------------------------ */
/* What was found besides events                                       */

/**
 * chrome_reader_get_clock_domain:
 *
 * Returns: the clock of the timestamps, from metadata "clock-domain"
 *   (final once the input is read: metadata may come last)
 */
TraceClockDomain
chrome_reader_get_clock_domain (ChromeReader *r)
{
  g_return_val_if_fail (r != NULL, TRACE_CLOCK_UNKNOWN);

  return r->clock_domain;
}

/**
 * chrome_reader_get_clock_domain_name:
 *
 * Returns: (nullable): metadata "clock-domain" as written
 *   ("LINUX_CLOCK_MONOTONIC", "SYSTRACE", …)
 */
const char *
chrome_reader_get_clock_domain_name (ChromeReader *r)
{
  g_return_val_if_fail (r != NULL, NULL);

  return r->clock_domain_name;
}

/**
 * chrome_reader_get_display_time_unit:
 *
 * Returns: (nullable): "displayTimeUnit" as written.  Display only: the
 *   timestamps are µs whatever it says.
 */
const char *
chrome_reader_get_display_time_unit (ChromeReader *r)
{
  g_return_val_if_fail (r != NULL, NULL);

  return r->display_time_unit;
}

/**
 * chrome_reader_get_metadata:
 *
 * Returns: (transfer none): the members of the top-level "metadata"
 *   object read so far (at most 256, each under 64 KiB)
 */
JsonObject *
chrome_reader_get_metadata (ChromeReader *r)
{
  g_return_val_if_fail (r != NULL, NULL);

  return r->metadata;
}

/**
 * chrome_reader_has_system_trace:
 *
 * Returns: whether a non-empty "systemTraceEvents" string was read
 */
gboolean
chrome_reader_has_system_trace (ChromeReader *r)
{
  g_return_val_if_fail (r != NULL, FALSE);

  return r->system_trace != NULL && chrome_spill_get_size (r->system_trace) > 0;
}

guint64
chrome_reader_get_system_trace_size (ChromeReader *r)
{
  g_return_val_if_fail (r != NULL, 0);

  return r->system_trace ? chrome_spill_get_size (r->system_trace) : 0;
}

/**
 * chrome_reader_open_system_trace:
 *
 * The "systemTraceEvents" text, unescaped: ftrace text lines for the
 * ftrace line parser.  Call it once the input is read (the key may come
 * last); it is kept in memory up to 8 MiB, in a temporary file beyond.
 *
 * Returns: (transfer full) (nullable): a stream over the text, or %NULL
 *   (without error) when there is none
 */
GInputStream *
chrome_reader_open_system_trace (ChromeReader *r,
                                 GError **error)
{
  g_return_val_if_fail (r != NULL, NULL);

  if (!chrome_reader_has_system_trace (r))
    return NULL;
  return chrome_spill_read (r->system_trace, error);
}

guint64
chrome_reader_get_bytes_read (ChromeReader *r)
{
  g_return_val_if_fail (r != NULL, 0);

  return r->base + r->pos;
}

const ChromeReaderStats *
chrome_reader_get_stats (ChromeReader *r)
{
  g_return_val_if_fail (r != NULL, NULL);

  return &r->stats;
}

/**
 * chrome_reader_has_damage:
 *
 * Returns: whether anything was skipped because the input is damaged
 *   (worth a WARNING), as opposed to valid input the model cannot carry
 */
gboolean
chrome_reader_has_damage (ChromeReader *r)
{
  g_return_val_if_fail (r != NULL, FALSE);

  for (guint i = 0; i < CHROME_SKIP_N_DAMAGE; i++)
    if (r->stats.skipped[i].count > 0)
      return TRUE;
  return FALSE;
}

static void
append_reason (GString *out,
               const ChromeSkipCount *count,
               ChromeSkipReason reason)
{
  guint n = MIN (count->count, CHROME_MAX_OFFSETS);

  if (out->len > 0)
    g_string_append (out, ", ");
  g_string_append_printf (out, "%" G_GUINT64_FORMAT " %s (at byte ", count->count,
                          chrome_skip_reason_to_string (reason));
  for (guint i = 0; i < n; i++)
    g_string_append_printf (out, "%s%" G_GUINT64_FORMAT, i ? ", " : "", count->offsets[i]);
  g_string_append (out, count->count > n ? ", …)" : ")");
}

static char *
summarize (ChromeReader *r,
           guint first,
           guint last,
           const char *lead)
{
  g_autoptr (GString) reasons = g_string_new (NULL);
  guint64 total = 0;

  for (guint i = first; i < last; i++)
    {
      const ChromeSkipCount *count = &r->stats.skipped[i];

      if (count->count == 0)
        continue;
      total += count->count;
      append_reason (reasons, count, i);
    }
  if (total == 0)
    return NULL;
  return g_strdup_printf ("%s: %sskipped %" G_GUINT64_FORMAT ": %s", r->location, lead, total, reasons->str);
}

/**
 * chrome_reader_get_summary:
 * @include_unsupported: also list what was skipped for lack of a place
 *   in the event model
 *
 * Returns: (transfer full) (nullable): one line for a WARNING, e.g.
 *   "t.json: skipped 2: 1 truncated (at byte 420), 1 unknown phase (at
 *   byte 17)", or %NULL when nothing was skipped
 */
char *
chrome_reader_get_summary (ChromeReader *r,
                           gboolean include_unsupported)
{
  g_return_val_if_fail (r != NULL, NULL);

  return summarize (r, 0, include_unsupported ? CHROME_SKIP_N_REASONS : CHROME_SKIP_N_DAMAGE, "");
}

/**
 * chrome_reader_get_unsupported_summary:
 *
 * Returns: (transfer full) (nullable): one line for an INFO: what valid
 *   input had no place in the event model (unsupported phases, `{}`
 *   placeholders…), e.g. "t.json: skipped 3: 3 empty object (at byte 1,
 *   4, 7)", or %NULL when there was none
 */
char *
chrome_reader_get_unsupported_summary (ChromeReader *r)
{
  g_return_val_if_fail (r != NULL, NULL);

  return summarize (r, CHROME_SKIP_N_DAMAGE, CHROME_SKIP_N_REASONS, "");
}

/* Whether the JSON itself is broken: an event that is no object, does not
 * parse or is cut off, or bytes after the trace. An event refused for a
 * value (a timestamp that is no number, an unknown phase…) is valid JSON
 * that trace_processor skips too, reading the rest. */
static gboolean
has_broken_json (ChromeReader *r)
{
  static const ChromeSkipReason broken[] = { CHROME_SKIP_MALFORMED, CHROME_SKIP_TRUNCATED, CHROME_SKIP_NOT_AN_OBJECT,
                                             CHROME_SKIP_TRAILING_DATA };

  for (guint i = 0; i < G_N_ELEMENTS (broken); i++)
    if (r->stats.skipped[broken[i]].count > 0)
      return TRUE;
  return FALSE;
}

/**
 * chrome_reader_get_failure:
 *
 * Returns: (transfer full) (nullable): the error for a damaged input that
 *   yielded no event at all, e.g. "t.json: damaged, no event could be
 *   read: skipped 1: 1 malformed (at byte 22)"; %NULL when an event was
 *   read or the JSON is not broken (a file of only `{}`, or of events
 *   all refused for their values, is a trace with no event, which
 *   trace_processor reads too)
 */
char *
chrome_reader_get_failure (ChromeReader *r)
{
  g_return_val_if_fail (r != NULL, NULL);

  if (r->stats.events > 0 || !has_broken_json (r))
    return NULL;
  return summarize (r, 0, CHROME_SKIP_N_DAMAGE, "damaged, no event could be read: ");
}
