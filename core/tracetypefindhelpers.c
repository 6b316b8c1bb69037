/* tracepipe - what format detectors of several plugins share
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Detectors of different plugins must agree on what an input is: json-src
 * claims a Chrome JSON trace, arkts-src declines it although it reads
 * JSON too, and ftrace-src names it when it is given one. They meet in
 * the core, where the detectors are registered and run, so that the
 * three read the same signs the same way.
 */
#define _GNU_SOURCE
#include "config.h"

#include <string.h>

#include "trace/trace.h"

/**
 * trace_type_find_contains:
 * @data: (array length=size): the bytes a detector is shown
 * @size: how many
 * @needle: the text looked for
 *
 * Returns: whether @needle is anywhere in @data (NUL bytes included)
 */
gboolean
trace_type_find_contains (const guint8 *data,
                          gsize size,
                          const char *needle)
{
  return memmem (data, size, needle, strlen (needle)) != NULL;
}

/**
 * trace_type_find_chrome_json:
 * @data: (array length=size): the bytes a detector is shown
 * @size: how many
 *
 * Returns: the signs of a Chrome JSON trace in @data
 */
TraceChromeJsonFlags
trace_type_find_chrome_json (const guint8 *data,
                             gsize size)
{
  TraceChromeJsonFlags flags = TRACE_CHROME_JSON_IS_JSON;
  gsize i = 0;

  while (i < size && g_ascii_isspace (data[i]))
    i++;
  if (i == size || (data[i] != '{' && data[i] != '['))
    return 0;
  if (trace_type_find_contains (data, size, "\"traceEvents\""))
    flags |= TRACE_CHROME_JSON_TRACE_EVENTS;
  if (trace_type_find_contains (data, size, "\"systemTraceEvents\""))
    flags |= TRACE_CHROME_JSON_SYSTEM_TRACE_EVENTS;
  if (trace_type_find_contains (data, size, "\"ph\""))
    flags |= TRACE_CHROME_JSON_PH;
  return flags;
}
