/**
 * Trino's dialect: core's sizing as Trino session properties ({@link io.chiplet.engine.trino.TrinoSessionSettings}:
 * task concurrency, hash partition counts, their values under a skew hint). Pure: no I/O, clocks or threads; what
 * {@code chiplet advise --engine trino} prints and what the Trino coordinator's session defaults set, so they cannot differ.
 *
 * <p>Allowed dependencies: {@code io.chiplet.engine}, {@code io.chiplet.placement}, {@code io.chiplet.topology}.
 */
package io.chiplet.engine.trino;
