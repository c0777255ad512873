/**
 * The Spark plugin's entry: {@code ChipletPlugin} (Java 8 byte code, {@code src/main/java8}; users set {@code
 * spark.plugins=io.chiplet.spark.ChipletPlugin}) loads {@link io.chiplet.spark.ChipletSparkPlugin} by name, which
 * creates the driver and executor sides; {@link io.chiplet.spark.TaskHooks} runs the executor side outside a cluster
 * (benchmarks load it by name). These names are public contract and stay.
 *
 * <p>Allowed dependencies: {@code io.chiplet.spark..}, {@code io.chiplet.nativeio}, {@code io.chiplet.topology},
 * {@code io.chiplet.affinity}, {@code io.chiplet.perf}, {@code io.chiplet.placement}, {@code io.chiplet.adaptive},
 * {@code io.chiplet.settings}, {@code io.chiplet.discovery}, {@code io.chiplet.measure}.
 */
package io.chiplet.spark;
