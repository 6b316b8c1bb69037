/* tracepipe - ftrace parser: the usual fields of a kernel event, inline
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * sched_switch and sched_wakeup are a third of an Android trace's lines
 * and cost 2 400 and 1 200 instructions each through
 * ftrace_split_fields() and a lookup of every key. Their payloads almost
 * always hold the kernel's fields in the kernel's order, so the caller
 * names them (a static array of literals) and ftrace_split_usual() checks
 * each key where the previous value ends; inlined into the caller, the
 * keys are constants and their compares a load or two. It gives exactly
 * what ftrace_split_fields() gives, or FALSE: each value ends at the
 * first space followed by any key, as there (a comm keeps its spaces).
 */
#pragma once

#include <string.h>

#include "ftrace-text-private.h"

/* A key the payload usually has; one written after sched_switch's
 * `==> ` has it in front ("==> next_comm"). */
typedef struct
{
  const char *text;
  gsize len;
} FtraceKey;

#define FTRACE_KEY(literal)       \
  {                               \
    literal, sizeof (literal) - 1 \
  }
#define FTRACE_ARROW_LEN 4 /* "==> " */

/* Where the value at @v ends, when @next (a key's text, then '=')
 * follows its first space that ftrace_split_fields() would end it at, or
 * the payload's end when @next is NULL; *@after: where @next starts.
 * NULL when the value ends anywhere else. */
static G_ALWAYS_INLINE inline const char *
usual_value_end (const char *v,
                 const char *end,
                 const char *next,
                 gsize next_len,
                 const char **after)
{
  const char *p = v;

  for (;;)
    {
      const char *q;

      while (p < end && *p != ' ')
        p++;
      if (p == end)
        break;
      q = p + 1;
      while (q < end && *q == ' ')
        q++;
      if (q == end)
        break;
      if (next != NULL && (gsize) (end - q) > next_len && memcmp (q, next, next_len) == 0 && q[next_len] == '=')
        {
          *after = q;
          return p;
        }
      if (ftrace_field_starts_at (q, end))
        return NULL;
      p = q;
    }
  if (next != NULL)
    return NULL;
  *after = end;
  return end;
}

/* Splits @s into @fields as ftrace_split_fields() does, when they are
 * @keys in that order and nothing else; FALSE for any other payload. */
static G_ALWAYS_INLINE inline gboolean
ftrace_split_usual (const char *s,
                    gsize len,
                    const FtraceKey *keys,
                    guint n_keys,
                    FtraceField *fields)
{
  const char *end = s + len, *p = s;

  if (len <= keys[0].len || memcmp (s, keys[0].text, keys[0].len) != 0 || s[keys[0].len] != '=')
    return FALSE;
#pragma GCC unroll 8
  for (guint i = 0; i < n_keys; i++)
    {
      gsize key_len = keys[i].text[0] == '=' ? keys[i].len - FTRACE_ARROW_LEN : keys[i].len;
      const FtraceKey *next = i + 1 < n_keys ? &keys[i + 1] : NULL;
      const char *v = p + key_len + 1, *after = NULL, *ve;

      ve = usual_value_end (v, end, next ? next->text : NULL, next ? next->len : 0, &after);
      if (ve == NULL)
        return FALSE;
      fields[i].key = p;
      fields[i].key_len = key_len;
      fields[i].value = v;
      fields[i].value_len = ve - v;
      p = next != NULL && next->text[0] == '=' ? after + FTRACE_ARROW_LEN : after;
    }
  return TRUE;
}
