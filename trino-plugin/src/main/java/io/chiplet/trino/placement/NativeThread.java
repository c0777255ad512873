package io.chiplet.trino.placement;

import static java.util.Objects.requireNonNull;

/**
 * A native thread of this JVM as the kernel names it.
 *
 * @param tid the Linux thread id
 * @param name the kernel's name of the thread ({@code comm}): the Java name cut to 15 characters
 */
public record NativeThread(int tid, String name)
{
    public NativeThread
    {
        requireNonNull(name, "name is null");
        if (tid <= 0) {
            throw new IllegalArgumentException("thread id must be positive: " + tid);
        }
    }

    public boolean isQueryThread()
    {
        return QueryThreads.isQueryThread(name);
    }
}
