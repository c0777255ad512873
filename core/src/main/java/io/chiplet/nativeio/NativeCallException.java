package io.chiplet.nativeio;

import java.util.Arrays;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/** A system call that failed: which one, with what arguments, and the errno it set, by name. */
public final class NativeCallException
        extends RuntimeException
{
    private final String call;
    private final int errno;

    public NativeCallException(String call, Object[] arguments, int errno)
    {
        super(call + "(" + Arrays.stream(arguments).map(String::valueOf).collect(Collectors.joining(", ")) + ") failed: "
                + Errno.name(errno) + " (" + Errno.describe(errno) + ")");
        this.call = requireNonNull(call, "call is null");
        this.errno = errno;
    }

    public String call()
    {
        return call;
    }

    public int errno()
    {
        return errno;
    }

    public String errnoName()
    {
        return Errno.name(errno);
    }
}
