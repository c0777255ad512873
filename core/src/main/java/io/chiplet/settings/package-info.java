/**
 * Reading the engines' plugin settings (Spark {@code spark.chiplet.*}, a Trino catalog's {@code chiplet.*}) into
 * typed values, with one error form for a bad value: the setting, the value given and what is accepted.
 *
 * <p>May depend on {@code io.chiplet.placement} (the policy names it parses, the skew thresholds it defaults to),
 * {@code io.chiplet.measure} (the guard and control share) and {@code io.chiplet.topology}; never
 * on affinity, perf, discovery or cli.
 */
package io.chiplet.settings;
