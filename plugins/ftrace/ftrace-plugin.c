/* tracepipe - the ftrace plugin
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#define _GNU_SOURCE
#include "config.h"

#include <string.h>
#include <zlib.h>

#include "ftrace-private.h"

/* An ftrace event line: `task-123 ... [001] ... 12.345: name:`; enough
 * to tell a header-less dump from other text. */
static gboolean
looks_like_event_line (const guint8 *data,
                       gsize size)
{
  const char *p = (const char *) data;
  const char *end = p + size;

  for (int lines = 0; p < end && lines < 20; lines++)
    {
      const char *nl = memchr (p, '\n', end - p);
      gsize len = (nl ? nl : end) - p;
      const char *cpu = memmem (p, len, "] ", 2);

      if (cpu && cpu - p > 4 && cpu[-4] == '[' && memmem (p, len, ": ", 2))
        return TRUE;
      p += len + 1;
    }
  return FALSE;
}

static guint text_type_find (const guint8 *data,
                             gsize size);

/* What a bare zlib stream (hitrace's compressed text) starts with:
 * inflated into @out as far as @data and @out allow. */
static gsize
inflate_head (const guint8 *data,
              gsize size,
              guint8 *out,
              gsize out_size)
{
  z_stream z = { 0 };
  gsize produced;

  if (inflateInit (&z) != Z_OK)
    return 0;
  z.next_in = (Bytef *) data;
  z.avail_in = (uInt) MIN (size, G_MAXUINT);
  z.next_out = out;
  z.avail_out = (uInt) out_size;
  inflate (&z, Z_SYNC_FLUSH); /* a truncated head is expected: keep what came out */
  produced = out_size - z.avail_out;
  inflateEnd (&z);
  return produced;
}

/* A bare zlib stream is ftrace text when what it inflates to is; never
 * certain (100): the compressed bytes were not all seen. */
static guint
zlib_type_find (const guint8 *data,
                gsize size)
{
  g_autofree guint8 *text = g_malloc (16 * 1024);
  gsize n = inflate_head (data, size, text, 16 * 1024);

  if (n == 0 || ftrace_is_bare_zlib (text, n))
    return 0;
  return MIN (text_type_find (text, n), 90);
}

#define CHROME_JSON_SIGNS \
  (TRACE_CHROME_JSON_TRACE_EVENTS | TRACE_CHROME_JSON_SYSTEM_TRACE_EVENTS | TRACE_CHROME_JSON_PH)

/* What the first 64 KiB show. */
static guint
text_type_find (const guint8 *data,
                gsize size)
{
  if (ftrace_is_bare_zlib (data, size))
    return zlib_type_find (data, size);
  /* A Chrome trace's systemTraceEvents string holds ftrace text, header
   * and all; json-src reads that text with the rest of the trace. */
  if (trace_type_find_chrome_json (data, size) & CHROME_JSON_SIGNS)
    return 0;
  if (trace_type_find_contains (data, size, "# tracer:") || trace_type_find_contains (data, size, "TRACE:\n"))
    return 100;
  if (trace_type_find_contains (data, size, "<html") &&
      (trace_type_find_contains (data, size, "trace-data") || trace_type_find_contains (data, size, "linuxPerfData") ||
       trace_type_find_contains (data, size, "viewer-data")))
    return 100;
  if (size > 0 && data[0] != '{' && data[0] != '[' && looks_like_event_line (data, size))
    return 80;
  if (trace_type_find_contains (data, size, ": B|") || trace_type_find_contains (data, size, "|TRACE_START|"))
    return 60;
  /* Process listings alone (ps, /proc): names only, but ftrace-src reads them. */
  if (size > 4 && (memcmp (data, "USER", 4) == 0 || trace_type_find_contains (data, size, "PROCESS DUMP") ||
                   trace_type_find_contains (data, size, "/proc/")))
    return 40;
  return 0;
}

/* Past what the first 64 KiB show: an HTML file (as the reader tells
 * one) is systrace when a line opens a data block, which comes after
 * the viewer's code, so further on than the other detectors look. */
static guint
ftrace_type_find (const guint8 *data,
                  gsize size,
                  gpointer user_data)
{
  guint p = text_type_find (data, MIN (size, TRACE_TYPE_FIND_LOOK_AHEAD));

  if (p > 0 || !ftrace_is_html (data, size))
    return p;
  if (ftrace_html_has_data_block (data, size))
    return 100;
  return size < FTRACE_HTML_LOOK_AHEAD ? TRACE_TYPE_FIND_MORE : 0;
}

static gboolean
plugin_init (TracePlugin *plugin,
             GError **error)
{
  trace_type_find_register_full (plugin, "ftrace", "ftrace-src", FTRACE_HTML_LOOK_AHEAD, ftrace_type_find, NULL);
  return TRACE_ELEMENT_REGISTER (ftrace_src, plugin) && TRACE_ELEMENT_REGISTER (ftrace_sink, plugin);
}

TRACE_PLUGIN_DEFINE (ftrace, "Linux ftrace, atrace, systrace and RheaTrace text", plugin_init, PACKAGE_VERSION, "LGPL-2.1-or-later", "tracepipe")
