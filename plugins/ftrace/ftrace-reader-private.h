/* tracepipe - ftrace reader internals: line splitting and HTML
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <zlib.h>

#include "ftrace-input.h"
#include "ftrace-reader.h"

G_BEGIN_DECLS

/* A piece of a line longer than FTRACE_MAX_LINE_LENGTH: more follows */
#define FTRACE_PIECE_MORE (1 << 0)
/* The piece continues a line delivered before */
#define FTRACE_PIECE_CONTINUED (1 << 1)

typedef void (*FtraceLineFunc) (gpointer user_data,
                                const char *line,
                                gsize len,
                                guint flags,
                                guint64 line_no);

/* Cuts bytes into lines (without the '\n') and hands them to @func; a
 * line is copied only when it straddles two feeds, and lines longer than
 * FTRACE_MAX_LINE_LENGTH come in pieces, so memory stays bounded. */
typedef struct
{
  char *carry;
  gsize carry_len;
  gboolean in_long;
  guint64 line_no;
  FtraceLineFunc func;
  gpointer user_data;
} FtraceSplitter;

void ftrace_splitter_init (FtraceSplitter *s,
                           FtraceLineFunc func,
                           gpointer user_data);
void ftrace_splitter_clear (FtraceSplitter *s);
void ftrace_splitter_feed (FtraceSplitter *s,
                           const char *data,
                           gsize len);
void ftrace_splitter_finish (FtraceSplitter *s);
gboolean ftrace_splitter_break (FtraceSplitter *s);

/* Offsets of NUL runs remembered for the warning. */
#define FTRACE_NUL_OFFSETS 4

/* Runs of NUL bytes skipped as damage (ftrace-reader.c). */
typedef struct
{
  guint64 bytes;
  guint64 runs;
  guint64 cut_lines; /* lines a run began inside of, dropped */
  guint64 offsets[FTRACE_NUL_OFFSETS];
  gboolean in_run; /* the last byte fed was a NUL */
} FtraceNulRuns;

typedef enum
{
  FTRACE_HTML_OUTSIDE,
  FTRACE_HTML_BLOCK_FIRST, /* in a data block, before its first line */
  FTRACE_HTML_BLOCK_TEXT,  /* in a block of ftrace text or dumps */
  FTRACE_HTML_BLOCK_SKIP,  /* in a JSON block */
  FTRACE_HTML_LEGACY,      /* in `var linuxPerfData = "\` */
  FTRACE_HTML_VIEWER,      /* in a trace2html viewer-data block */
} FtraceHtmlState;

typedef struct
{
  FtraceHtmlState state;
  guint n_blocks;
  char tail[16]; /* end of the previous piece, for a split `</script>` */
  gsize tail_len;
  /* trace2html: base64 -> gunzip -> lines */
  gint b64_state;
  guint b64_save;
  z_stream z;
  gboolean z_init;
  gboolean z_end;
  gboolean z_plain; /* the part is not gzip: decoded bytes are the text */
  guint8 gz_magic[2];
  gsize gz_magic_len;
  FtraceSplitter nested;
  FtraceHtmlState nested_state;
  guint64 viewer_line;
} FtraceHtml;

struct _FtraceReader
{
  char *location;
  TraceStringPool *pool;
  FtraceParser *parser;
  GInputStream *stream;
  FtraceInput *input;
  char *forced_format;
  const char *format;
  const char *compression;
  gboolean started;
  gboolean finished;
  gboolean html;
  guint8 *block;
  gsize block_len;
  gsize block_pos;
  gboolean input_eof;
  FtraceSplitter splitter;
  guint64 fed; /* decoded bytes given to the splitter or skipped */
  FtraceNulRuns nul;
  FtraceHtml h;
  TraceBatch *batch;
  GError *error;   /* set by line callbacks, reported by read_batch */
  GError *pending; /* reported on the call after the batch it ended */
};

/* ftrace-reader.c */
void ftrace_reader_text_line (FtraceReader *r,
                              const char *line,
                              gsize len,
                              guint flags,
                              guint64 line_no);

/* ftrace-html.c */
void ftrace_html_init (FtraceReader *r);
void ftrace_html_clear (FtraceReader *r);
void ftrace_html_line (gpointer user_data,
                       const char *line,
                       gsize len,
                       guint flags,
                       guint64 line_no);
void ftrace_html_finish (FtraceReader *r);

G_END_DECLS
