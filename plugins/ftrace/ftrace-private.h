/* tracepipe - the ftrace plugin: its elements
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include "ftrace-text.h"

G_BEGIN_DECLS

/* How far into an HTML file auto-src's detector looks for the first data
 * block: catapult's viewer code before it is about 1 MB in a systrace
 * export. */
#define FTRACE_HTML_LOOK_AHEAD (8 * 1024 * 1024)

/* What ftrace-src counts: the reader's counters, then the JSON blocks'. */
typedef struct
{
  FtraceReaderStats reader;
  guint64 json_blocks; /* JSON blocks of an HTML file, read */
  guint64 json_events; /* events they gave */
} FtraceSrcStats;

/* ftrace-json-blocks.c: the Chrome JSON blocks of a systrace HTML file,
 * read with the json engine and placed on the text's clock. */
typedef struct _FtraceJsonBlocks FtraceJsonBlocks;

FtraceJsonBlocks *ftrace_json_blocks_new (const char *location,
                                          TraceStringPool *pool);
void ftrace_json_blocks_free (FtraceJsonBlocks *blocks);
const FtraceJsonBlockFuncs *ftrace_json_blocks_get_funcs (void);
void ftrace_json_blocks_note_text (FtraceJsonBlocks *blocks,
                                   TraceBatch *batch);
gboolean ftrace_json_blocks_read_batch (FtraceJsonBlocks *blocks,
                                        guint64 text_events,
                                        TraceClockDomain text_domain,
                                        TraceBatch **out,
                                        GError **error);
gboolean ftrace_json_blocks_get_alone_domain (FtraceJsonBlocks *blocks,
                                              TraceClockDomain *domain);
guint ftrace_json_blocks_get_count (FtraceJsonBlocks *blocks);
guint64 ftrace_json_blocks_get_events (FtraceJsonBlocks *blocks);
void ftrace_json_blocks_report (FtraceJsonBlocks *blocks,
                                TraceElement *element);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FtraceJsonBlocks, ftrace_json_blocks_free)

#define TRACE_TYPE_FTRACE_SRC (trace_ftrace_src_get_type ())
G_DECLARE_FINAL_TYPE (TraceFtraceSrc, trace_ftrace_src, TRACE, FTRACE_SRC, TraceFileSrc)

#define TRACE_TYPE_FTRACE_SINK (trace_ftrace_sink_get_type ())
G_DECLARE_FINAL_TYPE (TraceFtraceSink, trace_ftrace_sink, TRACE, FTRACE_SINK, TraceFileSink)

TRACE_ELEMENT_REGISTER_DECLARE (ftrace_src)
TRACE_ELEMENT_REGISTER_DECLARE (ftrace_sink)

G_END_DECLS
