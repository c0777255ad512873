package io.chiplet.nativeio;

import java.util.List;

/** The entry point of the {@link ExecCalls} family, on the native path this JVM chose ({@link NativeAccess}). */
final class ExecSyscalls
{
    private static final ExecCalls CALLS = ExecCalls.forPath(NativeAccess.path());

    private ExecSyscalls() {}

    /** @see ExecCalls#setCloseOnExec(int, boolean) */
    public static void setCloseOnExec(int fd, boolean closeOnExec)
    {
        CALLS.setCloseOnExec(fd, closeOnExec);
    }

    /** @see ExecCalls#unblockAllSignals() */
    public static void unblockAllSignals()
    {
        CALLS.unblockAllSignals();
    }

    /** @see ExecCalls#execvp(List) */
    public static int execvp(List<String> command)
    {
        return CALLS.execvp(command);
    }
}
