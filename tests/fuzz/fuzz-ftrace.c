/* tracepipe fuzzing - ftrace-src's reader and its line parser
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gio/gio.h>
#include <string.h>

#include "ftrace-text.h"
#include "fuzz-targets.h"

/* The whole reader, as ftrace-src runs it: detection, gzip and zlib
 * (ctrace) decompression, UTF-16, systrace HTML blocks, trace2html's
 * base64 + gzip parts, line cutting, the parser, the summary. */
void
fuzz_ftrace_reader (const guint8 *data,
                    gsize size)
{
  g_autoptr (GInputStream) in = g_memory_input_stream_new_from_data (data, size, NULL);
  g_autoptr (TraceStringPool) pool = fuzz_get_pool ();
  g_autoptr (FtraceReader) r = ftrace_reader_new (in, "fuzz.txt", pool, NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *summary = NULL;
  TraceBatch *b;

  while (ftrace_reader_read_batch (r, &b, &error) && b != NULL)
    trace_batch_unref (b);
  summary = ftrace_reader_get_summary (r);
  (void) ftrace_reader_get_format (r);
  (void) ftrace_reader_get_compression (r);
  (void) ftrace_reader_get_clock_domain (r);
}

static void
count_thread (gint64 tid,
              gint64 pid,
              guint32 name,
              gpointer user_data)
{
  (*(guint *) user_data)++;
}

/* The line parser alone, fed line by line as json-src feeds it
 * systemTraceEvents: faster than the reader, so more of its branches per
 * second. The bytes after the first NUL are the RheaTrace process name,
 * to reach the paths the pid/process-name options open. */
void
fuzz_ftrace_lines (const guint8 *data,
                   gsize size)
{
  g_autoptr (TraceStringPool) pool = fuzz_get_pool ();
  g_autoptr (FtraceParser) p = ftrace_parser_new (pool);
  g_autoptr (TraceBatch) batch = trace_batch_new (pool, 0);
  const char *text = (const char *) data;
  const char *nul = memchr (text, '\0', size);
  gsize len = nul ? (gsize) (nul - text) : size;
  const char *line = text;
  const char *end = text + len;
  guint threads = 0;

  if (nul)
    {
      g_autofree char *name = g_strndup (nul + 1, size - len - 1);

      ftrace_parser_set_rhea_process (p, (gint64) (size % 65536), name);
    }
  while (line < end)
    {
      const char *nl = memchr (line, '\n', end - line);
      const char *stop = nl ? nl : end;

      /* the reader's contract: longer lines never reach the parser */
      if ((gsize) (stop - line) > FTRACE_MAX_LINE_LENGTH)
        ftrace_parser_skip_line (p, FTRACE_PROBLEM_LINE_TOO_LONG);
      else
        ftrace_parser_parse_line (p, line, stop - line, batch);
      /* keep memory flat, as the reader does per batch */
      if (batch->n_events > 4096)
        trace_batch_clear (batch);
      line = stop + 1;
    }
  ftrace_parser_finish (p, batch);
  ftrace_parser_foreach_thread (p, count_thread, &threads);
  g_free (ftrace_stats_to_summary (ftrace_parser_get_stats (p)));
}
