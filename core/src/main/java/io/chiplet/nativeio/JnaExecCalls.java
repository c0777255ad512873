package io.chiplet.nativeio;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.StringArray;

import java.util.List;

/** {@link ExecCalls} through JNA direct mapping, for JDK 17 and 21. */
final class JnaExecCalls
        implements ExecCalls
{
    static {
        Native.register(JnaExecCalls.class, JnaLibc.library());
    }

    // fcntl is variadic; its third argument is an int passed in a register on x86-64 and aarch64 Linux alike.
    private static native int fcntl(int fd, int command, int argument)
            throws LastErrorException;

    private static native int sigprocmask(int how, byte[] set, Pointer old)
            throws LastErrorException;

    private static native int execvp(String file, Pointer argv)
            throws LastErrorException;

    @Override
    public void setCloseOnExec(int fd, boolean closeOnExec)
    {
        try {
            int flags = fcntl(fd, F_GETFD, 0);
            int wanted = closeOnExec ? flags | FD_CLOEXEC : flags & ~FD_CLOEXEC;
            if (wanted != flags) {
                fcntl(fd, F_SETFD, wanted);
            }
        }
        catch (LastErrorException e) {
            throw JnaLibc.failure(e, "fcntl", fd, closeOnExec ? "FD_CLOEXEC on" : "FD_CLOEXEC off");
        }
    }

    @Override
    public void unblockAllSignals()
    {
        try {
            sigprocmask(SIG_SETMASK, new byte[SIGSET_BYTES], Pointer.NULL);
        }
        catch (LastErrorException e) {
            throw JnaLibc.failure(e, "sigprocmask", "SIG_SETMASK", "{}");
        }
    }

    @Override
    public int execvp(List<String> command)
    {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("no command to run");
        }
        // StringArray is NUL-terminated, as execvp's argv must be.
        StringArray argv = new StringArray(command.toArray(new String[0]));
        try {
            int result = execvp(command.get(0), argv);
            throw new IllegalStateException("execvp returned " + result);
        }
        catch (LastErrorException e) {
            return e.getErrorCode();
        }
    }
}
