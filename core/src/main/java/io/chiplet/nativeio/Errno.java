package io.chiplet.nativeio;

/** Linux errno values that the syscalls we make can return, with their names (x86-64 and aarch64 agree). */
public final class Errno
{
    public static final int EPERM = 1;
    public static final int ENOENT = 2;
    public static final int ESRCH = 3;
    public static final int EINTR = 4;
    public static final int EIO = 5;
    public static final int E2BIG = 7;
    public static final int ENOEXEC = 8;
    public static final int EBADF = 9;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int EACCES = 13;
    public static final int EFAULT = 14;
    public static final int EBUSY = 16;
    public static final int EEXIST = 17;
    public static final int ENODEV = 19;
    public static final int ENOTDIR = 20;
    public static final int EINVAL = 22;
    public static final int EMFILE = 24;
    public static final int ETXTBSY = 26;
    public static final int ENOSPC = 28;
    public static final int ERANGE = 34;
    public static final int ENOSYS = 38;
    public static final int EOPNOTSUPP = 95;

    private Errno() {}

    public static String name(int errno)
    {
        return switch (errno) {
            case EPERM -> "EPERM";
            case ENOENT -> "ENOENT";
            case ESRCH -> "ESRCH";
            case EINTR -> "EINTR";
            case EIO -> "EIO";
            case E2BIG -> "E2BIG";
            case ENOEXEC -> "ENOEXEC";
            case EBADF -> "EBADF";
            case EAGAIN -> "EAGAIN";
            case ENOMEM -> "ENOMEM";
            case EACCES -> "EACCES";
            case EFAULT -> "EFAULT";
            case EBUSY -> "EBUSY";
            case EEXIST -> "EEXIST";
            case ENODEV -> "ENODEV";
            case ENOTDIR -> "ENOTDIR";
            case EINVAL -> "EINVAL";
            case EMFILE -> "EMFILE";
            case ETXTBSY -> "ETXTBSY";
            case ENOSPC -> "ENOSPC";
            case ERANGE -> "ERANGE";
            case ENOSYS -> "ENOSYS";
            case EOPNOTSUPP -> "EOPNOTSUPP";
            default -> "errno " + errno;
        };
    }

    public static String describe(int errno)
    {
        return switch (errno) {
            case EPERM -> "operation not permitted";
            case ENOENT -> "no such file or directory";
            case ESRCH -> "no such thread or process";
            case EINTR -> "interrupted";
            case EIO -> "I/O error";
            case E2BIG -> "argument list too long";
            case ENOEXEC -> "exec format error";
            case EBADF -> "bad file descriptor";
            case EAGAIN -> "try again";
            case ENOMEM -> "out of memory";
            case EACCES -> "permission denied";
            case EFAULT -> "bad address";
            case EBUSY -> "device or resource busy";
            case EEXIST -> "already exists";
            case ENODEV -> "no such device";
            case ENOTDIR -> "not a directory";
            case EINVAL -> "invalid argument";
            case EMFILE -> "too many open files";
            case ETXTBSY -> "text file busy";
            case ENOSPC -> "no space left";
            case ERANGE -> "result out of range";
            case ENOSYS -> "function not implemented";
            case EOPNOTSUPP -> "operation not supported";
            default -> "unknown error";
        };
    }
}
