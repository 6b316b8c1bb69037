/* tracepipe - linking elements by their pads
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <stdarg.h>

#include "trace/trace.h"
#include "trace-private.h"

/**
 * trace_element_link_pads:
 * @src: the upstream element
 * @srcpadname: (nullable): a pad name, a request name, or %NULL for any
 * @dest: the downstream element
 * @destpadname: (nullable): likewise
 * @error: where to say why they cannot be linked
 *
 * Links a src pad of @src to a sink pad of @dest. A name that is not an
 * existing pad is requested from a REQUEST template.
 *
 * Returns: %TRUE on success
 */
gboolean
trace_element_link_pads (TraceElement *src,
                         const char *srcpadname,
                         TraceElement *dest,
                         const char *destpadname,
                         GError **error)
{
  TracePad *srcpad = NULL, *sinkpad = NULL;
  g_autoptr (TracePad) probe = NULL;

  g_return_val_if_fail (TRACE_IS_ELEMENT (src), FALSE);
  g_return_val_if_fail (TRACE_IS_ELEMENT (dest), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (srcpadname)
    {
      srcpad = trace_element_get_static_pad (src, srcpadname);
      if (srcpad == NULL && (srcpad = trace_element_request_pad (src, srcpadname, error)) == NULL)
        return FALSE;
    }
  if (destpadname)
    {
      sinkpad = trace_element_get_static_pad (dest, destpadname);
      if (sinkpad == NULL && (sinkpad = trace_element_request_pad (dest, destpadname, error)) == NULL)
        return FALSE;
    }
  if (srcpad == NULL)
    {
      probe = trace_pad_new ("sink", TRACE_PAD_SINK, NULL);
      if ((srcpad = trace_element_get_compatible_pad (src, probe, error)) == NULL)
        return FALSE;
    }
  if (sinkpad == NULL && (sinkpad = trace_element_get_compatible_pad (dest, srcpad, error)) == NULL)
    return FALSE;
  return trace_pad_link (srcpad, sinkpad, error);
}

/**
 * trace_element_link:
 * @src: the upstream element
 * @dest: the downstream element
 * @error: where to say why they cannot be linked
 *
 * Links the first free or requestable src pad of @src to a sink pad of
 * @dest.
 *
 * Returns: %TRUE on success
 */
gboolean
trace_element_link (TraceElement *src,
                    TraceElement *dest,
                    GError **error)
{
  g_return_val_if_fail (TRACE_IS_ELEMENT (src), FALSE);
  g_return_val_if_fail (TRACE_IS_ELEMENT (dest), FALSE);

  return trace_element_link_pads (src, NULL, dest, NULL, error);
}

/**
 * trace_element_link_many:
 * @error: where to say which link failed and why
 * @first: the first element
 * @second: the second element
 * @...: more elements, %NULL-terminated
 *
 * Links a chain of elements.
 *
 * Returns: %TRUE if every link succeeded
 */
gboolean
trace_element_link_many (GError **error,
                         TraceElement *first,
                         TraceElement *second,
                         ...)
{
  va_list args;
  gboolean ok = TRUE;

  g_return_val_if_fail (TRACE_IS_ELEMENT (first), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  va_start (args, second);
  while (second && ok)
    {
      ok = trace_element_link (first, second, error);
      first = second;
      second = va_arg (args, TraceElement *);
    }
  va_end (args);
  return ok;
}
