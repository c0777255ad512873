/**
 * The slot pool, once for every engine whose worker threads run one unit of work at a time and come back for the next
 * (Spark's task threads): {@link io.chiplet.slots.SlotPool} hands a unit a free slot in the order its policy names
 * ({@link io.chiplet.placement.Policy#slotOrder()}), binds its thread to the slot's target and restores it at the end,
 * and moves running threads when the process's allowed CPUs change. The slots are core's finished targets
 * ({@link io.chiplet.slots.SlotTable}); the binding goes through core's {@code ThreadBinder} behind
 * {@link io.chiplet.slots.SlotBinder}, which tests fake. An adapter only turns its engine's start and end of work into
 * {@code acquire} and {@code release}.
 *
 * <p>Allowed dependencies: {@code io.chiplet.affinity}, {@code io.chiplet.binding}, {@code io.chiplet.placement}, {@code io.chiplet.topology}.
 */
package io.chiplet.slots;
