package io.chiplet.nativeio;

import java.util.Locale;
import java.util.OptionalLong;

/**
 * The numbers of the syscalls glibc does not wrap (or wraps only in recent releases), for the JVM's {@code os.arch}.
 * An unknown number is empty: the caller reports it rather than running a wrong syscall.
 */
public record LinuxSyscallNumbers(OptionalLong gettid, OptionalLong getcpu, OptionalLong mbind, OptionalLong setMempolicy,
        OptionalLong getMempolicy, OptionalLong perfEventOpen)
{
    private static final LinuxSyscallNumbers CURRENT = forArch(System.getProperty("os.arch", ""));

    public static LinuxSyscallNumbers current()
    {
        return CURRENT;
    }

    public static LinuxSyscallNumbers forArch(String osArch)
    {
        switch (osArch.toLowerCase(Locale.ROOT)) {
            case "amd64":
            case "x86_64":
                return of(186, 309, 237, 238, 239, 298);
            // arm64 and riscv64 use the asm-generic table
            case "aarch64":
            case "arm64":
            case "riscv64":
                return of(178, 168, 235, 237, 236, 241);
            case "ppc64le":
            case "ppc64":
                return of(207, 302, 259, 261, 260, 319);
            case "s390x":
                return of(236, 311, 268, 270, 269, 331);
            default:
                OptionalLong none = OptionalLong.empty();
                return new LinuxSyscallNumbers(none, none, none, none, none, none);
        }
    }

    private static LinuxSyscallNumbers of(long gettid, long getcpu, long mbind, long setMempolicy, long getMempolicy, long perfEventOpen)
    {
        return new LinuxSyscallNumbers(OptionalLong.of(gettid), OptionalLong.of(getcpu), OptionalLong.of(mbind), OptionalLong.of(setMempolicy),
                OptionalLong.of(getMempolicy), OptionalLong.of(perfEventOpen));
    }

    /** The number, or -1: {@code syscall(-1)} fails with {@code ENOSYS} and never runs a wrong syscall. */
    public static long orInvalid(OptionalLong number)
    {
        return number.orElse(-1);
    }
}
