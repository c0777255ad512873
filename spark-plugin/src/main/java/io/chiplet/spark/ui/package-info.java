/**
 * The "Chiplet" tab of the Spark UI, live (the driver plugin attaches it) and in the History Server
 * ({@link io.chiplet.spark.ui.ChipletHistoryServerPlugin}, found through {@code META-INF/services}): core's page
 * ({@link io.chiplet.report.RunsPage}) over the plugin's events ({@code io.chiplet.spark.events}) as the listener bus
 * delivers them, or replays them from the event log. Spark 3.5 serves it through {@code javax.servlet}, 4.x through
 * {@code jakarta.servlet}: one small servlet class per API, the one the running Spark has chosen by reflection.
 *
 * <p>Allowed dependencies: {@code io.chiplet.spark.events}, {@code io.chiplet.spark.guard}, {@code io.chiplet.report},
 * {@code io.chiplet.measure}, {@code io.chiplet.topology}.
 */
package io.chiplet.spark.ui;
