package io.chiplet.trino.placement;

import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * Which native threads of a Trino JVM run queries, told from their kernel name ({@code /proc/self/task/<tid>/comm}).
 *
 * <p>The kernel keeps the first 15 characters of a Java thread's name. Trino's time-sharing executor names an idle
 * runner thread {@code SplitRunner-<runner>-<thread id>}, and, in 476 as in 483, renames a busy one after its split,
 * {@code <task id>-<split id>-<thread id>}, whose comm is the query id's creation time ({@code 20261123_111213} of
 * {@code 20261123_111213_00004_abcde}). Runners are created and retired while the server runs. The
 * {@code task-processor-} prefix is kept for other executor versions; no supported release was seen to use it, and no
 * other Trino thread is named either way: the coordinator's and HTTP threads prefix theirs ({@code Query-},
 * {@code Task-}, ...).
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
