/**
 * Timing the engines with and without the plugin, and what such timings can and cannot say: interleaved on/off
 * rounds ({@link io.chiplet.measure.OnOffRounds}), their per-query comparison, and the paired geometric-mean ratio
 * with a bootstrap confidence interval ({@link io.chiplet.measure.PairedBootstrap}). Used by {@code chiplet demo} and
 * the jmh TPC-H benchmarks alike, so that both judge noise by one rule. Pure: times come in, figures go out; no
 * clock, no I/O except the progress lines a caller hands a stream for. Depends on nothing else of ours.
 *
 * <p>The in-place comparison inside running engines lives here too: the seeded, stratified draw of each unit's arm
 * ({@link io.chiplet.measure.ArmAssignment}, by time {@link io.chiplet.measure.SwitchbackWindows}, with windows as long as
 * {@link io.chiplet.measure.WindowLength}'s rule asks), the estimator of
 * placement's speed-up from unpaired work ({@link io.chiplet.measure.StratifiedArmEstimator}), the adaptive control
 * share, the guard ({@link io.chiplet.measure.PlacementGuard}), and the report; an engine keeps one
 * {@link io.chiplet.measure.Measurement}.
 *
 * <p>Allowed dependencies: none of ours.
 */
package io.chiplet.measure;
