/**
 * The {@code chiplet} command line (picocli): topology, doctor, plan, advise, exec, counters. Each command parses its
 * options, calls core and formats the answer; decisions stay in {@code io.chiplet.placement}.
 *
 * <p>May depend on every other core package; no core package depends on it.
 */
package io.chiplet.cli;
