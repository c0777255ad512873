package io.chiplet.perf;

import java.lang.invoke.MethodHandles;
import io.chiplet.nativeio.NativeAccess;
import io.chiplet.nativeio.NativePath;

/** The perf_event syscall family as one native path implements it; {@link PerfEventSyscalls} is the entry point. */
interface PerfEventCalls
{
    int perfEventOpen(PerfEventAttr attr, int pid, int cpu, int groupFd);

    void ioctl(int fd, long request, long argument);

    long read(int fd, long[] values);

    void close(int fd);

    /** The implementation for {@code path}, whatever path this JVM chose. */
    static PerfEventCalls forPath(NativePath path)
    {
        return NativeAccess.implementation(path, MethodHandles.lookup(), PerfEventCalls.class, "io.chiplet.perf.FfmPerfEventCalls", JnaPerfEventCalls::new);
    }
}
