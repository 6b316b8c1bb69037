/* tracepipe - parsers for the filter's property values
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "filters-private.h"

#include <string.h>

static gboolean
time_error (const char *text,
            GError **error)
{
  g_set_error (error, TRACE_PARSE_ERROR, TRACE_PARSE_ERROR_BAD_VALUE,
               "invalid time \"%s\": expected nanoseconds (12345) or a "
               "number with a unit ns, us, ms or s (1.5s, 200ms, 300us)",
               text);
  return FALSE;
}

/**
 * filter_parse_time:
 * @text: `12345` (ns), `1.5s`, `200ms`, `300us`, `42ns`; a leading `-` is
 *   allowed (traces may have negative times)
 * @out_ns: (out): the time in nanoseconds
 * @error: a %TRACE_PARSE_ERROR_BAD_VALUE naming the text
 *
 * trace_parse_time_full() with %TRACE_PARSE_TIME_STRICT, after white
 * space around @text is dropped: decimal fractions are exact (no
 * floating point), `1.000000001s` is 1000000001 ns; digits below a
 * nanosecond are an error, not rounded.
 */
gboolean
filter_parse_time (const char *text,
                   gint64 *out_ns,
                   GError **error)
{
  g_autofree char *trimmed = g_strstrip (g_strdup (text ? text : ""));

  /* the core's parser, strict rules; the message names the units those take */
  if (!trace_parse_time_full (trimmed, TRACE_PARSE_TIME_STRICT, out_ns, NULL))
    return time_error (trimmed, error);
  return TRUE;
}

/**
 * filter_parse_window_time:
 * @text: a time as filter_parse_time() reads it, or `+` and a
 *   non-negative one: an offset from the stream's first timed event
 * @out_ns: (out): the time, or the offset
 * @relative: (out): whether @text was an offset
 *
 * A leading `+` always means "after the first event", never a sign:
 * `start=+1.5s` is not a time near the clock's origin.
 */
gboolean
filter_parse_window_time (const char *text,
                          gint64 *out_ns,
                          gboolean *relative,
                          GError **error)
{
  g_autofree char *trimmed = g_strstrip (g_strdup (text ? text : ""));

  *relative = trimmed[0] == '+';
  if (*relative && (trimmed[1] == '-' || trimmed[1] == '+'))
    return time_error (trimmed, error);
  return filter_parse_time (trimmed + (*relative ? 1 : 0), out_ns, error);
}

static const struct
{
  const char *name;
  TraceEventGroup group;
} kind_names[] = {
  { "slices", TRACE_EVENT_GROUP_SLICES },
  { "async", TRACE_EVENT_GROUP_ASYNC },
  { "flows", TRACE_EVENT_GROUP_FLOWS },
  { "counters", TRACE_EVENT_GROUP_COUNTERS },
  { "metadata", TRACE_EVENT_GROUP_METADATA },
  { "sched", TRACE_EVENT_GROUP_SCHED },
  { "cpu", TRACE_EVENT_GROUP_CPU },
  { "ftrace", TRACE_EVENT_GROUP_FTRACE },
  { "samples", TRACE_EVENT_GROUP_SAMPLES },
  { "clock", TRACE_EVENT_GROUP_CLOCK },
  { "records", TRACE_EVENT_GROUP_RECORDS },
};

/**
 * filter_parse_kinds:
 * @text: names joined by `+`, `,` or `|`: slices, async, flows, counters,
 *   metadata, sched, cpu, ftrace, samples, clock, records
 * @out_kinds: (out): the flags
 * @error: a %TRACE_PARSE_ERROR_BAD_VALUE naming the word and the choices
 */
gboolean
filter_parse_kinds (const char *text,
                    TraceEventGroup *out_kinds,
                    GError **error)
{
  g_auto (GStrv) words = g_strsplit_set (text ? text : "", "+,|", -1);
  guint kinds = 0;

  for (guint i = 0; words[i] != NULL; i++)
    {
      const char *word = g_strstrip (words[i]);
      gboolean found = FALSE;

      for (guint j = 0; j < G_N_ELEMENTS (kind_names) && !found; j++)
        if (strcmp (word, kind_names[j].name) == 0)
          {
            kinds |= kind_names[j].group;
            found = TRUE;
          }
      if (!found)
        {
          g_set_error (error, TRACE_PARSE_ERROR, TRACE_PARSE_ERROR_BAD_VALUE,
                       "invalid kind \"%s\": expected slices, async, flows, "
                       "counters, metadata, sched, cpu, ftrace, samples, clock or records",
                       word);
          return FALSE;
        }
    }
  *out_kinds = kinds;
  return TRUE;
}
