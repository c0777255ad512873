/**
 * Every placement decision, pure: policies and plans (which worker on which chiplet), finished per-worker targets
 * ({@link io.chiplet.placement.WorkerPlacements}: the CPUs and memory node each worker binds, what every runner applies),
 * the node share a process places on ({@link io.chiplet.placement.PlacementDomain}), the memory rule
 * ({@link io.chiplet.placement.MemoryBinding}), host shares, partition and AQE
 * sizing, skew analysis and the skew-to-hint rule, hybrid-core routing, the spread controller
 * of the adaptive loop. No I/O, clocks or threads: a topology and figures in, a decision out, so the plugins and the
 * CLI decide alike by calling the same code. What each policy means is {@link io.chiplet.placement.Policy}'s to say.
 * The engines' own words for these decisions are {@code io.chiplet.engine.spark} and {@code io.chiplet.engine.trino};
 * the advice and its text, {@code io.chiplet.advice}; the test fixtures ({@code SyntheticTopologies}), core's test-jar.
 *
 * <p>Allowed dependencies: {@code io.chiplet.topology}.
 */
package io.chiplet.placement;
