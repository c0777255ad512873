package io.chiplet.nativeio;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.util.Objects.requireNonNull;

/**
 * The file syscall family, for reading many small files: one directory is opened once, and each file under it is
 * then read with {@code openat(2)} relative to that directory, {@code read(2)} and {@code close(2)}, nothing else.
 *
 * <p>Topology discovery reads several hundred sysfs attributes of a few bytes each. On a VM the three system calls
 * cost about 3.5 µs per file; java.nio adds about 1.5 µs of its own (a channel object, a cleaner registration,
 * interruptible-I/O bookkeeping, a path object) and makes the kernel walk every path from the root. Opening
 * relative to the CPU directory and skipping that bookkeeping takes a quarter off a discovery.
 *
 * <p>An instance is confined to the thread that opened it (its buffers live in a confined arena) and must be closed.
 * It is available only on Linux where this module may make native calls ({@code --enable-native-access}): without
 * that permission the JVM would print a warning on the first call, so callers read through java.nio instead.
 */
public final class FfmDirectoryReader
        implements DirectoryReader
{
    // open(2) flags, the same on x86-64 and aarch64; O_DIRECTORY is not (and openat on a file fails with ENOTDIR anyway)
    private static final int O_RDONLY = 0;
    private static final int O_CLOEXEC = 0x80000;
    private static final int AT_FDCWD = -100;

    private static final int INITIAL_BUFFER_BYTES = 4096;

    private static final boolean AVAILABLE = NativeAccess.isLinux() && FfmDirectoryReader.class.getModule().isNativeAccessEnabled();

    private final String directory;
    private final Arena arena;
    private final MemorySegment callState;
    private final int directoryFd;
    private MemorySegment path;
    private MemorySegment buffer;

    private FfmDirectoryReader(String directory, Arena arena, MemorySegment callState, int directoryFd)
    {
        this.directory = directory;
        this.arena = arena;
        this.callState = callState;
        this.directoryFd = directoryFd;
        this.path = arena.allocate(256);
        this.buffer = arena.allocate(INITIAL_BUFFER_BYTES);
    }

    /**
     * Opens {@code directory}; empty where native calls are not available here, or the directory cannot be opened
     * (or its name is not plain ASCII), so that the caller reads through java.nio, which reports such problems.
     */
    public static Optional<DirectoryReader> open(Path directory)
    {
        requireNonNull(directory, "directory is null");
        String name = directory.toString();
        if (!AVAILABLE || !isPlainAscii(name)) {
            return Optional.empty();
        }
        Arena arena = Arena.ofConfined();
        try {
            MemorySegment callState = Downcalls.allocateCallState(arena);
            int fd = (int) Calls.OPENAT.invokeExact(callState, AT_FDCWD, arena.allocateFrom(name), O_RDONLY | O_CLOEXEC, 0);
            if (fd >= 0) {
                return Optional.of(new FfmDirectoryReader(name, arena, callState, fd));
            }
        }
        catch (Throwable t) {
            arena.close();
            throw rethrow(t);
        }
        arena.close();
        return Optional.empty();
    }

    private static boolean isPlainAscii(String text)
    {
        return text.chars().allMatch(c -> c >= ' ' && c <= '~');
    }

    /**
     * The whole content of {@code relative}, a path under this directory that {@link DirectoryReader#accepts}; empty when it does
     * not exist ({@code ENOENT}).
     *
     * @param attribute the file is a sysfs attribute: the kernel hands it over whole, newline included, in the first
     *         {@code read}, so a read that ends in a newline without filling the buffer is taken as the end and the
     *         {@code read} that would only report end-of-file is skipped
     * @throws NativeCallException for any other failure (a directory, no permission), naming the call and errno
     */
    @Override
    public Optional<byte[]> read(String relative, boolean attribute)
    {
        if (relative.isEmpty() || relative.charAt(0) == '/' || relative.charAt(relative.length() - 1) == '/' || relative.contains("//")) {
            throw new IllegalArgumentException("not a plain relative path: " + relative);
        }
        try {
            int fd = (int) Calls.OPENAT.invokeExact(callState, directoryFd, pathSegment(relative), O_RDONLY | O_CLOEXEC, 0);
            if (fd < 0) {
                int errno = Downcalls.errno(callState);
                if (errno == Errno.ENOENT) {
                    return Optional.empty();
                }
                throw new NativeCallException("openat", new Object[] {directory, relative}, errno);
            }
            try {
                return Optional.of(readAll(fd, relative, attribute));
            }
            finally {
                int closed = (int) Calls.CLOSE.invokeExact(callState, fd);
            }
        }
        catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private byte[] readAll(int fd, String relative, boolean attribute)
            throws Throwable
    {
        long length = 0;
        while (true) {
            if (length == buffer.byteSize()) {
                MemorySegment larger = arena.allocate(buffer.byteSize() * 2);
                larger.copyFrom(buffer);
                buffer = larger;
            }
            long read = (long) Calls.READ.invokeExact(callState, fd, buffer.asSlice(length), buffer.byteSize() - length);
            if (read < 0) {
                int errno = Downcalls.errno(callState);
                if (errno == Errno.EINTR) {
                    continue;
                }
                throw new NativeCallException("read", new Object[] {directory + "/" + relative}, errno);
            }
            if (read == 0) {
                break;
            }
            length += read;
            if (attribute && length < buffer.byteSize() && buffer.get(JAVA_BYTE, length - 1) == '\n') {
                break;
            }
        }
        return buffer.asSlice(0, length).toArray(JAVA_BYTE);
    }

    /** {@code relative} as a NUL-terminated string in the reused path buffer, checked to be plain ASCII on the way. */
    private MemorySegment pathSegment(String relative)
    {
        int length = relative.length();
        if (length + 1 > path.byteSize()) {
            path = arena.allocate(Math.max(length + 1, path.byteSize() * 2));
        }
        for (int i = 0; i < length; i++) {
            char c = relative.charAt(i);
            if (c < ' ' || c > '~') {
                throw new IllegalArgumentException("not a plain relative path: " + relative);
            }
            path.set(JAVA_BYTE, i, (byte) c);
        }
        path.set(JAVA_BYTE, length, (byte) 0);
        return path;
    }

    @Override
    public void close()
    {
        try {
            int closed = (int) Calls.CLOSE.invokeExact(callState, directoryFd);
        }
        catch (Throwable t) {
            throw rethrow(t);
        }
        finally {
            arena.close();
        }
    }


    private static RuntimeException rethrow(Throwable t)
    {
        if (t instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (t instanceof Error error) {
            throw error;
        }
        throw new IllegalStateException("unexpected checked exception from a downcall", t);
    }

    /** The downcalls, linked when first used, which {@link #open} lets happen only where native calls are allowed. */
    private static final class Calls
    {
        // openat is variadic (a mode follows the flags, read only when a file is created): passed as 0
        static final MethodHandle OPENAT = Downcalls.variadicDowncallWithErrno(
                "openat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), 3);
        static final MethodHandle READ = Downcalls.downcallWithErrno(
                "read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
        static final MethodHandle CLOSE = Downcalls.downcallWithErrno(
                "close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    }
}
