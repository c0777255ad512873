package io.chiplet.perf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The calling thread's Linux thread id for tests, read from procfs so the tests do not depend on the binding API. */
public final class TestThreads
{
    private TestThreads() {}

    public static int currentTid()
    {
        try {
            // /proc/thread-self links to <pid>/task/<tid>
            return Integer.parseInt(Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString());
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
