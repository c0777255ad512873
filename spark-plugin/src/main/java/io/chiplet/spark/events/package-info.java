/**
 * The plugin's facts as Spark listener events of its own ({@code ChipletTopologyEvent}, {@code ChipletPlacementEvent},
 * {@code ChipletSettingsEvent}, {@code ChipletMeasureEvent}, {@code ChipletGuardEvent}), posted on the driver's
 * listener bus: Spark writes them into the event log (its Jackson serialises any event class it does not know) and the
 * History Server replays them wherever the plugin's jar is on its class path, so nothing is lost when the driver
 * exits and no setting is needed beforehand (docs/observability.md). The events are plain records with no Jackson
 * annotations of ours: the plugin's jar relocates its own Jackson, and Spark's must read them.
 *
 * <p>Allowed dependencies: {@code io.chiplet.spark.guard}, {@code io.chiplet.spark.messages}, {@code io.chiplet.spark.settings}, {@code
 * io.chiplet.spark.measure}, {@code io.chiplet.measure}, {@code io.chiplet.placement},
 * {@code io.chiplet.engine}, {@code io.chiplet.settings}.
 */
package io.chiplet.spark.events;
