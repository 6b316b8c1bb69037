/* tracepipe - building pipelines from launch descriptions
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <trace/tracepipeline.h>

G_BEGIN_DECLS

TRACE_AVAILABLE_IN_ALL
TraceElement *trace_parse_launch (const char *description,
                                  GError **error);
TRACE_AVAILABLE_IN_ALL
TraceElement *trace_parse_launchv (const char *const *argv,
                                   GError **error);

TRACE_AVAILABLE_IN_ALL
gboolean trace_value_from_string (GParamSpec *pspec,
                                  const char *text,
                                  GValue *value,
                                  GError **error);

/**
 * TraceParseTimeFlags:
 * @TRACE_PARSE_TIME_DEFAULT: the rules of launch descriptions: units
 *   `ns`, `us` (`µs`), `ms`, `s`, `min`, `h`; a number alone is in
 *   nanoseconds; digits below a nanosecond are dropped
 * @TRACE_PARSE_TIME_STRICT: units up to `s` only (no `min` or `h`); a
 *   number without a unit is a whole number of nanoseconds (`1.5` is an
 *   error); digits below a nanosecond are an error, not dropped
 *
 * The rules trace_parse_time_full() follows.
 */
typedef enum
{
  TRACE_PARSE_TIME_DEFAULT = 0,
  TRACE_PARSE_TIME_STRICT = 1 << 0,
} TraceParseTimeFlags;

TRACE_AVAILABLE_IN_ALL
gboolean trace_parse_time (const char *text,
                           gint64 *nanoseconds,
                           GError **error);
TRACE_AVAILABLE_IN_ALL
gboolean trace_parse_time_full (const char *text,
                                TraceParseTimeFlags flags,
                                gint64 *nanoseconds,
                                GError **error);
TRACE_AVAILABLE_IN_ALL
char *trace_describe_param_type (GParamSpec *pspec);

TRACE_AVAILABLE_IN_ALL
void trace_param_spec_add_keyword (GParamSpec *pspec,
                                   const char *word,
                                   gint64 value);
TRACE_AVAILABLE_IN_ALL
gboolean trace_param_spec_lookup_keyword (GParamSpec *pspec,
                                          const char *word,
                                          gint64 *value);
TRACE_AVAILABLE_IN_ALL
char *trace_param_spec_get_keywords (GParamSpec *pspec);
TRACE_AVAILABLE_IN_ALL
void trace_param_spec_add_choice (GParamSpec *pspec,
                                  const char *choice);
TRACE_AVAILABLE_IN_ALL
const char *const *trace_param_spec_get_choices (GParamSpec *pspec);
TRACE_AVAILABLE_IN_ALL
void trace_param_spec_set_time (GParamSpec *pspec);
TRACE_AVAILABLE_IN_ALL
gboolean trace_param_spec_is_time (GParamSpec *pspec);

G_END_DECLS
