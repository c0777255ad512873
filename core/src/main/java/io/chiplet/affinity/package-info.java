/**
 * Binding threads and processes to chiplets: the one binding API ({@link io.chiplet.affinity.ThreadBinder}) over the
 * pinning backends (our own syscalls through FFM or JNA, or OpenHFT) behind {@link io.chiplet.affinity.PinningBackend},
 * memory policies, host-wide chiplet leases, and the CPUs this process may use (cgroup, affinity mask). The syscall
 * wrappers live here, behind these types.
 *
 * <p>One word per concept, in every module (docs/native.md, "Vocabulary"):
 * <ul>
 * <li><b>mask</b>: a thread's CPU affinity mask as the kernel holds it ({@link io.chiplet.affinity.ThreadBinder#currentMask},
 *     {@link io.chiplet.affinity.ThreadBinder#maskOf}).</li>
 * <li><b>pin</b>: set a thread's mask ({@code sched_setaffinity}), the CPU part of a bind; only a
 *     <b>pinning backend</b> pins.</li>
 * <li><b>memory policy</b>: a thread's NUMA policy ({@code set_mempolicy}, {@link io.chiplet.affinity.MemoryPolicy});
 *     a thread sets its own only.</li>
 * <li><b>prepared affinity</b>: CPUs and an optional memory policy, checked against the pinnable CPUs and put into the kernel's
 *     form once ({@link io.chiplet.affinity.PreparedAffinity}).</li>
 * <li><b>bind</b>: pin a thread (the calling one, another by Linux thread id, or every thread of the process) to a prepared
 *     affinity and, for the calling thread, set its memory policy, keeping what it replaced. A <b>binding</b> is what a
 *     bind returns: {@link io.chiplet.affinity.BoundThread}, {@link io.chiplet.affinity.BoundProcess}.</li>
 * <li><b>restore</b>: give a bound thread (or process) back what its bind replaced.</li>
 * <li><b>rebind</b> / <b>move</b>: change a bound thread's CPUs; its restore still gives back what it had before the
 *     bind. <b>follow</b>: the process's allowed CPUs changed.</li>
 * <li><b>pinnable CPUs</b>: the online CPUs in the process's cgroup cpuset, what a thread may be pinned to ({@link io.chiplet.affinity.PinnableCpus}).</li>
 * <li><b>backend</b>: the layer that pins ({@code ffm}: our syscalls through whichever <b>native path</b>, FFM or JNA,
 *     the JVM has; {@code openhft}: OpenHFT Java-Thread-Affinity). The native path is {@code io.chiplet.nativeio}'s
 *     choice, not the backend's.</li>
 * <li><b>lease</b>: a host-wide reservation of a chiplet between processes ({@link io.chiplet.affinity.ChipletLeases});
 *     taking one binds nothing.</li>
 * <li><b>binder</b>: the seam that binds threads through {@code ThreadBinder}, so tests can fake it (Spark's task
 *     threads; {@code io.chiplet.binding.ProcessBinder}, a whole process on its lease).</li>
 * </ul>
 *
 * <p>Allowed dependencies: {@code io.chiplet.topology}, {@code io.chiplet.nativeio}.
 */
package io.chiplet.affinity;
