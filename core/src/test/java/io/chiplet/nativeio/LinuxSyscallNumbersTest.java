package io.chiplet.nativeio;

import org.junit.jupiter.api.Test;

import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

class LinuxSyscallNumbersTest
{
    /** From the kernel's syscall tables (arch/x86/entry/syscalls/syscall_64.tbl, include/uapi/asm-generic/unistd.h). */
    @Test
    void numbersFollowTheArchitecture()
    {
        assertThat(LinuxSyscallNumbers.forArch("amd64")).isEqualTo(numbers(186, 309, 237, 238, 239, 298));
        assertThat(LinuxSyscallNumbers.forArch("x86_64")).isEqualTo(LinuxSyscallNumbers.forArch("amd64"));
        assertThat(LinuxSyscallNumbers.forArch("aarch64")).isEqualTo(numbers(178, 168, 235, 237, 236, 241));
        assertThat(LinuxSyscallNumbers.forArch("riscv64")).isEqualTo(LinuxSyscallNumbers.forArch("aarch64"));
    }

    @Test
    void unknownArchitecturesHaveNoNumbersAndCallNothing()
    {
        LinuxSyscallNumbers sparc = LinuxSyscallNumbers.forArch("sparcv9");
        assertThat(sparc.perfEventOpen()).isEmpty();
        assertThat(sparc.mbind()).isEmpty();
        // -1: the kernel answers ENOSYS instead of running some other syscall
        assertThat(LinuxSyscallNumbers.orInvalid(sparc.setMempolicy())).isEqualTo(-1);
    }

    private static LinuxSyscallNumbers numbers(long gettid, long getcpu, long mbind, long setMempolicy, long getMempolicy, long perfEventOpen)
    {
        return new LinuxSyscallNumbers(OptionalLong.of(gettid), OptionalLong.of(getcpu), OptionalLong.of(mbind), OptionalLong.of(setMempolicy),
                OptionalLong.of(getMempolicy), OptionalLong.of(perfEventOpen));
    }
}
