/* tracepipe tools - helpers shared by trace-launch and trace-inspect
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <trace/trace.h>

G_BEGIN_DECLS

/* When a property may change. The library has no public flag for this
 * yet, so the tools read two bits of the pspec's user flags; without
 * either, a property may only be set before the pipeline starts (NULL).
 * Element authors set them as `G_PARAM_READWRITE | (1 << (G_PARAM_USER_SHIFT + 1))`. */
#define TOOL_PARAM_MUTABLE_READY TRACE_PARAM_MUTABLE_READY
#define TOOL_PARAM_MUTABLE_PLAYING TRACE_PARAM_MUTABLE_PLAYING

char *tool_value_to_string (const GValue *value);
char *tool_property_to_string (GParamSpec *pspec,
                               const GValue *value);
gboolean tool_property_is_default (GObject *object,
                                   GParamSpec *pspec);
GPtrArray *tool_non_default_properties (GObject *object);
const char *tool_mutability (GParamSpec *pspec);
const char *tool_direction_name (TracePadDirection direction);
const char *tool_presence_name (TracePadPresence presence);

char *tool_pipeline_to_dot (TraceElement *pipeline);
gboolean tool_write_dot (TraceElement *pipeline,
                         const char *path,
                         GError **error);
void tool_dump_dot_to_env_dir (TraceElement *pipeline,
                               const char *tag);

void tool_init_process (void);

char *tool_quote_value (const char *value);

gboolean tool_parse_options (const GOptionEntry *entries,
                             const char *summary,
                             const char *description,
                             int *argc,
                             char ***argv,
                             GError **error);
GPtrArray *tool_expand_inputs (char **args,
                               GError **error);
gboolean tool_make_output_folder (const char *output,
                                  GError **error);

G_END_DECLS
