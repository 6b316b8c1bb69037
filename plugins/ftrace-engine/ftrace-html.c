/* tracepipe - ftrace reader: systrace HTML containers
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Only data blocks are read, never the viewer's own JavaScript (which
 * holds trace-like strings):
 *   modern:     <script class="trace-data" type="application/text"> ... </script>
 *               (ftrace text, PROCESS DUMP, CGROUP DUMP, or a Chrome JSON
 *               trace: handed to the JSON block funcs, skipped without)
 *   legacy:     var linuxPerfData = "\   lines ending in \n\   ... \n";
 *   trace2html: <script id="viewer-data" type="..."> base64(gzip(part)) </script>
 */
#include <string.h>

#include "ftrace-text-private.h"

#define VIEWER_BUF_SIZE (64 * 1024)

static void
nested_line (gpointer user_data,
             const char *line,
             gsize len,
             guint flags,
             guint64 line_no);

void
ftrace_html_init (FtraceReader *r)
{
  memset (&r->h, 0, sizeof r->h);
  r->h.state = FTRACE_HTML_OUTSIDE;
  ftrace_splitter_init (&r->h.nested, nested_line, r);
}

void
ftrace_html_clear (FtraceReader *r)
{
  if (r->h.z_init)
    inflateEnd (&r->h.z);
  r->h.z_init = FALSE;
  ftrace_splitter_clear (&r->h.nested);
}

static const char *
skip_spaces (const char *s,
             const char *end)
{
  while (s < end && g_ascii_isspace (*s))
    s++;
  return s;
}

/* ------------------------------------------------------------- blocks */

/**
 * ftrace_reader_set_json_block_funcs:
 * @funcs: (nullable): who reads the JSON blocks; %NULL: they are skipped
 *
 * Set before the first read.
 */
void
ftrace_reader_set_json_block_funcs (FtraceReader *r,
                                    const FtraceJsonBlockFuncs *funcs,
                                    gpointer user_data)
{
  r->h.json_funcs = funcs;
  r->h.json_user_data = user_data;
}

/* A JSON block starts with its first non-blank line: read or skipped. */
static FtraceHtmlState
json_block_start (FtraceReader *r,
                  guint64 line_no)
{
  if (r->h.json_funcs != NULL && r->h.json_funcs->begin (r->h.json_user_data, line_no))
    {
      r->h.n_json_read++;
      return FTRACE_HTML_BLOCK_JSON;
    }
  ftrace_parser_set_line_number (r->parser, line_no);
  ftrace_parser_skip_line (r->parser, FTRACE_PROBLEM_SKIPPED_BLOCK);
  return FTRACE_HTML_BLOCK_SKIP;
}

/* A piece of a JSON block's line: its bytes, and the newline that ended
 * it (JSON strings hold none, so the text is the block's). */
static void
json_block_bytes (FtraceReader *r,
                  const char *line,
                  gsize len,
                  guint flags)
{
  const FtraceJsonBlockFuncs *funcs = r->h.json_funcs;

  if (r->error != NULL)
    return;
  if (len > 0 && !funcs->data (r->h.json_user_data, line, len, &r->error))
    return;
  if (!(flags & FTRACE_PIECE_MORE))
    funcs->data (r->h.json_user_data, "\n", 1, &r->error);
}

/* Where a data block ends (`</script>`, the viewer-data part's end, or
 * the input's): a JSON block's reader is told. */
static void
block_end (FtraceReader *r,
           FtraceHtmlState *state)
{
  if (*state == FTRACE_HTML_BLOCK_JSON)
    r->h.json_funcs->end (r->h.json_user_data);
  *state = FTRACE_HTML_OUTSIDE;
}

/* A line inside a data block; the first non-blank line says what the
 * block holds. */
static void
block_line (FtraceReader *r,
            FtraceHtmlState *state,
            const char *line,
            gsize len,
            guint flags,
            guint64 line_no)
{
  if (*state == FTRACE_HTML_BLOCK_FIRST)
    {
      const char *t = skip_spaces (line, line + len);

      if ((flags & FTRACE_PIECE_CONTINUED) || t == line + len)
        return;
      if (*t == '{' || *t == '[')
        *state = json_block_start (r, line_no);
      else
        {
          *state = FTRACE_HTML_BLOCK_TEXT;
          ftrace_parser_begin_block (r->parser);
        }
    }
  if (*state == FTRACE_HTML_BLOCK_TEXT)
    ftrace_reader_text_line (r, line, len, flags, line_no);
  else if (*state == FTRACE_HTML_BLOCK_JSON)
    json_block_bytes (r, line, len, flags);
}

static void
nested_line (gpointer user_data,
             const char *line,
             gsize len,
             guint flags,
             guint64 line_no)
{
  FtraceReader *r = user_data;

  block_line (r, &r->h.nested_state, line, len, flags, line_no);
}

/* Where `</script>` starts in @line, -1 if not there; 0 also when it
 * began at the end of the previous piece of a long line. */
static gssize
find_script_end (FtraceHtml *h,
                 const char *line,
                 gsize len,
                 guint flags)
{
  const char *e = memmem (line, len, "</script>", 9);

  if (e == NULL && (flags & FTRACE_PIECE_CONTINUED) && h->tail_len > 0)
    {
      char joined[32];
      gsize n = MIN (len, 8);

      memcpy (joined, h->tail, h->tail_len);
      memcpy (joined + h->tail_len, line, n);
      if (memmem (joined, h->tail_len + n, "</script>", 9) != NULL)
        return 0;
    }
  h->tail_len = 0;
  if (e == NULL && (flags & FTRACE_PIECE_MORE))
    {
      h->tail_len = MIN (len, 8);
      memcpy (h->tail, line + len - h->tail_len, h->tail_len);
    }
  return e ? e - line : -1;
}

/* ------------------------------------------------------------ trace2html */

static void
viewer_start (FtraceReader *r)
{
  FtraceHtml *h = &r->h;

  h->b64_state = 0;
  h->b64_save = 0;
  if (!h->z_init)
    inflateInit2 (&h->z, 15 + 16);
  else
    inflateReset (&h->z);
  h->z_init = TRUE;
  h->z_end = FALSE;
  h->z_plain = FALSE;
  h->gz_magic_len = 0;
  h->nested_state = FTRACE_HTML_BLOCK_FIRST;
  h->nested.line_no = 0;
  h->nested.carry_len = 0;
  h->nested.in_long = FALSE;
  h->viewer_line = r->splitter.line_no;
}

static void
viewer_error (FtraceReader *r,
              const char *what)
{
  if (r->error == NULL)
    g_set_error (&r->error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_DECODE,
                 "%s: %s in the viewer-data block of line %" G_GUINT64_FORMAT,
                 r->location, what, r->h.viewer_line);
}

static void
viewer_bytes (FtraceReader *r,
              const guint8 *data,
              gsize len)
{
  FtraceHtml *h = &r->h;
  guint8 out[16 * 1024];

  if (len == 0 || h->z_end || r->error)
    return;
  if (h->gz_magic_len == 0)
    {
      /* trace2html gzips each part; take a part that is not gzip as is */
      h->gz_magic_len = 1;
      h->z_plain = data[0] != 0x1f;
    }
  if (h->z_plain)
    {
      ftrace_splitter_feed (&h->nested, (const char *) data, len);
      return;
    }
  h->z.next_in = (Bytef *) data;
  h->z.avail_in = len;
  while (h->z.avail_in > 0 && !h->z_end)
    {
      int ret;

      h->z.next_out = out;
      h->z.avail_out = sizeof out;
      ret = inflate (&h->z, Z_NO_FLUSH);
      if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR)
        {
          viewer_error (r, "corrupt gzip data");
          return;
        }
      ftrace_splitter_feed (&h->nested, (const char *) out, sizeof out - h->z.avail_out);
      h->z_end = ret == Z_STREAM_END;
      if (ret == Z_BUF_ERROR)
        break;
    }
}

static void
viewer_end (FtraceReader *r)
{
  FtraceHtml *h = &r->h;

  ftrace_splitter_finish (&h->nested);
  block_end (r, &h->nested_state);
  if (!h->z_plain && h->gz_magic_len > 0 && !h->z_end)
    viewer_error (r, "truncated gzip data");
  h->state = FTRACE_HTML_OUTSIDE;
}

/* base64 text of a viewer-data block, up to `<` (base64 has none) */
static void
viewer_piece (FtraceReader *r,
              const char *data,
              gsize len)
{
  const char *lt = memchr (data, '<', len);
  gsize n = lt ? (gsize) (lt - data) : len;
  guint8 out[(VIEWER_BUF_SIZE / 4) * 3 + 4];

  while (n > 0)
    {
      gsize chunk = MIN (n, VIEWER_BUF_SIZE);
      gsize got = g_base64_decode_step (data, chunk, out, &r->h.b64_state, &r->h.b64_save);

      viewer_bytes (r, out, got);
      data += chunk;
      n -= chunk;
    }
  if (lt)
    viewer_end (r);
}

/* ------------------------------------------------------------ outside */

static void
legacy_line (FtraceReader *r,
             const char *line,
             gsize len,
             guint flags,
             guint64 line_no)
{
  gboolean last = FALSE;

  if (memmem (line, len, "</script>", 9) != NULL)
    {
      r->h.state = FTRACE_HTML_OUTSIDE;
      return;
    }
  while (len > 0 && (line[len - 1] == '\r' || g_ascii_isspace (line[len - 1])))
    len--;
  /* the JavaScript string ends with `\n";` */
  if (len >= 2 && line[len - 2] == '"' && line[len - 1] == ';')
    last = TRUE, len -= 2;
  else if (len >= 1 && line[len - 1] == '"')
    last = TRUE, len -= 1;
  if (len >= 2 && line[len - 2] == '\\' && line[len - 1] == 'n')
    len -= 2;
  ftrace_reader_text_line (r, line, len, flags, line_no);
  if (last)
    r->h.state = FTRACE_HTML_OUTSIDE;
}

/* What a line outside any block opens, if anything; *body: where the
 * block's own text starts on that line. */
typedef enum
{
  OPENS_NOTHING,
  OPENS_TRACE_DATA,
  OPENS_VIEWER_DATA,
  OPENS_LINUX_PERF_DATA,
} HtmlOpener;

static HtmlOpener
line_opens (const char *line,
            gsize len,
            const char **body)
{
  const char *end = line + len, *t = skip_spaces (line, end), *gt;
  gsize n = end - t;

  if (n > 7 && g_ascii_strncasecmp (t, "<script", 7) == 0)
    {
      gt = memchr (t, '>', n);
      if (gt == NULL)
        return OPENS_NOTHING;
      *body = gt + 1;
      if (memmem (t, gt - t, "class=\"trace-data\"", 18) != NULL)
        return OPENS_TRACE_DATA;
      if (memmem (t, gt - t, "id=\"viewer-data\"", 16) != NULL)
        return OPENS_VIEWER_DATA;
      return OPENS_NOTHING;
    }
  if (n >= 21 && memcmp (t, "var linuxPerfData = \"", 21) == 0)
    {
      *body = t + 21;
      return OPENS_LINUX_PERF_DATA;
    }
  return OPENS_NOTHING;
}

static void
outside_line (FtraceReader *r,
              const char *line,
              gsize len,
              guint flags,
              guint64 line_no)
{
  const char *end = line + len, *body = end;

  switch (line_opens (line, len, &body))
    {
    case OPENS_NOTHING:
      return;
    case OPENS_TRACE_DATA:
      r->h.state = FTRACE_HTML_BLOCK_FIRST;
      r->h.n_blocks++;
      break;
    case OPENS_VIEWER_DATA:
      r->h.state = FTRACE_HTML_VIEWER;
      r->h.n_blocks++;
      viewer_start (r);
      break;
    case OPENS_LINUX_PERF_DATA:
      r->h.state = FTRACE_HTML_LEGACY;
      r->h.n_blocks++;
      ftrace_parser_begin_block (r->parser);
      if (body < end && !(end - body == 1 && *body == '\\'))
        legacy_line (r, body, end - body, flags, line_no);
      return;
    }
  if (body < end)
    ftrace_html_line (r, body, end - body, flags, line_no);
}

/**
 * ftrace_html_has_data_block:
 * @data: the first bytes of an HTML file
 * @size: how many
 *
 * Whether a line of @data opens a data block as the reader recognises
 * one (the line's start up to the tag's `>`, or `var linuxPerfData = "`,
 * within @data). Detection's question: the viewer's code before the first
 * block is about a megabyte in a systrace export.
 *
 * Returns: %TRUE if the reader would find a data block there
 */
gboolean
ftrace_html_has_data_block (const guint8 *data,
                            gsize size)
{
  const char *p = (const char *) data, *end = p + size;

  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p), *body;
      gsize len = (nl ? nl : end) - p;

      if (line_opens (p, len, &body) != OPENS_NOTHING)
        return TRUE;
      p += len + 1;
    }
  return FALSE;
}

void
ftrace_html_line (gpointer user_data,
                  const char *line,
                  gsize len,
                  guint flags,
                  guint64 line_no)
{
  FtraceReader *r = user_data;
  FtraceHtml *h = &r->h;
  gssize e;

  switch (h->state)
    {
    case FTRACE_HTML_OUTSIDE:
      if (!(flags & FTRACE_PIECE_CONTINUED))
        outside_line (r, line, len, flags, line_no);
      break;
    case FTRACE_HTML_BLOCK_FIRST:
    case FTRACE_HTML_BLOCK_TEXT:
    case FTRACE_HTML_BLOCK_SKIP:
    case FTRACE_HTML_BLOCK_JSON:
      e = find_script_end (h, line, len, flags);
      if (e >= 0)
        {
          if (e > 0)
            block_line (r, &h->state, line, e, flags & ~FTRACE_PIECE_MORE, line_no);
          block_end (r, &h->state);
          break;
        }
      block_line (r, &h->state, line, len, flags, line_no);
      break;
    case FTRACE_HTML_LEGACY:
      legacy_line (r, line, len, flags, line_no);
      break;
    case FTRACE_HTML_VIEWER:
      viewer_piece (r, line, len);
      break;
    }
}

/* The end of the file: a viewer-data block cut off is an error; a JSON
 * block cut off ends there (its reader reports what is missing). */
void
ftrace_html_finish (FtraceReader *r)
{
  if (r->h.state == FTRACE_HTML_VIEWER)
    viewer_end (r);
  block_end (r, &r->h.state);
}
