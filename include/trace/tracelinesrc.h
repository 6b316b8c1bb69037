/* tracepipe - base class for sources of a line-based format
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#if !defined(__TRACE_H_INSIDE__) && !defined(TRACE_COMPILATION)
#error "Only <trace/trace.h> can be included directly."
#endif

#include <trace/tracefilesrc.h>

G_BEGIN_DECLS

/**
 * TRACE_LINE_SRC_MAX_LINE:
 *
 * The longest line a #TraceLineSrc hands to its subclass, in bytes. A
 * longer line is skipped (counted as `skipped-line-too-long`) and
 * reading goes on after it, so a file without line ends costs bounded
 * memory.
 */
#define TRACE_LINE_SRC_MAX_LINE (1024 * 1024)

/**
 * TraceLineSrcSkip:
 * @key: the reason as a stats key: `bad-line` is reported as
 *   `skipped-bad-line`
 * @what: the reason in words, for the summary: `not "ts tid name dur"`
 *
 * One reason a line-based source skips a line, declared once with
 * trace_line_src_class_set_skip_reasons().
 */
typedef struct
{
  const char *key;
  const char *what;
} TraceLineSrcSkip;

#define TRACE_TYPE_LINE_SRC (trace_line_src_get_type ())
TRACE_AVAILABLE_IN_ALL
G_DECLARE_DERIVABLE_TYPE (TraceLineSrc, trace_line_src, TRACE, LINE_SRC, TraceFileSrc)

/**
 * TraceLineSrcClass:
 * @parent_class: the parent class
 * @parse_line: one line of the input, without its line end (`\n` or
 *   `\r\n`), NUL-terminated and writable (it may be cut up in place),
 *   @len bytes long; append what it holds to @batch, or call
 *   trace_line_src_skip_line() with the reason it cannot be used. Return
 *   %FALSE with @error set only when the whole input must be refused.
 *
 * A #TraceFileSrc for formats of one record a line. The base reads the
 * input in blocks (no allocation per line), splits it into lines, counts
 * them, fills batches, and reports the skipped lines: in `--stats`
 * (`lines`, `skipped-<key>` for each reason that occurred) and in one
 * WARNING at the end that names the first skipped line
 * (`app.slices:7: skipped 3 lines (2 not …, 1 with …); the first here:
 * not …`, or `app.slices:7: skipped 1 line with …, the first here` for
 * one reason). A subclass still
 * describes its stream with #TraceFileSrcClass.get_stream_info.
 */
struct _TraceLineSrcClass
{
  TraceFileSrcClass parent_class;

  gboolean (*parse_line) (TraceLineSrc *src,
                          char *line,
                          gsize len,
                          TraceBatch *batch,
                          GError **error);

  /*< private >*/
  gpointer _reserved[8];
};

TRACE_AVAILABLE_IN_ALL
void trace_line_src_class_set_skip_reasons (TraceLineSrcClass *klass,
                                            const TraceLineSrcSkip *reasons,
                                            guint n_reasons);
TRACE_AVAILABLE_IN_ALL
void trace_line_src_skip_line (TraceLineSrc *src,
                               guint reason);
TRACE_AVAILABLE_IN_ALL
guint64 trace_line_src_get_line_number (TraceLineSrc *src);

G_END_DECLS
