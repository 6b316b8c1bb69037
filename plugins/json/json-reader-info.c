/* tracepipe - json plugin: what the reader found besides events, and
 * what it skipped
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "json-private.h"

static const char *const skip_reason_names[JSON_TRACE_SKIP_N_REASONS] = {
  [JSON_TRACE_SKIP_MALFORMED] = "malformed",
  [JSON_TRACE_SKIP_TRUNCATED] = "truncated",
  [JSON_TRACE_SKIP_NOT_AN_OBJECT] = "not an object",
  [JSON_TRACE_SKIP_NO_PHASE] = "no phase",
  [JSON_TRACE_SKIP_UNKNOWN_PHASE] = "unknown phase",
  [JSON_TRACE_SKIP_BAD_TIMESTAMP] = "bad timestamp",
  [JSON_TRACE_SKIP_BAD_DURATION] = "bad duration",
  [JSON_TRACE_SKIP_BAD_ID] = "bad id",
  [JSON_TRACE_SKIP_BAD_VALUE] = "bad value",
  [JSON_TRACE_SKIP_BAD_SCOPE] = "bad scope",
  [JSON_TRACE_SKIP_TRAILING_DATA] = "trailing data",
  [JSON_TRACE_SKIP_ARGS_DROPPED] = "args dropped",
  [JSON_TRACE_SKIP_UNSUPPORTED_PHASE] = "unsupported phase",
  [JSON_TRACE_SKIP_THREAD_STATE] = "thread state",
  [JSON_TRACE_SKIP_OTHER_METADATA] = "other metadata",
  [JSON_TRACE_SKIP_ORPHAN_SAMPLES] = "samples without profile",
  [JSON_TRACE_SKIP_EMPTY_OBJECT] = "empty object",
};

const char *
json_trace_skip_reason_to_string (JsonTraceSkipReason reason)
{
  if (reason >= JSON_TRACE_SKIP_N_REASONS)
    return "invalid";
  return skip_reason_names[reason];
}

void
json_reader_skip_n (JsonTraceReader *r,
                    JsonTraceSkipReason reason,
                    guint64 offset,
                    guint64 n)
{
  JsonTraceSkipCount *count = &r->stats.skipped[reason];

  for (guint64 i = count->count; i < count->count + n && i < JSON_TRACE_MAX_OFFSETS; i++)
    count->offsets[i] = offset;
  count->count += n;
}

void
json_reader_skip (JsonTraceReader *r,
                  JsonTraceSkipReason reason,
                  guint64 offset)
{
  json_reader_skip_n (r, reason, offset, 1);
}

/* ------------------------------------------------------------------ */
/* What was found besides events                                       */

/**
 * json_trace_reader_get_clock_domain:
 *
 * Returns: the clock of the timestamps, from metadata "clock-domain"
 *   (final once the input is read: metadata may come last)
 */
TraceClockDomain
json_trace_reader_get_clock_domain (JsonTraceReader *r)
{
  return r->clock_domain;
}

/**
 * json_trace_reader_get_clock_domain_name:
 *
 * Returns: (nullable): metadata "clock-domain" as written
 *   ("LINUX_CLOCK_MONOTONIC", "SYSTRACE", …)
 */
const char *
json_trace_reader_get_clock_domain_name (JsonTraceReader *r)
{
  return r->clock_domain_name;
}

/**
 * json_trace_reader_get_display_time_unit:
 *
 * Returns: (nullable): "displayTimeUnit" as written.  Display only: the
 *   timestamps are µs whatever it says.
 */
const char *
json_trace_reader_get_display_time_unit (JsonTraceReader *r)
{
  return r->display_time_unit;
}

/**
 * json_trace_reader_get_metadata:
 *
 * Returns: (transfer none): the members of the top-level "metadata"
 *   object read so far (at most 256, each under 64 KiB)
 */
JsonObject *
json_trace_reader_get_metadata (JsonTraceReader *r)
{
  return r->metadata;
}

/**
 * json_trace_reader_has_system_trace:
 *
 * Returns: whether a non-empty "systemTraceEvents" string was read
 */
gboolean
json_trace_reader_has_system_trace (JsonTraceReader *r)
{
  return r->system_trace != NULL && json_spill_get_size (r->system_trace) > 0;
}

guint64
json_trace_reader_get_system_trace_size (JsonTraceReader *r)
{
  return r->system_trace ? json_spill_get_size (r->system_trace) : 0;
}

/**
 * json_trace_reader_open_system_trace:
 *
 * The "systemTraceEvents" text, unescaped: ftrace text lines for the
 * ftrace line parser.  Call it once the input is read (the key may come
 * last); it is kept in memory up to 8 MiB, in a temporary file beyond.
 *
 * Returns: (transfer full) (nullable): a stream over the text, or %NULL
 *   (without error) when there is none
 */
GInputStream *
json_trace_reader_open_system_trace (JsonTraceReader *r,
                                     GError **error)
{
  if (!json_trace_reader_has_system_trace (r))
    return NULL;
  return json_spill_read (r->system_trace, error);
}

guint64
json_trace_reader_get_bytes_read (JsonTraceReader *r)
{
  return r->base + r->pos;
}

const JsonTraceReaderStats *
json_trace_reader_get_stats (JsonTraceReader *r)
{
  return &r->stats;
}

/**
 * json_trace_reader_has_damage:
 *
 * Returns: whether anything was skipped because the input is damaged
 *   (worth a WARNING), as opposed to valid input the model cannot carry
 */
gboolean
json_trace_reader_has_damage (JsonTraceReader *r)
{
  for (guint i = 0; i < JSON_TRACE_SKIP_N_DAMAGE; i++)
    if (r->stats.skipped[i].count > 0)
      return TRUE;
  return FALSE;
}

static void
append_reason (GString *out,
               const JsonTraceSkipCount *count,
               JsonTraceSkipReason reason)
{
  guint n = MIN (count->count, JSON_TRACE_MAX_OFFSETS);

  if (out->len > 0)
    g_string_append (out, ", ");
  g_string_append_printf (out, "%" G_GUINT64_FORMAT " %s (at byte ", count->count,
                          json_trace_skip_reason_to_string (reason));
  for (guint i = 0; i < n; i++)
    g_string_append_printf (out, "%s%" G_GUINT64_FORMAT, i ? ", " : "", count->offsets[i]);
  g_string_append (out, count->count > n ? ", …)" : ")");
}

static char *
summarize (JsonTraceReader *r,
           guint first,
           guint last,
           const char *lead)
{
  g_autoptr (GString) reasons = g_string_new (NULL);
  guint64 total = 0;

  for (guint i = first; i < last; i++)
    {
      const JsonTraceSkipCount *count = &r->stats.skipped[i];

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
 * json_trace_reader_get_summary:
 * @include_unsupported: also list what was skipped for lack of a place
 *   in the event model
 *
 * Returns: (transfer full) (nullable): one line for a WARNING, e.g.
 *   "t.json: skipped 2: 1 truncated (at byte 420), 1 unknown phase (at
 *   byte 17)", or %NULL when nothing was skipped
 */
char *
json_trace_reader_get_summary (JsonTraceReader *r,
                               gboolean include_unsupported)
{
  return summarize (r, 0, include_unsupported ? JSON_TRACE_SKIP_N_REASONS : JSON_TRACE_SKIP_N_DAMAGE, "");
}

/**
 * json_trace_reader_get_unsupported_summary:
 *
 * Returns: (transfer full) (nullable): one line for an INFO: what valid
 *   input had no place in the event model (unsupported phases, `{}`
 *   placeholders…), e.g. "t.json: skipped 3: 3 empty object (at byte 1,
 *   4, 7)", or %NULL when there was none
 */
char *
json_trace_reader_get_unsupported_summary (JsonTraceReader *r)
{
  return summarize (r, JSON_TRACE_SKIP_N_DAMAGE, JSON_TRACE_SKIP_N_REASONS, "");
}

/**
 * json_trace_reader_get_failure:
 *
 * Returns: (transfer full) (nullable): the error for a damaged input that
 *   yielded no event at all, e.g. "t.json: damaged, no event could be
 *   read: skipped 1: 1 malformed (at byte 22)"; %NULL when an event was
 *   read or nothing is damaged (a file of only `{}` is valid)
 */
char *
json_trace_reader_get_failure (JsonTraceReader *r)
{
  if (r->stats.events > 0 || !json_trace_reader_has_damage (r))
    return NULL;
  return summarize (r, 0, JSON_TRACE_SKIP_N_DAMAGE, "damaged, no event could be read: ");
}
