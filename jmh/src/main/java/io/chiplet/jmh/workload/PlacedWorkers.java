package io.chiplet.jmh.workload;

import io.chiplet.placement.WorkerPlacement;

import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntToLongFunction;

import static java.util.Objects.requireNonNull;

/**
 * T worker threads, each bound once to its own target (core's {@link WorkerPlacement}: CPUs and memory node, or nothing
 * under {@code wim}), that run one kernel on their own slice per {@link #run}. The threads live as long as this object
 * (a JMH trial) so that a measured invocation pays for two barrier crossings, not for starting and binding threads;
 * data a worker allocates in {@code run} is first touched on its CPUs, so its pages sit on the worker's NUMA node.
 */
public final class PlacedWorkers
        implements AutoCloseable
{
    private final List<WorkerPlacement> targets;
    private final Thread[] threads;
    private final CyclicBarrier start;
    private final CyclicBarrier done;
    private final long[] results;
    private final AtomicReferenceArray<Throwable> failures;
    private final AtomicReference<IntToLongFunction> kernel = new AtomicReference<>();
    private volatile boolean closed;

    /**
     * @param targets worker {@code i} is bound to {@code targets.get(i)}, on its own thread, before its first run
     */
    public PlacedWorkers(List<WorkerPlacement> targets, WorkerBinder binder)
    {
        this.targets = List.copyOf(requireNonNull(targets, "targets is null"));
        requireNonNull(binder, "binder is null");
        if (this.targets.isEmpty()) {
            throw new IllegalArgumentException("at least one worker is needed");
        }
        int workers = this.targets.size();
        start = new CyclicBarrier(workers + 1);
        done = new CyclicBarrier(workers + 1);
        results = new long[workers];
        failures = new AtomicReferenceArray<>(workers);
        threads = new Thread[workers];
        for (int worker = 0; worker < workers; worker++) {
            int index = worker;
            threads[worker] = Thread.ofPlatform()
                    .name("placed-worker-" + worker)
                    .daemon()
                    .start(() -> loop(index, binder));
        }
    }

    public int workers()
    {
        return threads.length;
    }

    public WorkerPlacement targetOf(int worker)
    {
        return targets.get(worker);
    }

    /**
     * Runs {@code kernel.applyAsLong(worker)} on every worker at once and waits for all of them.
     *
     * @return the sum of the workers' results (a checksum the caller hands to a blackhole)
     * @throws IllegalStateException wrapping the first worker's failure
     */
    public long run(IntToLongFunction kernel)
    {
        requireNonNull(kernel, "kernel is null");
        if (closed) {
            throw new IllegalStateException("workers are closed");
        }
        this.kernel.set(kernel);
        await(start);
        await(done);
        long sum = 0;
        for (int worker = 0; worker < threads.length; worker++) {
            Throwable failure = failures.getAndSet(worker, null);
            if (failure != null) {
                throw new IllegalStateException("worker " + worker + " " + describe(targets.get(worker)) + " failed", failure);
            }
            sum += results[worker];
        }
        return sum;
    }

    private static String describe(WorkerPlacement target)
    {
        return target.cpusToBind().map(cpus -> "on CPUs " + cpus).orElse("unbound")
                + (target.memoryNodeToBind().isPresent() ? ", memory on node " + target.memoryNodeToBind().getAsInt() : "");
    }

    private void loop(int worker, WorkerBinder binder)
    {
        RuntimeException bindFailure = null;
        try {
            binder.bind(targets.get(worker));
        }
        catch (RuntimeException e) {
            // an unbound worker would measure the wrong placement: every run fails instead
            bindFailure = e;
        }
        while (true) {
            await(start);
            if (closed) {
                return;
            }
            if (bindFailure != null) {
                failures.set(worker, bindFailure);
            }
            else {
                try {
                    results[worker] = kernel.get().applyAsLong(worker);
                }
                catch (RuntimeException | Error e) {
                    failures.set(worker, e);
                }
            }
            await(done);
        }
    }

    @Override
    public void close()
    {
        if (closed) {
            return;
        }
        closed = true;
        await(start);
        for (Thread thread : threads) {
            try {
                thread.join();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void await(CyclicBarrier barrier)
    {
        try {
            barrier.await();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for workers", e);
        }
        catch (BrokenBarrierException e) {
            throw new IllegalStateException("a worker left the barrier", e);
        }
    }
}
