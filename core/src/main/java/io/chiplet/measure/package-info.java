/**
 * Timing the engines with and without the plugin, and what such timings can and cannot say: interleaved on/off
 * rounds ({@link io.chiplet.measure.OnOffRounds}), their per-query comparison, and the paired geometric-mean ratio
 * with a bootstrap confidence interval ({@link io.chiplet.measure.PairedBootstrap}). Used by {@code chiplet demo} and
 * the jmh TPC-H benchmarks alike, so that both judge noise by one rule. Pure: times come in, figures go out; no
 * clock, no I/O except the progress lines a caller hands a stream for. Depends on nothing else of ours.
 */
package io.chiplet.measure;
