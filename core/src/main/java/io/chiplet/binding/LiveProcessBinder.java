package io.chiplet.binding;

import io.chiplet.affinity.BoundProcess;
import io.chiplet.affinity.MemoryPolicy;
import io.chiplet.affinity.ThreadBinder;
import io.chiplet.topology.CpuSet;

import java.util.Optional;
import java.util.OptionalInt;

import static java.util.Objects.requireNonNull;

/**
 * {@link ProcessBinder} on the live kernel: core's {@link ThreadBinder#bindProcess} for the threads, {@link MemoryPolicy}
 * for memory.
 *
 * <p>Memory: Linux sets a memory policy per thread and only from the thread itself, so the policy goes on the
 * thread that binds (the plugin's initialising thread), and threads created after it inherit it. Threads that already exist (and
 * pages already touched) keep the system default, which allocates on the node of the CPU that faults a page in,
 * and since every thread now runs on the chiplet's CPUs, that is the chiplet's node too. The policy is
 * {@code MPOL_PREFERRED}, not {@code MPOL_BIND}: a full node spills instead of invoking the OOM killer. Closing
 * resets the policy only when it runs on the thread that bound (a policy can only be set from its own thread); in
 * local mode Spark may stop the executor from another thread, and the thread that started the SparkContext then keeps
 * preferring the chiplet's node, which changes nothing once its CPUs are free again except where that node fills up.
 */
final class LiveProcessBinder
        implements ProcessBinder
{
    private final ThreadBinder binder;

    LiveProcessBinder(ThreadBinder binder)
    {
        this.binder = requireNonNull(binder, "binder is null");
    }

    @Override
    public CpuSet pinnableCpus()
    {
        return binder.pinnable().cpus();
    }

    @Override
    public Binding bind(CpuSet cpus, OptionalInt memoryNode)
    {
        requireNonNull(cpus, "cpus is null");
        requireNonNull(memoryNode, "memoryNode is null");
        BoundProcess threads = binder.bindProcess(binder.prepare(cpus, Optional.empty()));
        Optional<MemoryPolicy> previousPolicy = Optional.empty();
        Optional<String> memoryProblem = Optional.empty();
        if (memoryNode.isPresent()) {
            try {
                MemoryPolicy previous = MemoryPolicy.ofCurrentThread();
                // Core's plugin enforcement: MPOL_PREFERRED, so a full node spills instead of invoking the OOM killer.
                MemoryEnforcement.PREFERRED.policyFor(memoryNode).ifPresent(MemoryPolicy::applyToCurrentThread);
                previousPolicy = Optional.of(previous);
            }
            catch (RuntimeException e) {
                // The CPU binding stands: first touch on the chiplet's CPUs already favours its node.
                memoryProblem = Optional.of("NUMA node " + memoryNode.getAsInt() + ": " + e.getMessage());
            }
        }
        return new LiveBinding(threads, Thread.currentThread(), previousPolicy, memoryProblem);
    }

    private static final class LiveBinding
            implements Binding
    {
        private final BoundProcess threads;
        private final Thread bindingThread;
        private final Optional<MemoryPolicy> previousPolicy;
        private final Optional<String> memoryProblem;
        private boolean closed;

        LiveBinding(BoundProcess threads, Thread bindingThread, Optional<MemoryPolicy> previousPolicy, Optional<String> memoryProblem)
        {
            this.threads = threads;
            this.bindingThread = bindingThread;
            this.previousPolicy = previousPolicy;
            this.memoryProblem = memoryProblem;
        }

        @Override
        public Optional<String> memoryProblem()
        {
            return memoryProblem;
        }

        @Override
        public synchronized void close()
        {
            if (closed) {
                return;
            }
            closed = true;
            // Every thread back, those created since the binding too: an executor in the driver's JVM (local mode) lives on.
            threads.restore();
            // Only the thread that set its policy can reset it; elsewhere (a shutdown thread) the process is ending.
            if (Thread.currentThread() == bindingThread) {
                previousPolicy.ifPresent(MemoryPolicy::applyToCurrentThread);
            }
        }
    }
}
