package io.chiplet.trino.placement;

import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * Which native threads of a Trino JVM run queries, told from their kernel name ({@code /proc/self/task/<tid>/comm}).
 *
 * <p>The kernel keeps the first 15 characters of a Java thread's name. Trino's time-sharing executor starts its
 * runner threads as {@code task-processor-N} (the comm is just {@code task-processor-}), each renames itself
 * {@code SplitRunner-N} while it waits for work, and while it processes a split it is named after the split's task,
 * {@code <queryId>.<stage>.<partition>.<attempt>-<split>}. A query id starts with its creation time
 * ({@code 20261123_111213_00004_abcde}), so the comm of a busy runner is a 15-character timestamp. Recognising all
 * three keeps a scan correct whether it lands while the runners are idle or busy. No other Trino thread is named
 * after a bare query id: the coordinator's and HTTP threads prefix theirs ({@code Query-}, {@code Task-}, ...).
 */
public final class QueryThreads
{
    private static final Pattern BUSY_RUNNER = Pattern.compile("\\d{8}_\\d{6}.*");

    private QueryThreads() {}

    public static boolean isQueryThread(String comm)
    {
        requireNonNull(comm, "comm is null");
        return comm.startsWith("SplitRunner-")
                || comm.startsWith("task-processor")
                || BUSY_RUNNER.matcher(comm).matches();
    }
}
