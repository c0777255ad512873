/**
 * The {@code chiplet} command line (picocli): topology, doctor, plan, advise, exec, counters. Each command parses its
 * options, calls core and formats the answer; decisions stay in {@code io.chiplet.placement}.
 *
 * <p>The one package of the cli module, beside core: the plugins' jars carry core without it or picocli; no core
 * package can depend on it.
 *
 * <p>Allowed dependencies: {@code io.chiplet.nativeio}, {@code io.chiplet.topology}, {@code io.chiplet.affinity},
 * {@code io.chiplet.binding}, {@code io.chiplet.perf}, {@code io.chiplet.placement}, {@code io.chiplet.adaptive}, {@code io.chiplet.settings},
 * {@code io.chiplet.discovery}, {@code io.chiplet.measure}, {@code io.chiplet.report},
 * {@code io.chiplet.engine}, {@code io.chiplet.advice}.
 */
package io.chiplet.cli;
