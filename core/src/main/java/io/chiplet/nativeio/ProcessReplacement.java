package io.chiplet.nativeio;


import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Replaces this JVM with a program, as {@code numactl} and {@code taskset} do after setting the policy: only the
 * descriptors the program should have survive (0, 1, 2 and the named files), its signal mask is empty, buffered
 * output is flushed first. The caller's thread affinity and memory policy carry over.
 */
public final class ProcessReplacement
{
    private static final Path OWN_DESCRIPTORS = Path.of("/proc/self/fd");

    private ProcessReplacement() {}

    /**
     * Runs {@code command} in place of this process, keeping open the descriptors of the files in {@code keepOpen}
     * (lease lock files, whose locks the program then holds). Returns only when {@code execvp} fails, with its errno;
     * the JVM is then still whole and may report it.
     */
    public static int replaceWith(List<String> command, List<Path> keepOpen)
    {
        // /proc/self/fd links name real paths: compare real paths (a lease directory under a symlinked /tmp).
        Set<Path> kept = keepOpen.stream().map(ProcessReplacement::realPath).collect(Collectors.toSet());
        for (int fd : openDescriptors()) {
            if (fd <= 2) {
                continue;
            }
            Path target = target(fd);
            try {
                ExecSyscalls.setCloseOnExec(fd, target == null || !kept.contains(target));
            }
            catch (NativeCallException e) {
                // Closed since the listing (the listing's own descriptor among them): nothing to keep or close.
            }
        }
        System.out.flush();
        System.err.flush();
        ExecSyscalls.unblockAllSignals();
        return ExecSyscalls.execvp(command);
    }

    private static Path realPath(Path path)
    {
        try {
            return path.toRealPath();
        }
        catch (IOException e) {
            return path.toAbsolutePath().normalize();
        }
    }

    private static List<Integer> openDescriptors()
    {
        List<Integer> fds = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(OWN_DESCRIPTORS)) {
            for (Path entry : entries) {
                fds.add(Integer.parseInt(entry.getFileName().toString()));
            }
        }
        catch (IOException e) {
            throw new IllegalStateException("cannot list this process's open files in " + OWN_DESCRIPTORS + ": " + e.getMessage(), e);
        }
        return fds;
    }

    private static Path target(int fd)
    {
        try {
            return Files.readSymbolicLink(OWN_DESCRIPTORS.resolve(Integer.toString(fd)));
        }
        catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }
}
