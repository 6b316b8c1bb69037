/* tracepipe - Perfetto writer: kernel event args as typed fields want them
 *
 * The args of a kernel event (from ftrace text, JSON or a generic event)
 * become the integer or symbol fields of its typed FtraceEvent message.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "perfetto-writer-private.h"

#include <math.h>

/* Returns: whether @s is ` NAME`, the symbolic name the kernel prints
 * after some numbers (`binder_return: cmd=0x7211 BR_FAILED_REPLY`): the
 * number alone is the field, as trace_processor reads it. */
static gboolean
is_symbol_suffix (const char *s)
{
  if (*s != ' ' || !(g_ascii_isupper (s[1]) || s[1] == '_'))
    return FALSE;
  for (s++; *s; s++)
    if (!g_ascii_isupper (*s) && !g_ascii_isdigit (*s) && *s != '_')
      return FALSE;
  return TRUE;
}

static gboolean
parse_int_string (const char *s,
                  gint64 *out)
{
  gboolean negative = s[0] == '-';
  const char *digits = negative ? s + 1 : s;
  guint base = (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) ? 16 : 10;
  char *end = NULL;
  guint64 v;

  if (!g_ascii_isxdigit (digits[base == 16 ? 2 : 0]))
    return FALSE;
  v = g_ascii_strtoull (digits, &end, base);
  if (end == digits || (*end != '\0' && !is_symbol_suffix (end)))
    return FALSE;
  *out = negative ? -(gint64) v : (gint64) v;
  return TRUE;
}

/**
 * perfetto_karg_to_int:
 * @w: a #PerfettoWriter
 * @batch: the batch of @arg
 * @arg: an arg of a kernel event
 * @out: (out): its value as an integer
 *
 * Kernel fields are integers; ftrace text may give them as hex strings.
 *
 * Returns: whether @arg holds an integer
 */
gboolean
perfetto_karg_to_int (PerfettoWriter *w,
                      TraceBatch *batch,
                      const TraceArg *arg,
                      gint64 *out)
{
  switch ((TraceArgType) arg->type)
    {
    case TRACE_ARG_INT:
      *out = arg->v.i;
      return TRUE;
    case TRACE_ARG_UINT:
    case TRACE_ARG_POINTER:
      *out = (gint64) arg->v.u;
      return TRUE;
    case TRACE_ARG_BOOL:
      *out = arg->v.b != 0;
      return TRUE;
    case TRACE_ARG_DOUBLE:
      if (!isfinite (arg->v.d) || arg->v.d != trunc (arg->v.d) || fabs (arg->v.d) > 9e18)
        return FALSE;
      *out = (gint64) arg->v.d;
      return TRUE;
    case TRACE_ARG_STRING:
    case TRACE_ARG_TEXT:
      return parse_int_string (trace_batch_get_arg_string (batch, arg), out);
    default:
      return parse_int_string (perfetto_str (w, arg->v.s), out);
    }
}

/**
 * perfetto_karg_to_symbol:
 * @w: a #PerfettoWriter
 * @batch: the batch of @arg
 * @arg: an arg of a kernel event naming a kernel symbol
 *
 * A kernel symbol travels as a string id: numbers become hex text.
 *
 * Returns: the string id of the symbol
 */
guint32
perfetto_karg_to_symbol (PerfettoWriter *w,
                         TraceBatch *batch,
                         const TraceArg *arg)
{
  char buf[32];

  if (arg->type == TRACE_ARG_STRING || arg->type == TRACE_ARG_TEXT)
    return trace_batch_intern_arg (batch, arg);
  g_snprintf (buf, sizeof buf, "0x%" G_GINT64_MODIFIER "x", arg->v.u);
  return trace_string_pool_intern (w->pool, buf);
}
