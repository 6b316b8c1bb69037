/* tracepipe - property values from text, for launch descriptions and tools
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"
#include "trace-private.h"

typedef struct
{
  const char *suffix;
  gint64 nanoseconds;
} TimeUnit;

/* Longest suffixes first where one is a suffix of another ("ms" vs "s"). */
static const TimeUnit time_units[] = {
  { "ns", 1 },
  { "us", 1000 },
  { "\xc2\xb5s", 1000 }, /* µs */
  { "ms", 1000000 },
  { "min", G_GINT64_CONSTANT (60000000000) },
  { "s", 1000000000 },
  { "h", G_GINT64_CONSTANT (3600000000000) },
};

static gboolean
time_unit_lookup (const char *suffix,
                  TraceParseTimeFlags flags,
                  gint64 *multiplier)
{
  if (*suffix == '\0')
    {
      *multiplier = 1;
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (time_units); i++)
    if (strcmp (suffix, time_units[i].suffix) == 0)
      {
        *multiplier = time_units[i].nanoseconds;
        /* strict: no unit longer than a second */
        return !(flags & TRACE_PARSE_TIME_STRICT) || *multiplier <= 1000000000;
      }
  return FALSE;
}

static void
set_time_error (GError **error,
                const char *text)
{
  g_autofree char *quoted = _trace_quote_value (text);

  g_set_error (error, TRACE_PARSE_ERROR, TRACE_PARSE_ERROR_BAD_VALUE,
               "%s is not a time (a number with a unit: ns, us, ms, s, min "
               "or h, such as 5ms or 1.5s; a number alone is in nanoseconds)",
               quoted);
}

/* Integer arithmetic on the digits, so that "0.1s" is exactly 100000000 ns
 * (a double would give 99999999 for some inputs). Digits below a
 * nanosecond are dropped, or with @exact must be zeros.
 */
static gboolean
time_scale (const char *int_digits,
            gsize n_int,
            const char *frac_digits,
            gsize n_frac,
            gint64 multiplier,
            gboolean exact,
            guint64 *out)
{
  guint64 whole = 0, frac = 0, step = (guint64) multiplier;

  for (gsize i = 0; i < n_int; i++)
    {
      guint d = int_digits[i] - '0';

      if (whole > (G_MAXUINT64 - d) / 10)
        return FALSE;
      whole = whole * 10 + d;
    }
  if (whole != 0 && whole > G_MAXINT64 / step)
    return FALSE;
  whole *= step;
  for (gsize i = 0; i < n_frac; i++)
    {
      guint d = frac_digits[i] - '0';

      if (exact && step % 10 != 0)
        {
          if (d != 0)
            return FALSE; /* finer than a nanosecond */
          continue;
        }
      if (step == 0)
        break;
      step /= 10;
      frac += (guint64) d * step;
    }
  if (whole > (guint64) G_MAXINT64 - frac)
    return FALSE;
  *out = whole + frac;
  return TRUE;
}

/**
 * trace_parse_time:
 * @text: a time such as `5ms`, `1.5s`, `-20us` or `1000` (nanoseconds)
 * @nanoseconds: (out): the time in nanoseconds
 * @error: where to say why @text is not a time
 *
 * Parses a duration or offset. Units: `ns`, `us` (or `µs`), `ms`, `s`,
 * `min`, `h`; a number without a unit is in nanoseconds. Digits below a
 * nanosecond are dropped. The same as trace_parse_time_full() with
 * %TRACE_PARSE_TIME_DEFAULT.
 *
 * Returns: %TRUE on success
 */
gboolean
trace_parse_time (const char *text,
                  gint64 *nanoseconds,
                  GError **error)
{
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (nanoseconds != NULL, FALSE);

  return trace_parse_time_full (text, TRACE_PARSE_TIME_DEFAULT, nanoseconds, error);
}

/**
 * trace_parse_time_full:
 * @text: a time such as `5ms`, `1.5s`, `-20us` or `1000` (nanoseconds)
 * @flags: the rules, #TraceParseTimeFlags
 * @nanoseconds: (out): the time in nanoseconds, left alone on failure
 * @error: where to say why @text is not a time
 *
 * Parses a duration or offset: an optional sign, digits with an optional
 * decimal point (exact integer arithmetic, no floating point), then a
 * unit. The one time parser of tracepipe: launch descriptions
 * (trace_value_from_string()) use the default rules, `filter`'s `start`
 * and `end` the strict ones.
 *
 * Returns: %TRUE on success
 */
gboolean
trace_parse_time_full (const char *text,
                       TraceParseTimeFlags flags,
                       gint64 *nanoseconds,
                       GError **error)
{
  const char *p = text, *int_start, *frac_start = NULL;
  gsize n_int, n_frac = 0;
  gboolean negative = FALSE;
  gint64 multiplier;
  guint64 magnitude;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (nanoseconds != NULL, FALSE);

  if (*p == '-' || *p == '+')
    negative = (*p++ == '-');
  int_start = p;
  while (g_ascii_isdigit (*p))
    p++;
  n_int = p - int_start;
  if (*p == '.')
    {
      frac_start = ++p;
      while (g_ascii_isdigit (*p))
        p++;
      n_frac = p - frac_start;
    }
  if (n_int + n_frac == 0 || !time_unit_lookup (p, flags, &multiplier) ||
      /* strict: a number without a unit is whole nanoseconds */
      ((flags & TRACE_PARSE_TIME_STRICT) && *p == '\0' && n_frac > 0) ||
      !time_scale (int_start, n_int, frac_start, n_frac, multiplier, (flags & TRACE_PARSE_TIME_STRICT) != 0,
                   &magnitude))
    {
      set_time_error (error, text);
      return FALSE;
    }
  *nanoseconds = negative ? -(gint64) magnitude : (gint64) magnitude;
  return TRUE;
}

static char *
describe_int_range (gint64 min,
                    gint64 max,
                    gint64 type_min,
                    gint64 type_max,
                    const char *what)
{
  if (min == type_min && max == type_max)
    return g_strdup_printf ("%s", what);
  if (max == type_max)
    return g_strdup_printf ("%s of at least %" G_GINT64_FORMAT, what, min);
  return g_strdup_printf ("%s from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT, what, min, max);
}

static char *
describe_uint_range (guint64 min,
                     guint64 max,
                     guint64 type_max,
                     const char *what,
                     const char *what_unbounded)
{
  if (min == 0 && max == type_max)
    return g_strdup (what_unbounded);
  if (max == type_max)
    return g_strdup_printf ("%s of at least %" G_GUINT64_FORMAT, what, min);
  return g_strdup_printf ("%s from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT, what, min, max);
}

static char *
describe_time (GParamSpec *pspec)
{
  const char *base = "a time such as 5ms, 1.5s or 200us; a number alone is in nanoseconds";

  if (G_IS_PARAM_SPEC_INT64 (pspec))
    {
      GParamSpecInt64 *p = G_PARAM_SPEC_INT64 (pspec);

      if (p->minimum == G_MININT64 && p->maximum == G_MAXINT64)
        return g_strdup (base);
      if (p->minimum == 0 && p->maximum == G_MAXINT64)
        return g_strdup_printf ("%s, not negative", base);
      return g_strdup_printf ("%s, from %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT " ns",
                              base, p->minimum, p->maximum);
    }
  else
    {
      GParamSpecUInt64 *p = G_PARAM_SPEC_UINT64 (pspec);

      if (p->minimum == 0 && p->maximum == G_MAXUINT64)
        return g_strdup_printf ("%s, not negative", base);
      return g_strdup_printf ("%s, from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT " ns",
                              base, p->minimum, p->maximum);
    }
}

static char *
describe_choices (GParamSpec *pspec)
{
  g_autoptr (GString) s = g_string_new (NULL);
  const char *const *choices = trace_param_spec_get_choices (pspec);

  if (choices != NULL)
    {
      g_string_append (s, "one of ");
      for (guint i = 0; choices[i]; i++)
        g_string_append_printf (s, "%s\"%s\"", i == 0 ? "" : ", ", choices[i]);
    }
  else if (G_IS_PARAM_SPEC_ENUM (pspec))
    {
      GEnumClass *klass = G_PARAM_SPEC_ENUM (pspec)->enum_class;

      g_string_append (s, "one of ");
      for (guint i = 0; i < klass->n_values; i++)
        g_string_append_printf (s, "%s\"%s\"", i == 0 ? "" : ", ",
                                klass->values[i].value_nick);
    }
  else
    {
      GFlagsClass *klass = G_PARAM_SPEC_FLAGS (pspec)->flags_class;

      g_string_append (s, "flags joined with \"+\" from ");
      for (guint i = 0; i < klass->n_values; i++)
        g_string_append_printf (s, "%s\"%s\"", i == 0 ? "" : ", ",
                                klass->values[i].value_nick);
    }
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static char *
describe_double (double min,
                 double max,
                 double type_min,
                 double type_max)
{
  if (min <= type_min && max >= type_max)
    return g_strdup ("a number");
  return g_strdup_printf ("a number from %g to %g", min, max);
}

/**
 * trace_describe_param_type:
 * @pspec: a property
 *
 * Says in words what values @pspec takes, for error messages and
 * `trace-inspect`: "an integer from 0 to 100", "one of "a", "b"",
 * "a time such as 5ms …".
 *
 * Returns: (transfer full): the description
 */
char *
trace_describe_param_type (GParamSpec *pspec)
{
  GType fundamental;

  g_autofree char *keywords = NULL;

  g_return_val_if_fail (G_IS_PARAM_SPEC (pspec), NULL);

  if ((keywords = trace_param_spec_get_keywords (pspec)) != NULL)
    return g_strdup_printf ("an integer or %s", keywords);
  if (trace_param_spec_is_time (pspec))
    return describe_time (pspec);
  if (G_IS_PARAM_SPEC_INT (pspec))
    return describe_int_range (G_PARAM_SPEC_INT (pspec)->minimum, G_PARAM_SPEC_INT (pspec)->maximum,
                               G_MININT, G_MAXINT, "an integer");
  if (G_IS_PARAM_SPEC_LONG (pspec))
    return describe_int_range (G_PARAM_SPEC_LONG (pspec)->minimum, G_PARAM_SPEC_LONG (pspec)->maximum,
                               G_MINLONG, G_MAXLONG, "an integer");
  if (G_IS_PARAM_SPEC_INT64 (pspec))
    return describe_int_range (G_PARAM_SPEC_INT64 (pspec)->minimum, G_PARAM_SPEC_INT64 (pspec)->maximum,
                               G_MININT64, G_MAXINT64, "a 64-bit integer");
  if (G_IS_PARAM_SPEC_UINT (pspec))
    return describe_uint_range (G_PARAM_SPEC_UINT (pspec)->minimum, G_PARAM_SPEC_UINT (pspec)->maximum,
                                G_MAXUINT, "an integer", "a non-negative integer");
  if (G_IS_PARAM_SPEC_ULONG (pspec))
    return describe_uint_range (G_PARAM_SPEC_ULONG (pspec)->minimum, G_PARAM_SPEC_ULONG (pspec)->maximum,
                                G_MAXULONG, "an integer", "a non-negative integer");
  if (G_IS_PARAM_SPEC_UINT64 (pspec))
    return describe_uint_range (G_PARAM_SPEC_UINT64 (pspec)->minimum, G_PARAM_SPEC_UINT64 (pspec)->maximum,
                                G_MAXUINT64, "a 64-bit integer", "a non-negative 64-bit integer");
  if (G_IS_PARAM_SPEC_DOUBLE (pspec))
    return describe_double (G_PARAM_SPEC_DOUBLE (pspec)->minimum, G_PARAM_SPEC_DOUBLE (pspec)->maximum,
                            -G_MAXDOUBLE, G_MAXDOUBLE);
  if (G_IS_PARAM_SPEC_FLOAT (pspec))
    return describe_double (G_PARAM_SPEC_FLOAT (pspec)->minimum, G_PARAM_SPEC_FLOAT (pspec)->maximum,
                            -G_MAXFLOAT, G_MAXFLOAT);
  if (G_IS_PARAM_SPEC_BOOLEAN (pspec))
    return g_strdup ("a boolean: true or false, yes or no, 1 or 0");
  if (G_IS_PARAM_SPEC_ENUM (pspec) || G_IS_PARAM_SPEC_FLAGS (pspec) || trace_param_spec_get_choices (pspec))
    return describe_choices (pspec);
  fundamental = G_TYPE_FUNDAMENTAL (pspec->value_type);
  if (fundamental == G_TYPE_STRING)
    return g_strdup ("a string");
  return g_strdup_printf ("a value of type %s, which cannot be given as text",
                          g_type_name (pspec->value_type));
}

/* --- names --- */

G_GNUC_INTERNAL const char *_trace_suggest_name (const char *name,
                                                 GPtrArray *candidates);
G_GNUC_INTERNAL char *_trace_unknown_property_message (GObject *object,
                                                       const char *owner,
                                                       const char *key);
G_GNUC_INTERNAL char *_trace_unknown_element_message (const char *name);

/* Optimal string alignment distance: a swap of two neighbours ("tdi" for
 * "tid") counts as one edit, the commonest typo. */
static guint
edit_distance (const char *a,
               const char *b)
{
  gsize la = strlen (a), lb = strlen (b);
  g_autofree guint *d = g_new0 (guint, (la + 1) * (lb + 1));

#define D(i, j) d[(i) * (lb + 1) + (j)]
  for (gsize i = 0; i <= la; i++)
    D (i, 0) = i;
  for (gsize j = 0; j <= lb; j++)
    D (0, j) = j;
  for (gsize i = 1; i <= la; i++)
    for (gsize j = 1; j <= lb; j++)
      {
        guint cost = g_ascii_tolower (a[i - 1]) == g_ascii_tolower (b[j - 1]) ? 0 : 1;
        guint best = MIN (D (i - 1, j) + 1, D (i, j - 1) + 1);

        best = MIN (best, D (i - 1, j - 1) + cost);
        if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
          best = MIN (best, D (i - 2, j - 2) + 1);
        D (i, j) = best;
      }
  return D (la, lb);
#undef D
}

/* The closest candidate within a distance that grows with the length, or
 * else one that contains @name; NULL when nothing is close. */
const char *
_trace_suggest_name (const char *name,
                     GPtrArray *candidates)
{
  guint limit = MAX (1, MIN (3, strlen (name) / 3 + 1));
  const char *best = NULL, *containing = NULL;
  guint best_distance = G_MAXUINT;

  for (guint i = 0; i < candidates->len; i++)
    {
      const char *c = g_ptr_array_index (candidates, i);
      guint dist = edit_distance (name, c);

      if (dist < best_distance)
        {
          best_distance = dist;
          best = c;
        }
      if (containing == NULL && strlen (name) >= 3 && strstr (c, name) != NULL)
        containing = c;
    }
  /* Replacing every character is no typo ("d" for "a"). */
  if (best != NULL && best_distance <= limit && best_distance < strlen (name))
    return best;
  return containing;
}

static GPtrArray *
writable_property_names (GObject *object)
{
  guint n = 0;
  g_autofree GParamSpec **pspecs = g_object_class_list_properties (G_OBJECT_GET_CLASS (object), &n);
  GPtrArray *names = g_ptr_array_new ();

  for (guint i = 0; i < n; i++)
    if ((pspecs[i]->flags & G_PARAM_WRITABLE) && !(pspecs[i]->flags & G_PARAM_CONSTRUCT_ONLY))
      g_ptr_array_add (names, (gpointer) g_param_spec_get_name (pspecs[i]));
  return names;
}

static char *
join_names (GPtrArray *names)
{
  g_autoptr (GString) s = g_string_new (NULL);

  for (guint i = 0; i < names->len; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", (char *) g_ptr_array_index (names, i));
  if (names->len == 0)
    g_string_append (s, "none");
  return g_string_free (g_steal_pointer (&s), FALSE);
}

/* "<owner> has no property "key" (did you mean …?; its properties: …)":
 * the list is what the user can set, so it is the fix at hand. */
char *
_trace_unknown_property_message (GObject *object,
                                 const char *owner,
                                 const char *key)
{
  g_autoptr (GPtrArray) names = writable_property_names (object);
  const char *guess = _trace_suggest_name (key, names);
  g_autofree char *list = join_names (names);

  return g_strdup_printf ("%s has no property \"%s\" (%s%s%sits properties: %s)", owner, key,
                          guess ? "did you mean \"" : "", guess ? guess : "", guess ? "\"?; " : "", list);
}

/* "no element "x" (did you mean …?)", and whether plugins failed to load,
 * since a missing element is often a plugin that could not be loaded. */
char *
_trace_unknown_element_message (const char *name)
{
  g_autoptr (GList) factories = trace_registry_get_element_factories ();
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GHashTable) failed = trace_registry_get_failed_plugins ();
  guint n_failed = failed ? g_hash_table_size (failed) : 0;
  const char *guess;

  for (GList *l = factories; l != NULL; l = l->next)
    g_ptr_array_add (names, (gpointer) trace_element_factory_get_name (l->data));
  guess = _trace_suggest_name (name, names);
  return g_strdup_printf ("no element \"%s\" (%s%s%s)%s", name,
                          guess ? "did you mean \"" : "trace-inspect lists the elements",
                          guess ? guess : "", guess ? "\"?" : "",
                          n_failed == 0   ? ""
                          : n_failed == 1 ? "; 1 plugin failed to load (see trace-inspect --failed)"
                                          : "; some plugins failed to load (see trace-inspect --failed)");
}

/* --- conversion --- */

static gboolean
parse_signed (const char *text,
              gint64 min,
              gint64 max,
              gint64 *out)
{
  if (g_ascii_strncasecmp (text, "0x", 2) == 0)
    return g_ascii_string_to_signed (text + 2, 16, min, max, out, NULL);
  if (g_ascii_strncasecmp (text, "-0x", 3) == 0)
    {
      gint64 v;

      if (!g_ascii_string_to_signed (text + 3, 16, 0, G_MAXINT64, &v, NULL) || -v < min)
        return FALSE;
      *out = -v;
      return TRUE;
    }
  return g_ascii_string_to_signed (text, 10, min, max, out, NULL);
}

static gboolean
parse_unsigned (const char *text,
                guint64 min,
                guint64 max,
                guint64 *out)
{
  if (g_ascii_strncasecmp (text, "0x", 2) == 0)
    return g_ascii_string_to_unsigned (text + 2, 16, min, max, out, NULL);
  return g_ascii_string_to_unsigned (text, 10, min, max, out, NULL);
}

static gboolean
parse_time_in_range (GParamSpec *pspec,
                     const char *text,
                     GValue *value)
{
  gint64 ns;

  if (!trace_parse_time (text, &ns, NULL))
    return FALSE;
  if (G_IS_PARAM_SPEC_INT64 (pspec))
    {
      GParamSpecInt64 *p = G_PARAM_SPEC_INT64 (pspec);

      if (ns < p->minimum || ns > p->maximum)
        return FALSE;
      g_value_set_int64 (value, ns);
      return TRUE;
    }
  if (ns < 0 || (guint64) ns < G_PARAM_SPEC_UINT64 (pspec)->minimum ||
      (guint64) ns > G_PARAM_SPEC_UINT64 (pspec)->maximum)
    return FALSE;
  g_value_set_uint64 (value, (guint64) ns);
  return TRUE;
}

static gboolean
value_from_signed (GParamSpec *pspec,
                   const char *text,
                   GValue *value)
{
  gint64 v;

  /* A word the property takes instead of a number (`tid=main`). */
  if (G_IS_PARAM_SPEC_INT64 (pspec) && trace_param_spec_lookup_keyword (pspec, text, &v))
    {
      g_value_set_int64 (value, v);
      return TRUE;
    }
  if (G_IS_PARAM_SPEC_INT (pspec))
    {
      GParamSpecInt *p = G_PARAM_SPEC_INT (pspec);

      if (!parse_signed (text, p->minimum, p->maximum, &v))
        return FALSE;
      g_value_set_int (value, (gint) v);
    }
  else if (G_IS_PARAM_SPEC_LONG (pspec))
    {
      GParamSpecLong *p = G_PARAM_SPEC_LONG (pspec);

      if (!parse_signed (text, p->minimum, p->maximum, &v))
        return FALSE;
      g_value_set_long (value, (glong) v);
    }
  else
    {
      GParamSpecInt64 *p = G_PARAM_SPEC_INT64 (pspec);

      if (!parse_signed (text, p->minimum, p->maximum, &v))
        return FALSE;
      g_value_set_int64 (value, v);
    }
  return TRUE;
}

static gboolean
value_from_unsigned (GParamSpec *pspec,
                     const char *text,
                     GValue *value)
{
  guint64 v;

  if (G_IS_PARAM_SPEC_UINT (pspec))
    {
      GParamSpecUInt *p = G_PARAM_SPEC_UINT (pspec);

      if (!parse_unsigned (text, p->minimum, p->maximum, &v))
        return FALSE;
      g_value_set_uint (value, (guint) v);
    }
  else if (G_IS_PARAM_SPEC_ULONG (pspec))
    {
      GParamSpecULong *p = G_PARAM_SPEC_ULONG (pspec);

      if (!parse_unsigned (text, p->minimum, p->maximum, &v))
        return FALSE;
      g_value_set_ulong (value, (gulong) v);
    }
  else
    {
      GParamSpecUInt64 *p = G_PARAM_SPEC_UINT64 (pspec);

      if (!parse_unsigned (text, p->minimum, p->maximum, &v))
        return FALSE;
      g_value_set_uint64 (value, v);
    }
  return TRUE;
}

static gboolean
value_from_double (GParamSpec *pspec,
                   const char *text,
                   GValue *value)
{
  char *end = NULL;
  double v, min, max;

  errno = 0;
  v = g_ascii_strtod (text, &end);
  if (*text == '\0' || end == NULL || *end != '\0' || errno != 0 || !isfinite (v))
    return FALSE;
  if (G_IS_PARAM_SPEC_DOUBLE (pspec))
    {
      min = G_PARAM_SPEC_DOUBLE (pspec)->minimum;
      max = G_PARAM_SPEC_DOUBLE (pspec)->maximum;
    }
  else
    {
      min = G_PARAM_SPEC_FLOAT (pspec)->minimum;
      max = G_PARAM_SPEC_FLOAT (pspec)->maximum;
    }
  if (v < min || v > max)
    return FALSE;
  if (G_IS_PARAM_SPEC_DOUBLE (pspec))
    g_value_set_double (value, v);
  else
    g_value_set_float (value, (float) v);
  return TRUE;
}

static gboolean
value_from_boolean (const char *text,
                    GValue *value)
{
  static const char *const yes[] = { "true", "yes", "1" };
  static const char *const no[] = { "false", "no", "0" };

  for (guint i = 0; i < G_N_ELEMENTS (yes); i++)
    {
      if (g_ascii_strcasecmp (text, yes[i]) == 0)
        {
          g_value_set_boolean (value, TRUE);
          return TRUE;
        }
      if (g_ascii_strcasecmp (text, no[i]) == 0)
        {
          g_value_set_boolean (value, FALSE);
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
value_from_enum (GParamSpec *pspec,
                 const char *text,
                 GValue *value)
{
  GEnumClass *klass = G_PARAM_SPEC_ENUM (pspec)->enum_class;
  GEnumValue *ev;
  gint64 number;

  ev = g_enum_get_value_by_nick (klass, text);
  if (ev == NULL)
    ev = g_enum_get_value_by_name (klass, text);
  if (ev == NULL && g_ascii_string_to_signed (text, 10, G_MININT, G_MAXINT, &number, NULL))
    ev = g_enum_get_value (klass, (gint) number);
  if (ev == NULL)
    return FALSE;
  g_value_set_enum (value, ev->value);
  return TRUE;
}

static gboolean
value_from_flags (GParamSpec *pspec,
                  const char *text,
                  GValue *value)
{
  GFlagsClass *klass = G_PARAM_SPEC_FLAGS (pspec)->flags_class;
  g_auto (GStrv) parts = g_strsplit_set (text, "+|", -1);
  guint flags = 0;

  for (guint i = 0; parts[i] != NULL; i++)
    {
      const char *part = g_strstrip (parts[i]);
      GFlagsValue *fv;
      guint64 number;

      /* "" alone means no flags; an empty part between two '+' is an error. */
      if (*part == '\0' && parts[1] == NULL)
        break;
      fv = g_flags_get_value_by_nick (klass, part);
      if (fv == NULL)
        fv = g_flags_get_value_by_name (klass, part);
      if (fv != NULL)
        flags |= fv->value;
      else if (parse_unsigned (part, 0, G_MAXUINT, &number) && (number & ~klass->mask) == 0)
        flags |= (guint) number;
      else
        return FALSE;
    }
  g_value_set_flags (value, flags);
  return TRUE;
}

static gboolean
value_convert (GParamSpec *pspec,
               const char *text,
               GValue *value)
{
  GType fundamental = G_TYPE_FUNDAMENTAL (pspec->value_type);

  switch (fundamental)
    {
    case G_TYPE_BOOLEAN:
      return value_from_boolean (text, value);
    case G_TYPE_INT:
    case G_TYPE_LONG:
    case G_TYPE_INT64:
      if (value_from_signed (pspec, text, value))
        return TRUE;
      return trace_param_spec_is_time (pspec) && parse_time_in_range (pspec, text, value);
    case G_TYPE_UINT:
    case G_TYPE_ULONG:
    case G_TYPE_UINT64:
      if (value_from_unsigned (pspec, text, value))
        return TRUE;
      return trace_param_spec_is_time (pspec) && parse_time_in_range (pspec, text, value);
    case G_TYPE_DOUBLE:
    case G_TYPE_FLOAT:
      return value_from_double (pspec, text, value);
    case G_TYPE_ENUM:
      return value_from_enum (pspec, text, value);
    case G_TYPE_FLAGS:
      return value_from_flags (pspec, text, value);
    case G_TYPE_STRING:
      if (trace_param_spec_get_choices (pspec) &&
          !g_strv_contains ((const char *const *) trace_param_spec_get_choices (pspec), text))
        return FALSE;
      g_value_set_string (value, text);
      return TRUE;
    default:
      return FALSE;
    }
}

/* For an enum, the nick closest to @text; for flags, @text with its one
 * unknown part replaced by the closest nick ("a+bb" -> "a+b"). */
static char *
suggest_choice (GParamSpec *pspec,
                const char *text)
{
  g_autoptr (GPtrArray) nicks = g_ptr_array_new ();
  g_auto (GStrv) parts = NULL;
  GEnumClass *eclass = G_IS_PARAM_SPEC_ENUM (pspec) ? G_PARAM_SPEC_ENUM (pspec)->enum_class : NULL;
  GFlagsClass *fclass = G_IS_PARAM_SPEC_FLAGS (pspec) ? G_PARAM_SPEC_FLAGS (pspec)->flags_class : NULL;
  const char *guess = NULL;
  int unknown = -1;

  if (trace_param_spec_get_choices (pspec))
    {
      for (const char *const *c = trace_param_spec_get_choices (pspec); *c; c++)
        g_ptr_array_add (nicks, (gpointer) *c);
      return g_strdup (_trace_suggest_name (text, nicks));
    }
  if (eclass == NULL && fclass == NULL)
    return NULL;
  for (guint i = 0; i < (eclass ? eclass->n_values : fclass->n_values); i++)
    g_ptr_array_add (nicks, (gpointer) (eclass ? eclass->values[i].value_nick : fclass->values[i].value_nick));
  if (eclass != NULL)
    return g_strdup (_trace_suggest_name (text, nicks));
  parts = g_strsplit_set (text, "+|", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    if (g_flags_get_value_by_nick (fclass, parts[i]) == NULL && g_flags_get_value_by_name (fclass, parts[i]) == NULL)
      {
        if (unknown >= 0)
          return NULL; /* more than one unknown part: no good guess */
        unknown = i;
      }
  if (unknown < 0 || (guess = _trace_suggest_name (parts[unknown], nicks)) == NULL)
    return NULL;
  g_free (parts[unknown]);
  parts[unknown] = g_strdup (guess);
  return g_strjoinv ("+", parts);
}

/**
 * trace_value_from_string:
 * @pspec: the property the value is for
 * @text: the value as the user typed it
 * @value: a zero-filled #GValue, initialised here to @pspec's type, or one
 *   already holding that type
 * @error: where to say why @text does not fit
 *
 * Converts @text to a value of @pspec: integers within the property's
 * range (decimal, or hexadecimal with `0x`), doubles, booleans
 * (`true/false/yes/no/1/0`), enums by nick, name or number, flags as
 * `a+b`, strings as they are (or, for a string property with choices,
 * one of them: trace_param_spec_add_choice()), and times (`5ms`) for 64-bit integer
 * properties documented in nanoseconds. The error, in %TRACE_PARSE_ERROR,
 * names the value, the property and what it takes.
 *
 * Returns: %TRUE on success; on failure @value holds the type's default
 */
gboolean
trace_value_from_string (GParamSpec *pspec,
                         const char *text,
                         GValue *value,
                         GError **error)
{
  g_return_val_if_fail (G_IS_PARAM_SPEC (pspec), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  if (G_VALUE_TYPE (value) == G_TYPE_INVALID)
    g_value_init (value, pspec->value_type);
  g_return_val_if_fail (G_VALUE_HOLDS (value, pspec->value_type), FALSE);

  if (!value_convert (pspec, text, value))
    {
      g_autofree char *expected = trace_describe_param_type (pspec);
      g_autofree char *guess = suggest_choice (pspec, text);
      g_autofree char *quoted = _trace_quote_value (text);

      g_set_error (error, TRACE_PARSE_ERROR, TRACE_PARSE_ERROR_BAD_VALUE,
                   "%s is not a valid value for \"%s\" (%s%s%s%s)",
                   quoted, g_param_spec_get_name (pspec), expected,
                   guess ? "; did you mean \"" : "", guess ? guess : "", guess ? "\"?" : "");
      return FALSE;
    }
  return TRUE;
}

/* Back from @cut to the start of the UTF-8 character it is in. */
static const char *
char_start (const char *text,
            const char *cut)
{
  const char *start;

  if ((*cut & 0xC0) != 0x80)
    return cut; /* a character starts there, or the text ends */
  start = g_utf8_find_prev_char (text, cut);
  return start ? start : text;
}

char *
_trace_cut_middle (const char *text,
                   gsize max)
{
  gsize len = text ? strlen (text) : 0;
  const char *head_end, *tail;

  if (len <= max)
    return g_strdup (text);
  /* the start says what failed, the end usually why: keep both */
  head_end = char_start (text, text + max / 2);
  tail = char_start (text, text + len - max / 2);
  return g_strdup_printf ("%.*s ... %s", (int) (head_end - text), text, tail);
}

char *
_trace_cut_quoted_segments (const char *message)
{
  GString *out = g_string_new (NULL);
  gboolean quoted = FALSE;
  char *result;

  for (const char *p = message; *p != '\0';)
    {
      const char *end = strchr (p, '"');
      gsize n = end ? (gsize) (end - p) : strlen (p);

      if (quoted && n > TRACE_QUOTED_VALUE_MAX)
        {
          g_string_append_len (out, p, char_start (p, p + TRACE_QUOTED_VALUE_MAX) - p);
          g_string_append (out, "...");
        }
      else
        g_string_append_len (out, p, n);
      if (end == NULL)
        break;
      g_string_append_c (out, '"');
      quoted = !quoted;
      p = end + 1;
    }
  /* a value holding quotes pairs them wrongly: bound the whole too */
  result = _trace_cut_middle (out->str, TRACE_MESSAGE_MAX);
  g_string_free (out, TRUE);
  return result;
}

char *
_trace_quote_value (const char *value)
{
  g_autofree char *valid = NULL;
  gsize len;
  const char *cut;

  if (value == NULL)
    return g_strdup ("(none)");
  /* a file name need not be UTF-8; what messages show of it must be */
  if (!g_utf8_validate (value, -1, NULL))
    value = valid = g_utf8_make_valid (value, -1);
  len = strlen (value);
  if (len <= TRACE_QUOTED_VALUE_MAX)
    return g_strdup_printf ("\"%s\"", value);
  /* at the start of a UTF-8 character, so the text stays valid */
  cut = char_start (value, value + TRACE_QUOTED_VALUE_MAX);
  return g_strdup_printf ("\"%.*s...\" (%" G_GSIZE_FORMAT " bytes)", (int) (cut - value), value, len);
}
