/**
 * Thread placement on a worker: the agent that finds query threads and pins them to chiplets, its snapshots and the
 * native thread control it acts through. The decisions are core's.
 *
 * <p>Allowed dependencies: {@code io.chiplet.trino.measure}, {@code io.chiplet.adaptive}, {@code io.chiplet.affinity},
 * {@code io.chiplet.measure}, {@code io.chiplet.perf}, {@code io.chiplet.placement}, {@code io.chiplet.topology}.
 */
package io.chiplet.trino.placement;
