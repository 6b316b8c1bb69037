/* tracepipe - words a numeric property accepts besides numbers
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
  GArray *keywords = g_param_spec_get_qdata (pspec, quark);
  Keyword kw = { g_strdup (word), value };

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
  GArray *keywords = g_param_spec_get_qdata (pspec, g_quark_from_static_string (KEYWORDS_QDATA));

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
  GArray *keywords = g_param_spec_get_qdata (pspec, g_quark_from_static_string (KEYWORDS_QDATA));
  GString *s;

  if (keywords == NULL || keywords->len == 0)
    return NULL;
  s = g_string_new (NULL);
  for (guint i = 0; i < keywords->len; i++)
    g_string_append_printf (s, "%s\"%s\"", i ? " or " : "", g_array_index (keywords, Keyword, i).word);
  return g_string_free (s, FALSE);
}
