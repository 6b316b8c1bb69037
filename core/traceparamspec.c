/* tracepipe - what a property takes besides what its type says: keywords,
 * choices, times
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include "trace/trace.h"

/* `filter tid=main`: a thread id property that also takes a word. The
 * words live on the pspec, so the launch parser, trace-inspect and the
 * property's own documentation all see the same list. */
#define KEYWORDS_QDATA "trace-param-keywords"

typedef struct
{
  char *word;
  gint64 value;
} Keyword;

static void
keywords_free (gpointer data)
{
  GArray *keywords = data;

  for (guint i = 0; i < keywords->len; i++)
    g_free (g_array_index (keywords, Keyword, i).word);
  g_array_unref (keywords);
}

/**
 * trace_param_spec_add_keyword:
 * @pspec: an integer #GParamSpec
 * @word: a word users may type instead of a number (`main`)
 * @value: the number it stands for, usually outside the normal range
 *
 * Lets a numeric property take a word in launch descriptions; the
 * property's description in `trace-inspect` lists the words.
 */
void
trace_param_spec_add_keyword (GParamSpec *pspec,
                              const char *word,
                              gint64 value)
{
  GQuark quark = g_quark_from_static_string (KEYWORDS_QDATA);
  GArray *keywords;
  Keyword kw;

  g_return_if_fail (G_IS_PARAM_SPEC (pspec));
  g_return_if_fail (word != NULL);

  keywords = g_param_spec_get_qdata (pspec, quark);
  kw.word = g_strdup (word);
  kw.value = value;
  if (keywords == NULL)
    {
      keywords = g_array_new (FALSE, FALSE, sizeof (Keyword));
      g_param_spec_set_qdata_full (pspec, quark, keywords, keywords_free);
    }
  g_array_append_val (keywords, kw);
}

/**
 * trace_param_spec_lookup_keyword:
 * @pspec: a #GParamSpec
 * @word: the text given
 * @value: (out): the number it stands for
 *
 * Returns: whether @word is one of the property's keywords
 */
gboolean
trace_param_spec_lookup_keyword (GParamSpec *pspec,
                                 const char *word,
                                 gint64 *value)
{
  GArray *keywords;

  g_return_val_if_fail (G_IS_PARAM_SPEC (pspec), FALSE);
  g_return_val_if_fail (word != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  keywords = g_param_spec_get_qdata (pspec, g_quark_from_static_string (KEYWORDS_QDATA));
  for (guint i = 0; keywords && i < keywords->len; i++)
    if (g_str_equal (g_array_index (keywords, Keyword, i).word, word))
      {
        *value = g_array_index (keywords, Keyword, i).value;
        return TRUE;
      }
  return FALSE;
}

/**
 * trace_param_spec_get_keywords:
 * @pspec: a #GParamSpec
 *
 * Returns: (transfer full) (nullable): the keywords, quoted and joined
 *   with " or " (`"main"`), %NULL if it has none
 */
char *
trace_param_spec_get_keywords (GParamSpec *pspec)
{
  GArray *keywords;
  GString *s;

  g_return_val_if_fail (G_IS_PARAM_SPEC (pspec), NULL);

  keywords = g_param_spec_get_qdata (pspec, g_quark_from_static_string (KEYWORDS_QDATA));
  if (keywords == NULL || keywords->len == 0)
    return NULL;
  s = g_string_new (NULL);
  for (guint i = 0; i < keywords->len; i++)
    g_string_append_printf (s, "%s\"%s\"", i ? " or " : "", g_array_index (keywords, Keyword, i).word);
  return g_string_free (s, FALSE);
}

/* `ftrace-src format=systrace`: a string property that takes one of a
 * fixed set of words. It stays a string (a GEnum would change its type
 * for g_object_set() and bindings, and the set may come from a reader's
 * table at run time); the words live on the pspec so that launch
 * descriptions are checked against them and trace-inspect lists them as
 * it lists an enum's nicks. */
#define CHOICES_QDATA "trace-param-choices"

/**
 * trace_param_spec_add_choice:
 * @pspec: a string #GParamSpec
 * @choice: one of the values the property takes
 *
 * Declares @choice as one of the values a string property takes. Once a
 * property has choices, trace_value_from_string() (launch descriptions)
 * accepts only those, and `trace-inspect` and
 * trace_describe_param_type() list them as they list an enum's values.
 * Call it in class_init, once per value, after creating the pspec.
 */
void
trace_param_spec_add_choice (GParamSpec *pspec,
                             const char *choice)
{
  GQuark quark = g_quark_from_static_string (CHOICES_QDATA);
  GPtrArray *choices;

  g_return_if_fail (G_IS_PARAM_SPEC_STRING (pspec));
  g_return_if_fail (choice != NULL);

  choices = g_param_spec_get_qdata (pspec, quark);
  if (choices == NULL)
    {
      choices = g_ptr_array_new_null_terminated (4, g_free, TRUE);
      g_param_spec_set_qdata_full (pspec, quark, choices, (GDestroyNotify) g_ptr_array_unref);
    }
  g_ptr_array_add (choices, g_strdup (choice));
}

/**
 * trace_param_spec_get_choices:
 * @pspec: a #GParamSpec
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the
 *   values declared with trace_param_spec_add_choice(), in order, or
 *   %NULL when the property takes any string
 */
const char *const *
trace_param_spec_get_choices (GParamSpec *pspec)
{
  GPtrArray *choices;

  g_return_val_if_fail (G_IS_PARAM_SPEC (pspec), NULL);

  choices = g_param_spec_get_qdata (pspec, g_quark_from_static_string (CHOICES_QDATA));
  return choices ? (const char *const *) choices->pdata : NULL;
}

/* `clock-sync guess-window=50ms`: a 64-bit integer property in
 * nanoseconds that also takes a time with a unit. Marked on the pspec, so
 * the launch parser, trace-inspect and trace_describe_param_type() agree
 * on which properties are times. */
#define TIME_QDATA "trace-param-time"

/**
 * trace_param_spec_set_time:
 * @pspec: a #GParamSpecInt64 or #GParamSpecUInt64 in nanoseconds
 *
 * Marks @pspec as a time: trace_value_from_string() (launch descriptions)
 * then also takes a number with a unit (`5ms`, `1.5s`, as
 * trace_parse_time() reads it) and `trace-inspect` says so. A plain
 * number stays in nanoseconds. Call it in class_init, after creating the
 * pspec.
 */
void
trace_param_spec_set_time (GParamSpec *pspec)
{
  g_return_if_fail (G_IS_PARAM_SPEC_INT64 (pspec) || G_IS_PARAM_SPEC_UINT64 (pspec));

  g_param_spec_set_qdata (pspec, g_quark_from_static_string (TIME_QDATA), GINT_TO_POINTER (TRUE));
}

/**
 * trace_param_spec_is_time:
 * @pspec: a #GParamSpec
 *
 * Returns: whether trace_param_spec_set_time() marked @pspec as a time
 */
gboolean
trace_param_spec_is_time (GParamSpec *pspec)
{
  g_return_val_if_fail (G_IS_PARAM_SPEC (pspec), FALSE);

  if (!G_IS_PARAM_SPEC_INT64 (pspec) && !G_IS_PARAM_SPEC_UINT64 (pspec))
    return FALSE;
  return g_param_spec_get_qdata (pspec, g_quark_from_static_string (TIME_QDATA)) != NULL;
}
