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

/* [A-Za-z0-9_.]: the characters of a field name */
static const guint8 key_chars[256] = {
  ['.'] = 1,
  ['_'] = 1,
  ['0'] = 1,
  ['1'] = 1,
  ['2'] = 1,
  ['3'] = 1,
  ['4'] = 1,
  ['5'] = 1,
  ['6'] = 1,
  ['7'] = 1,
  ['8'] = 1,
  ['9'] = 1,
  ['A'] = 1,
  ['B'] = 1,
  ['C'] = 1,
  ['D'] = 1,
  ['E'] = 1,
  ['F'] = 1,
  ['G'] = 1,
  ['H'] = 1,
  ['I'] = 1,
  ['J'] = 1,
  ['K'] = 1,
  ['L'] = 1,
  ['M'] = 1,
  ['N'] = 1,
  ['O'] = 1,
  ['P'] = 1,
  ['Q'] = 1,
  ['R'] = 1,
  ['S'] = 1,
  ['T'] = 1,
  ['U'] = 1,
  ['V'] = 1,
  ['W'] = 1,
  ['X'] = 1,
  ['Y'] = 1,
  ['Z'] = 1,
  ['a'] = 1,
  ['b'] = 1,
  ['c'] = 1,
  ['d'] = 1,
  ['e'] = 1,
  ['f'] = 1,
  ['g'] = 1,
  ['h'] = 1,
  ['i'] = 1,
  ['j'] = 1,
  ['k'] = 1,
  ['l'] = 1,
  ['m'] = 1,
  ['n'] = 1,
  ['o'] = 1,
  ['p'] = 1,
  ['q'] = 1,
  ['r'] = 1,
  ['s'] = 1,
  ['t'] = 1,
  ['u'] = 1,
  ['v'] = 1,
  ['w'] = 1,
  ['x'] = 1,
  ['y'] = 1,
  ['z'] = 1,
};

/* If a key (`[A-Za-z0-9_.]+=`) starts at @s, its length, else 0. */
static inline gsize
key_length_at (const char *s,
               const char *end)
{
  const char *p = s;

  while (p < end && key_chars[(guchar) *p])
    p++;
  if (p == s || p == end || *p != '=')
    return 0;
  return p - s;
}

/* Where the value starting at @s ends: before the next ` key=` or ` ==>`,
 * so values keep their spaces (`comm=Jit thread pool`) and their `=`
 * (`my_field=foo=bar`). *@next is where the next key (or `==>`) starts,
 * *@next_klen that key's length (left as it was for `==>` and at the
 * end). @expect, or NULL: the text ftrace_split_usual() expects there
 * before a '=' (a key, or `==> ` and a key), tried first at each space:
 * a compare of known length where the general test scans the key's
 * characters. With @expect, NULL when the value ends anywhere else (at
 * another key or the end); *@next_klen is not set when it matches. */
static G_ALWAYS_INLINE inline const char *
ftrace_value_end (const char *s,
                  const char *end,
                  const char *expect,
                  gsize expect_len,
                  const char **next,
                  gsize *next_klen)
{
  const char *p = s;

  for (;;)
    {
      const char *q;

      /* values are short: a plain loop beats memchr's set-up */
      while (p < end && *p != ' ')
        p++;
      if (p == end)
        break;
      q = p + 1;

      while (q < end && *q == ' ')
        q++;
      if (q == end)
        break;
      if (expect != NULL && (gsize) (end - q) > expect_len && memcmp (q, expect, expect_len) == 0 &&
          q[expect_len] == '=')
        {
          *next = q;
          return p;
        }
      if (key_chars[(guchar) *q] ? (*next_klen = key_length_at (q, end)) > 0
                                 : (end - q >= 3 && memcmp (q, "==>", 3) == 0))
        {
          *next = q;
          return expect != NULL ? NULL : p;
        }
      p = q;
    }
  *next = end;
  return expect != NULL ? NULL : end;
}

/* Past sched_switch's `==>` and the spaces after it, if @p is at one. */
static inline const char *
ftrace_skip_arrow (const char *p,
                   const char *end)
{
  if (end - p < 3 || memcmp (p, "==>", 3) != 0)
    return p;
  for (p += 3; p < end && *p == ' '; p++)
    ;
  return p;
}

/* Splits @s into @fields as ftrace_split_fields() does, when they are
 * @keys in that order and nothing else; FALSE for any other payload
 * (ftrace_split_fields() reads it then). */
static G_ALWAYS_INLINE inline gboolean
ftrace_split_usual (const char *s,
                    gsize len,
                    const FtraceKey *keys,
                    guint n_keys,
                    FtraceField *fields)
{
  const char *end = s + len, *p = s;

  /* the first key at the start; each next one is where its value ends */
  if (len <= keys[0].len || memcmp (s, keys[0].text, keys[0].len) != 0 || s[keys[0].len] != '=')
    return FALSE;
#pragma GCC unroll 8
  for (guint i = 0; i < n_keys; i++)
    {
      const FtraceKey *k = &keys[i], *following = i + 1 < n_keys ? &keys[i + 1] : NULL;
      gsize skip = k->text[0] == '=' ? FTRACE_ARROW_LEN : 0;
      const char *v = p + k->len + 1, *ve, *next;
      gsize next_klen = 0;

      ve = ftrace_value_end (v, end, following ? following->text : NULL, following ? following->len : 0, &next,
                             &next_klen);
      if (ve == NULL)
        return FALSE;
      fields[i].key = p + skip;
      fields[i].key_len = k->len - skip;
      fields[i].value = v;
      fields[i].value_len = ve - v;
      p = next;
    }
  return p == end;
}

/* sched_switch in the kernel's format (`prev_comm=%s prev_pid=%d
 * prev_prio=%d prev_state=%s ==> next_comm=%s next_pid=%d
 * next_prio=%d`), ftrace-kernel.c's. */
extern const FtraceKey ftrace_sched_switch_keys[7];
