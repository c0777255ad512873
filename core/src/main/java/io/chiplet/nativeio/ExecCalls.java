package io.chiplet.nativeio;

import java.lang.invoke.MethodHandles;
import java.util.List;

/**
 * The process-replacement family, for {@code chiplet exec}: {@code fcntl(F_GETFD/F_SETFD)} to choose which file
 * descriptors survive, {@code sigprocmask} to hand the new program an empty signal mask, and {@code execvp}, as one
 * native path implements them. {@link ExecSyscalls} is the entry point.
 *
 * <p>{@code execvp} replaces the whole JVM (every thread goes, the calling one becomes the program) keeping the
 * process id, the calling thread's CPU affinity and memory policy, and every descriptor not marked close-on-exec,
 * with the POSIX record locks held through them: what {@code taskset} and {@code numactl} rely on.
 */
interface ExecCalls
{
    int F_GETFD = 1;
    int F_SETFD = 2;
    int FD_CLOEXEC = 1;
    int SIG_SETMASK = 2;
    /** glibc's {@code sigset_t}: 1024 bits. */
    int SIGSET_BYTES = 128;

    /**
     * Sets or clears {@code FD_CLOEXEC} on {@code fd}.
     *
     * @throws NativeCallException naming the descriptor and the errno ({@code EBADF}: closed meanwhile)
     */
    void setCloseOnExec(int fd, boolean closeOnExec);

    /**
     * Unblocks every signal for the calling thread. The JVM blocks some in its threads (SIGQUIT for the thread-dump
     * handler) and {@code execve} keeps the caller's mask, so without this the program would never see them.
     */
    void unblockAllSignals();

    /**
     * {@code execvp(command[0], command)}: searches {@code PATH} as a shell does and replaces this process with the
     * program, in this process's environment. Returns only on failure.
     *
     * @return the errno of the failed {@code execvp} ({@link Errno#ENOENT}: no such program; {@link Errno#EACCES}:
     *         not executable)
     */
    int execvp(List<String> command);

    /** The implementation for {@code path}. */
    static ExecCalls forPath(NativePath path)
    {
        return NativeAccess.implementation(path, MethodHandles.lookup(), ExecCalls.class, "io.chiplet.nativeio.FfmExecCalls", JnaExecCalls::new);
    }
}
