/**
 * The adaptive policy's run-time loop (CHARM, Fogli et al., "CHARM: Chiplet Heterogeneity-Aware Runtime Mapping System", EuroSys 2026), once for
 * both engine plugins: per-thread remote-access signals feeding the {@link io.chiplet.placement.SpreadController}.
 * {@link io.chiplet.adaptive.AdaptiveSpread} is the decision, with no clocks and no threads;
 * {@link io.chiplet.adaptive.AdaptiveLoop} runs it (sample, decide, apply) on a scheduler passed in, so the engine only
 * says what its workers are and how a step is applied. Depends on {@code io.chiplet.perf} (the signals, behind an
 * opener) and {@code io.chiplet.placement}.
 *
 * <p>Allowed dependencies: {@code io.chiplet.perf}, {@code io.chiplet.placement}.
 */
package io.chiplet.adaptive;
