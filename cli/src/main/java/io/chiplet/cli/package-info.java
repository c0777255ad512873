/**
 * The {@code chiplet} command line (picocli): topology, doctor, plan, advise, exec, counters. Each command parses its
 * options, calls core and formats the answer; decisions stay in {@code io.chiplet.placement}.
 *
 * <p>The one package of the cli module, beside core: the plugins' jars carry core without it or picocli. May depend
 * on every core package; no core package can depend on it.
 */
package io.chiplet.cli;
