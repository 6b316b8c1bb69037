/* tracepipe - kernel record engine: a record's fields, read within it
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * libtraceevent describes each field (offset, size, flags) and reads
 * numbers in the file's byte order; it trusts the offsets. Records come
 * from files that may be damaged, so every field is read only when it
 * lies within the record's bytes (a field past them is absent), and a
 * string only up to the record's end.
 */
#include <string.h>

#include "kernel-engine-private.h"

static gboolean
within (const KernelData *d,
        gsize offset,
        gsize size)
{
  return offset <= d->size && size <= d->size - offset;
}

/* An integer field of 1, 2, 4 or 8 bytes, sign-extended when the format
 * says it is signed. */
gboolean
kernel_field_int (const KernelData *d,
                  const struct tep_format_field *f,
                  gint64 *out)
{
  guint64 v;

  if (f == NULL || (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) || f->offset < 0 ||
      !within (d, f->offset, f->size))
    return FALSE;
  if (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8)
    return FALSE;
  v = tep_read_number (d->tep, d->data + f->offset, f->size);
  if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8 && (v >> (f->size * 8 - 1)) & 1)
    v |= ~(guint64) 0 << (f->size * 8);
  *out = (gint64) v;
  return TRUE;
}

gint64
kernel_field_int_or (const KernelData *d,
                     const struct tep_format_field *f,
                     gint64 fallback)
{
  gint64 v;

  return kernel_field_int (d, f, &v) ? v : fallback;
}

/* Where a __data_loc / __rel_loc field's bytes are: its 32-bit value is
 * the offset (low 16 bits) and length (high 16); a relative one counts
 * from the field's end. */
static gboolean
dynamic_span (const KernelData *d,
              const struct tep_format_field *f,
              gsize *offset,
              gsize *len)
{
  guint64 loc;

  if (f->offset < 0 || f->size != 4 || !within (d, f->offset, 4))
    return FALSE;
  loc = tep_read_number (d->tep, d->data + f->offset, 4);
  *offset = loc & 0xffff;
  *len = (loc >> 16) & 0xffff;
  if (f->flags & TEP_FIELD_IS_RELATIVE)
    *offset += f->offset + f->size;
  return *offset <= d->size;
}

/**
 * kernel_field_string:
 * @d: the record
 * @f: (nullable): a char array, fixed (`char comm[16]`), open (`char
 *   buf[]`, to the record's end) or dynamic (`__data_loc char[]`)
 * @out: (out): the string's bytes up to its NUL, in the record
 * @cut: (out) (optional): set when no NUL ends it within the record
 *
 * Returns: whether @f is a string within the record
 */
gboolean
kernel_field_string (const KernelData *d,
                     const struct tep_format_field *f,
                     FtraceName *out,
                     gboolean *cut)
{
  gsize offset, len;
  const guint8 *nul;

  if (f == NULL || !(f->flags & TEP_FIELD_IS_ARRAY) || f->elementsize > 1)
    return FALSE;
  if (f->flags & TEP_FIELD_IS_DYNAMIC)
    {
      if (!dynamic_span (d, f, &offset, &len))
        return FALSE;
    }
  else
    {
      if (f->offset < 0 || (gsize) f->offset > d->size)
        return FALSE;
      offset = f->offset;
      len = f->size > 0 ? (gsize) f->size : d->size - offset;
    }
  if (cut)
    *cut = len > d->size - offset;
  len = MIN (len, d->size - offset);
  nul = memchr (d->data + offset, '\0', len);
  if (cut && nul == NULL && f->size == 0)
    *cut = TRUE;
  *out = (FtraceName){ (const char *) d->data + offset, nul ? (gsize) (nul - (d->data + offset)) : len, 0 };
  return TRUE;
}

static gboolean
is_string (const struct tep_format_field *f)
{
  return (f->flags & TEP_FIELD_IS_ARRAY) && f->elementsize <= 1 &&
         ((f->flags & TEP_FIELD_IS_STRING) || strstr (f->type, "char") != NULL);
}

/* One number as an arg: a pointer, or an unsigned value past G_MAXINT64,
 * as UINT (the text prints pointers in hex, which it reads as UINT). */
static void
add_number (FtraceParser *parser,
            TraceBatch *batch,
            TraceEvent *ev,
            const struct tep_format_field *f,
            gint64 v)
{
  guint32 key = ftrace_parser_intern (parser, f->name, strlen (f->name));
  gboolean is_unsigned = (f->flags & (TEP_FIELD_IS_POINTER | TEP_FIELD_IS_SIGNED)) != TEP_FIELD_IS_SIGNED;

  if ((f->flags & TEP_FIELD_IS_POINTER) || (is_unsigned && v < 0))
    trace_batch_add_arg (batch, ev, key, TRACE_ARG_UINT)->v.u = (guint64) v;
  else
    trace_batch_add_arg (batch, ev, key, TRACE_ARG_INT)->v.i = v;
}

/**
 * kernel_add_fields:
 * @stats: where fields not kept are counted
 * @parser: the parser (interns keys, reads strings as the text path)
 * @batch: the batch of @ev
 * @ev: a generic event
 * @d: its record
 * @event: its format
 *
 * Every field of the format (the common_* fields excepted, as the text
 * prints none of them) as an arg of @ev, in the format's order: numbers
 * typed, strings read as the text path reads a printed value.
 */
void
kernel_add_fields (KernelEngineStats *stats,
                   FtraceParser *parser,
                   TraceBatch *batch,
                   TraceEvent *ev,
                   const KernelData *d,
                   struct tep_event *event)
{
  for (struct tep_format_field *f = event->format.fields; f; f = f->next)
    {
      FtraceName s;
      gboolean cut = FALSE;
      gint64 v;

      if (is_string (f) && kernel_field_string (d, f, &s, &cut))
        {
          ftrace_parser_add_field (parser, batch, ev, f->name, strlen (f->name), s.str, s.len);
          stats->cut_strings += cut;
        }
      else if (kernel_field_int (d, f, &v))
        add_number (parser, batch, ev, f, v);
      else
        stats->unread_fields++;
    }
}

/**
 * kernel_record_is_sound:
 * @d: a record
 * @event: its format
 *
 * libtraceevent prints a record's fields without checking that they lie
 * within it; a damaged record is read field by field instead.
 *
 * Returns: whether every field of @event, and every dynamic field's
 *   bytes, lie within @d
 */
gboolean
kernel_record_is_sound (const KernelData *d,
                        struct tep_event *event)
{
  for (struct tep_format_field *f = event->format.fields; f; f = f->next)
    {
      gsize offset, len;

      if (f->offset < 0 || (f->size > 0 && !within (d, f->offset, f->size)))
        return FALSE;
      if ((f->flags & TEP_FIELD_IS_DYNAMIC) && (!dynamic_span (d, f, &offset, &len) || !within (d, offset, len)))
        return FALSE;
    }
  return TRUE;
}
