/* tracepipe - htrace: the OHOSPROF header and its clocks
 *
 * The header (1024 bytes, little-endian, packed): magic `OHOSPROF` (8),
 * file length (8), version (4, major in the high 16 bits), segment count
 * (4), SHA-256 of the records (32), data type (4, 0 = hiprofiler
 * protobuf records), then six clock readings taken together (8 each:
 * boottime, realtime, realtime-coarse, monotonic, monotonic-coarse,
 * monotonic-raw); the rest is a standalone plugin's name and version and
 * the capture's duration, which records-based captures leave empty.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "htrace-private.h"

#define OFF_LENGTH 8
#define OFF_VERSION 16
#define OFF_SEGMENTS 20
#define OFF_DATA_TYPE 56
#define OFF_CLOCKS 60

/* the data type of a capture of protobuf records (hiperf and standalone
 * plugins write other kinds behind the same header) */
#define HTRACE_DATA_PROTOBUF 0

static guint64
read_le64 (const guint8 *p)
{
  guint64 v;

  memcpy (&v, p, sizeof v);
  return GUINT64_FROM_LE (v);
}

static guint32
read_le32 (const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, sizeof v);
  return GUINT32_FROM_LE (v);
}

/**
 * htrace_is_htrace:
 * @data: the first bytes of a file
 * @len: how many
 *
 * Returns: %TRUE when @data starts with the htrace magic
 */
gboolean
htrace_is_htrace (const guint8 *data,
                  gsize len)
{
  return len >= 8 && memcmp (data, HTRACE_MAGIC, 8) == 0;
}

/* The coarse clocks are the same clocks read at tick resolution: they
 * are used only when the precise one is missing. */
static void
read_clocks (HtraceHeader *h,
             const guint8 *p)
{
  guint64 boottime = read_le64 (p), realtime = read_le64 (p + 8), realtime_coarse = read_le64 (p + 16);
  guint64 monotonic = read_le64 (p + 24), monotonic_coarse = read_le64 (p + 32), raw = read_le64 (p + 40);

  h->clocks[TRACE_CLOCK_BOOTTIME] = (gint64) MIN (boottime, (guint64) G_MAXINT64);
  h->clocks[TRACE_CLOCK_REALTIME] = (gint64) MIN (realtime ? realtime : realtime_coarse, (guint64) G_MAXINT64);
  h->clocks[TRACE_CLOCK_MONOTONIC] = (gint64) MIN (monotonic ? monotonic : monotonic_coarse, (guint64) G_MAXINT64);
  h->clocks[TRACE_CLOCK_MONOTONIC_RAW] = (gint64) MIN (raw, (guint64) G_MAXINT64);
}

/**
 * htrace_header_parse:
 * @header: (out): the header's fields
 * @data: the first bytes of the file
 * @len: how many (the whole header is %HTRACE_HEADER_SIZE)
 * @location: the file, for messages
 * @error: a %TRACE_STREAM_ERROR
 *
 * Returns: %FALSE when @data is not the header of a capture of records
 */
gboolean
htrace_header_parse (HtraceHeader *header,
                     const guint8 *data,
                     gsize len,
                     const char *location,
                     GError **error)
{
  memset (header, 0, sizeof *header);
  if (!htrace_is_htrace (data, len))
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_WRONG_TYPE,
                   "%s: not an OpenHarmony htrace file: it does not start with `" HTRACE_MAGIC "`", location);
      return FALSE;
    }
  if (len < HTRACE_HEADER_SIZE)
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_FORMAT,
                   "%s: the htrace header is cut off at byte %" G_GSIZE_FORMAT " (it is %d bytes)", location, len,
                   HTRACE_HEADER_SIZE);
      return FALSE;
    }
  header->length = read_le64 (data + OFF_LENGTH);
  header->version = read_le32 (data + OFF_VERSION);
  header->segments = read_le32 (data + OFF_SEGMENTS);
  header->data_type = read_le32 (data + OFF_DATA_TYPE);
  if (header->data_type != HTRACE_DATA_PROTOBUF)
    {
      g_set_error (error, TRACE_STREAM_ERROR, TRACE_STREAM_ERROR_WRONG_TYPE,
                   "%s: an htrace file of data type %u at byte %d: only hiprofiler's protobuf records (type 0) are "
                   "read, not hiperf or standalone-plugin data",
                   location, header->data_type, OFF_DATA_TYPE);
      return FALSE;
    }
  read_clocks (header, data + OFF_CLOCKS);
  return TRUE;
}

/**
 * htrace_clock_from_posix:
 * @clock_id: a POSIX clock id (ProfilerPluginData.clock_id)
 *
 * Returns: the clock, or %TRACE_CLOCK_UNKNOWN for one with no place
 *   here (CPU-time clocks, alarms, TAI)
 */
TraceClockDomain
htrace_clock_from_posix (gint64 clock_id)
{
  switch (clock_id)
    {
    case 0: /* CLOCK_REALTIME */
    case 5: /* CLOCK_REALTIME_COARSE */
      return TRACE_CLOCK_REALTIME;
    case 1: /* CLOCK_MONOTONIC */
    case 6: /* CLOCK_MONOTONIC_COARSE */
      return TRACE_CLOCK_MONOTONIC;
    case 4:
      return TRACE_CLOCK_MONOTONIC_RAW;
    case 7:
      return TRACE_CLOCK_BOOTTIME;
    default:
      return TRACE_CLOCK_UNKNOWN;
    }
}

/**
 * htrace_header_convert:
 * @header: the header
 * @from: the clock @ts is on
 * @to: the stream's clock
 * @ts: (inout): a time in ns
 *
 * Moves @ts by the difference of the two clocks at the header's
 * snapshot: they are read within microseconds of each other, and the
 * offset between boottime and realtime drifts only with suspends and
 * wall-clock changes during the capture (not corrected).
 *
 * Returns: %FALSE when the header lacks one of the two clocks or the
 *   result does not fit
 */
gboolean
htrace_header_convert (const HtraceHeader *header,
                       TraceClockDomain from,
                       TraceClockDomain to,
                       gint64 *ts)
{
  gint64 delta;

  if (from == to)
    return TRUE;
  if (from == TRACE_CLOCK_UNKNOWN || to == TRACE_CLOCK_UNKNOWN || from > TRACE_CLOCK_PROCESS ||
      to > TRACE_CLOCK_PROCESS || header->clocks[from] == 0 || header->clocks[to] == 0)
    return FALSE;
  delta = header->clocks[to] - header->clocks[from];
  if ((delta > 0 && *ts > G_MAXINT64 - delta) || (delta < 0 && *ts < G_MININT64 - delta))
    return FALSE;
  *ts += delta;
  return TRUE;
}
