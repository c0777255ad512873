/**
 * Reading the engines' plugin settings (Spark {@code spark.chiplet.*}, a Trino catalog's {@code chiplet.*}) into
 * typed values, with one error form for a bad value: the setting, the value given and what is accepted.
 *
 * <p>Allowed dependencies: {@code io.chiplet.affinity} (the pinning backends a setting names), {@code io.chiplet.placement},
 * {@code io.chiplet.measure}, {@code io.chiplet.topology}.
 */
package io.chiplet.settings;
