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
TRACE_AVAILABLE_IN_ALL
gboolean trace_parse_time (const char *text,
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

G_END_DECLS
