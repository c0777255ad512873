/**
 * Applies core's placement to this process: a host-wide chiplet lease, the binding to it (the calling thread, or the
 * whole process through a {@link io.chiplet.binding.ProcessBinder}) and its release, as one closeable
 * ({@link io.chiplet.binding.ChipletLock}), the way OpenHFT's {@code AffinityLock} holds a CPU. Decisions
 * come from {@code io.chiplet.placement} (the node share, the memory rule, the targets); this package only takes the
 * lease ({@code io.chiplet.affinity.ChipletLeases}) and binds ({@code io.chiplet.affinity.ThreadBinder}).
 *
 * <p>Allowed dependencies: {@code io.chiplet.affinity}, {@code io.chiplet.placement}, {@code io.chiplet.topology}.
 */
package io.chiplet.binding;
