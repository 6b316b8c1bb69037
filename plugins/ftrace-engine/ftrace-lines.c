/* tracepipe - ftrace reader: cutting bytes into lines
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "ftrace-text-private.h"

void
ftrace_splitter_init (FtraceSplitter *s,
                      FtraceLineFunc func,
                      gpointer user_data)
{
  memset (s, 0, sizeof *s);
  s->carry = g_malloc (FTRACE_MAX_LINE_LENGTH);
  s->func = func;
  s->user_data = user_data;
}

void
ftrace_splitter_clear (FtraceSplitter *s)
{
  g_clear_pointer (&s->carry, g_free);
}

/* Completes the line held in carry (or the long line in pieces) with the
 * bytes of @p up to the first newline; returns where the next line starts
 * or NULL when @p holds no newline. */
static const char *
continue_line (FtraceSplitter *s,
               const char *p,
               const char *end)
{
  const char *nl = memchr (p, '\n', end - p);
  const char *le = nl ? nl : end;
  gsize n = le - p;

  if (s->in_long)
    {
      s->func (s->user_data, p, n, FTRACE_PIECE_CONTINUED | (nl ? 0 : FTRACE_PIECE_MORE), s->line_no);
      s->in_long = nl == NULL;
    }
  else if (s->carry_len + n > FTRACE_MAX_LINE_LENGTH)
    {
      s->func (s->user_data, s->carry, s->carry_len, FTRACE_PIECE_MORE, s->line_no);
      s->func (s->user_data, p, n, FTRACE_PIECE_CONTINUED | (nl ? 0 : FTRACE_PIECE_MORE), s->line_no);
      s->carry_len = 0;
      s->in_long = nl == NULL;
    }
  else
    {
      memcpy (s->carry + s->carry_len, p, n);
      s->carry_len += n;
      if (nl)
        {
          s->func (s->user_data, s->carry, s->carry_len, 0, s->line_no);
          s->carry_len = 0;
        }
    }
  return nl ? nl + 1 : NULL;
}

void
ftrace_splitter_feed (FtraceSplitter *s,
                      const char *data,
                      gsize len)
{
  const char *p = data, *end = data + len;

  if (len == 0)
    return;
  if (s->carry_len > 0 || s->in_long)
    {
      p = continue_line (s, p, end);
      if (p == NULL)
        return;
    }
  while (p < end)
    {
      const char *nl = memchr (p, '\n', end - p);

      s->line_no++;
      if (nl == NULL)
        {
          gsize n = end - p;

          if (n > FTRACE_MAX_LINE_LENGTH)
            {
              s->func (s->user_data, p, n, FTRACE_PIECE_MORE, s->line_no);
              s->in_long = TRUE;
            }
          else
            {
              memcpy (s->carry, p, n);
              s->carry_len = n;
            }
          return;
        }
      s->func (s->user_data, p, nl - p, 0, s->line_no);
      p = nl + 1;
    }
}

/* The end of the input: a last line without newline is a line too. */
void
ftrace_splitter_finish (FtraceSplitter *s)
{
  if (s->in_long)
    s->func (s->user_data, "", 0, FTRACE_PIECE_CONTINUED, s->line_no);
  else if (s->carry_len > 0)
    s->func (s->user_data, s->carry, s->carry_len, 0, s->line_no);
  s->carry_len = 0;
  s->in_long = FALSE;
}

/* A run of NUL bytes (a crash or power loss left it where data was not
 * written): the line it cut is dropped, and what follows the run starts
 * a line again, under the same line number when the run began inside a
 * line.  Returns whether a cut line was dropped. */
gboolean
ftrace_splitter_break (FtraceSplitter *s)
{
  gboolean cut = s->carry_len > 0 || s->in_long;

  if (s->in_long)
    s->func (s->user_data, "", 0, FTRACE_PIECE_CONTINUED, s->line_no);
  s->carry_len = 0;
  s->in_long = FALSE;
  if (cut)
    s->line_no--;
  return cut;
}
