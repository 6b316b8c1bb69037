/* tracepipe - ftrace-sink: lines held to be written in time order
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _FtraceLineSorter FtraceLineSorter;

FtraceLineSorter *ftrace_line_sorter_new (gsize max_bytes);
void ftrace_line_sorter_free (FtraceLineSorter *sorter);

void ftrace_line_sorter_push (FtraceLineSorter *sorter,
                              gint64 ts,
                              gboolean first,
                              const char *line,
                              gsize len,
                              GString *out);
gboolean ftrace_line_sorter_write_first (FtraceLineSorter *sorter,
                                         GString *out);
guint64 ftrace_line_sorter_get_late_lines (FtraceLineSorter *sorter);
gsize ftrace_line_sorter_get_peak_bytes (FtraceLineSorter *sorter);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FtraceLineSorter, ftrace_line_sorter_free)

G_END_DECLS
