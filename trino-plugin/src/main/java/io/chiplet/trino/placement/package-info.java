/**
 * Thread placement on a worker: the agent that finds query threads and pins them to chiplets, its snapshots and the
 * native thread control it acts through. The decisions are core's.
 *
 * <p>May depend on core only.
 */
package io.chiplet.trino.placement;
