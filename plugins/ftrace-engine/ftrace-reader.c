/* tracepipe - ftrace-src's reader: files in, batches of events out
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "ftrace-text-private.h"

/* What is read before deciding what the input is. */
#define HEAD_SIZE (64 * 1024)
/* perfetto looks for `TRACE:\n` in the first 128 bytes; allow a longer
 * `capturing trace...` banner. */
#define CTRACE_WINDOW 4096

static const char *const formats[] = {
  "ftrace", "systrace-html", "ctrace", "rhea", NULL
};

/* The formats a user can force (besides "auto"). */
const char *const *
ftrace_reader_get_formats (void)
{
  return formats;
}

gboolean
ftrace_reader_is_format (const char *format)
{
  return format == NULL || g_strcmp0 (format, "auto") == 0 || g_strv_contains (formats, format);
}

static void reader_line (gpointer user_data,
                         const char *line,
                         gsize len,
                         guint flags,
                         guint64 line_no);

/**
 * ftrace_reader_new:
 * @in: the input (the reader takes a reference)
 * @location: the file name for messages (`-` for standard input)
 * @pool: (nullable): the pipeline's string pool
 * @opts: (nullable): options
 *
 * Nothing is read until the first ftrace_reader_read_batch().
 */
FtraceReader *
ftrace_reader_new (GInputStream *in,
                   const char *location,
                   TraceStringPool *pool,
                   const FtraceReaderOptions *opts)
{
  FtraceReader *r;

  g_return_val_if_fail (G_IS_INPUT_STREAM (in), NULL);

  r = g_new0 (FtraceReader, 1);
  r->stream = g_object_ref (in);
  r->location = g_strdup (location ? location : "-");
  r->pool = trace_string_pool_ref (pool ? pool : trace_string_pool_get_default ());
  r->parser = ftrace_parser_new (r->pool);
  ftrace_parser_set_location (r->parser, r->location);
  r->format = "ftrace";
  r->compression = "none";
  if (opts)
    {
      ftrace_parser_set_rhea_process (r->parser, opts->pid, opts->process_name);
      if (opts->format && g_strcmp0 (opts->format, "auto") != 0)
        r->forced_format = g_strdup (opts->format);
      r->n_threads = opts->threads;
    }
  ftrace_splitter_init (&r->splitter, reader_line, r);
  ftrace_html_init (r);
  return r;
}

void
ftrace_reader_free (FtraceReader *r)
{
  if (r == NULL)
    return;
  ftrace_html_clear (r);
  g_clear_pointer (&r->chunks, trace_chunk_ring_free);
  g_free (r->carry);
  ftrace_splitter_clear (&r->splitter);
  g_clear_pointer (&r->input, ftrace_input_free);
  g_clear_pointer (&r->batch, trace_batch_unref);
  g_clear_error (&r->error);
  g_clear_error (&r->pending);
  g_clear_object (&r->stream);
  ftrace_parser_free (r->parser);
  trace_string_pool_unref (r->pool);
  g_free (r->block);
  g_free (r->forced_format);
  g_free (r->location);
  g_free (r);
}

/* ---------------------------------------------------------------- sniff */

static gboolean
has_prefix_bytes (const guint8 *data,
                  gsize len,
                  const char *magic,
                  gsize magic_len)
{
  return len >= magic_len && memcmp (data, magic, magic_len) == 0;
}

/* What a file that is no text trace is, for the error message. */
static const char *
sniff_binary (const guint8 *d,
              gsize n)
{
  static const struct
  {
    const char *magic;
    gsize len;
    const char *what;
  } magics[] = {
    { "\x89PNG\r\n\x1a\n", 8, "a PNG image" },
    { "\xff\xd8\xff", 3, "a JPEG image" },
    { "GIF8", 4, "a GIF image" },
    { "%PDF", 4, "a PDF document" },
    { "PK\x03\x04", 4, "a ZIP archive" },
    { "\x7f"
      "ELF",
      4, "an ELF executable" },
    { "BZh", 3, "bzip2 data (decompress it first)" },
    { "\xfd"
      "7zXZ",
      5, "xz data (decompress it first)" },
    { "\x28\xb5\x2f\xfd", 4, "zstd data (decompress it first)" },
    { "SQLite format 3", 15, "an SQLite database" },
  };
  gsize ctrl = 0, text = 0, sample = MIN (n, 4096);

  for (guint i = 0; i < G_N_ELEMENTS (magics); i++)
    if (has_prefix_bytes (d, n, magics[i].magic, magics[i].len))
      return magics[i].what;
  /* text traces hold no control characters; NULs are not counted either
   * way: a crash leaves runs of them in text files, which the reader
   * skips as damage (only NULs: no text to judge, read it) */
  for (gsize i = 0; i < sample; i++)
    if (d[i] != 0)
      {
        text++;
        if (d[i] < 0x09 || (d[i] > 0x0d && d[i] < 0x20 && d[i] != 0x1b))
          ctrl++;
      }
  return ctrl * 50 > text ? "binary data" : NULL;
}

static const char *
sniff_json (const guint8 *d,
            gsize n)
{
  TraceChromeJsonFlags flags = trace_type_find_chrome_json (d, n);

  if (flags == 0)
    return NULL;
  if (flags & (TRACE_CHROME_JSON_TRACE_EVENTS | TRACE_CHROME_JSON_SYSTEM_TRACE_EVENTS | TRACE_CHROME_JSON_PH))
    return "a Chrome JSON trace (read it with json-src)";
  return "JSON that is not a trace";
}

/* Starts (after blanks) with `<!DOCTYPE html` or `<html`: the reader
 * then reads only the data blocks. */
gboolean
ftrace_is_html (const guint8 *d,
                gsize n)
{
  gsize i = 0;

  while (i < n && g_ascii_isspace (d[i]))
    i++;
  return (n - i >= 14 && g_ascii_strncasecmp ((const char *) d + i, "<!DOCTYPE html", 14) == 0) ||
         (n - i >= 5 && g_ascii_strncasecmp ((const char *) d + i, "<html", 5) == 0);
}

/* `TRACE:\n` (or `TRACE:\r\n`) followed by a zlib header: where the zlib
 * data starts, or -1. */
static gssize
find_ctrace (const guint8 *d,
             gsize n)
{
  gsize window = MIN (n, CTRACE_WINDOW);
  const guint8 *p = d;

  while ((p = memmem (p, window - (p - d), "TRACE:", 6)) != NULL)
    {
      const guint8 *z = p + 6;

      if (z < d + n && *z == '\r')
        z++;
      if (z + 2 < d + n && *z == '\n' && z[1] == 0x78 && ((z[1] << 8) | z[2]) % 31 == 0)
        return z + 1 - d;
      p += 6;
    }
  return -1;
}

/**
 * ftrace_is_bare_zlib:
 * @d: the first bytes of an input
 * @n: how many
 *
 * A zlib stream with no banner before it: how OpenHarmony's hitrace
 * writes compressed text. Only the headers zlib writes with its default
 * 32 KiB window (`78 01`, `78 5e`, `78 9c`, `78 da`) count, and never one
 * asking for a preset dictionary: other check-valid pairs are printable
 * text (`HK`, `x^`) that a text file may start with.
 *
 * Returns: %TRUE when @d starts with such a header
 */
gboolean
ftrace_is_bare_zlib (const guint8 *d,
                     gsize n)
{
  return n >= 2 && d[0] == 0x78 && (d[1] == 0x01 || d[1] == 0x5e || d[1] == 0x9c || d[1] == 0xda);
}

static gboolean
fail_wrong_type (FtraceReader *r,
                 const char *what,
                 GError **error)
{
  g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_WRONG_TYPE,
               "%s: not an ftrace, atrace, systrace or RheaTrace file: found %s", r->location, what);
  return FALSE;
}

/* Decides what the text is; @in and @head are the decoded stream and
 * its first bytes. */
static gboolean
choose_container (FtraceReader *r,
                  const guint8 *head,
                  gsize n,
                  GError **error)
{
  const char *what = sniff_binary (head, n);

  if (what == NULL)
    what = sniff_json (head, n);
  if (what != NULL)
    return fail_wrong_type (r, what, error);
  if (g_strcmp0 (r->forced_format, "ctrace") == 0 && g_strcmp0 (r->format, "ctrace") != 0)
    return fail_wrong_type (r, "no `TRACE:` line followed by zlib data (forced format ctrace)", error);
  if (g_strcmp0 (r->forced_format, "systrace-html") == 0 ||
      (r->forced_format == NULL && ftrace_is_html (head, n)))
    {
      r->html = TRUE;
      r->format = "systrace-html";
      g_debug ("%s: format systrace-html (%s)", r->location,
               r->forced_format ? "forced" : "starts with <!DOCTYPE html or <html");
    }
  else if (g_strcmp0 (r->format, "ctrace") != 0)
    g_debug ("%s: text lines (%s); the format is named from what the lines are", r->location,
             r->forced_format ? "format forced" : "no HTML, JSON or binary magic at the start");
  return TRUE;
}

static gboolean
reader_start (FtraceReader *r,
              GError **error)
{
  g_autofree guint8 *head = g_malloc (HEAD_SIZE);
  FtraceInput *in = ftrace_input_new_stream (r->stream);
  gboolean utf16 = FALSE, zlib = FALSE;

  for (guint layer = 0;; layer++)
    {
      gssize n = ftrace_input_read_full (in, head, HEAD_SIZE, error);
      gsize skip = 0;
      gssize z;

      if (n < 0)
        {
          ftrace_input_free (in);
          return FALSE;
        }
      if (n == 0)
        {
          ftrace_input_free (in);
          g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_EMPTY,
                       layer == 0 ? "%s: empty file" : "%s: the compressed data is empty", r->location);
          return FALSE;
        }
      if (!utf16 && n >= 2 && ((head[0] == 0xff && head[1] == 0xfe) || (head[0] == 0xfe && head[1] == 0xff)))
        {
          in = ftrace_input_new_utf16 (ftrace_input_new_prefixed (in, head + 2, n - 2), head[0] == 0xfe);
          utf16 = TRUE;
          g_debug ("%s: UTF-16 %s text (byte-order mark): decoded to UTF-8", r->location,
                   head[0] == 0xfe ? "BE" : "LE");
          continue;
        }
      if (n >= 3 && head[0] == 0xef && head[1] == 0xbb && head[2] == 0xbf)
        skip = 3;
      if (!zlib && !utf16 && skip == 0 && ftrace_is_bare_zlib (head, n))
        {
          /* hitrace's compressed text: the lines name the format */
          in = ftrace_input_new_inflate (ftrace_input_new_prefixed (in, head, n), 0);
          r->compression = "zlib";
          zlib = TRUE;
          g_debug ("%s: a bare zlib stream (no `TRACE:` banner): inflated", r->location);
          continue;
        }
      z = zlib ? -1 : find_ctrace (head + skip, n - skip);
      if (z >= 0)
        {
          /* `atrace -z`: the banner before the zlib data holds no events */
          in = ftrace_input_new_inflate (ftrace_input_new_prefixed (in, head + skip + z, n - skip - z), skip + z);
          r->format = "ctrace";
          r->compression = "zlib";
          zlib = TRUE;
          g_debug ("%s: format ctrace (atrace -z): a TRACE: line followed by zlib data at byte %" G_GSIZE_FORMAT,
                   r->location, skip + z);
          continue;
        }
      if (!choose_container (r, head + skip, n - skip, error))
        {
          ftrace_input_free (in);
          return FALSE;
        }
      r->input = ftrace_input_new_prefixed (in, head + skip, n - skip);
      return TRUE;
    }
}

/* ---------------------------------------------------------------- lines */

/* A line of ftrace text, from the file or from an HTML data block. */
void
ftrace_reader_text_line (FtraceReader *r,
                         const char *line,
                         gsize len,
                         guint flags,
                         guint64 line_no)
{
  if (flags & FTRACE_PIECE_CONTINUED)
    return;
  ftrace_parser_set_line_number (r->parser, line_no);
  if ((flags & FTRACE_PIECE_MORE) || len > FTRACE_MAX_LINE_LENGTH)
    {
      ftrace_parser_skip_line (r->parser, FTRACE_PROBLEM_LINE_TOO_LONG);
      return;
    }
  ftrace_parser_parse_line (r->parser, line, len, r->batch);
}

static void
reader_line (gpointer user_data,
             const char *line,
             gsize len,
             guint flags,
             guint64 line_no)
{
  FtraceReader *r = user_data;

  if (r->html)
    ftrace_html_line (r, line, len, flags, line_no);
  else
    ftrace_reader_text_line (r, line, len, flags, line_no);
}

/* ------------------------------------------------------------- batches */

gboolean
ftrace_reader_finish_input (FtraceReader *r,
                            GError **error)
{
  const FtraceStats *st = ftrace_parser_get_stats (r->parser);
  FtraceSeen seen = ftrace_parser_get_seen (r->parser);

  ftrace_splitter_finish (&r->splitter);
  if (r->html)
    ftrace_html_finish (r);
  if (r->error)
    return FALSE;
  ftrace_parser_finish (r->parser, r->batch);
  /* a file of JSON blocks alone is read: they are its data */
  if (st->trace_lines > 0 || seen != 0 || st->events > 0 || r->h.n_json_read > 0)
    return TRUE;
  if (r->html)
    return fail_wrong_type (r, r->h.n_blocks == 0 ? "HTML without systrace data" : "systrace HTML whose data blocks hold no ftrace text", error);
  if (st->lines == st->metadata_lines)
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_EMPTY,
                   "%s: empty file (only blank lines)", r->location);
      return FALSE;
    }
  {
    g_autofree char *what = g_strdup_printf ("text without any trace line (first: \"%s\")",
                                             ftrace_parser_get_first_unparsable (r->parser));
    return fail_wrong_type (r, what, error);
  }
}

/* Feeds @data to the splitter without its runs of NUL bytes: files get
 * them after a crash or power loss, where blocks were allocated but not
 * written.  They are damage, counted with their offsets; the lines
 * around them that hold no NUL are read. */
void
ftrace_reader_feed_text (FtraceReader *r,
                         const char *data,
                         gsize len)
{
  const char *p = data, *end = data + len;
  FtraceNulRuns *nul = &r->nul;

  while (p < end)
    {
      const char *z = memchr (p, '\0', end - p);
      const char *q;

      if (z == NULL)
        z = end;
      if (z > p)
        {
          ftrace_splitter_feed (&r->splitter, p, z - p);
          nul->in_run = FALSE;
        }
      for (q = z; q < end && *q == '\0'; q++)
        ;
      if (q > z && !nul->in_run)
        {
          if (nul->runs == 0)
            g_debug ("%s: byte %" G_GUINT64_FORMAT ": first run of NUL bytes, skipped as damage", r->location,
                     (guint64) (r->fed + (z - data)));
          if (nul->runs < FTRACE_NUL_OFFSETS)
            nul->offsets[nul->runs] = r->fed + (z - data);
          nul->runs++;
          nul->cut_lines += ftrace_splitter_break (&r->splitter);
          nul->in_run = TRUE;
        }
      nul->bytes += q - z;
      p = q;
    }
  r->fed += len;
}

/* Feeds slices of the current block until the batch is full, the input
 * ends or TRACE_BATCH_MAX_INPUT_BYTES were fed; FALSE on error. */
gboolean
ftrace_reader_fill_batch (FtraceReader *r,
                          GError **error)
{
  guint64 start = r->fed;

  while (r->batch->n_events < TRACE_BATCH_DEFAULT_SIZE && !r->finished &&
         r->fed - start < TRACE_BATCH_MAX_INPUT_BYTES)
    {
      gsize n;

      if (r->block_pos == r->block_len)
        {
          gssize got = ftrace_input_read (r->input, r->block, FTRACE_BLOCK_SIZE, error);

          if (got < 0)
            return FALSE;
          if (got == 0)
            {
              const FtraceStats *st = ftrace_parser_get_stats (r->parser);

              r->finished = TRUE;
              g_debug ("%s: end of input: %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT " lines, %" G_GUINT64_FORMAT
                       " trace lines, %" G_GUINT64_FORMAT " events so far",
                       r->location, ftrace_reader_get_bytes_read (r), st->lines, st->trace_lines, st->events);
              return ftrace_reader_finish_input (r, error);
            }
          r->block_len = got;
          r->block_pos = 0;
        }
      n = MIN (FTRACE_SLICE_SIZE, r->block_len - r->block_pos);
      ftrace_reader_feed_text (r, (const char *) r->block + r->block_pos, n);
      r->block_pos += n;
      if (r->error)
        return FALSE;
    }
  return TRUE;
}

static void
prefix_error (FtraceReader *r,
              GError **error)
{
  if (error && *error && !g_str_has_prefix ((*error)->message, r->location))
    g_prefix_error (error, "%s: ", r->location);
}

/**
 * ftrace_reader_read_batch:
 * @out: (out) (transfer full) (nullable): the next batch, %NULL at the end
 *
 * Returns: %FALSE with @error set when the input is not a trace, cannot
 *   be read or is cut inside compressed data; the events read before an
 *   error are returned first, the error on the next call
 */
gboolean
ftrace_reader_read_batch (FtraceReader *r,
                          TraceBatch **out,
                          GError **error)
{
  GError *local = NULL;

  g_return_val_if_fail (r != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  *out = NULL;
  if (r->pending)
    {
      g_propagate_error (error, g_steal_pointer (&r->pending));
      return FALSE;
    }
  if (!r->started)
    {
      r->started = TRUE;
      if (!reader_start (r, &local))
        {
          prefix_error (r, &local);
          r->finished = TRUE;
          g_propagate_error (error, local);
          return FALSE;
        }
      r->block = g_malloc (FTRACE_BLOCK_SIZE);
      if (!r->html && r->n_threads > 1)
        ftrace_reader_start_chunks (r);
    }
  if (r->finished && r->batch == NULL)
    return TRUE;
  if (r->batch == NULL)
    r->batch = trace_batch_new (r->pool, TRACE_BATCH_DEFAULT_SIZE + 64);
  if (!(r->parallel ? ftrace_reader_fill_batch_chunks (r, &local) : ftrace_reader_fill_batch (r, &local)))
    {
      if (local == NULL)
        local = g_steal_pointer (&r->error);
      prefix_error (r, &local);
      r->finished = TRUE;
      if (r->batch->n_events > 0)
        {
          r->pending = local;
          *out = g_steal_pointer (&r->batch);
          return TRUE;
        }
      g_clear_pointer (&r->batch, trace_batch_unref);
      g_propagate_error (error, local);
      return FALSE;
    }
  /* empty but not finished: the input yielded nothing yet (NUL runs,
   * unparsable lines); the caller comes back after its main loop ran */
  if (r->batch->n_events > 0 || !r->finished)
    *out = g_steal_pointer (&r->batch);
  else
    g_clear_pointer (&r->batch, trace_batch_unref);
  return TRUE;
}

/* ---------------------------------------------------------------- state */

TraceClockDomain
ftrace_reader_get_clock_domain (FtraceReader *r)
{
  g_return_val_if_fail (r != NULL, TRACE_CLOCK_UNKNOWN);

  return ftrace_parser_get_clock_domain (r->parser);
}

/* "ftrace", "systrace-html", "ctrace" or "rhea" (what was detected so
 * far), or "process-dump" for a file of dumps only. */
const char *
ftrace_reader_get_format (FtraceReader *r)
{
  FtraceSeen seen = ftrace_parser_get_seen (r->parser);

  if (g_strcmp0 (r->format, "ftrace") != 0)
    return r->format;
  if (g_strcmp0 (r->forced_format, "rhea") == 0 ||
      ((seen & FTRACE_SEEN_RHEA_EVENT) && !(seen & FTRACE_SEEN_FTRACE_EVENT)))
    return "rhea";
  if ((seen & FTRACE_SEEN_DUMP) && !(seen & (FTRACE_SEEN_FTRACE_EVENT | FTRACE_SEEN_RHEA_EVENT)))
    return "process-dump";
  return "ftrace";
}

/* "none", or "zlib" for `atrace -z` */
const char *
ftrace_reader_get_compression (FtraceReader *r)
{
  g_return_val_if_fail (r != NULL, NULL);

  return r->compression;
}

/* Bytes read from the input so far (compressed bytes for compressed
 * input), for progress. */
guint64
ftrace_reader_get_bytes_read (FtraceReader *r)
{
  g_return_val_if_fail (r != NULL, 0);

  return r->input ? ftrace_input_get_raw_bytes (r->input) : 0;
}

const FtraceStats *
ftrace_reader_get_stats (FtraceReader *r)
{
  g_return_val_if_fail (r != NULL, NULL);

  return ftrace_parser_get_stats (r->parser);
}

/**
 * ftrace_reader_copy_stats:
 * @out: (out caller-allocates): where the counters go
 *
 * All the reader's counters in one struct, as they are now.
 */
void
ftrace_reader_copy_stats (FtraceReader *r,
                          FtraceReaderStats *out)
{
  g_return_if_fail (r != NULL);
  g_return_if_fail (out != NULL);

  out->bytes_read = ftrace_reader_get_bytes_read (r);
  out->nul_bytes = r->nul.bytes;
  out->parser = *ftrace_parser_get_stats (r->parser);
}

FtraceParser *
ftrace_reader_get_parser (FtraceReader *r)
{
  g_return_val_if_fail (r != NULL, NULL);

  return r->parser;
}

/**
 * ftrace_reader_get_nul_bytes:
 *
 * Returns: the NUL bytes skipped as damage (see feed_text())
 */
guint64
ftrace_reader_get_nul_bytes (FtraceReader *r)
{
  g_return_val_if_fail (r != NULL, 0);

  return r->nul.bytes;
}

/* "4096 bytes of NUL at offsets 8192, 20480 (1 cut line dropped)" */
static char *
nul_summary (const FtraceNulRuns *nul)
{
  GString *out;

  if (nul->runs == 0)
    return NULL;
  out = g_string_new (NULL);
  g_string_append_printf (out, "%" G_GUINT64_FORMAT " bytes of NUL at offset%s ", nul->bytes, nul->runs > 1 ? "s" : "");
  for (guint i = 0; i < MIN (nul->runs, FTRACE_NUL_OFFSETS); i++)
    g_string_append_printf (out, "%s%" G_GUINT64_FORMAT, i ? ", " : "", nul->offsets[i]);
  if (nul->runs > FTRACE_NUL_OFFSETS)
    g_string_append_printf (out, ", ... (%" G_GUINT64_FORMAT " runs)", nul->runs);
  if (nul->cut_lines > 0)
    g_string_append_printf (out, " (%" G_GUINT64_FORMAT " line%s cut by them dropped)", nul->cut_lines,
                            nul->cut_lines > 1 ? "s" : "");
  return g_string_free (out, FALSE);
}

/**
 * ftrace_reader_get_summary:
 *
 * Returns: (nullable) (transfer full): one line for a WARNING (what was
 *   skipped, with counts and first line numbers; or that the input held
 *   no events), %NULL when all went well
 */
char *
ftrace_reader_get_summary (FtraceReader *r)
{
  const FtraceStats *st = ftrace_parser_get_stats (r->parser);
  g_autofree char *problems = ftrace_stats_to_summary (st);
  g_autofree char *nul = nul_summary (&r->nul);
  /* JSON blocks handed on hold events of their own */
  gboolean no_events = r->finished && st->trace_lines == 0 && r->h.n_json_read == 0;
  g_autoptr (GString) out = NULL;
  guint64 cut_at = 0;
  gboolean cut = r->input != NULL && ftrace_input_get_cut (r->input, &cut_at);

  g_return_val_if_fail (r != NULL, NULL);

  if (problems == NULL && nul == NULL && !no_events && !cut)
    return NULL;
  out = g_string_new (r->location);
  g_string_append (out, ": ");
  if (cut)
    g_string_append_printf (out, "the zlib data ends early at byte %" G_GUINT64_FORMAT " (the capture was cut); what came before is read%s",
                            cut_at, no_events || nul || problems ? "; " : "");
  if (no_events)
    g_string_append (out, "the file holds no trace events, only metadata");
  if (nul)
    g_string_append_printf (out, "%s%s", no_events ? "; " : "", nul);
  if (problems)
    g_string_append_printf (out, "%s%s", no_events || nul ? "; " : "", problems);
  return g_string_free (g_steal_pointer (&out), FALSE);
}
