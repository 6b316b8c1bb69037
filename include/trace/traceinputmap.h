/* tracepipe - a source's input in place, for the reader it hands it to
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <glib.h>
#include <trace/trace-export.h>

G_BEGIN_DECLS

/**
 * TraceInputMap:
 *
 * The input of a #TraceFileSrc mapped into memory, as the source hands
 * it to its reader (trace_file_src_get_input_map()): the reader reads
 * the bytes in place through it without knowing the source. The file is
 * mapped only when the reader first asks for the bytes.
 */
typedef struct _TraceInputMap TraceInputMap;

TRACE_AVAILABLE_IN_ALL
const guint8 *trace_input_map_get_data (TraceInputMap *map,
                                        gsize *size);
TRACE_AVAILABLE_IN_ALL
void trace_input_map_set_position (TraceInputMap *map,
                                   guint64 position);

G_END_DECLS
