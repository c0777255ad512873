package io.chiplet.nativeio;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Reads many small files under one directory with {@code openat(2)} relative to it, {@code read(2)} and
 * {@code close(2)}, nothing else (see the FFM implementation for why). Only the FFM path offers it, and only where
 * this module may make native calls; elsewhere {@link #open} is empty and callers read through java.nio.
 *
 * <p>An instance is confined to the thread that opened it and must be closed.
 */
public interface DirectoryReader
        extends AutoCloseable
{
    /**
     * Opens {@code directory}; empty where native calls are not available here, or the directory cannot be opened
     * (or its name is not plain ASCII), so that the caller reads through java.nio, which reports such problems.
     */
    static Optional<DirectoryReader> open(Path directory)
    {
        if (NativeAccess.path().kind() != NativePath.Kind.FFM) {
            return Optional.empty();
        }
        try {
            Class<?> implementation = Class.forName("io.chiplet.nativeio.FfmDirectoryReader", true, DirectoryReader.class.getClassLoader());
            @SuppressWarnings("unchecked")
            Optional<DirectoryReader> reader = (Optional<DirectoryReader>) implementation.getMethod("open", Path.class).invoke(null, directory);
            return reader;
        }
        catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return Optional.empty();
        }
    }

    /**
     * Whether {@link #read} takes {@code relative}: a plain relative path of printable ASCII, no empty component, not
     * ending in {@code /}. java.nio would normalise anything else ({@code a//b}, a trailing slash) before the kernel saw
     * it, so such names are left to java.nio to give the same answer.
     */
    static boolean accepts(String relative)
    {
        if (relative.isEmpty() || relative.charAt(0) == '/' || relative.charAt(relative.length() - 1) == '/' || relative.contains("//")) {
            return false;
        }
        for (int i = 0; i < relative.length(); i++) {
            char c = relative.charAt(i);
            if (c < ' ' || c > '~') {
                return false;
            }
        }
        return true;
    }

    /**
     * The whole content of {@code relative}, a path under this directory that {@link #accepts}; empty when it does
     * not exist ({@code ENOENT}).
     *
     * @param attribute the file is a sysfs attribute: the kernel hands it over whole in the first {@code read}
     * @throws NativeCallException for any other failure (a directory, no permission), naming the call and errno
     */
    Optional<byte[]> read(String relative, boolean attribute);

    @Override
    void close();
}
