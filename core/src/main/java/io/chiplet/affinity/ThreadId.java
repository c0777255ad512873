package io.chiplet.affinity;

import io.chiplet.topology.CpuSet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Linux thread ids of this process and what {@code /proc} says about them. The kernel's own account, independent
 * of any pinning backend: tests and the CLI use it to verify a pin.
 */
public final class ThreadId
{
    private static final Path TASKS = Path.of("/proc/self/task");

    private ThreadId() {}

    /** The calling thread's Linux thread id ({@code gettid}). */
    public static int current()
    {
        return SchedSyscalls.gettid();
    }

    /** The thread ids of this process now, ascending. Threads may start or end the moment this returns. */
    public static List<Integer> threadsOfThisProcess()
    {
        List<Integer> tids = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                tids.add(Integer.parseInt(task.getFileName().toString()));
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot list " + TASKS, e);
        }
        tids.sort(Integer::compare);
        return List.copyOf(tids);
    }

    public static boolean isThreadOfThisProcess(int tid)
    {
        return tid > 0 && Files.isDirectory(TASKS.resolve(Integer.toString(tid)));
    }

    /**
     * The {@code Cpus_allowed_list} of thread {@code tid} of this process, from {@code /proc/self/task/<tid>/status};
     * empty when the thread has ended.
     */
    public static Optional<CpuSet> cpusAllowed(int tid)
    {
        return statusField(tid, "Cpus_allowed_list").map(CpuSet::parseList);
    }

    /** The {@code Mems_allowed_list} (NUMA nodes) of thread {@code tid}; empty when the thread has ended. */
    public static Optional<String> memsAllowed(int tid)
    {
        return statusField(tid, "Mems_allowed_list");
    }

    private static Optional<String> statusField(int tid, String field)
    {
        Path status = TASKS.resolve(Integer.toString(tid)).resolve("status");
        List<String> lines;
        try {
            lines = Files.readAllLines(status);
        }
        catch (NoSuchFileException e) {
            return Optional.empty();
        }
        catch (IOException e) {
            if (!Files.exists(status)) {
                return Optional.empty();
            }
            throw new UncheckedIOException("cannot read " + status, e);
        }
        String prefix = field + ":";
        return lines.stream()
                .filter(line -> line.startsWith(prefix))
                .map(line -> line.substring(prefix.length()).strip())
                .findFirst()
                .or(() -> {
                    throw new IllegalStateException(status + " has no " + field + " line");
                });
    }
}
