/* tracepipe - kernel record engine: events whose text is their fields
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Most events print each field once, as `key=%d` or `key=%s` with
 * REC->field or __get_str(field), separated by single spaces (irq's
 * `irq=%d name=%s`, sched_process_fork's `comm=%s pid=%d ...`). For those
 * the text ftrace-src reads gives, key by key, the field's own value: the
 * engine adds them as args under the format's keys straight from the
 * record, without libtraceevent printing the text (which costs about ten
 * times as much per record). Any other format (symbols, flags, ternaries,
 * hex, `%%`, text between fields) is printed and read as text.
 */
#include <string.h>

#include "kernel-engine-private.h"

/* The field an argument names: REC->field or __get_str(field). */
static struct tep_format_field *
arg_field (struct tep_event *event,
           const struct tep_print_arg *arg,
           gboolean *is_string)
{
  if (arg == NULL)
    return NULL;
  if (arg->type == TEP_PRINT_FIELD && arg->field.name)
    {
      *is_string = FALSE;
      return tep_find_field (event, arg->field.name);
    }
  if (arg->type == TEP_PRINT_STRING && arg->string.string)
    {
      *is_string = TRUE;
      return tep_find_field (event, arg->string.string);
    }
  return NULL;
}

/* One `%...` conversion at @s: its length, and whether it prints a
 * string (s) or a decimal integer (d, i, u); 0 for any other. */
static gsize
conversion (const char *s,
            gboolean *is_string)
{
  gsize n = 1;

  while (g_ascii_isdigit (s[n]))
    n++;
  while (s[n] == 'l' || s[n] == 'h' || s[n] == 'z')
    n++;
  if (s[n] == 's')
    *is_string = TRUE;
  else if (s[n] == 'd' || s[n] == 'i' || s[n] == 'u')
    *is_string = FALSE;
  else
    return 0;
  return n + 1;
}

/* The key before a conversion: `key=` after the format's start or a
 * single space; FALSE for any other text. */
static gboolean
take_key (const char *start,
          const char *at,
          KernelPrinted *p)
{
  const char *k = at;

  if (at == start || at[-1] != '=')
    return FALSE;
  k = at - 1;
  while (k > start && (g_ascii_isalnum (k[-1]) || k[-1] == '_'))
    k--;
  if (k == at - 1 || (k != start && (k[-1] != ' ' || (k - 1 != start && k[-2] == ' '))))
    return FALSE;
  p->key = g_strndup (k, at - 1 - k);
  return TRUE;
}

/**
 * kernel_printed_new:
 * @event: an event's format
 * @n: (out): how many fields it prints
 *
 * Returns: (transfer full) (nullable): its printed fields in order, or
 *   %NULL when its text is more than `key=value` pairs of fields
 */
KernelPrinted *
kernel_printed_new (struct tep_event *event,
                    guint *n)
{
  const char *fmt = event->print_fmt.format, *s, *piece;
  const struct tep_print_arg *arg = event->print_fmt.args;
  g_autoptr (GArray) out = g_array_new (FALSE, TRUE, sizeof (KernelPrinted));

  g_array_set_clear_func (out, (GDestroyNotify) kernel_printed_clear);
  if (fmt == NULL || (event->flags & TEP_EVENT_FL_FAILED))
    return NULL;
  for (s = piece = fmt; *s; s++)
    {
      KernelPrinted p = { 0 };
      gboolean conv_string = FALSE, field_string = FALSE;
      gsize len;

      if (*s != '%')
        continue;
      len = conversion (s, &conv_string);
      p.field = arg_field (event, arg, &field_string);
      if (len == 0 || p.field == NULL || conv_string != field_string ||
          (field_string && !(p.field->flags & TEP_FIELD_IS_ARRAY)) || !take_key (piece, s, &p))
        return NULL;
      p.is_string = conv_string;
      g_array_append_val (out, p);
      arg = arg->next;
      s += len - 1;
      piece = s + 1;
    }
  if (*piece != '\0' || arg != NULL || out->len == 0)
    return NULL;
  *n = out->len;
  return (KernelPrinted *) g_array_free (g_steal_pointer (&out), FALSE);
}

void
kernel_printed_clear (KernelPrinted *p)
{
  g_free (p->key);
}

/**
 * kernel_printed_add:
 * @stats: where fields not read are counted
 * @parser: the parser
 * @batch: the batch of @ev
 * @ev: a generic event
 * @d: its record
 * @printed: (array length=n): its printed fields
 * @n: how many
 *
 * The args the event's text would give, from the fields.
 */
void
kernel_printed_add (KernelEngineStats *stats,
                    FtraceParser *parser,
                    TraceBatch *batch,
                    TraceEvent *ev,
                    const KernelData *d,
                    const KernelPrinted *printed,
                    guint n)
{
  for (guint i = 0; i < n; i++)
    {
      const KernelPrinted *p = &printed[i];
      FtraceName s;
      gboolean cut = FALSE;
      gint64 v;

      if (p->is_string && kernel_field_string (d, p->field, &s, &cut))
        {
          ftrace_parser_add_field (parser, batch, ev, p->key, strlen (p->key), s.str, s.len);
          stats->cut_strings += cut;
        }
      else if (!p->is_string && kernel_field_int (d, p->field, &v))
        trace_batch_add_arg (batch, ev, ftrace_parser_intern (parser, p->key, strlen (p->key)), TRACE_ARG_INT)->v.i =
            v;
      else
        stats->unread_fields++;
    }
}
