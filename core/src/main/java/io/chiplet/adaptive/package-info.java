/**
 * The adaptive policy's run-time loop (CHARM, Fogli et al., "CHARM: Chiplet Heterogeneity-Aware Runtime Mapping System", EuroSys 2026): per-thread remote-access signals
 * feeding the {@link io.chiplet.placement.SpreadController}, for both engine plugins. No clocks and no threads: an
 * adapter calls {@link io.chiplet.adaptive.AdaptiveSpread#step} once per interval and applies the spreads.
 * Depends on {@code io.chiplet.perf} (the signals, behind an opener) and {@code io.chiplet.placement}.
 *
 * <p>Allowed dependencies: {@code io.chiplet.perf}, {@code io.chiplet.placement}.
 */
package io.chiplet.adaptive;
