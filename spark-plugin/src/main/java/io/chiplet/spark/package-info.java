/**
 * The Spark plugin's entry: {@code ChipletPlugin} (Java 8 byte code, {@code src/main/java8}; users set {@code
 * spark.plugins=io.chiplet.spark.ChipletPlugin}) loads {@link io.chiplet.spark.ChipletSparkPlugin} by name, which
 * creates the driver and executor sides; {@link io.chiplet.spark.TaskHooks} runs the executor side outside a cluster
 * (benchmarks load it by name). These names are public contract and stay.
 *
 * <p>May depend on every {@code io.chiplet.spark} sub-package and on core; no sub-package but {@code demo} depends on
 * it.
 */
package io.chiplet.spark;
